// `npm run test:site`: only the course site's tests (`verify` runs them too).
import { defineConfig } from "vitest/config";
import { siteSuite } from "./suite.js";

export default defineConfig({ test: { projects: [siteSuite.project] } });
