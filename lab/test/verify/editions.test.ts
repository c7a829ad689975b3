// The Chinese edition's parity with the English: what verify's "zh-CN twin" column and its page check
// rest on. Each test names the difference it plants and the message that must name it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { moduleOwners } from "../../catalog/catalog.js";
import { loadCatalog } from "../../catalog/load.js";
import { treeFor } from "../../trees/trees.js";
import { MISSING_MODULE_ERROR, missingModuleMessage } from "../../vitest/resolver.js";
import { codeBlockProblems, codeBlocks, lessonParityProblems, pageParityProblems, type TwinPage } from "../../authoring/editions.js";
import { BLOCK_NAMES, BLOCKS, headingProblems, renderBlock, sectionTitles, type LessonSources } from "../../authoring/lesson.js";
import { SECTIONS } from "../../catalog/sections.js";
import { scaffold } from "../../authoring/scaffold.js";
import { failureSchema } from "../../catalog/failure-schema.js";
import { stageSchema, type StageSpec } from "../../catalog/stage-schema.js";
import { contractEditionProblems, contractIn, glossProblems, listedTests, specEditionProblems, specIn } from "../../i18n/content.js";
import { GLOSSARY, glossaryPage, term, type Term } from "../../i18n/glossary.js";
import { rejectedUses, rejectedWordProblems } from "../../i18n/rejected.js";
import { cliWords } from "../../cli/words/index.js";
import { localized, repoPath, ROOT } from "../../core/layout.js";
import { committedSummary } from "../../mutation/stage.js";
import { temporaryFolder, writeTree } from "../../testing.js";
import { CHINESE_WORD_FILES, judgeEditions, judgeTwin } from "../../verify/judges/editions.js";

/** A test that reads the whole course is bounded, but not by vitest's default, which load alone can exceed. */
const WHOLE_COURSE = { timeout: 60_000 };

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
  const target = sources.contract.targetTest;
  expect(fault, "the fault block's labels").toContain(
    `| ${term("Target test", "zh-CN")} | \`${target}\`（${sources.spec["zh-CN"]?.tests?.[target]}） |`,
  );
  expect(fault, "the fix principle").toContain(`**修复原则**：${sources.contract["zh-CN"]?.fixPrinciple}`);
  expect(renderBlock("hints", zh).match(/<summary>提示 \d（共 \d 条）<\/summary>/g), "one fold per hint").toHaveLength(
    sources.spec.hints.length,
  );
  expect(renderBlock("predict", zh), "the answer fold").toContain("<summary>答案</summary>");
});

// Each test a block lists keeps its English name (vitest prints it, a learner searches for it), and the
// Chinese edition says beside it what the test proves.
const glossOf = (spec: StageSpec, name: string) => spec["zh-CN"]?.tests?.[name];
const glossed = (spec: StageSpec, name: string) => `\`${name}\`（${glossOf(spec, name)}）`;

it("shows every test a Chinese block lists by its English name in code with its gloss beside it, and leaves the English blocks as they were", () => {
  const zh: LessonSources = { ...sources, locale: "zh-CN" };
  const { spec, contract } = sources;
  const mastery = renderBlock("mastery", zh).split("\n");
  for (const name of spec.mastery) expect(mastery, `the Chinese mastery block's line for "${name}"`).toContain(`- ${glossed(spec, name)}`);
  const transfer = renderBlock("transfer", zh).split("\n");
  for (const name of spec.transfer.tests)
    expect(transfer, `the Chinese transfer block's line for "${name}"`).toContain(`- ${glossed(spec, name)}`);
  const fault = renderBlock("fault", zh);
  expect(fault, "the Chinese fault table's target test").toContain(
    `| ${term("Target test", "zh-CN")} | ${glossed(spec, contract.targetTest)} |`,
  );
  expect(fault, "the Chinese fault table's also-failing tests").toContain(
    `| ${term("Also failing", "zh-CN")} | ${contract.alsoFailing.map((name) => glossed(spec, name)).join("；")} |`,
  );
  const english = renderBlock("mastery", sources).split("\n");
  for (const name of spec.mastery) expect(english, `the English mastery block's line for "${name}", name alone`).toContain(`- ${name}`);
  expect(renderBlock("fault", sources), "the English fault table's target test, name alone").toContain(
    `| ${term("Target test", "en")} | ${contract.targetTest} |`,
  );
  expect(renderBlock("order", sources), "an English block with a Chinese character in it").not.toMatch(/[\u4e00-\u9fff]/);

  const stage05 = loadCatalog().stages.find((stage) => stage.id === "stage-05-atomic-write");
  if (!stage05?.spec?.order || !stage05.contract) throw new Error("stage 05 must load, with a suggested order");
  const order = renderBlock("order", { stage: stage05, spec: stage05.spec, contract: stage05.contract, mutation: null, locale: "zh-CN" });
  for (const name of stage05.spec.order.flatMap((step) => step.tests))
    expect(order.split("\n"), `the Chinese suggested order's line for "${name}"`).toContain(`   - ${glossed(stage05.spec, name)}`);
});

