// stage.json: the structured parts of a lesson. The prose lives in the stage's README.md.
import * as z from "zod/mini";
import { MODULE_NAME, STAGE_ID } from "./names.js";
import { text } from "../core/zod.js";

export { MODULE_NAME, STAGE_ID };

const testName = () => text().check(z.describe("the exact name of a test in this stage's *.test.ts files"));

export const scenarioSchema = z.enum(["software-delivery", "office-research", "music-creation"]);

export const stageSchema = z.strictObject({
  $schema: z.optional(z.string()),
  title: text(),
  summary: text().check(z.describe("one sentence: the capability this stage adds")),
  scenario: text().check(z.describe("the input scenario of the experiment card")),
  modules: z
    .array(z.string().check(z.regex(MODULE_NAME, "must be a module name such as registry")))
    .check(z.minLength(1), z.describe("the modules this stage adds under forge/tools/")),
  prediction: z.object({
    question: text(),
    options: z.array(text()).check(z.length(4, "must have exactly 4 options")),
    answer: z.int().check(z.minimum(0), z.maximum(3), z.describe("index of the right option")),
    why: text(),
  }),
  hints: z.array(text()).check(z.minLength(2, "must have at least 2 graded hints")),
  transfer: z.object({
    scenario: scenarioSchema,
    title: text(),
    change: text().check(z.describe("what differs from the worked example")),
    task: text(),
    criteria: z.array(text()).check(z.minLength(1)),
    tests: z.array(testName()).check(z.minLength(1)),
  }),
  design: z.object({
    question: text(),
    rubric: z.array(text()).check(z.minLength(2, "must list at least 2 things a strong answer contains")),
  }),
  mastery: z.array(testName()).check(z.minLength(3, "must name at least 3 tests")),
});

export type StageSpec = z.infer<typeof stageSchema>;
