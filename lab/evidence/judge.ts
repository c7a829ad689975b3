// What a stage's results prove. Pure functions over test results, shared by the evidence reporter,
// `verify` and the instructor's fault demo, so all three judge a run the same way.
import type { FaultContract } from "../catalog/failure-schema.js";
import type { ContractResult, LoadError, TestResult } from "./schema.js";

/** Did the injected fault fail exactly the named test, by an assertion, with the documented message? */
export function evaluateContract(contract: FaultContract, tests: readonly TestResult[], loadErrors: readonly LoadError[]): ContractResult {
  const target = tests.find((test) => test.name === contract.targetTest);
  const failure = target?.status === "failed" ? target.failure : null;
  const targetFailedByAssertion = failure?.kind === "assertion";
  const messageMatched = failure ? new RegExp(contract.expectedFailure).test(failure.message) : false;
  const unexpectedFailures = [
    ...tests
      .filter((test) => test.status !== "passed" && test.name !== contract.targetTest && !contract.alsoFailing.includes(test.name))
      .map((test) => `${test.name} (${test.status})`),
    ...loadErrors.map((error) => `${error.file} did not load: ${error.message}`),
  ];
  if (!target) unexpectedFailures.push(`${contract.targetTest} (not found among the stage's tests)`);
  return {
    faultId: contract.id,
    targetTest: contract.targetTest,
    expectedFailure: contract.expectedFailure,
    targetFailedByAssertion,
    messageMatched,
    unexpectedFailures,
    reproduced: targetFailedByAssertion && messageMatched && unexpectedFailures.length === 0,
  };
}

export interface StartResult {
  /** Every test file failed to load because one of the stage's own modules is missing, and no test ran. */
  readonly failsForMissingModule: boolean;
  readonly reason: string;
}

/** A stage's starting point must fail, and for the intended reason: the module it adds is missing. */
export function evaluateStart(
  stageModules: readonly string[],
  testFiles: readonly string[],
  tests: readonly TestResult[],
  loadErrors: readonly LoadError[],
): StartResult {
  const ran = tests.filter((test) => test.status !== "skipped");
  if (ran.length > 0) {
    return { failsForMissingModule: false, reason: `${ran.length} test(s) ran although the stage's module is missing` };
  }
  for (const file of testFiles) {
    const error = loadErrors.find((candidate) => candidate.file === file);
    if (!error) return { failsForMissingModule: false, reason: `${file} loaded without the stage's module` };
    if (!error.missingModule || !stageModules.includes(error.missingModule)) {
      return { failsForMissingModule: false, reason: `${file} failed for another reason: ${error.message}` };
    }
  }
  return { failsForMissingModule: true, reason: `every test file stops at the missing module (${stageModules.join(", ")})` };
}
