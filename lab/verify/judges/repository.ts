// The repository's own checks: generated files fresh, tsc clean, the lab's and the site's suites green.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import type { TestModule } from "vitest/node";
import { repoPath } from "../../core/layout.js";
import { toTestResult } from "../../evidence/results.js";
import { type Diagnostic } from "../../vitest/typecheck.js";
import { type Check, fail, pass } from "../check.js";

export function judgeGenerated(stale: readonly string[], problems: readonly string[] = []): Check {
  if (stale.length === 0 && problems.length === 0) return pass("fresh");
  return fail(stale.length > 0 ? `${stale.length} stale` : "incomplete", [
    ...stale.map((file) => `${file} is not what npm run generate makes of the sources: run npm run generate`),
    ...problems,
  ]);
}

export function judgeTypecheck(diagnostics: readonly Diagnostic[]): Check {
  if (diagnostics.length === 0) return pass("no errors");
  return fail(
    `${diagnostics.length} error(s)`,
    diagnostics.map((d) => `${repoPath(d.file)}:${d.line}:${d.column} ${d.code}: ${d.message}`),
  );
}

/** A suite of the repository's own tests (the lab engine's, the site's): every test passed. */
export function judgeSuite(modules: readonly TestModule[]): Check {
  const results = modules.flatMap((module) => [...module.children.allTests()].map((test) => toTestResult(repoPath(module.moduleId), test)));
  const loadErrors = modules.flatMap((module) => module.errors().map((error) => `${repoPath(module.moduleId)}: ${error.message ?? ""}`));
  const failed = results.filter((test) => test.status !== "passed");
  const label = `${results.length - failed.length}/${results.length}`;
  if (modules.length === 0) return fail("not run", ["no tests were found"]);
  if (failed.length === 0 && loadErrors.length === 0) return pass(label);
  return fail(label, [
    ...failed.map((test) => `${test.file} › "${test.name}" ${test.status}: ${test.failure?.message ?? ""}`),
    ...loadErrors.map((error) => `did not load: ${error}`),
  ]);
}
