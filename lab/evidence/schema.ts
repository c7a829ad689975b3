// verification.json: the evidence a stage run leaves behind. The lab writes it, the site reads it.
// Written with zod/mini and free of Node APIs: the site bundles this very module to validate files in
// the browser, and mini keeps that bundle small (its methods are tree-shakable functions).
import * as z from "zod/mini";
import { STAGE_ID } from "../catalog/names.js";
import "../core/zod.js"; // English error messages

export const VERIFICATION_SCHEMA_VERSION = 1;

export const TARGETS = ["workspace", "solution", "faulty", "start"] as const;
export const targetSchema = z.enum(TARGETS);
export type Target = z.infer<typeof targetSchema>;

/** What each tree is, in words for a learner: "a run against …". */
export const TARGET_DESCRIPTIONS: Readonly<Record<Target, string>> = {
  workspace: "your own code in workspace/",
  solution: "the reference solution",
  faulty: "the faulty tree of the fault lab",
  start: "the stage's starting point (the earlier stages' reference, without this stage's module)",
};

const text = z.string().check(z.minLength(1));
const count = z.int().check(z.nonnegative());
const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"));

export const testResultSchema = z.strictObject({
  name: text,
  file: text.check(z.describe("test file, relative to the repository root")),
  status: z.enum(["passed", "failed", "skipped"]),
  durationMs: z.number().check(z.nonnegative()),
  failure: z.nullable(
    z.strictObject({
      kind: z.enum(["assertion", "error"]).check(z.describe("assertion: an expect() did not hold; error: anything else")),
      message: z.string(),
    }),
  ),
});

export const loadErrorSchema = z.strictObject({
  file: text,
  message: z.string(),
  missingModule: z.nullable(z.string()).check(z.describe("the forge/tools module that does not exist in the target, if that is the cause")),
});

export const contractResultSchema = z.strictObject({
  faultId: z.string(),
  targetTest: z.string(),
  expectedFailure: z.string(),
  targetFailedByAssertion: z.boolean(),
  messageMatched: z.boolean(),
  unexpectedFailures: z.array(z.string()),
  reproduced: z.boolean().check(z.describe("the fault is caught exactly by its named test; this is not a fix")),
});

export const verificationSchema = z.strictObject({
  schemaVersion: z.literal(VERIFICATION_SCHEMA_VERSION),
  stage: z.string().check(z.regex(STAGE_ID, "must be a stage id such as stage-01-capability-registry")),
  experimentId: text,
  target: targetSchema,
  generatedAt: z.iso.datetime(),
  tools: z.strictObject({ node: z.string(), vitest: z.string(), forgeLab: z.string() }),
  git: z.nullable(z.strictObject({ commit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)), dirty: z.boolean() })),
  sources: z.array(z.strictObject({ path: text, sha256 })),
  tests: z.array(testResultSchema),
  loadErrors: z.array(loadErrorSchema),
  summary: z.strictObject({ total: count, passed: count, failed: count, skipped: count, loadErrors: count }),
  acceptance: z.enum(["passed", "failed", "pending"]),
  contract: z.nullable(contractResultSchema).check(z.describe("present for a faulty run")),
});

export type Verification = z.infer<typeof verificationSchema>;
export type TestResult = z.infer<typeof testResultSchema>;
export type LoadError = z.infer<typeof loadErrorSchema>;
export type ContractResult = z.infer<typeof contractResultSchema>;
