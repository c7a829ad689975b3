// A lesson README is prose written by hand plus generated blocks. The structured parts (quiz, hints,
// fault contract, transfer, rubric, mastery tests) have one source, stage.json or failure.json; the
// blocks render them into the README so it reads well on a code host, and `verify` fails when a block
// is stale. The site swaps the same blocks for interactive widgets.
import { experimentId, faultCommand, type Stage } from "../catalog/catalog.js";
import { SECTIONS, type Section } from "../catalog/sections.js";
import { BLOCK_WORDS } from "./words/index.js";
import { withLf } from "../core/files.js";
import { evidenceFolder } from "../core/layout.js";
import { OPTION_LETTERS } from "../catalog/names.js";
import type { FaultContract } from "../catalog/failure-schema.js";
import type { StageSpec } from "../catalog/stage-schema.js";
import { strengthSentence, type MutationSummary } from "../mutation/summary.js";
import { contractIn, specIn, testGloss } from "../i18n/content.js";
import { term } from "../i18n/glossary.js";
import type { Locale } from "../core/locale.js";

/** The twelve headings as a lesson in `locale` writes them: the glossary's words, one mapping for every stage. */
export function sectionTitles(locale: Locale): readonly string[] {
  return SECTIONS.map((section) => term(section, locale));
}

/** Each generated block and the section it belongs in. */
export const BLOCKS = {
  predict: "Predict",
  experiment: "Experiment card",
  order: "Guided practice",
  hints: "Guided practice",
  fault: "Fault lab",
  transfer: "Transfer challenge",
  design: "Design question",
  mastery: "Mastery evidence",
} as const satisfies Record<string, Section>;

export type BlockName = keyof typeof BLOCKS;
export const BLOCK_NAMES = Object.keys(BLOCKS) as BlockName[];

const SCENARIO_TERMS = {
  "software-delivery": "Software delivery",
  "office-research": "Office research",
  "music-creation": "Music creation",
} as const satisfies Record<StageSpec["transfer"]["scenario"], string>;

/** A transfer scenario's name in `locale`. */
export function scenarioLabel(scenario: StageSpec["transfer"]["scenario"], locale: Locale): string {
  return term(SCENARIO_TERMS[scenario], locale);
}

/** The H2 headings outside fenced code, in order. */
export function headings(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker) fence = fence === null ? marker : fence === marker ? null : fence;
    else if (fence === null && line.startsWith("## ")) found.push(line.slice(3).trim());
  }
  return found;
}

export function headingProblems(markdown: string, locale: Locale = "en"): string[] {
  const actual = headings(markdown);
  const expected = sectionTitles(locale);
  if (actual.length === expected.length && actual.every((heading, index) => heading === expected[index])) return [];
  const missing = expected.filter((heading) => !actual.includes(heading));
  const extra = actual.filter((heading) => !expected.includes(heading));
  const problems = [
    ...missing.map((heading) => `missing the section "## ${heading}"`),
    ...extra.map((heading) => `"## ${heading}" is not one of the twelve sections`),
  ];
  if (problems.length === 0) problems.push(`sections are out of order; expected: ${expected.join(" · ")}`);
  return problems;
}

