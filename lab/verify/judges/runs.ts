// What a stage's runs prove: the reference passes, each fault is caught exactly as its contract says, and
// the starting point fails because the stage's module is missing.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { type Stage } from "../../catalog/catalog.js";
import type { FaultContract } from "../../catalog/failure-schema.js";
import { repoPath } from "../../core/layout.js";
import { evaluateContract, evaluateStart } from "../../evidence/judge.js";
import type { ContractResult, LoadError, TestResult, Verification } from "../../evidence/schema.js";
import { type StageProject } from "../../vitest/projects.js";
import { type Check, fail, pass } from "../check.js";
import { judgePatches } from "./patches.js";

/** A stage's tests run against one of its trees, and what the run proves. */
export interface StageRun extends StageProject {
  readonly verification: Verification;
}

export function judgeSolution(stage: Stage, run: StageRun | undefined): Check {
  if (!run) return fail("not run", ["the solution tree was not run"]);
  const { summary, tests, loadErrors } = run.verification;
  const label = `${summary.passed}/${summary.total}`;
  if (run.verification.acceptance === "passed") return pass(label);
  return fail(label, [
    ...tests
      .filter((test) => test.status !== "passed")
      .map((test) => `"${test.name}" ${test.status}: ${test.failure?.message ?? ""}`.trim()),
    ...loadErrors.map((error) => `${error.file} did not load: ${error.message}`),
    ...(summary.total === 0 && loadErrors.length === 0 ? [`no tests ran for ${stage.id}`] : []),
  ]);
}

/** Why a fault's run does not reproduce its contract; empty when it does. */
export function contractProblems(contract: FaultContract, result: ContractResult, target: TestResult | undefined): string[] {
  if (result.reproduced) return [];
  const problems: string[] = [];
  if (target?.status === "passed") problems.push(`"${contract.targetTest}" passed against the faulty tree: the fault is not caught`);
  else if (target?.failure && !result.targetFailedByAssertion) {
    problems.push(`"${contract.targetTest}" failed by an error, not an assertion: ${target.failure.message}`);
  } else if (target?.failure && !result.messageMatched) {
    problems.push(`"${contract.targetTest}" failed with "${target.failure.message}", which does not match /${contract.expectedFailure}/`);
  }
  problems.push(...result.unexpectedFailures.map((failure) => `unexpected failure: ${failure}`));
  return problems;
}

/** The results of a further fault's tree (it records no evidence, so verify evaluates its contract here). */
export interface FaultResults {
  readonly tests: readonly TestResult[];
  readonly loadErrors: readonly LoadError[];
}

/**
 * Every fault of the stage is caught exactly as its contract says: the default one by the `faulty`
 * target's run, each further one by the run of its own tree.
 */
export function judgeFault(stage: Stage, run: StageRun | undefined, further: ReadonlyMap<string, FaultResults> = new Map()): Check {
  if (!stage.contract) return fail("no contract", ["failure.json is missing or invalid"]);
  if (!run || !run.verification.contract) return fail("not run", ["the faulty tree was not run"]);
  const broken = judgePatches(stage);
  if (broken.length > 0) return fail("patch broken", broken);
  const several = stage.faults.length > 1;
  const problems: string[] = [];
  for (const fault of stage.faults) {
    const label = several ? `fault "${fault.id}": ` : "";
    if (!fault.contract) {
      problems.push(`${label}${repoPath(fault.contractPath, stage.root)} is missing or invalid`);
      continue;
    }
    const results = fault.isDefault ? run.verification : further.get(fault.id);
    if (!results) {
      problems.push(`${label}its faulty tree was not run`);
      continue;
    }
    const result =
      fault.isDefault && run.verification.contract
        ? run.verification.contract
        : evaluateContract(fault.contract, results.tests, results.loadErrors);
    const target = results.tests.find((test) => test.name === fault.contract?.targetTest);
    problems.push(...contractProblems(fault.contract, result, target).map((problem) => `${label}${problem}`));
  }
  if (problems.length === 0) return pass(several ? `${stage.faults.length} reproduced` : "reproduced");
  return fail("not reproduced", problems);
}

export function judgeStart(stage: Stage, run: StageRun | undefined): Check {
  if (!run) return fail("not run", ["the start tree was not run"]);
  const result = evaluateStart(
    stage.spec?.modules ?? [],
    stage.testFiles.map((file) => repoPath(file)),
    run.verification.tests,
    run.verification.loadErrors,
  );
  return result.failsForMissingModule ? pass("module missing") : fail("does not fail", [result.reason]);
}
