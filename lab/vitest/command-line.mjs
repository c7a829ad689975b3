// What `npm test` makes of a learner's words before vitest reads them. Vitest takes every word that is
// not an option as a filter of file paths, so a stage named as the lab names it went wrong: `stage-1`
// ran stages 10 to 12, `4` every file with a 4 in its path, and `stage-13` printed every project's file
// patterns. Here a word that names a stage by its number becomes that stage's folder; a number that
// names no stage, and an option of the lab's own test command, are problems the command explains in the
// learner's language (lab/vitest/command-line-words.ts). Plain JavaScript, so that `npm test`'s command
// can load it first (lab/bin/test.mjs).

/** A stage by its number, as the lab accepts it: `stage-4`, `stage-04`, `4`, `04`. */
const STAGE_WORD = /^(?:stage-)?(\d{1,2})$/;

/** Vitest's options that take no value, so the word after one is a filter. */
const FLAGS = new Set(["--run", "--watch", "-w", "--update", "-u"]);

/** Options of `npm run lab -- test`, which vitest does not know. */
const LAB_OPTIONS = ["--target", "--previous"];

/** Whether the word before this one leaves it a filter: not the value of an option. */
function isFilterAfter(before) {
  return before === undefined || !before.startsWith("-") || before === "--" || before.includes("=") || FLAGS.has(before);
}

/**
 * The command line vitest should read, with each stage number replaced by the stage's folder (one of
 * `stageFolders`, such as `stage-04-approval-gate`), or the problem that leaves none.
 */
export function learnerCommandLine(args, stageFolders) {
  const labOption = args.map((arg) => arg.split("=", 1)[0] ?? "").find((name) => LAB_OPTIONS.includes(name));
  if (labOption !== undefined) return { problem: { kind: "labOption", option: labOption, args: [...args] } };
  const folders = [...stageFolders].filter((name) => /^stage-\d{2}-/.test(name)).sort();
  const words = [];
  for (const [index, arg] of args.entries()) {
    const match = isFilterAfter(args[index - 1]) ? STAGE_WORD.exec(arg) : null;
    if (match === null) {
      words.push(arg);
      continue;
    }
    const number = (match[1] ?? "").padStart(2, "0");
    const folder = folders.find((name) => name.startsWith(`stage-${number}-`));
    if (folder === undefined) {
      const numbers = folders.map((name) => name.slice(6, 8));
      return { problem: { kind: "noSuchStage", number, first: numbers[0] ?? null, last: numbers.at(-1) ?? null } };
    }
    words.push(folder);
  }
  return { args: words };
}
