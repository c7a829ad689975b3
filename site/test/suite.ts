// The course site's tests, as `verify` and `npm run test:site` run them: the self-check logic, and the
// built site in a real Chromium.
import { ROOT } from "../../lab/core/layout.js";
import type { Suite } from "../../lab/vitest/projects.js";

export const siteSuite: Suite = {
  label: "course site tests (Chromium)",
  project: { test: { name: "site", root: ROOT, include: ["site/test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 } },
};
