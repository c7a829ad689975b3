// The small vocabularies the CLI's words are written about: what a learner's workspace holds for a
// stage, why an option did not parse, how doctor marks a finding, and what a fault demo found. They
// live apart from the modules that produce them, so the words (lab/cli/words/) and those modules both
// import them and neither imports the other.

/** Where a stage stands in a learner's workspace, as `lab status` says. */
export type WorkspaceState = "not started" | "copied by start" | "in progress" | "failing" | "passed" | "changed since passing";

/** Why a command's options could not be parsed: which option, and what is wrong with it. */
export type OptionProblem = {
  readonly kind: "unknown" | "needs a value" | "takes no value";
  /** As it was typed: `--force`, `-x`. */
  readonly option: string;
};

/** What `lab fault` found wrong with a fault that was not reproduced. */
export type NotReproduced =
  | { readonly kind: "not by an assertion"; readonly test: string }
  | { readonly kind: "message"; readonly pattern: string }
  | { readonly kind: "unexpected"; readonly failure: string };

/** How doctor marks a finding: fine, worth knowing, or to fix before class. */
export type FindingMark = "ok" | "warning" | "problem";