function table(rows: readonly (readonly [string, string])[]): string {
  return ["| | |", "|---|---|", ...rows.map(([key, value]) => `| ${key} | ${value.replace(/\|/g, "\\|")} |`)].join("\n");
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

export interface LessonSources {
  readonly stage: Pick<Stage, "id" | "nn" | "slug" | "number" | "faults">;
  readonly spec: StageSpec;
  readonly contract: FaultContract;
  /** The committed mutation summary, when the stage has a valid one. */
  readonly mutation: MutationSummary | null;
  /** The edition the blocks are written in; English when not given. */
  readonly locale?: Locale;
}

/** A block in an edition whose text is missing (no "zh-CN" in stage.json or failure.json) cannot be written. */
export class MissingEdition extends Error {}

export function renderBlock(name: BlockName, sources: LessonSources): string {
  const locale = sources.locale ?? "en";
  const { stage, mutation } = sources;
  const spec = specIn(sources.spec, locale);
  const contract = contractIn(sources.contract, locale);
  if (!spec) throw new MissingEdition(`stage.json has no "${locale}" edition of its text fields`);
  if (!contract) throw new MissingEdition(`failure.json has no "${locale}" edition of diagnosis and fixPrinciple`);
  const words = BLOCK_WORDS[locale];
  const label = (english: Parameters<typeof term>[0]) => term(english, locale);
  const run = `npm test -- stage-${stage.nn}`;
  // Every test a block lists: the English name, and in another edition its gloss beside it.
  const test = (name: string) => words.test(name, testGloss(sources.spec, locale, name));
  const tests = (names: readonly string[], indent = "") => names.map((name) => `${indent}- ${test(name)}`).join("\n");
  switch (name) {
    case "predict": {
      const { question, options, answer, why } = spec.prediction;
      const list = options.map((option, index) => `- **${OPTION_LETTERS[index]}.** ${option}`).join("\n");
      return `**${question}**\n\n${list}\n\n${details(label("Answer"), `**${OPTION_LETTERS[answer]}.** ${why}`)}`;
    }
    case "experiment":
      return table([
        [label("Experiment id"), `\`${experimentId(stage)}\``],
        [label("Input scenario"), spec.scenario],
        [label("Evidence folder"), `\`${evidenceFolder(stage)}/\``],
        [label("Acceptance"), words.acceptance(run)],
        [label("Usually takes"), words.minutes(spec.effort.minutes)],
      ]);
    case "order":
      return spec.order
        ? `${words.order}\n\n${spec.order.map((step, index) => `${index + 1}. ${step.why}\n${tests(step.tests, "   ")}`).join("\n")}`
        : words.anyOrder(spec.mastery.length + spec.transfer.tests.length);
    case "hints":
      return spec.hints.map((hint, index) => details(words.hint(index + 1, spec.hints.length), hint)).join("\n\n");
    case "fault": {
      const rows: [string, string][] = [
        [label("Fault"), `\`${contract.id}\``],
        [label("Fault file"), `\`faulty/${stage.id}/${contract.id}.patch\``],
        [label("Target test"), test(contract.targetTest)],
        [label("Expected failure"), `\`/${contract.expectedFailure}/\``],
        [label("Also failing"), contract.alsoFailing.length === 0 ? words.none : contract.alsoFailing.map(test).join(words.testSeparator)],
      ];
      const steps = contract.diagnosis.map((step, index) => `${index + 1}. ${step}`).join("\n");
      const others = stage.faults.filter((fault) => !fault.isDefault);
      const more =
        others.length === 0
          ? ""
          : `\n\n${words.moreFaults(others.length, String(stage.number))}\n\n${others
              .map((fault) => `- \`${fault.id}\`${fault.contract ? words.caughtBy(test(fault.contract.targetTest)) : ""}`)
              .join("\n")}`;
      return `${table(rows)}\n\n${words.diagnosis}\n\n${steps}\n\n${words.fixPrinciple}${contract.fixPrinciple}\n\n\`\`\`sh\n${faultCommand(stage)}\n\`\`\`${more}`;
    }
    case "transfer": {
      const { scenario, title, change, task, criteria } = spec.transfer;
      const list = criteria.map((item) => `- ${item}`).join("\n");
      const names = tests(spec.transfer.tests);
      return `${words.scenario(title, scenarioLabel(scenario, locale))}\n\n${words.whatChanges}${change}\n\n${task}\n\n${words.doneWhen}\n\n${list}\n\n${words.testsThatCheck}\n\n${names}`;
    }
    case "design":
      return `**${spec.design.question}**\n\n${details(label("What a strong answer contains"), spec.design.rubric.map((item) => `- ${item}`).join("\n"))}`;
    case "mastery": {
      const names = tests(spec.mastery);
      const strength = mutation ? `\n\n${strengthSentence(mutation, stage.nn, locale)}` : "";
      return `${words.mastery}\n\n${names}\n\n\`\`\`sh\n${run}\n\`\`\`${strength}`;
    }
  }
}

// The markers around a generated block: the one definition the README writers and the site share.
const START = (name: string) => `<!-- forge:${name} -->`;
const END = (name: string) => `<!-- /forge:${name} -->`;

/** A whole generated block, markers included. */
export function blockPattern(name: string): RegExp {
  return new RegExp(`${START(name)}[\\s\\S]*?${END(name)}`);
}

/** The text with the block `name` holding `body`, or null when its markers are missing. */
export function fillBlock(text: string, name: string, body: string): string | null {
  const start = text.indexOf(START(name));
  const end = text.indexOf(END(name));
  if (start < 0 || end < start) return null;
  return `${text.slice(0, start)}${START(name)}\n${body}\n${text.slice(end)}`;
}

/** How a missing block is named in a problem. */
export function blockMarkers(name: string): string {
  return `${START(name)} … ${END(name)}`;
}

export interface BlockSync {
  readonly text: string;
  readonly problems: readonly string[];
}

