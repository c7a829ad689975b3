import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadCatalog } from "../../catalog/load.js";
import {
  BLOCK_NAMES,
  BLOCKS,
  environmentInstructions,
  headingProblems,
  headings,
  lessonProblems,
  renderBlock,
  scanFolds,
  sourceCitations,
  effortMismatches,
  syncBlocks,
  type LessonSources,
} from "../../authoring/lesson.js";
import { expectedMessages, unshownMessages } from "../../authoring/expected-messages.js";
import { SECTIONS } from "../../catalog/sections.js";
import { ROOT } from "../../core/layout.js";
import { committedSummary } from "../../mutation/stage.js";

const stage01 = loadCatalog().stages.find((stage) => stage.id === "stage-01-capability-registry");
if (!stage01?.spec || !stage01.contract) throw new Error("stage 01 must load");
const sources: LessonSources = { stage: stage01, spec: stage01.spec, contract: stage01.contract, mutation: committedSummary(stage01) };

/** A minimal lesson with every section and every block, blocks left empty. */
function skeleton(): string {
  return SECTIONS.map((section) => {
    const blocks = BLOCK_NAMES.filter((name) => BLOCKS[name] === section)
      .map((name) => `<!-- forge:${name} -->\n<!-- /forge:${name} -->`)
      .join("\n");
    return `## ${section}\n\nProse.\n\n${blocks}\n`;
  }).join("\n");
}

it("reads the H2 headings and ignores lines inside fenced code", () => {
  expect(headings("# Title\n## One\n```md\n## Not a heading\n```\n## Two\n### Sub\n")).toEqual(["One", "Two"]);
});

it("requires exactly the twelve sections, in order, and says what is wrong", () => {
  expect(headingProblems(skeleton())).toEqual([]);
  const withoutPredict = skeleton().replace("## Predict", "## Guess");
  expect(headingProblems(withoutPredict)).toEqual(['missing the section "## Predict"', '"## Guess" is not one of the twelve sections']);
  const swapped = skeleton().replace("## The problem", "## TEMP").replace("## Predict", "## The problem").replace("## TEMP", "## Predict");
  expect(headingProblems(swapped)[0]).toMatch(/^sections are out of order/);
});

it("renders each block from stage.json and failure.json, hiding the answer in a details element", () => {
  const predict = renderBlock("predict", sources);
  for (const option of sources.spec.prediction.options) expect(predict).toContain(option);
  expect(predict).toMatch(/<details>\n<summary>Answer<\/summary>\n\n\*\*B\.\*\*/);
  const fault = renderBlock("fault", sources);
  expect(fault).toContain(sources.contract.targetTest);
  expect(fault, "the fault table names the patch").toContain("faulty/stage-01-capability-registry/capability-validation-dropped.patch");
  expect(renderBlock("mastery", sources)).toContain("npm test -- stage-01");
  expect(renderBlock("hints", sources).match(/<summary>Hint \d of \d<\/summary>/g)).toHaveLength(sources.spec.hints.length);
});

it("fills empty blocks, and reports stale, missing and misplaced ones", () => {
  const filled = syncBlocks(skeleton(), sources);
  expect(filled.problems).toEqual([]);
  expect(lessonProblems(filled.text, sources)).toEqual([]);
  expect(lessonProblems(skeleton(), sources)).toEqual(["generated blocks are stale: run `npm run generate`"]);
  const missing = skeleton().replace("<!-- forge:design -->\n<!-- /forge:design -->", "");
  expect(syncBlocks(missing, sources).problems).toEqual([
    'missing the generated block <!-- forge:design --> … <!-- /forge:design --> in "## Design question"',
  ]);
  const moved = skeleton()
    .replace("<!-- forge:hints -->\n<!-- /forge:hints -->", "")
    .replace("## Fault lab\n\nProse.\n", "## Fault lab\n\nProse.\n<!-- forge:hints -->\n<!-- /forge:hints -->\n");
  expect(syncBlocks(moved, sources).problems).toEqual([
    'the block <!-- forge:hints --> belongs in "## Guided practice", not "## Fault lab"',
  ]);
});

it("keeps this repository's stage 01 lesson complete and its blocks fresh", () => {
  expect(lessonProblems(readFileSync(join(ROOT, "stages/stage-01-capability-registry/README.md"), "utf8"), sources)).toEqual([]);
});

