// stage.json: the structured parts of a lesson. The prose lives in the stage's README.md.
import * as z from "zod/mini";
import { MODULE_NAME } from "./names.js";
import { text } from "../core/zod.js";

export { MODULE_NAME };

const testName = () => text().check(z.describe("the exact name of a test in this stage's *.test.ts files"));

export const scenarioSchema = z.enum(["software-delivery", "office-research", "music-creation"]);

// The text a learner reads, field by field. The English fields sit at the top level of stage.json; the
// Chinese edition repeats exactly these fields under "zh-CN", validated by the same schemas.
const predictionText = {
  question: text(),
  options: z.array(text()).check(z.length(4, "must have exactly 4 options")),
  why: text(),
};
const transferText = {
  title: text(),
  change: text().check(z.describe("what differs from the worked example")),
  task: text(),
  criteria: z.array(text()).check(z.minLength(1)),
};
const designText = {
  question: text(),
  rubric: z.array(text()).check(z.minLength(2, "must list at least 2 things a strong answer contains")),
};
const stageText = {
  title: text(),
  summary: text().check(z.describe("one sentence: the capability this stage adds")),
  scenario: text().check(z.describe("the input scenario of the experiment card")),
};
const hints = () => z.array(text()).check(z.minLength(2, "must have at least 2 graded hints"));
// Why a step of the suggested order comes where it does; the tests of each step are data, named once.
const orderWhy = { why: text().check(z.describe("why these tests come at this point of the order")) };
// A test keeps its English name in every edition (vitest prints it, a learner searches for it); the
// Chinese edition says beside it what the test proves.
const glosses = () =>
  z
    .record(testName(), text().check(z.describe("what the test proves, in one short sentence of this edition")))
    .check(z.describe("every test a lesson block lists, by its English name, with its gloss"));

/** The translatable text of stage.json, as its "zh-CN" edition holds it. */
export const stageTextSchema = z.strictObject({
  ...stageText,
  prediction: z.strictObject(predictionText),
  hints: hints(),
  transfer: z.strictObject(transferText),
  design: z.strictObject(designText),
  order: z.optional(z.array(z.strictObject(orderWhy))),
  tests: z.optional(glosses()),
});

export type StageText = z.infer<typeof stageTextSchema>;

export const stageSchema = z.strictObject({
  $schema: z.optional(z.string()),
  ...stageText,
  modules: z
    .array(z.string().check(z.regex(MODULE_NAME, "must be a module name such as registry")))
    .check(z.minLength(1), z.describe("the modules this stage adds under forge/tools/")),
  prediction: z.object({
    ...predictionText,
    answer: z.int().check(z.minimum(0), z.maximum(3), z.describe("index of the right option")),
  }),
  hints: hints(),
  transfer: z.object({
    scenario: scenarioSchema,
    ...transferText,
    tests: z.array(testName()).check(z.minLength(1)),
  }),
  design: z.object(designText),
  mastery: z.array(testName()).check(z.minLength(3, "must name at least 3 tests")),
  effort: z.strictObject({
    minutes: z
      .tuple([z.int().check(z.positive()), z.int().check(z.positive())])
      .check(z.describe("how long a learner usually takes: the shortest and the longest usual time, in minutes")),
  }),
  order: z.optional(
    z
      .array(z.strictObject({ tests: z.array(testName()).check(z.minLength(1)), ...orderWhy }))
      .check(z.minLength(2), z.describe("which tests to make green first, and why: required for a stage of 20 tests or more")),
  ),
  "zh-CN": z.optional(stageTextSchema.check(z.describe("the Simplified Chinese edition of the text fields above"))),
});

export type StageSpec = z.infer<typeof stageSchema>;
