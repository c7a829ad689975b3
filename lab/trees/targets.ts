// The four trees whose runs leave evidence, and what each is in a learner's words. Pure data: the
// evidence schema (which the site bundles for the browser) and the trees both take it from here.
export const TARGETS = ["workspace", "solution", "faulty", "start"] as const;
export type Target = (typeof TARGETS)[number];

/** What each tree is, in words for a learner: "a run against …". */
export const TARGET_DESCRIPTIONS: Readonly<Record<Target, string>> = {
  workspace: "your own code in workspace/",
  solution: "the reference solution",
  faulty: "the faulty tree of the fault lab",
  start: "the stage's starting point (the earlier stages' reference, without this stage's module)",
};