/** Rewrites every generated block from its source; reports blocks that are missing or misplaced. */
export function syncBlocks(markdown: string, sources: LessonSources): BlockSync {
  const locale = sources.locale ?? "en";
  const sectionOf = (name: BlockName) => term(BLOCKS[name], locale);
  let text = markdown;
  const problems: string[] = [];
  for (const name of BLOCK_NAMES) {
    let body: string;
    try {
      body = renderBlock(name, sources);
    } catch (error) {
      if (!(error instanceof MissingEdition)) throw error;
      return { text: markdown, problems: [`its blocks cannot be written: ${error.message}`] };
    }
    const filled = fillBlock(text, name, body);
    if (filled === null) {
      problems.push(`missing the generated block ${blockMarkers(name)} in "## ${sectionOf(name)}"`);
      continue;
    }
    const section = headings(text.slice(0, text.indexOf(START(name)))).at(-1);
    if (section !== sectionOf(name))
      problems.push(`the block ${START(name)} belongs in "## ${sectionOf(name)}", not "## ${section ?? "(none)"}"`);
    text = filled;
  }
  return { text, problems };
}

/** What every fold's summary starts with, in each edition: on a code host it is all a closed fold shows. */
export const FOLD_SUMMARIES: Readonly<Record<Locale, string>> = {
  en: `${term("Open when stuck", "en")}: `,
  "zh-CN": `${term("Open when stuck", "zh-CN")}：`,
};

/** A part of a lesson the challenge path hides: a `<details>` block in the lesson's prose. */
export interface Fold {
  /** What the summary says is inside, after "Open when stuck: ". */
  readonly summary: string;
  /** The markdown between the summary and `</details>`. */
  readonly body: string;
  /** Where the fold starts and ends in the (LF) text: `<details>` up to the end of `</details>`. */
  readonly start: number;
  readonly end: number;
  /** The line of its `<details>`, from 1. */
  readonly line: number;
}

