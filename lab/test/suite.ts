// The lab engine's own tests, as `verify` and `npm run test:lab` run them.
import { ROOT } from "../core/layout.js";
import type { Suite } from "../vitest/projects.js";

export const labSuite: Suite = {
  label: "lab engine tests",
  project: { test: { name: "lab", root: ROOT, include: ["lab/test/**/*.test.ts"] } },
};
