// The Chinese edition's parity with the English: what verify's "zh-CN twin" column and its page check
// rest on. Each test names the difference it plants and the message that must name it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadCatalog, moduleOwners } from "../../catalog/catalog.js";
import { treeFor } from "../../trees/trees.js";
import { MISSING_MODULE_ERROR, missingModuleMessage } from "../../vitest/resolver.js";
import { codeBlockProblems, codeBlocks, lessonParityProblems, pageParityProblems, type TwinPage } from "../../authoring/editions.js";
import { BLOCK_NAMES, BLOCKS, headingProblems, renderBlock, sectionTitles, type LessonSources } from "../../authoring/lesson.js";
import { SECTIONS } from "../../catalog/sections.js";
import { scaffold } from "../../authoring/scaffold.js";
import { failureSchema } from "../../catalog/failure-schema.js";
import { stageSchema } from "../../catalog/stage-schema.js";
import { contractEditionProblems, contractIn, specEditionProblems, specIn } from "../../i18n/content.js";
import { GLOSSARY, glossaryPage, term } from "../../i18n/glossary.js";
import { cliWords } from "../../cli/words/index.js";
import { localized, repoPath, ROOT } from "../../core/layout.js";
import { committedSummary } from "../../mutation/stage.js";
import { temporaryFolder, writeTree } from "../../testing.js";
import { judgeTwin } from "../../verify/judges/editions.js";

const stage04 = loadCatalog().stages.find((stage) => stage.id === "stage-04-approval-gate");
if (!stage04?.spec || !stage04.contract) throw new Error("stage 04 must load");
const sources: LessonSources = { stage: stage04, spec: stage04.spec, contract: stage04.contract, mutation: committedSummary(stage04) };
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const lesson = (locale: "en" | "zh-CN") => read(localized("stages/stage-04-approval-gate/README.md", locale));
const pair = (english: string, twin: string): TwinPage => ({
  english,
  twin,
  englishName: "README.md",
  twinName: "README.zh-CN.md",
  locale: "zh-CN",
});

it("finds a committed lesson and its twin in parity", () => {
  expect(lessonParityProblems(pair(lesson("en"), lesson("zh-CN")), sources), "stage 04's twin").toEqual([]);
});

it("names a code block that differs, with its line and the first differing line of code", () => {
  const english = "# T\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n";
  const twin = "# T\n\n```ts\nconst a = 1;\nconst b = 3;\n```\n";
  expect(codeBlockProblems(english, twin), "an edited line").toEqual([
    'code block 1 (line 3) differs from the English one (line 3) at its line 3: "const b = 3;" instead of "const b = 2;"',
  ]);
  expect(codeBlockProblems(english, "# T\n"), "a dropped block").toEqual(["code block 1 (English line 3) is missing"]);
  expect(codeBlockProblems("# T\n", english), "an added block").toEqual(["code block 1 (line 3) has no English counterpart"]);
});

it("compares code blocks outside the generated blocks only, and keeps indented fences whole", () => {
  const text = "<!-- forge:fault -->\n```sh\ngenerated\n```\n<!-- /forge:fault -->\n\n1. Step\n\n   ```ts\n   indented();\n   ```\n";
  expect(codeBlocks(text), "the blocks of a page").toEqual([{ line: 9, code: "   ```ts\n   indented();\n   ```" }]);
});

it("requires a link line from each page to the other", () => {
  const english = "# T\n\n[简体中文](README.zh-CN.md)\n";
  const twin = "# T\n\n[English](README.md)\n";
  expect(pageParityProblems(pair(english, twin)), "both links present").toEqual([]);
  expect(pageParityProblems(pair("# T\n", twin)), "the English link missing").toEqual([
    'README.md has no line "[简体中文](README.zh-CN.md)" leading to its 简体中文 twin',
  ]);
  expect(pageParityProblems(pair(english, "# T\n")), "the Chinese link missing").toEqual([
    'README.zh-CN.md has no line "[English](README.md)" leading to its English twin',
  ]);
});

it("names an English heading left in the twin, a stale Chinese block and a missing fold", () => {
  const twin = lesson("zh-CN");
  const english = lesson("en");
  const untranslated = twin.replace(`## ${term("Fault lab", "zh-CN")}\n`, "## Fault lab\n");
  expect(lessonParityProblems(pair(english, untranslated), sources), "an English heading").toEqual(
    expect.arrayContaining([
      `README.zh-CN.md: missing the section "## 故障实验室"`,
      `README.zh-CN.md: "## Fault lab" is not one of the twelve sections`,
    ]),
  );
  const stale = twin.replace("诊断顺序：", "Diagnosis, in order:");
  expect(lessonParityProblems(pair(english, stale), sources), "a block edited by hand").toContain(
    "README.zh-CN.md: generated blocks are stale: run `npm run generate`",
  );
  const start = twin.indexOf("<details>\n<summary>卡住时再打开：");
  const end = twin.indexOf("</details>", start) + "</details>".length;
  const unfolded =
    twin.slice(0, start) +
    twin.slice(start + "<details>\n".length, end - "</details>".length).replace(/^<summary>.*<\/summary>\n/, "") +
    twin.slice(end);
  expect(lessonParityProblems(pair(english, unfolded), sources), "a fold dropped").toContain(
    "README.zh-CN.md: has 1 fold(s), the English lesson 2",
  );
});

