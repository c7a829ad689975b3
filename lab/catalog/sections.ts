// The twelve sections of every lesson, in order: the anatomy a stage's README.md follows. The lesson
// checks, the generated blocks, the scaffold and the missing-module message all name sections from here.
export const SECTIONS = [
  "The problem",
  "Predict",
  "Concepts",
  "Experiment card",
  "Worked example",
  "Reference solution",
  "Guided practice",
  "Completion criteria",
  "Fault lab",
  "Transfer challenge",
  "Design question",
  "Mastery evidence",
] as const;

export type Section = (typeof SECTIONS)[number];
