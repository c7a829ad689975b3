// The committed mutation summary of a stage: fresh, and meeting the goal.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { type Stage } from "../../catalog/catalog.js";
import { judgeMutation } from "../../mutation/stage.js";
import { type Check, fail, pass } from "../check.js";

/**
 * The committed mutation summary: missing, stale or inconsistent fails, and so does a fresh one short of
 * the goal (below 90%, or with a survivor that neither a test kills nor a reason explains).
 */
export function judgeMutationSummary(stage: Stage): Check {
  const verdict = judgeMutation(stage);
  if (verdict.state === "broken") return fail(verdict.stale ? "stale" : "invalid", [verdict.problem]);
  const { score, unexplained } = verdict.summary;
  if (verdict.state === "met") return pass(`${score}%`);
  return fail(`${score}% (${unexplained.length} open)`, [verdict.problem]);
}
