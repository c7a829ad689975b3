// stage.json: the structured parts of a lesson. The prose lives in the stage's README.md.
import { z } from "zod";

import { MODULE_NAME, STAGE_ID } from "./ids.js";

export { MODULE_NAME, STAGE_ID };

const text = z.string().trim().min(1, "must not be empty");
const testName = text.describe("the exact name of a test in this stage's *.test.ts files");

export const scenarioSchema = z.enum(["software-delivery", "office-research", "music-creation"]);

export const stageSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(STAGE_ID, "must look like stage-NN-some-slug"),
    title: text,
    summary: text.describe("one sentence: the capability this stage adds"),
    experimentId: text,
    scenario: text.describe("the input scenario of the experiment card"),
    modules: z
      .array(z.string().regex(MODULE_NAME, "must be a module name such as registry"))
      .min(1)
      .describe("the modules this stage adds under forge/tools/"),
    prediction: z.object({
      question: text,
      options: z.array(text).length(4, "must have exactly 4 options"),
      answer: z.number().int().min(0).max(3).describe("index of the right option"),
      why: text,
    }),
    hints: z.array(text).min(2, "must have at least 2 graded hints"),
    transfer: z.object({
      scenario: scenarioSchema,
      title: text,
      change: text.describe("what differs from the worked example"),
      task: text,
      criteria: z.array(text).min(1),
      tests: z.array(testName).min(1),
    }),
    design: z.object({
      question: text,
      rubric: z.array(text).min(2, "must list at least 2 things a strong answer contains"),
    }),
    mastery: z.array(testName).min(3, "must name at least 3 tests"),
  })
  .strict();

export type StageSpec = z.infer<typeof stageSchema>;
