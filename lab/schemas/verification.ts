// verification.json: the evidence a stage run leaves behind. The lab writes it, the site reads it.
// This module must stay free of Node APIs: the site bundles it to validate files in the browser.
import { z } from "zod";
import { STAGE_ID } from "./stage.js";

export const VERIFICATION_SCHEMA_VERSION = 1;

export const TARGETS = ["workspace", "solution", "faulty", "start"] as const;
export const targetSchema = z.enum(TARGETS);
export type Target = z.infer<typeof targetSchema>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256");

export const testResultSchema = z
  .object({
    name: z.string().min(1),
    file: z.string().min(1).describe("test file, relative to the repository root"),
    status: z.enum(["passed", "failed", "skipped"]),
    durationMs: z.number().nonnegative(),
    failure: z
      .object({
        kind: z.enum(["assertion", "error"]).describe("assertion: an expect() did not hold; error: anything else"),
        message: z.string(),
      })
      .nullable(),
  })
  .strict();

export const loadErrorSchema = z
  .object({
    file: z.string().min(1),
    message: z.string(),
    missingModule: z.string().nullable().describe("the forge/tools module that does not exist in the target, if that is the cause"),
  })
  .strict();

export const contractResultSchema = z
  .object({
    faultId: z.string(),
    targetTest: z.string(),
    expectedFailure: z.string(),
    targetFailedByAssertion: z.boolean(),
    messageMatched: z.boolean(),
    unexpectedFailures: z.array(z.string()),
    reproduced: z.boolean().describe("the fault is caught exactly by its named test; this is not a fix"),
  })
  .strict();

export const verificationSchema = z
  .object({
    schemaVersion: z.literal(VERIFICATION_SCHEMA_VERSION),
    stage: z.string().regex(STAGE_ID),
    experimentId: z.string().min(1),
    target: targetSchema,
    generatedAt: z.iso.datetime(),
    tools: z
      .object({ node: z.string(), vitest: z.string(), forgeLab: z.string() })
      .strict(),
    git: z.object({ commit: z.string().regex(/^[0-9a-f]{40,64}$/), dirty: z.boolean() }).strict().nullable(),
    sources: z.array(z.object({ path: z.string().min(1), sha256 }).strict()),
    tests: z.array(testResultSchema),
    loadErrors: z.array(loadErrorSchema),
    summary: z
      .object({
        total: z.number().int().nonnegative(),
        passed: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
        skipped: z.number().int().nonnegative(),
        loadErrors: z.number().int().nonnegative(),
      })
      .strict(),
    acceptance: z.enum(["passed", "failed", "pending"]),
    contract: contractResultSchema.nullable().describe("present for a faulty run"),
  })
  .strict();

export type Verification = z.infer<typeof verificationSchema>;
export type TestResult = z.infer<typeof testResultSchema>;
export type LoadError = z.infer<typeof loadErrorSchema>;
export type ContractResult = z.infer<typeof contractResultSchema>;

/** The JSON Schema committed as evidence/verification.schema.json. */
export function verificationJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(verificationSchema, { target: "draft-2020-12", io: "output" }),
    title: "Forge Lab stage verification",
  };
}
