// What `npm test` says to a learner in English: a module that cannot load, a type error, evidence that
// cannot be written, a target or a stage that does not exist, an option it does not know. The Chinese table beside it is typed by this one.
import type { NotAFile } from "../../core/files.js";

export const TEST_WORDS = {
  notWritten: (module: string, file: string) => `forge/tools/${module} is not written yet: create ${file}.`,
  notWrittenExplained: (module: string, file: string, lesson: string, section: string, earlier: string | null) =>
    `forge/tools/${module} is not written yet: create ${file} (explained in ${lesson}, section "${section}").${
      earlier ? ` It belongs to ${earlier}, an earlier stage.` : ""
    }`,
  notInTree: (module: string, tree: string, stage: string) => `forge/tools/${module} does not exist in the ${tree} tree of ${stage}.`,
  notAFile: (file: string, what: NotAFile) => `${file} is ${what}, not a file: move it away and write the module there.`,
  evidenceNotWritten: (file: string, reason: string) =>
    `the tests ran, but ${file} could not be written (${reason}): the self-check and lab status do not see this run.`,
  typeScript: (where: string, syntax: boolean, code: string, message: string, more: number) =>
    `${where} ${syntax ? "syntax" : "type"} error ${code}: ${message}${more > 0 ? ` (and ${more} more; fix this one first)` : ""}`,
  notATarget: (source: "FORGE_TARGET" | "--target", value: string, targets: readonly string[]) =>
    `${source}="${value}" is not a target. Use one of: ${targets.join(", ")} (workspace is the default).`,
  exportMissing: (file: string, names: string, importer: string) => `${file} does not export ${names}, which ${importer} imports.`,
  noSuchStage: (number: string, range: { readonly first: string; readonly last: string } | null) =>
    `there is no stage ${number}: ${range ? `the stages are ${range.first} to ${range.last}` : "this checkout has none"} (npm test -- stage-01).`,
  labOption: (option: string, command: string) => `${option} is an option of the lab's test command, not of vitest: ${command}`,
  unknownOption: (message: string) => `${message} (npm test passes its words to vitest; npx vitest --help lists its options).`,
};

export type TestWords = typeof TEST_WORDS;