it("refuses, through verify's twin column, a Chinese edition that lacks the gloss of a test its blocks list, naming the stage and the test", () => {
  const text = sources.spec["zh-CN"];
  if (!text?.tests) throw new Error("stage 04 glosses its tests");
  const target = sources.contract.targetTest;
  const { [target]: _dropped, ...rest } = text.tests;
  const check = judgeTwin({ ...stage04, spec: { ...sources.spec, "zh-CN": { ...text, tests: rest } } });
  expect(check.ok, "the twin column with a gloss missing").toBe(false);
  expect(check.problems, "the problem naming the stage and the test without a gloss").toContain(
    `stages/${stage04.id}/stage.json "zh-CN".tests has no gloss for "${target}", a test the lesson lists`,
  );
  const { tests: _none, ...withoutMap } = text;
  expect(
    glossProblems({ ...sources.spec, "zh-CN": withoutMap }, [sources.contract], "zh-CN"),
    "an edition with no tests map: one problem per listed test",
  ).toHaveLength(listedTests(sources.spec, [sources.contract]).length);
  expect(
    stageSchema.safeParse({ ...sources.spec, "zh-CN": { ...text, tests: { ...text.tests, [target]: "  " } } }).success,
    "stage.json with a blank gloss must not validate",
  ).toBe(false);
});

it("refuses, through verify's twin column, a stale gloss: one for a name no block lists, as when a test is renamed", () => {
  const text = sources.spec["zh-CN"];
  if (!text?.tests) throw new Error("stage 04 glosses its tests");
  const old = sources.spec.mastery[0] ?? "";
  const renamed = `${old}, renamed`;
  const spec = { ...sources.spec, mastery: [renamed, ...sources.spec.mastery.slice(1)] };
  const check = judgeTwin({ ...stage04, spec });
  expect(check.ok, "the twin column after a test was renamed in stage.json").toBe(false);
  expect(
    check.problems.filter((problem) => problem.includes('"zh-CN".tests')),
    "the stale gloss of the old name and the missing gloss of the new one, each naming the stage",
  ).toEqual([
    `stages/${stage04.id}/stage.json "zh-CN".tests has no gloss for "${renamed}", a test the lesson lists`,
    `stages/${stage04.id}/stage.json "zh-CN".tests glosses "${old}", which is no test the lesson lists: rename or remove the gloss with its test`,
  ]);
});

