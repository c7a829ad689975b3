// The types of command-line.mjs, which is plain JavaScript so that `npm test`'s command can load it first.

/** Why `npm test` does not start vitest for a command line. */
export type CommandLineProblem =
  /** An option of `npm run lab -- test`, given to `npm test`, with the whole command line. */
  | { readonly kind: "labOption"; readonly option: string; readonly args: readonly string[] }
  /** A stage number that names no stage; the course's first and last, null in a checkout with none. */
  | { readonly kind: "noSuchStage"; readonly number: string; readonly first: string | null; readonly last: string | null }
  /** An option vitest does not know, with vitest's own message. */
  | { readonly kind: "unknownOption"; readonly message: string };

/** The words vitest should read, with each stage number made the stage's folder; or why there are none. */
export declare function learnerCommandLine(
  args: readonly string[],
  stageFolders: Iterable<string>,
): { readonly args: string[]; readonly problem?: undefined } | { readonly problem: CommandLineProblem; readonly args?: undefined };