it("names a structured field missing from the Chinese edition, or a list of another length", () => {
  const { "zh-CN": text, ...english } = stage04.spec ?? sources.spec;
  if (!text) throw new Error("stage 04 has a zh-CN edition");
  expect(specEditionProblems(english, "zh-CN"), "no edition").toEqual([`has no "zh-CN" edition of its text fields`]);
  const short = { ...sources.spec, "zh-CN": { ...text, hints: text.hints.slice(1) } };
  expect(specEditionProblems(short, "zh-CN"), "a hint dropped").toEqual([
    `"zh-CN".hints has ${text.hints.length - 1} entries, the English ${text.hints.length}`,
  ]);
  const noContract = { ...sources.contract, "zh-CN": undefined };
  expect(
    lessonParityProblems(pair(lesson("en"), lesson("zh-CN")), { ...sources, spec: english, contract: noContract }),
    "both editions gone",
  ).toEqual(
    expect.arrayContaining([
      `stage.json has no "zh-CN" edition of its text fields`,
      `README.zh-CN.md: its blocks cannot be written: stage.json has no "zh-CN" edition of its text fields`,
    ]),
  );
});

it("gives either edition the English shape, keeping what is not text", () => {
  const zh = specIn(sources.spec, "zh-CN");
  expect(zh?.prediction.answer, "the answer index").toBe(sources.spec.prediction.answer);
  expect(zh?.mastery, "the mastery test names").toEqual(sources.spec.mastery);
  expect(zh?.transfer.tests, "the transfer test names").toEqual(sources.spec.transfer.tests);
  expect(zh?.title, "the title").toBe(sources.spec["zh-CN"]?.title);
  expect(specIn(sources.spec, "en"), "English is the spec itself").toBe(sources.spec);
  expect(contractIn(sources.contract, "zh-CN")?.targetTest, "the target test").toBe(sources.contract.targetTest);
});

it("writes the Chinese blocks with the glossary's words and the Chinese text", () => {
  const zh: LessonSources = { ...sources, locale: "zh-CN" };
  const fault = renderBlock("fault", zh);
  expect(fault, "the fault block's labels").toContain(`| ${term("Target test", "zh-CN")} | ${sources.contract.targetTest} |`);
  expect(fault, "the fix principle").toContain(`**修复原则**：${sources.contract["zh-CN"]?.fixPrinciple}`);
  expect(renderBlock("hints", zh).match(/<summary>提示 \d（共 \d 条）<\/summary>/g), "one fold per hint").toHaveLength(
    sources.spec.hints.length,
  );
  expect(renderBlock("predict", zh), "the answer fold").toContain("<summary>答案</summary>");
});

it("takes every section heading from the glossary, and finds each block's section there", () => {
  expect(sectionTitles("en"), "English headings").toEqual([...SECTIONS]);
  expect(new Set(sectionTitles("zh-CN")).size, "twelve distinct Chinese headings").toBe(SECTIONS.length);
  for (const name of BLOCK_NAMES) expect(sectionTitles("zh-CN"), `the section of block ${name}`).toContain(term(BLOCKS[name], "zh-CN"));
});

it("lists every glossary term once, and the committed glossary page is the generated one", () => {
  const english = GLOSSARY.map((entry) => entry.en);
  expect(
    english.filter((name, index) => english.indexOf(name) !== index),
    "terms listed twice",
  ).toEqual([]);
  expect(read("docs/glossary.md"), "docs/glossary.md").toBe(glossaryPage());
  expect(() => term("constructor" as never, "zh-CN"), "a name that is no term").toThrow('"constructor" is not in the glossary');
});

it("names each edition's file beside the English one", () => {
  expect(localized("stages/README.md", "zh-CN"), "a README").toBe("stages/README.zh-CN.md");
  expect(localized("stages/README.md", "en"), "English is the file itself").toBe("stages/README.md");
  expect(localized("docs/.hidden/notes", "zh-CN"), "no extension").toBe("docs/.hidden/notes.zh-CN");
});

