// Runs one stage's tests in this process, quietly, and returns the results: for the CLI's fault demo
// and its check of a learner's repair. (`npm test` and `verify` run vitest with their own reporters.)
import { createVitest } from "vitest/node";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { ROOT, repoPath } from "../core/layout.js";
import { stageProject } from "./projects.js";
import { toLoadError, toTestResult } from "../evidence/reporter.js";
import type { LoadError, Target, TestResult } from "../evidence/schema.js";

export interface StageResults {
  readonly tests: readonly TestResult[];
  readonly loadErrors: readonly LoadError[];
}

export async function runStageTests(
  catalog: Catalog,
  stage: Stage,
  target: Target,
  custom: { layers: readonly string[]; name: string } | null = null,
): Promise<StageResults> {
  const silent = {}; // a reporter that reports nothing: the caller prints its own summary
  const vitest = await createVitest(
    "test",
    { watch: false, config: false, root: ROOT, reporters: [silent] },
    { test: { projects: [stageProject(catalog, stage, target, custom)] } },
  );
  try {
    await vitest.start();
    const modules = vitest.state.getTestModules();
    return {
      tests: modules.flatMap((module) => [...module.children.allTests()].map((test) => toTestResult(repoPath(module.moduleId), test))),
      loadErrors: modules.flatMap((module) => module.errors().map((error) => toLoadError(repoPath(module.moduleId), error))),
    };
  } finally {
    await vitest.close();
  }
}
