// `npm run test:lab`: only the lab engine's own tests (`verify` runs them too).
import { defineConfig } from "vitest/config";
import { labProject } from "../vitest/projects.js";

export default defineConfig({ test: { projects: [labProject()] } });
