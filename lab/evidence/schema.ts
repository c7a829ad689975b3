// verification.json: the evidence a stage run leaves behind. The lab writes it, the site reads it.
// Written with zod/mini and free of Node APIs: the site bundles this very module to validate files in
// the browser, and mini keeps that bundle small (its methods are tree-shakable functions).
import * as z from "zod/mini";
import { TARGETS } from "../trees/targets.js";
import { STAGE_ID } from "../catalog/names.js";
import "../core/zod.js"; // English error messages
import { READABLE_SCHEMA_VERSIONS, VERIFICATION_SCHEMA_VERSION } from "./version.js";

export const targetSchema = z.enum(TARGETS);

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

/**
 * Where a run on GitHub Actions says it ran. Written only when GITHUB_ACTIONS is "true", from the variables
 * the runner sets; null for every other run. It is a claim the file makes, not a proof: anyone can type
 * it, so it proves nothing until the file is taken from that run's own artifact (see evidence/README.md).
 */
export const runSchema = z.strictObject({
  provider: z.literal("github-actions"),
  url: z
    .string()
    .check(
      z.regex(
        /^https:\/\/[^/\s]+\/[\w.-]+\/[\w.-]+\/actions\/runs\/\d+$/,
        "must be a run URL: https://<host>/<owner>/<repo>/actions/runs/<id>",
      ),
    ),
  repository: z.string().check(z.regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name")),
  runId: z.string().check(z.regex(/^\d+$/, "must be the run's number")),
  runAttempt: z.int().check(z.positive()),
  workflow: z.string(),
  event: z.string(),
  ref: z.string(),
  commit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash")),
  runner: z.strictObject({
    os: z.string(),
    arch: z.string(),
    name: z.string(),
    environment: z
      .enum(["github-hosted", "self-hosted", "unknown"])
      .check(z.describe("a self-hosted runner is a machine its owner controls: its run proves no more than a local one")),
  }),
});

const fields = {
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
};

/** Version 2, the one this lab writes: version 1 and the run on GitHub Actions that wrote the file, if any. */
export const verificationSchema = z.strictObject({
  schemaVersion: z.literal(VERIFICATION_SCHEMA_VERSION),
  ...fields,
  run: z.nullable(runSchema).check(z.describe("the GitHub Actions run that wrote this file; null for a run anywhere else")),
});

/** Version 1: everything but `run`. */
export const verificationSchemaV1 = z.strictObject({ schemaVersion: z.literal(1), ...fields });

export type Verification = z.infer<typeof verificationSchema>;
export type TestResult = z.infer<typeof testResultSchema>;
export type LoadError = z.infer<typeof loadErrorSchema>;
export type ContractResult = z.infer<typeof contractResultSchema>;
export type Run = z.infer<typeof runSchema>;

export type ReadResult =
  | { readonly ok: true; readonly verification: Verification; readonly version: (typeof READABLE_SCHEMA_VERSIONS)[number] }
  | { readonly ok: false; readonly issues: ReadonlyArray<{ readonly path: readonly PropertyKey[]; readonly message: string }> };

/**
 * Validates a parsed file of any version this lab reads, and migrates it to the current one: a version 1
 * file becomes version 2 with `run: null`, which is what it was (no version 1 run recorded one).
 */
export function readVerification(data: unknown): ReadResult {
  const version =
    typeof data === "object" && data !== null && Object.hasOwn(data, "schemaVersion")
      ? (data as { schemaVersion?: unknown }).schemaVersion
      : undefined;
  if (version === 1) {
    const parsed = verificationSchemaV1.safeParse(data);
    if (!parsed.success) return { ok: false, issues: parsed.error.issues };
    return { ok: true, version: 1, verification: { ...parsed.data, schemaVersion: VERIFICATION_SCHEMA_VERSION, run: null } };
  }
  const parsed = verificationSchema.safeParse(data);
  return parsed.success
    ? { ok: true, version: VERIFICATION_SCHEMA_VERSION, verification: parsed.data }
    : { ok: false, issues: parsed.error.issues };
}
