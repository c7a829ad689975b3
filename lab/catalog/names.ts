// Naming rules shared by the schemas, the lessons and the site. No zod and no Node here: the site's
// browser code bundles this file.
export const STAGE_ID = /^stage-(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
export const MODULE_NAME = /^[a-z][a-z0-9-]*$/;

/** The letters of a prediction's four options, in the README, on the page and in its feedback. */
export const OPTION_LETTERS = ["A", "B", "C", "D"] as const;