/** A fold as the convention writes it. */
const fold = (summary: string, body: string) => `<details>\n<summary>Open when stuck: ${summary}</summary>\n\n${body}\n\n</details>`;

it("finds each fold of the prose, with a code fence inside, and leaves the generated blocks' details alone", () => {
  const fenced = "Run it:\n\n```text\n</details>\n<details>\n```";
  const lesson = syncBlocks(skeleton(), sources).text.replace(
    "## Worked example\n\nProse.\n",
    `## Worked example\n\nProse.\n\n${fold("the steps", "1. Check.\n2. Throw.")}\n\nBetween.\n\n${fold("the output", fenced)}\n`,
  );
  const scan = scanFolds(lesson);
  expect(
    scan.folds.map(({ summary, body }) => ({ summary, body })),
    "the folds found (the generated blocks hold answers and hints in details elements too)",
  ).toEqual([
    { summary: "the steps", body: "1. Check.\n2. Throw." },
    { summary: "the output", body: fenced },
  ]);
  expect(scan.problems, "problems in a lesson that follows the convention").toEqual([]);
  const [first] = scan.folds;
  expect(lesson.slice(first?.start, first?.end), "the text a fold spans").toBe(fold("the steps", "1. Check.\n2. Throw."));
  expect(first?.line, "the line of the first fold").toBe(lesson.slice(0, first?.start).split("\n").length);
  expect(lessonProblems(lesson, sources), "a complete lesson with folds").toEqual([]);
});

it("names every way a fold can break the convention, by line", () => {
  const problems = (text: string) => scanFolds(text).problems;
  expect(problems("<details>\n<summary>Answer</summary>\n\nx\n\n</details>"), "a summary without the prefix").toEqual([
    "line 1: a <details> in the prose must be a fold, with <summary>Open when stuck: …</summary> on the next line",
    "line 2: <details> and <summary> go on lines of their own, exactly as the fold convention writes them",
    "line 6: a </details> with no fold open",
  ]);
  expect(problems("<details>\n<summary>Open when stuck: x</summary>\ny\n</details>"), "no blank lines around the body").toEqual([
    "line 3: a fold's summary must be followed by a blank line",
    "line 4: a fold's </details> must follow a blank line",
  ]);
  expect(problems(`${fold("a", "b")}\n\n<details>\n<summary>Open when stuck: c</summary>\n\n## Guided practice\n`), "unclosed").toEqual([
    "line 11: the fold opened at line 8 runs into a section heading",
    "line 8: the fold opened here is never closed with </details>",
  ]);
  expect(problems("Text <details open> here.\n\nThe `<details>` element is fine in code."), "raw tags inside a line").toEqual([
    "line 1: <details> and <summary> go on lines of their own, exactly as the fold convention writes them",
  ]);
  expect(problems(fold("a", "<!-- forge:hints -->\nx\n<!-- /forge:hints -->")), "a generated block folded").toEqual([
    "line 4: a generated block inside the fold opened at line 1",
    "line 6: a generated block inside the fold opened at line 1",
  ]);
});

it("finds the messages a test compares with, and the ones a lesson's inline code does not show", () => {
  const test = [
    'import { expect, it } from "vitest";',
    'it("a", () => {',
    '  expect(outcome(() => f("/x"), "absolute"), "absolute").toBe(refused("absolute"));',
    '  expect(() => g(), "blank").toThrow("a name is required");',
    '  expect(reasons(["ls"]), "command → reason").toEqual({ ls: `allowed by ${JSON.stringify(rule)}` });',
    '  expect({ why: why(a), started: 0 }, "both").toEqual({ why: "invalid_argument: limit entries must be a positive integer", started: 0 });',
    '  expect({ count: 3 }, "not about messages").toEqual({ count: "3 items" });',
    '  expect(decide("x"), "decision").toEqual({ decision: "deny", reason: "it matches the deny pattern \\"rm -rf\\"" });',
    '  expect(said.map((item) => (item === failure ? "the original error" : "other")), "what was said").toEqual(["the original error"]);',
    "});",
  ].join("\n");
  const expected = expectedMessages(test, "a.test.ts");
  expect(
    expected.map((message) => `${message.line} ${message.kind}: ${message.text}`),
    "what the test compares messages with, by line",
  ).toEqual([
    "3 part: absolute",
    "3 part: absolute",
    "4 part: a name is required",
    "5 whole: allowed by …",
    "6 whole: invalid_argument: limit entries must be a positive integer",
    '8 whole: it matches the deny pattern "rm -rf"',
  ]);
  const lesson = [
    "A call with `/x` is refused as `path … is absolute`.",
    "",
    "| code | message |",
    "|---|---|",
    "| `invalid_argument` | `limit … must be a positive integer` |",
    "",
    "```text",
    "allowed by …",
    "```",
    "A rule `…` alone shows nothing in particular.",
  ].join("\n");
  expect(
    unshownMessages(expected, lesson).map((message) => message.text),
    "messages the lesson does not show",
  ).toEqual(["a name is required", 'it matches the deny pattern "rm -rf"']);
  expect(
    unshownMessages(expected, `${lesson}\nA blank name: \`a name is required\`; a deny: \`it matches the deny pattern "…"\`.`),
    "once shown",
  ).toEqual([]);
});

