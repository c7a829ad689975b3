// The Chinese edition in parity with the English: each lesson, and the pages around the lessons.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { basename, dirname, join } from "node:path";
import { lessonParityProblems, pageParityProblems, type TwinPage } from "../../authoring/editions.js";
import { environmentInstructions, sourceCitations } from "../../authoring/lesson.js";
import { type Catalog, type Stage } from "../../catalog/catalog.js";
import { readFileState } from "../../core/files.js";
import { ROOT, layoutOf, localized, repoPath } from "../../core/layout.js";
import { TWIN_LOCALE } from "../../core/locale.js";
import { chineseTextOf, rejectedWordProblems } from "../../i18n/rejected.js";
import { committedSummary } from "../../mutation/stage.js";
import { type Check, fail, pass } from "../check.js";
import { learnerFacing } from "./spec.js";

/** A page's text, or why it cannot be read (missing, or not a regular file). */
export function readPage(file: string, root: string): { text: string } | { problem: string } {
  let state: ReturnType<typeof readFileState>;
  try {
    state = readFileState(file);
  } catch (error) {
    return { problem: `${repoPath(file, root)} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (state.kind === "missing") return { problem: `${repoPath(file, root)} is missing` };
  if (state.kind !== "file") return { problem: `${repoPath(file, root)} is ${state.what}, not a file` };
  return { text: Buffer.from(state.bytes).toString("utf8") };
}

/** Both pages of a pair, or what keeps them from being compared. */
export function readTwins(english: string, root: string): { page: TwinPage } | { problems: string[] } {
  const twin = localized(english, TWIN_LOCALE);
  const [a, b] = [readPage(english, root), readPage(twin, root)];
  if ("problem" in a || "problem" in b) return { problems: [a, b].flatMap((read) => ("problem" in read ? [read.problem] : [])) };
  return {
    page: { english: a.text, twin: b.text, englishName: basename(english), twinName: basename(twin), locale: TWIN_LOCALE },
  };
}

/**
 * The Chinese files beside the pages verify reads as twins: the site's front page and every words file of
 * the CLI, npm test, the generated blocks, the self-check and the site, and the Chinese names of what can
 * stand where a file belongs. Their words follow the glossary.
 */
export const CHINESE_WORD_FILES = [
  "site/overview.zh-CN.md",
  "lab/cli/words/zh-CN.ts",
  "lab/vitest/words/zh-CN.ts",
  "lab/authoring/words/zh-CN.ts",
  "lab/evidence/words/zh-CN.ts",
  "site/client/text/zh-CN.ts",
  "lab/i18n/file-kinds.ts",
] as const;

/** Each rejected word of a Chinese file, naming it from the root, or why it cannot be read. */
export function chineseWordProblems(file: string, root: string): string[] {
  const read = readPage(file, root);
  if ("problem" in read) return [read.problem];
  return rejectedWordProblems(repoPath(file, root), read.text, chineseTextOf(file));
}

/** The lesson's Chinese twin and the Chinese fields of stage.json and failure.json, in parity with the English. */
export function judgeTwin(stage: Stage): Check {
  const { spec, contract } = stage;
  if (!spec || !contract) return fail("not checked", ["stage.json or failure.json is missing or invalid"]);
  const read = readTwins(stage.readmePath, stage.root);
  if ("problems" in read) return fail("missing", read.problems);
  const problems = [
    ...lessonParityProblems(read.page, { stage, spec, contract, mutation: committedSummary(stage) }),
    ...learnerFacing(stage, localized(stage.readmePath, TWIN_LOCALE), read.page.twin).map((problem) =>
      problem.slice(repoPath(stage.dir, stage.root).length + 1),
    ),
  ];
  const where = repoPath(stage.dir, stage.root);
  const words = [
    ...rejectedWordProblems(repoPath(localized(stage.readmePath, TWIN_LOCALE), stage.root), read.page.twin, "markdown"),
    ...[stage.specPath, ...stage.faults.map((fault) => fault.contractPath)].flatMap((file) => chineseWordProblems(file, stage.root)),
  ];
  const all = [...[...new Set(problems)].map((problem) => `${where}/${problem}`), ...words];
  if (all.length === 0) return pass("in parity");
  return fail(problems.length === 0 ? "rejected words" : "differs", all);
}

/** The twins of the pages around the lessons: the course map, the workspace README and the repository README. */
export function judgeEditions(catalog: Catalog): Check {
  const layout = layoutOf(catalog.stages[0]?.root ?? ROOT);
  const problems = [layout.courseMap, layout.workspaceReadme, layout.readme].flatMap((english) => {
    const read = readTwins(english, layout.root);
    if ("problems" in read) return read.problems;
    const folder = repoPath(dirname(english), layout.root);
    const prefix = folder === "" ? "" : `${folder}/`;
    // The course map and the workspace README are read as lessons are: neither asks for a variable.
    const variables =
      english === layout.readme
        ? []
        : [
            ...environmentInstructions(read.page.english).map((problem) => `${read.page.englishName}: ${problem}`),
            ...environmentInstructions(read.page.twin).map((problem) => `${read.page.twinName}: ${problem}`),
          ];
    const citations = [
      ...sourceCitations(read.page.english).map((problem) => `${read.page.englishName}: ${problem}`),
      ...sourceCitations(read.page.twin).map((problem) => `${read.page.twinName}: ${problem}`),
    ];
    return [...pageParityProblems(read.page), ...variables, ...citations].map((problem) => `${prefix}${problem}`);
  });
  problems.push(
    ...[layout.courseMap, layout.workspaceReadme, layout.readme].flatMap((english) => {
      const twin = localized(english, TWIN_LOCALE);
      const read = readPage(twin, layout.root);
      return "problem" in read ? [] : rejectedWordProblems(repoPath(twin, layout.root), read.text, "markdown");
    }),
    ...CHINESE_WORD_FILES.map((file) => join(layout.root, file)).flatMap((file) => chineseWordProblems(file, layout.root)),
  );
  return problems.length === 0 ? pass("in parity") : fail(`${problems.length} difference(s)`, problems);
}
