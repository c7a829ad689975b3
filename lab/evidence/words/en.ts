// The self-check's verdicts in English: what a verification.json proves, in words a learner
// understands. The self-check (lab/evidence/selfcheck.ts) is given one edition's table; the site shows
// them, and the class report keeps the English ones. Data stays as it is: paths, commands, test names.
import { TARGET_DESCRIPTIONS, type Target } from "../../trees/targets.js";

const quoteList = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

export const VERDICTS = {
  tooLarge: (megabytes: string) => `This file is ${megabytes} MB; a verification file is a few kilobytes, so it was not read.`,
  notJson: (reason: string) => `This file is not JSON (${reason}). Pick the verification.json a test run wrote.`,
  notObject: "This file is JSON but not a verification file: it holds no object.",
  noSchemaVersion: "This file has no schemaVersion: it is not a Forge Lab verification file.",
  otherVersion: (version: string, readable: readonly number[]) =>
    `This file has schema version ${version}; this site reads versions ${readable.join(" and ")}. Rerun the tests with this version of the lab.`,
  wholeFile: "(file)",
  issues: (shown: readonly string[], more: number) => `${shown.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`,
  schemaMismatch: (issues: string) => `This file does not match the verification schema: ${issues}.`,
  unknownStage: (stage: string) => `This file is for "${stage}", which is not a stage of this course.`,
  otherExperiment: (named: string, stage: string, expected: string) =>
    `This file names experiment "${named}", but ${stage} is "${expected}".`,
  targets: TARGET_DESCRIPTIONS,
  notWorkspace: (description: string, target: Target, run: string) =>
    `This file comes from a run against ${description} (target "${target}"), not your workspace, so it does not count. Run ${run} on your own code and load the verification.json it writes.`,
  courseCode: (path: string, run: string) =>
    `This run tested ${path}, the course's own code, not your workspace, so it does not count. Run ${run} on your own code.`,
  copyKinds: { reference: "reference solution", faulty: "faulty module of the fault lab" },
  referenceCopy: (path: string, kind: string, run: string) =>
    `Reference copy — not counted: ${path} is the course's ${kind} byte for byte (line endings aside), as npm run lab -- start copies it, so passing it proves nothing about your work. Bring your own file back with npm run lab -- restore, or write your own, then run ${run} again.`,
  missingModules: (files: readonly string[]) =>
    `The run found no ${files.join(" or ")}: the stage's module was not written when the tests ran.`,
  acceptance: (acceptance: string) => `The run itself records its acceptance as "${acceptance}", not "passed".`,
  duplicates: (names: readonly string[]) =>
    `The file lists ${quoteList(names)} more than once; a run records each test once, so the file was edited.`,
  countsDiffer: (counts: ReadonlyArray<{ key: string; claimed: number; actual: number }>) =>
    `The summary does not agree with the file's own lists (${counts.map(({ key, claimed, actual }) => `${key} ${claimed} where the lists give ${actual}`).join(", ")}), so the file was edited.`,
  unknownTests: (names: readonly string[], stage: string, nn: string) =>
    `The file lists ${names.length} test(s) that ${stage} does not have: ${quoteList(names)}. A renamed test or an older course version does not count: rerun npm test -- stage-${nn}.`,
  strayFiles: (stage: string, files: readonly string[]) => `The file names test files that ${stage} does not have: ${quoteList(files)}.`,
  missingTests: (names: readonly string[], total: number) =>
    `${names.length} of the stage's ${total} tests are missing from the file: ${quoteList(names)}.`,
  notPassedTests: (tests: ReadonlyArray<{ name: string; status: string }>) =>
    `${tests.length} test(s) did not pass: ${tests.map((test) => `"${test.name}" (${test.status})`).join(", ")}.`,
  loadErrors: (count: number, first: string) => `${count} test file(s) did not load: ${first}`,
  ciUrl: (url: string, runId: string, repository: string) =>
    `The CI run's URL ${url} is not the URL of run ${runId} of ${repository}, so the file was edited.`,
  ciCommit: (built: string, recorded: string) =>
    `The CI run built commit ${built} but the file records the checkout at ${recorded}, so the file was edited.`,
  /** What the verdict says of the runner a CI run names; nothing when the file does not know it. */
  runners: {
    "self-hosted": " on a self-hosted runner, which proves no more than a local run",
    "github-hosted": " on a GitHub-hosted runner",
    unknown: "",
  },
  ciClaim: (url: string, commit: string, runner: string) =>
    ` The file says GitHub Actions run ${url} wrote it, for commit ${commit}${runner}: a claim to check against that run's own artifact, not a proof by itself.`,
  passed: (total: number, stage: string, generatedAt: string) =>
    `Self-check passed: all ${total} tests of ${stage} passed in a run of your own workspace code (${generatedAt}).`,
  notPassed: (stage: string, problems: readonly string[]) => `Results read for ${stage}, not passed yet. ${problems.join(" ")}`,
  /** What a CI run's evidence proves and does not; the page and the class report say it. */
  ciEvidenceNote:
    "Evidence from a CI run names the GitHub Actions run that wrote it: its URL, repository and commit. That is a claim the file makes, not a proof — anyone can type it into a file. It proves the result when the file is the one that run uploaded: take it from the run's artifact yourself (the run page, or gh run download), and the result is what GitHub's own runner computed for that commit. It does not prove that the code is the learner's own work beyond what the self-check checks, and a self-hosted runner is a machine its owner controls, so its run proves no more than a local one.",
};

/** The self-check's words in one edition. */
export type VerdictWords = typeof VERDICTS;
