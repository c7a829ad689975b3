// Parity between the English pages and their Chinese twins. A twin says the same thing in its own
// language, so what is not language must be identical: the sections (by the glossary's mapping), the
// generated blocks (fresh, in the twin's language), every code block byte for byte, the folds, the
// structured fields of stage.json and failure.json, and a link from each page to the other.
import { withLf } from "../core/files.js";
import type { Locale } from "../core/locale.js";
import { LOCALE_NAMES } from "../core/locale.js";
import { contractEditionProblems, glossProblems, specEditionProblems } from "../i18n/content.js";
import { lessonProblems, scanFolds, type LessonSources } from "./lesson.js";

const GENERATED_MARKER = /^<!-- (\/?)forge:[a-z]+ -->/;

/** The fenced code blocks of a page, fences included, outside its generated blocks, in order, each with its line. */
export function codeBlocks(markdown: string): Array<{ readonly line: number; readonly code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  let open: { line: number; fence: string; lines: string[] } | null = null;
  let generated = false;
  withLf(markdown)
    .split("\n")
    .forEach((line, index) => {
      if (open) {
        open.lines.push(line);
        if (line.trim() === open.fence) {
          blocks.push({ line: open.line, code: open.lines.join("\n") });
          open = null;
        }
        return;
      }
      const marker = GENERATED_MARKER.exec(line);
      if (marker) {
        generated = marker[1] !== "/";
        return;
      }
      const fence = /^\s*(```+|~~~+)/.exec(line)?.[1];
      if (fence && !generated) open = { line: index + 1, fence, lines: [line] };
    });
  return blocks;
}

/** Where the twin's code blocks differ from the English ones: each names the block and both lines. */
export function codeBlockProblems(english: string, twin: string): string[] {
  const source = codeBlocks(english);
  const copy = codeBlocks(twin);
  const problems: string[] = [];
  const count = Math.max(source.length, copy.length);
  for (let index = 0; index < count; index += 1) {
    const a = source[index];
    const b = copy[index];
    if (a && b && a.code === b.code) continue;
    if (!b) problems.push(`code block ${index + 1} (English line ${a?.line}) is missing`);
    else if (!a) problems.push(`code block ${index + 1} (line ${b.line}) has no English counterpart`);
    else {
      const lines = a.code.split("\n");
      const other = b.code.split("\n");
      const at = lines.findIndex((line, offset) => line !== other[offset]);
      const offset = at < 0 ? lines.length : at;
      problems.push(
        `code block ${index + 1} (line ${b.line}) differs from the English one (line ${a.line}) at its line ${offset + 1}: ${JSON.stringify(other[offset] ?? "(end)")} instead of ${JSON.stringify(lines[offset] ?? "(end)")}`,
      );
    }
    break;
  }
  return problems;
}

/** The line that leads from a page to its twin in `locale`. */
export function switchLine(target: string, locale: Locale): string {
  return `[${LOCALE_NAMES[locale]}](${target})`;
}

/** The link from a page to its twin must be on a line of its own. */
export function linkProblems(markdown: string, target: string, locale: Locale): string[] {
  const line = switchLine(target, locale);
  return withLf(markdown).split("\n").includes(line) ? [] : [`has no line "${line}" leading to its ${LOCALE_NAMES[locale]} twin`];
}

export interface TwinPage {
  /** The pages as they are. */
  readonly english: string;
  readonly twin: string;
  /** The two file names as each links to the other (`README.md`, `README.zh-CN.md`). */
  readonly englishName: string;
  readonly twinName: string;
  readonly locale: Locale;
}

/** Parity of any page and its twin: links both ways and identical code blocks. */
export function pageParityProblems(page: TwinPage): string[] {
  return [
    ...linkProblems(page.english, page.twinName, page.locale).map((problem) => `${page.englishName} ${problem}`),
    ...linkProblems(page.twin, page.englishName, "en").map((problem) => `${page.twinName} ${problem}`),
    ...codeBlockProblems(page.english, page.twin).map((problem) => `${page.twinName}: ${problem}`),
  ];
}

/**
 * Parity of a lesson and its twin: everything of `pageParityProblems`, the twin as complete a lesson in
 * its language as the English one (sections, fresh blocks, well-formed folds), as many folds, every
 * structured field present in both languages, and a gloss for each test the blocks list, none for a test
 * they do not.
 */
export function lessonParityProblems(page: TwinPage, sources: LessonSources): string[] {
  const locale = page.locale;
  const problems = pageParityProblems(page);
  problems.push(...lessonProblems(page.twin, { ...sources, locale }).map((problem) => `${page.twinName}: ${problem}`));
  const folds = scanFolds(page.english).folds.length;
  const twinFolds = scanFolds(page.twin, locale).folds.length;
  if (folds !== twinFolds) problems.push(`${page.twinName}: has ${twinFolds} fold(s), the English lesson ${folds}`);
  problems.push(...specEditionProblems(sources.spec, locale).map((problem) => `stage.json ${problem}`));
  const contracts = sources.stage.faults.flatMap((fault) => (fault.contract ? [fault.contract] : []));
  problems.push(...glossProblems(sources.spec, contracts, locale).map((problem) => `stage.json ${problem}`));
  for (const fault of sources.stage.faults) {
    if (!fault.contract) continue;
    const name = fault.isDefault ? "failure.json" : `faults/${fault.id}.json`;
    problems.push(...contractEditionProblems(fault.contract, locale).map((problem) => `${name} ${problem}`));
  }
  return problems;
}
