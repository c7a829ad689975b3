import { expect, it } from "vitest";
import { evaluateContract, evaluateStart } from "../../evidence/judge.js";
import type { FaultContract } from "../../catalog/failure-schema.js";
import type { LoadError, TestResult } from "../../evidence/schema.js";

const contract: FaultContract = {
  id: "stale-approval",
  faultFile: "forge/tools/approval.ts",
  targetTest: "binds the approval to the plan digest",
  expectedFailure: "expected true to be false",
  alsoFailing: ["may fail too"],
  diagnosis: ["one", "two"],
  fixPrinciple: "compare both",
};

const passed = (name: string): TestResult => ({ name, file: "a.test.ts", status: "passed", durationMs: 1, failure: null });
const failed = (name: string, message: string, kind: "assertion" | "error" = "assertion"): TestResult => ({
  name,
  file: "a.test.ts",
  status: "failed",
  durationMs: 1,
  failure: { kind, message },
});

it("calls a fault reproduced when only its target test fails, by an assertion, with the expected message", () => {
  const result = evaluateContract(contract, [failed(contract.targetTest, "expected true to be false"), passed("other")], []);
  expect(result).toMatchObject({ targetFailedByAssertion: true, messageMatched: true, unexpectedFailures: [], reproduced: true });
});

it("allows the tests the contract lists as also failing, and nothing else", () => {
  const tests = [failed(contract.targetTest, "expected true to be false"), failed("may fail too", "x"), failed("other", "boom")];
  const result = evaluateContract(contract, tests, []);
  expect(result.unexpectedFailures).toEqual(["other (failed)"]);
  expect(result.reproduced).toBe(false);
});

it("does not call a fault reproduced when the target test passes, errors, or fails with another message", () => {
  expect(evaluateContract(contract, [passed(contract.targetTest)], []).reproduced).toBe(false);
  const errored = evaluateContract(contract, [failed(contract.targetTest, "expected true to be false", "error")], []);
  expect(errored).toMatchObject({ targetFailedByAssertion: false, reproduced: false });
  const other = evaluateContract(contract, [failed(contract.targetTest, "expected 1 to be 2")], []);
  expect(other).toMatchObject({ targetFailedByAssertion: true, messageMatched: false, reproduced: false });
});

it("does not call a fault reproduced when a test file failed to load or the target test is missing", () => {
  const loadError: LoadError = { file: "b.test.ts", message: "SyntaxError", missingModule: null };
  const result = evaluateContract(contract, [failed(contract.targetTest, "expected true to be false")], [loadError]);
  expect(result.unexpectedFailures).toEqual(["b.test.ts did not load: SyntaxError"]);
  expect(evaluateContract(contract, [passed("other")], []).unexpectedFailures).toContain(
    "binds the approval to the plan digest (not found among the stage's tests)",
  );
});

it("accepts a starting point only when every test file stops at one of the stage's own missing modules", () => {
  const missing = (file: string, module: string | null): LoadError => ({ file, message: "…", missingModule: module });
  const files = ["a.test.ts", "b.test.ts"];
  expect(evaluateStart(["approval"], files, [], [missing("a.test.ts", "approval"), missing("b.test.ts", "approval")])).toMatchObject({
    failsForMissingModule: true,
  });
  // Another module missing means the earlier stages' layers are broken, not that this stage is unstarted.
  expect(evaluateStart(["approval"], files, [], [missing("a.test.ts", "plans"), missing("b.test.ts", "approval")]).reason).toMatch(
    /a.test.ts failed for another reason/,
  );
  expect(evaluateStart(["approval"], files, [], [missing("a.test.ts", "approval")]).reason).toBe(
    "b.test.ts loaded without the stage's module",
  );
  expect(evaluateStart(["approval"], files, [passed("x")], []).failsForMissingModule).toBe(false);
});