// Reads every stage of the course: on a machine busy with verify's other suites that outlasts vitest's default 5 s.
it(
  "counts every fault's target and also-failing tests among the tests to gloss, and finds every committed stage fully glossed",
  WHOLE_COURSE,
  () => {
    const other = { ...sources.contract, targetTest: "catches the second fault", alsoFailing: ["fails beside the second fault"] };
    expect(listedTests(sources.spec, [sources.contract, other]), "the tests a lesson with two faults lists").toEqual(
      expect.arrayContaining(["catches the second fault", "fails beside the second fault", ...sources.spec.mastery]),
    );
    expect(glossProblems(sources.spec, [sources.contract, other], "zh-CN"), "the second fault's tests, without glosses").toEqual([
      `"zh-CN".tests has no gloss for "catches the second fault", a test the lesson lists`,
      `"zh-CN".tests has no gloss for "fails beside the second fault", a test the lesson lists`,
    ]);
    expect(glossProblems(sources.spec, [sources.contract], "en"), "the English edition glosses nothing").toEqual([]);
    for (const stage of loadCatalog().stages) {
      if (!stage.spec) throw new Error(`${stage.id}: stage.json must load`);
      const contracts = stage.faults.flatMap((fault) => (fault.contract ? [fault.contract] : []));
      expect(glossProblems(stage.spec, contracts, "zh-CN"), `${stage.id}: tests without a gloss, or glosses without a test`).toEqual([]);
    }
  },
);

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
  const result = scaffold(catalog, { number: 13, slug: "sandbox-profile", module: "profile" });
  if (typeof result === "string") throw new Error(result);
  const content = (suffix: string) => result.files.find((entry) => entry.file.endsWith(suffix))?.content ?? "";
  const english = content(join("stage-13-sandbox-profile", "README.md"));
  const twin = content(join("stage-13-sandbox-profile", "README.zh-CN.md"));
  expect(headingProblems(twin, "zh-CN"), "the twin's sections").toEqual([]);
  expect(pageParityProblems(pair(english, twin)), "links both ways, no code block").toEqual([]);
  expect(twin, "the twin's first piece to write").toContain('PLACEHOLDER: write the "先看一个具体问题" section in Chinese.');
  const spec = stageSchema.safeParse(JSON.parse(content("stage.json")));
  expect(spec.success && specEditionProblems(spec.data, "zh-CN"), "stage.json's zh-CN edition").toEqual([]);
  const contract = failureSchema.safeParse(JSON.parse(content("failure.json")));
  expect(contract.success && contractEditionProblems(contract.data, "zh-CN"), "failure.json's zh-CN edition").toEqual([]);
  expect(
    spec.success && contract.success && glossProblems(spec.data, [contract.data], "zh-CN"),
    "the scaffold's glosses: one for each test its blocks list, none for another",
  ).toEqual([]);
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

// One term per concept: the glossary's rejected words, refused wherever Chinese is running text.
const folder: Term = { en: "Folder", "zh-CN": "目录", note: "", rejected: ["文件夹"] };
const walk: Term = { en: "Path traversal", "zh-CN": "路径穿越", note: "", rejected: ["路径遍历"] };
const longer: Term = { en: "Walk over real paths", "zh-CN": "真实路径遍历", note: "" };
const killed: Term = { en: "Killed", "zh-CN": "被杀死", note: "", rejected: ["killed"] };
const words: readonly Term[] = [folder, walk, longer, killed];

it("refuses a rejected word in a Chinese lesson, naming the file, the line, the word found and the term to use", () => {
  const page = "# 标题\n\n证据写进 `evidence/` 文件夹。\n\n进程被 killed 了。\n";
  expect(rejectedWordProblems("stages/x/README.zh-CN.md", page, "markdown", words), "a rejected word on lines 3 and 5").toEqual([
    'stages/x/README.zh-CN.md:3: "文件夹" is not the edition\'s word for "Folder": use "目录"',
    'stages/x/README.zh-CN.md:5: "killed" is not the edition\'s word for "Killed": use "被杀死"',
  ]);
  expect(rejectedUses("先做路径遍历检查\n", "markdown", words), "the word, where it stands and its term").toEqual([
    { line: 1, column: 3, word: "路径遍历", term: walk },
  ]);
});

it("passes the accepted word, and a rejected word inside code, a generated block, a longer accepted term or an English quotation", () => {
  const page = [
    "证据写进 `evidence/` 目录。",
    "行内代码里的 `文件夹` 不算，`` 文件夹 `` 也不算。",
    "```sh",
    "echo 文件夹 killed",
    "```",
    "<!-- forge:design -->",
    "生成块里的文件夹由它的来源检查。",
    "<!-- /forge:design -->",
    "阶段 02 的真实路径遍历走到了哪里。",
    "测试 reports a process killed from outside as killed 通过了。",
    "消息是“killed after the 120000 ms timeout”。",
    "进程被杀死（killed）了。",
    "skilled 和 killedBy 不是这个词。",
  ].join("\n");
  expect(rejectedUses(page, "markdown", words), "no rejected word counts").toEqual([]);
  const glossed = "挂载命名空间（mount namespace）隔离了项目，mount namespace 却不该单独出现。";
  const mount: Term = { en: "Mount namespace", "zh-CN": "挂载命名空间", note: "", rejected: ["mount namespace"] };
  expect(
    rejectedUses(glossed, "markdown", [mount]).map((use) => use.column),
    "the English name counts only where it stands alone, not as the gloss after its term",
  ).toEqual([glossed.lastIndexOf("mount namespace") + 1]);
});

