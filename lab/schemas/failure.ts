// failure.json: the fault contract of a stage. `verify` proves it on every run.
import { z } from "zod";
import { STAGE_ID } from "./stage.js";

const text = z.string().trim().min(1, "must not be empty");

export const failureSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a kebab-case fault id"),
    stage: z.string().regex(STAGE_ID, "must be a stage id such as stage-01-capability-registry"),
    faultFile: z
      .string()
      .regex(/^forge\/tools\/[a-z][a-z0-9-]*\.ts$/, "must be a module path such as forge/tools/registry.ts"),
    targetTest: text.describe("the exact name of the test that must catch the fault"),
    expectedFailure: text
      .refine(isRegExp, "must be a valid regular expression")
      .describe("a regular expression the target test's failure message must match"),
    alsoFailing: z.array(text).describe("other tests allowed to fail; normally empty"),
    diagnosis: z.array(text).min(2, "must have at least 2 ordered diagnosis steps"),
    fixPrinciple: text,
    command: text,
  })
  .strict();

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export type FaultContract = z.infer<typeof failureSchema>;