it("finds a lesson line that cites a source document the learner does not have, and not a random seed", () => {
  const lesson = [
    "The seed's platform also had built-in deny patterns.",
    "Cut in 200 seeded random ways, with a fixed seed of 42.",
    "`root` is on every entry, as seed 002's event records.",
    "种子文档中的平台还有内置拒绝模式。",
    "再按固定种子随机切 200 次。",
    "As the seed documents say, the cap is 8 MiB.",
  ].join("\n");
  expect(sourceCitations(lesson), "lines that cite a source document").toEqual([
    `line 1: cites "The seed's", a source document the learner does not have; say what it says, in the lesson's own words`,
    `line 3: cites "seed 002", a source document the learner does not have; say what it says, in the lesson's own words`,
    `line 4: cites "种子文档", a source document the learner does not have; say what it says, in the lesson's own words`,
    `line 6: cites "seed documents", a source document the learner does not have; say what it says, in the lesson's own words`,
  ]);
});

it("finds a lesson line that tells a learner to set one of the lab's environment variables", () => {
  const lesson = [
    "Run `npm run lab -- test 9 --target solution` to see it pass.",
    "`FORGE_TARGET=solution npm test -- stage-09 --run` shows it passing.",
    "```sh",
    "export FORGE_WORKSPACE=../mine",
    "In a Chinese environment (`FORGE_LANG=zh-CN`, or a Chinese system locale) the line is in Chinese.",
    "CI=true npm test -- stage-09",
    "$env:FORGE_TARGET = 'faulty'",
    "```",
    "The policy asks for `FOO=1 cmd`, and `NODE_OPTIONS=--require=x npm test` is an attack it refuses.",
  ].join("\n");
  expect(environmentInstructions(lesson), "lines that set a variable").toEqual([
    "line 2: sets FORGE_TARGET; a lesson gives the npm run lab option instead (npm run lab -- test NN --target …)",
    "line 4: sets FORGE_WORKSPACE; a lesson gives the npm run lab option instead (npm run lab -- test NN --target …)",
    "line 6: sets CI; a lesson gives the npm run lab option instead (npm run lab -- test NN --target …)",
    "line 7: sets FORGE_TARGET; a lesson gives the npm run lab option instead (npm run lab -- test NN --target …)",
  ]);
});

it("refuses a time in a lesson's prose that is not its experiment card's, in either edition", () => {
  // Stage 11 once said 180 to 300 minutes (3 to 5 hours) while its card said 150–300.
  const lesson = [
    "The stage usually takes 3 to 5 hours (180 to 300 minutes).",
    "It usually takes 150 to 300 minutes, two and a half to five hours.",
    "本阶段通常需要 3 到 5 小时，也就是 150–300 分钟。",
    "A deadline of 2000 ms and 0–10 ms of jitter are not times a stage takes.",
  ].join("\n");
  expect(effortMismatches(lesson, [150, 300]), "lines whose span is not the card's 150–300 minutes").toEqual([
    'line 1: says "3 to 5 hours", but the experiment card says 150–300 minutes (stage.json effort.minutes)',
    'line 1: says "180 to 300 minutes", but the experiment card says 150–300 minutes (stage.json effort.minutes)',
    'line 3: says "3 到 5 小时", but the experiment card says 150–300 minutes (stage.json effort.minutes)',
  ]);
  expect(effortMismatches("Usually takes 2.5 to 5 hours.", [150, 300]), "the same span in hours").toEqual([]);
});