export interface FoldScan {
  readonly folds: readonly Fold[];
  readonly problems: readonly string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const foldSummaryLine = (locale: Locale) => new RegExp(`^<summary>${escapeRegExp(FOLD_SUMMARIES[locale])}(\\S.*)</summary>$`);
const GENERATED_MARKER = /^<!-- (\/?)forge:[a-z]+ -->/;
const FOLD_TAGS = /<\/?(?:details|summary)\b/i;

/**
 * The folds of a lesson, read line by line outside code fences and outside generated blocks (whose
 * own `<details>` are answers and hints, not challenge parts). A fold is written exactly as
 *
 *     <details>
 *     <summary>Open when stuck: what is inside</summary>
 *
 *     …markdown…
 *
 *     </details>
 *
 * and anything else that looks like one is a problem: the site and the code host would disagree on it.
 */
export function scanFolds(markdown: string, locale: Locale = "en"): FoldScan {
  const summaryLine = foldSummaryLine(locale);
  const text = withLf(markdown);
  const lines = text.split("\n");
  const folds: Fold[] = [];
  const problems: string[] = [];
  let offset = 0;
  let fence: string | null = null;
  let generated = false;
  let open: { line: number; start: number; summary: string; bodyStart: number } | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const lineNumber = index + 1;
    const lineStart = offset;
    offset += line.length + 1;
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker) {
      fence = fence === null ? marker : fence === marker ? null : fence;
      continue;
    }
    if (fence !== null) continue;
    const generatedMarker = GENERATED_MARKER.exec(line);
    if (generatedMarker) {
      if (open) problems.push(`line ${lineNumber}: a generated block inside the fold opened at line ${open.line}`);
      generated = generatedMarker[1] !== "/";
      continue;
    }
    if (generated) continue;
    if (line === "<details>") {
      if (open) {
        problems.push(`line ${lineNumber}: a <details> inside the fold opened at line ${open.line}`);
        continue;
      }
      const summary = summaryLine.exec(lines[index + 1] ?? "")?.[1];
      if (summary === undefined) {
        problems.push(
          `line ${lineNumber}: a <details> in the prose must be a fold, with <summary>${FOLD_SUMMARIES[locale]}…</summary> on the next line`,
        );
        continue;
      }
      if ((lines[index + 2] ?? "") !== "") problems.push(`line ${lineNumber + 2}: a fold's summary must be followed by a blank line`);
      const bodyStart = lineStart + line.length + 1 + (lines[index + 1]?.length ?? 0) + 1;
      open = { line: lineNumber, start: lineStart, summary, bodyStart };
      offset = bodyStart;
      index += 1;
      continue;
    }
    if (line === "</details>") {
      if (!open) {
        problems.push(`line ${lineNumber}: a </details> with no fold open`);
        continue;
      }
      if ((lines[index - 1] ?? "") !== "") problems.push(`line ${lineNumber}: a fold's </details> must follow a blank line`);
      const body = text.slice(open.bodyStart, lineStart).replace(/^\n+|\n+$/g, "");
      folds.push({ summary: open.summary, body, start: open.start, end: lineStart + line.length, line: open.line });
      open = null;
      continue;
    }
    if (open && line.startsWith("## "))
      problems.push(`line ${lineNumber}: the fold opened at line ${open.line} runs into a section heading`);
    // Inline code may name the tags; only raw ones are a problem.
    if (FOLD_TAGS.test(line.replace(/`[^`]*`/g, "")))
      problems.push(`line ${lineNumber}: <details> and <summary> go on lines of their own, exactly as the fold convention writes them`);
  }
  if (open) problems.push(`line ${open.line}: the fold opened here is never closed with </details>`);
  return { folds, problems };
}

/** Everything that keeps a lesson from being complete, as messages naming what to fix. */
export function lessonProblems(markdown: string, sources: LessonSources): string[] {
  // A lesson checked out with CRLF endings is the same lesson: blocks are compared line endings aside.
  const lf = withLf(markdown);
  const sync = syncBlocks(lf, sources);
  const stale = sync.problems.length === 0 && sync.text !== lf ? ["generated blocks are stale: run `npm run generate`"] : [];
  const locale = sources.locale ?? "en";
  return [...headingProblems(markdown, locale), ...sync.problems, ...stale, ...scanFolds(lf, locale).problems];
}

// The lab's own variables, and CI, set before a command or exported: what the course promises a learner
// never has to do (stages and targets are options of `npm run lab`, on every platform). FORGE_LANG is
// not one of them: the language follows the system's, and a lesson may say that FORGE_LANG overrides it.
const SETS_VARIABLE = /(?:^|[\s`(;&|])(?:export\s+|set\s+|\$env:)?(FORGE_(?!LANG\b)[A-Z_]+|CI)\s*=\s*\S/;

/** The lines of a lesson that tell a learner to set one of the lab's environment variables. */
export function environmentInstructions(markdown: string): string[] {
  return markdown.split("\n").flatMap((line, index) => {
    const found = SETS_VARIABLE.exec(line);
    return found
      ? [`line ${index + 1}: sets ${found[1]}; a lesson gives the npm run lab option instead (npm run lab -- test NN --target …)`]
      : [];
  });
}

// The documents a stage was designed from are not in the repository: a learner has the lesson, the tests
// and the site. A lesson that cites them ("seed 002's event", "the seed's platform", 种子文档) points at
// something the learner cannot read. A random generator's seed ("seeded", 固定种子) is another word.
const CITES_SOURCE = /\bseed\s+\d{3}\b|\bthe\s+seed(?:'s|s)\b|\bseed\s+documents?\b|种子文档/i;

/** The lines of a lesson or page that cite a source document the learner does not have. */
export function sourceCitations(markdown: string): string[] {
  return markdown.split("\n").flatMap((line, index) => {
    const found = CITES_SOURCE.exec(line);
    return found
      ? [`line ${index + 1}: cites "${found[0]}", a source document the learner does not have; say what it says, in the lesson's own words`]
      : [];
  });
}

// How long a stage takes has one home, `effort.minutes` in stage.json, which the experiment card shows.
// A lesson that says it again in its prose ("usually takes 180 to 300 minutes", 3 到 5 小时) must say
// the same span, or a learner reads two answers.
const SPAN = /(\d+(?:\.\d+)?)\s*(?:to|–|-|到|至)\s*(\d+(?:\.\d+)?)\s*(minutes?|hours?|分钟|个?小时)/gi;

/** The lines of a lesson whose span of minutes or hours is not the experiment card's `[shortest, longest]`. */
export function effortMismatches(markdown: string, [shortest, longest]: readonly [number, number]): string[] {
  return markdown.split("\n").flatMap((line, index) =>
    [...line.matchAll(SPAN)].flatMap(([said = "", from = "", to = "", unit = ""]) => {
      const perUnit = /minute|分钟/i.test(unit) ? 1 : 60;
      const same = Number(from) * perUnit === shortest && Number(to) * perUnit === longest;
      return same
        ? []
        : [`line ${index + 1}: says "${said}", but the experiment card says ${shortest}–${longest} minutes (stage.json effort.minutes)`];
    }),
  );
}
