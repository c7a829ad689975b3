// `npm run test:site`: only the course site's tests (`verify` runs them too).
import { defineConfig } from "vitest/config";
import { siteProject } from "../../lab/vitest/projects.js";

export default defineConfig({ test: { projects: [siteProject()] } });
