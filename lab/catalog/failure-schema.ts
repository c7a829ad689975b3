// failure.json: the fault contract of a stage. `verify` proves it on every run.
import * as z from "zod/mini";
import { STAGE_ID } from "./names.js";
import { text } from "../core/zod.js";

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

// The text a learner reads; the Chinese edition repeats these fields under "zh-CN".
const faultText = {
  diagnosis: z.array(text()).check(z.minLength(2, "must have at least 2 ordered diagnosis steps")),
  fixPrinciple: text(),
};

/** The translatable text of a fault contract, as its "zh-CN" edition holds it. */
export const failureTextSchema = z.strictObject(faultText);

export type FaultText = z.infer<typeof failureTextSchema>;

export const failureSchema = z.strictObject({
  $schema: z.optional(z.string()),
  id: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a kebab-case fault id")),
  faultFile: z.string().check(z.regex(/^forge\/tools\/[a-z][a-z0-9-]*\.ts$/, "must be a module path such as forge/tools/registry.ts")),
  targetTest: text().check(z.describe("the exact name of the test that must catch the fault")),
  expectedFailure: text().check(
    z.refine(isRegExp, "must be a valid regular expression"),
    z.describe("a regular expression the target test's failure message must match"),
  ),
  alsoFailing: z.array(text()).check(z.describe("other tests allowed to fail; normally empty")),
  ...faultText,
  "zh-CN": z.optional(failureTextSchema.check(z.describe("the Simplified Chinese edition of diagnosis and fixPrinciple"))),
});

export type FaultContract = z.infer<typeof failureSchema>;