it("reads only the Chinese edition of stage.json and failure.json, and keeps the longest of overlapping words", () => {
  const json = [
    "{",
    '  "title": "A folder, killed",',
    '  "zh-CN": {',
    '    "title": "证据文件夹",',
    '    "hints": ["`文件夹` 不算"]',
    "  },",
    '  "after": "文件夹"',
    "}",
  ].join("\n");
  expect(rejectedWordProblems("stage.json", json, "json", words), "only line 4 is Chinese running text").toEqual([
    'stage.json:4: "文件夹" is not the edition\'s word for "Folder": use "目录"',
  ]);
  const reviewer: Term = { en: "Reviewer", "zh-CN": "审批人", note: "", rejected: ["审阅者"] };
  const approval: Term = { en: "Approval", "zh-CN": "审批", note: "", rejected: ["审阅"] };
  expect(
    rejectedUses("审阅者看过了", "source", [approval, reviewer]).map((use) => use.word),
    "one find for 审阅者, not also 审阅",
  ).toEqual(["审阅者"]);
});

// Reads every Chinese file of the course, as the test above reads every stage.
it(
  "keeps the glossary's rejected words apart from its accepted ones, and finds none in any Chinese file of the course",
  WHOLE_COURSE,
  () => {
    const accepted = new Set(GLOSSARY.map((entry) => entry["zh-CN"] as string));
    const clashes = GLOSSARY.flatMap((entry: Term) => (entry.rejected ?? []).filter((word) => accepted.has(word)));
    expect(clashes, "rejected words that are also a term's accepted word").toEqual([]);
    const catalog = loadCatalog();
    const found = [...catalog.stages.flatMap((stage) => judgeTwin(stage).problems), ...judgeEditions(catalog).problems].filter((problem) =>
      problem.includes("is not the edition's word"),
    );
    expect(found, "rejected words in the committed Chinese files").toEqual([]);
    const tracked = execFileSync("git", ["ls-files", "--", "lab", "site"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((file) => /zh-CN\.(ts|md)$/.test(file) && !file.includes("/test/"));
    expect(
      tracked.filter((file) => !(CHINESE_WORD_FILES as readonly string[]).includes(file)),
      "Chinese words files of the lab and the site that verify does not read",
    ).toEqual([]);
  },
);

it("refuses a rejected word in a lesson through verify's twin column, with the lesson's path and line", () => {
  const root = temporaryFolder();
  const dir = join(root, "stages", stage04.id);
  const twin = lesson("zh-CN").replace(/^(## 概念\n)/m, "$1\n审阅者把计划放进文件夹。\n");
  const line = twin.split("\n").indexOf("审阅者把计划放进文件夹。") + 1;
  writeTree(root, {
    [join("stages", stage04.id, "README.md")]: lesson("en"),
    [join("stages", stage04.id, "README.zh-CN.md")]: twin,
    [join("fixtures", stage04.id, "mutation.json")]: read(`fixtures/${stage04.id}/mutation.json`),
  });
  const stage = { ...stage04, root, dir, readmePath: join(dir, "README.md"), specPath: join(ROOT, repoPath(stage04.specPath)) };
  const check = judgeTwin({ ...stage, faults: [] });
  expect(check.ok, "the twin with rejected words").toBe(false);
  expect(
    check.problems.filter((problem) => problem.startsWith(`stages/${stage04.id}/README.zh-CN.md:${line}:`)),
    "the two words, on the line they stand",
  ).toEqual([
    `stages/${stage04.id}/README.zh-CN.md:${line}: "审阅者" is not the edition's word for "Reviewer": use "审批人"`,
    `stages/${stage04.id}/README.zh-CN.md:${line}: "文件夹" is not the edition's word for "Folder": use "目录"`,
  ]);
});
