// A small synthetic lesson with folds, as the fold convention writes them: stage 01's lesson, its own
// folds opened, with one fold at the end of its reference-solution notes and one before guided practice. The site's
// challenge path is tested on it, whatever the real lessons fold at the time.
import type { SiteSources } from "../../build.js";
import type { StageContent } from "../../content.js";

export const FOLDS = [
  {
    summary: "the four steps, with `defineTool`",
    section: "## Reference solution",
    body: [
      "1. Copy the capabilities, then validate them.",
      "",
      "```ts",
      `// A line long enough to scroll sideways in a narrow window: ${"capability ".repeat(12).trim()}`,
      'const tool = defineTool("editor", ["read", "write"]);',
      "</details>",
      "```",
      "",
      "2. Freeze what you keep.",
    ].join("\n"),
    /** A sentence of the body, to find it on the page. */
    marker: "Freeze what you keep.",
  },
  {
    summary: "why the reference is built this way",
    section: "## Guided practice",
    body: "The order matters: **validate**, then freeze.",
    marker: "The order matters:",
  },
] as const;

/**
 * The lesson with its own folds opened up (their bodies kept in place) and each of FOLDS inserted just
 * before the section it precedes, so the lesson has exactly these folds whatever the real one folds.
 */
export function withFolds(readme: string): string {
  let text = readme.replace(/\n<details>\n<summary>Open when stuck:[^\n]*<\/summary>\n([\s\S]*?)\n<\/details>\n/g, "\n$1\n");
  for (const fold of FOLDS) {
    const at = text.indexOf(`\n${fold.section}\n`);
    if (at < 0) throw new Error(`the lesson has no "${fold.section}"`);
    const block = `\n<details>\n<summary>Open when stuck: ${fold.summary}</summary>\n\n${fold.body}\n\n</details>\n`;
    text = `${text.slice(0, at)}${block}${text.slice(at)}`;
  }
  return text;
}

/** Stage 01 with the folds added. */
export function foldedStage(content: StageContent): StageContent {
  return { ...content, readme: withFolds(content.readme) };
}

/** The site's sources with stage 01's lesson folded. */
export function challengeSources(sources: SiteSources): SiteSources {
  const stages = sources.course.stages.map((content) => (content.stage.nn === "01" ? foldedStage(content) : content));
  return { ...sources, course: { ...sources.course, stages } };
}
