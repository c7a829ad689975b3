// `npm run test:site`: only the course site's tests (`verify` runs them too).
import { defineConfig } from "vitest/config";
import { siteProject } from "../../lab/projects.js";

export default defineConfig({ test: { projects: [siteProject()] } });
