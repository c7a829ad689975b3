// One term per concept in the Chinese edition: where a Chinese lesson, page, structured field or message
// uses a word the glossary rejects for a concept. What is not running Chinese text does not count: code
// blocks, inline code, the generated blocks (their sources are read on their own), an English quotation,
// a rejected word that is part of a longer accepted term (路径遍历 inside 真实路径遍历), and the English
// name in parentheses right after the accepted word, which a reader searches for (挂载命名空间（mount namespace）).
import { withLf } from "../core/files.js";
import { GLOSSARY, type Term } from "./glossary.js";

/** How a file holds its Chinese text: Markdown, the "zh-CN" edition of a JSON file, or a TypeScript words file. */
export type ChineseText = "markdown" | "json" | "source";

export interface RejectedUse {
  readonly line: number;
  readonly column: number;
  /** The word as it stands in the text. */
  readonly word: string;
  readonly term: Term;
}

const GENERATED_MARKER = /^<!-- (\/?)forge:[a-z]+ -->/;
const CJK = /[\u2e80-\u9fff\u3000-\u303f\uf900-\ufaff\uff00-\uffef]/u;
const LATIN_WORD = /[A-Za-z][A-Za-z'-]*/g;
/** A stretch of text with this many Latin words in it, and no Chinese, is an English quotation or a test's name. */
const ENGLISH_RUN_WORDS = 4;

const blank = (text: string) => text.replace(/[^\n]/g, " ");

/** Inline code spans (any number of backticks) blanked out, so the columns stay where they were. */
function withoutInlineCode(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])+?\1/g, blank);
}

/** Markdown's running text: fenced code, generated blocks and HTML comments blanked, then inline code. */
function markdownText(lines: readonly string[]): string[] {
  let fence: string | null = null;
  let generated = false;
  return lines.map((line) => {
    if (fence) {
      if (line.trim() === fence) fence = null;
      return "";
    }
    const marker = GENERATED_MARKER.exec(line);
    if (marker) {
      generated = marker[1] !== "/";
      return "";
    }
    if (generated) return "";
    const open = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (open) {
      fence = open;
      return "";
    }
    return withoutInlineCode(line.replace(/<!--.*?-->/g, blank));
  });
}

/** A JSON file's lines inside its "zh-CN" object (from its key to the brace that closes it); the rest blanked. */
function jsonText(lines: readonly string[]): string[] {
  let closing: string | null = null;
  return lines.map((line) => {
    if (closing !== null) {
      if (line === closing || line === `${closing},`) closing = null;
      return closing === null ? "" : withoutInlineCode(line);
    }
    const start = /^(\s*)"zh-CN": \{\s*$/.exec(line);
    if (start) closing = `${start[1]}}`;
    return "";
  });
}

/** The stretch around `from`..`to` with no Chinese in it: an English quotation when it holds enough words. */
function inEnglishRun(line: string, from: number, to: number): boolean {
  let start = from;
  while (start > 0 && !CJK.test(line[start - 1] ?? "")) start -= 1;
  let end = to;
  while (end < line.length && !CJK.test(line[end] ?? "")) end += 1;
  return (line.slice(start, end).match(LATIN_WORD)?.length ?? 0) >= ENGLISH_RUN_WORDS;
}

/** Whether the match at `at` lies inside an occurrence of a longer accepted word. */
function insideAccepted(line: string, at: number, word: string, accepted: readonly string[]): boolean {
  return accepted.some((longer) => {
    if (longer.length <= word.length) return false;
    for (let offset = longer.indexOf(word); offset >= 0; offset = longer.indexOf(word, offset + 1)) {
      if (line.startsWith(longer, at - offset)) return true;
    }
    return false;
  });
}

/** Whether the match at `at` is the English gloss in parentheses right after the term's own word: 挂载命名空间（mount namespace）. */
function glossOf(line: string, at: number, term: Term): boolean {
  const before = line.slice(0, at);
  return ["（", " (", "("].some((open) => before.endsWith(`${term["zh-CN"]}${open}`));
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern for a rejected word: English words match whole and in any case, Chinese ones anywhere. */
function patternOf(word: string): RegExp {
  const latin = /^[A-Za-z]/.test(word);
  const edge = (letter: boolean) => (letter ? "(?<![A-Za-z])" : "");
  const after = /[A-Za-z]$/.test(word) ? "(?![A-Za-z])" : "";
  return new RegExp(`${edge(latin)}${escape(word)}${after}`, latin ? "gi" : "g");
}

/** Every use of a rejected word in `text`, in order; overlapping finds keep the longest word. */
export function rejectedUses(text: string, kind: ChineseText, glossary: readonly Term[] = GLOSSARY): RejectedUse[] {
  const lines = withLf(text).split("\n");
  const running = kind === "markdown" ? markdownText(lines) : kind === "json" ? jsonText(lines) : lines;
  const accepted = glossary.map((entry) => entry["zh-CN"]);
  const rules = glossary.flatMap((entry) => (entry.rejected ?? []).map((word) => ({ word, pattern: patternOf(word), term: entry })));
  const uses: RejectedUse[] = [];
  running.forEach((line, index) => {
    const found: Array<{ at: number; word: string; term: Term }> = [];
    for (const rule of rules) {
      for (const match of line.matchAll(rule.pattern)) {
        const at = match.index ?? 0;
        if (insideAccepted(line, at, match[0], accepted)) continue;
        if (/^[A-Za-z]/.test(rule.word) && (inEnglishRun(line, at, at + match[0].length) || glossOf(line, at, rule.term))) continue;
        found.push({ at, word: match[0], term: rule.term });
      }
    }
    found.sort((a, b) => a.at - b.at || b.word.length - a.word.length);
    let reached = -1;
    for (const use of found) {
      if (use.at < reached) continue;
      reached = use.at + use.word.length;
      uses.push({ line: index + 1, column: use.at + 1, word: use.word, term: use.term });
    }
  });
  return uses;
}

/** Each rejected word of `text`, as `file:line: …` naming the word, the concept and the word to use instead. */
export function rejectedWordProblems(file: string, text: string, kind: ChineseText, glossary: readonly Term[] = GLOSSARY): string[] {
  return rejectedUses(text, kind, glossary).map(
    (use) => `${file}:${use.line}: "${use.word}" is not the edition's word for "${use.term.en}": use "${use.term["zh-CN"]}"`,
  );
}

/** How a Chinese file holds its text, by its name. */
export function chineseTextOf(file: string): ChineseText {
  return file.endsWith(".json") ? "json" : file.endsWith(".ts") ? "source" : "markdown";
}
