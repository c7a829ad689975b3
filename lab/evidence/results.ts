// What vitest reports about a stage's test files, in the form evidence records: every test with its
// status and first failure, and every test file that did not load. Used by the evidence reporter, by
// verify and by the CLI's quiet runs, so all three read a run the same way.
import type { TestCase, TestModule, TestRunEndReason } from "vitest/node";
import { repoPath } from "../core/layout.js";
import { MISSING_MODULE_ERROR, MISSING_MODULE_FIELD } from "../vitest/resolver.js";
import type { LoadError, TestResult } from "./schema.js";

interface ErrorLike {
  readonly name?: string;
  readonly message?: string;
  readonly [MISSING_MODULE_FIELD]?: unknown;
}

export function toLoadError(file: string, error: ErrorLike): LoadError {
  const message = error.message ?? String(error);
  const named = error[MISSING_MODULE_FIELD];
  const missingModule = error.name === MISSING_MODULE_ERROR && typeof named === "string" ? named : null;
  return { file, message, missingModule };
}

export function toTestResult(file: string, test: TestCase): TestResult {
  const result = test.result();
  const status = result.state === "passed" ? "passed" : result.state === "failed" ? "failed" : "skipped";
  const error: ErrorLike | undefined = result.state === "failed" ? result.errors[0] : undefined;
  return {
    name: test.fullName,
    file,
    status,
    durationMs: Math.round((test.diagnostic()?.duration ?? 0) * 1000) / 1000,
    failure: error ? { kind: error.name === "AssertionError" ? "assertion" : "error", message: error.message ?? String(error) } : null,
  };
}

export interface Results {
  readonly tests: readonly TestResult[];
  readonly loadErrors: readonly LoadError[];
  /** False when the run was interrupted before every test file finished. */
  readonly complete: boolean;
}

/** The results of some test files (those of one project, say). */
export function resultsOf(modules: readonly TestModule[], reason: TestRunEndReason = "passed"): Results {
  const tests: TestResult[] = [];
  const loadErrors: LoadError[] = [];
  for (const module of modules) {
    const file = repoPath(module.moduleId);
    for (const test of module.children.allTests()) tests.push(toTestResult(file, test));
    for (const error of module.errors()) loadErrors.push(toLoadError(file, error));
  }
  const complete = reason !== "interrupted" && modules.every((module) => !["queued", "pending"].includes(module.state()));
  return { tests, loadErrors, complete };
}
