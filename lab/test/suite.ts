// The lab engine's own tests, as `verify` and `npm run test:lab` run them.
import { ROOT } from "../core/layout.js";
import type { Suite } from "../vitest/projects.js";

export const labSuite: Suite = {
  label: "lab engine tests",
  project: {
    test: {
      name: "lab",
      root: ROOT,
      include: ["lab/test/**/*.test.ts"],
      // Verify runs these beside every stage's runs and the browser tests: on a loaded machine a test that
      // takes a second alone can take ten. No test leans on vitest's 5 s default; the slow ones set their own.
      testTimeout: 30_000,
    },
  },
};