it("scaffolds a new stage with its Chinese twin: the twelve Chinese sections, the links both ways, zh-CN fields that validate", () => {
  const catalog = loadCatalog();
  const result = scaffold(catalog, { number: 12, slug: "sandbox-profile", module: "profile" });
  if (typeof result === "string") throw new Error(result);
  const content = (suffix: string) => result.files.find((entry) => entry.file.endsWith(suffix))?.content ?? "";
  const english = content(join("stage-12-sandbox-profile", "README.md"));
  const twin = content(join("stage-12-sandbox-profile", "README.zh-CN.md"));
  expect(headingProblems(twin, "zh-CN"), "the twin's sections").toEqual([]);
  expect(pageParityProblems(pair(english, twin)), "links both ways, no code block").toEqual([]);
  expect(twin, "the twin's first piece to write").toContain('PLACEHOLDER: write the "先看一个具体问题" section in Chinese.');
  const spec = stageSchema.safeParse(JSON.parse(content("stage.json")));
  expect(spec.success && specEditionProblems(spec.data, "zh-CN"), "stage.json's zh-CN edition").toEqual([]);
  const contract = failureSchema.safeParse(JSON.parse(content("failure.json")));
  expect(contract.success && contractEditionProblems(contract.data, "zh-CN"), "failure.json's zh-CN edition").toEqual([]);
});

it("fails a twin that is missing, a folder or a FIFO with one line naming it, without waiting on the FIFO", () => {
  const root = temporaryFolder();
  const dir = join(root, "stages", stage04.id);
  // The mastery block quotes the mutation score, so the twin is fresh only beside its stage's summary.
  writeTree(root, {
    [join("stages", stage04.id, "README.md")]: lesson("en"),
    [join("fixtures", stage04.id, "mutation.json")]: read(`fixtures/${stage04.id}/mutation.json`),
  });
  const stage = { ...stage04, root, dir, readmePath: join(dir, "README.md") };
  const twin = join(dir, "README.zh-CN.md");
  expect(judgeTwin(stage).problems, "no twin").toEqual([`stages/${stage04.id}/README.zh-CN.md is missing`]);
  mkdirSync(twin);
  expect(judgeTwin(stage).problems, "a folder in its place").toEqual([`stages/${stage04.id}/README.zh-CN.md is a folder, not a file`]);
  rmdirSync(twin);
  execFileSync("mkfifo", [twin]);
  expect(judgeTwin(stage).problems, "a FIFO in its place").toEqual([`stages/${stage04.id}/README.zh-CN.md is a FIFO, not a file`]);
  rmSync(twin);
  writeFileSync(twin, lesson("zh-CN"));
  expect(judgeTwin(stage), "the real twin").toEqual({ ok: true, summary: "in parity", problems: [] });
});

/** Every "ModuleNotWritten: …" line a page quotes, in code or inline. */
const quotedMissingLines = (text: string) => [...text.matchAll(/ModuleNotWritten: [^`\n]+/g)].map((match) => match[0]);

it("quotes the missing-module line exactly as npm test prints it, in English in both editions' code and in Chinese in the twin's prose", () => {
  const catalog = loadCatalog();
  const owners = moduleOwners(catalog);
  for (const stage of catalog.stages) {
    const tree = treeFor(catalog, stage, "workspace");
    const printed = (locale: "en" | "zh-CN") =>
      new Set([...owners.keys()].map((name) => `${MISSING_MODULE_ERROR}: ${missingModuleMessage({ stage, tree, owners, locale }, name)}`));
    const english = quotedMissingLines(read(localized(repoPath(stage.readmePath), "en")));
    const twin = quotedMissingLines(read(localized(repoPath(stage.readmePath), "zh-CN")));
    expect(english.length, `${stage.id}: lines quoted in the English lesson`).toBeGreaterThan(0);
    for (const line of english) expect(printed("en"), `${stage.id}: the English lesson quotes`).toContain(line);
    const [inCode, inProse] = [twin.filter((line) => printed("en").has(line)), twin.filter((line) => !printed("en").has(line))];
    expect(inCode, `${stage.id}: the twin's code blocks quote the English lines`).toEqual(english);
    expect(inProse.length, `${stage.id}: the twin gives each line in Chinese too`).toBe(english.length);
    for (const line of inProse) expect(printed("zh-CN"), `${stage.id}: the twin quotes, in Chinese`).toContain(line);
  }
});

it("quotes the first line of `lab hint` as the CLI prints it, in each edition", () => {
  for (const stage of loadCatalog().stages) {
    const total = stage.spec?.hints.length ?? 0;
    for (const locale of ["en", "zh-CN"] as const) {
      const line = cliWords(locale).hint.shown(stage.nn, stage.slug, 1, total, "…");
      expect(read(localized(repoPath(stage.readmePath), locale)), `${stage.id}: the ${locale} lesson quotes`).toContain(line);
    }
  }
});
