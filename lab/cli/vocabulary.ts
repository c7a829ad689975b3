// The small vocabularies the CLI's words are written about: what a learner's workspace holds for a
// stage, why an option did not parse, how doctor marks a finding, and what a fault demo found. They
// live apart from the modules that produce them, so the words (lab/cli/words/) and those modules both
// import them and neither imports the other.

/** Where a stage stands in a learner's workspace, as `lab status` says. */
export type WorkspaceState = "not started" | "copied by start" | "in progress" | "failing" | "passed" | "changed since passing";

/** Why an option could not be parsed; `message` is Node's own (English) sentence. */
export type OptionProblem = {
  readonly kind: "unknown" | "needs a value" | "takes no value" | "other";
  readonly option: string | null;
  readonly message: string;
};

/** What `lab fault` found wrong with a fault that was not reproduced. */
export type NotReproduced =
  | { readonly kind: "not by an assertion"; readonly test: string }
  | { readonly kind: "message"; readonly pattern: string }
  | { readonly kind: "unexpected"; readonly failure: string };

/** How doctor marks a finding: fine, worth knowing, or to fix before class. */
export type FindingMark = "ok" | "warning" | "problem";
