// `npm run test:lab`: only the lab engine's own tests (`verify` runs them too).
import { defineConfig } from "vitest/config";
import { labSuite } from "./suite.js";

export default defineConfig({ test: { projects: [labSuite.project] } });
