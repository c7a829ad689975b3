// The site in two editions, as built: English at the root and Simplified Chinese under zh-CN/, the same
// pages in each, `<html lang>` right, a switch on every page to its twin, links that stay within the
// edition, the Chinese widgets built from the zh-CN text, and the self-check's words in both tables.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { learningPath, PATH_COLUMNS } from "../../lab/authoring/map.js";
import { buildVerification } from "../../lab/evidence/build.js";
import { contractIn, specIn } from "../../lab/i18n/content.js";
import { GLOSSARY } from "../../lab/i18n/glossary.js";
import { LOCALES } from "../../lab/core/locale.js";
import { buildSite, siteSources, type BuildResult, type SiteSources } from "../build.js";
import { EDITION_DIRS, MAP_PAGE, packCourse, unpackCourse } from "../client/course.js";
import { EDITION_KEY, editionToOpen, rememberEdition, rememberedEdition } from "../client/edition.js";
import { checkVerification } from "../../lab/evidence/selfcheck.js";
import { VERDICTS } from "../../lab/evidence/words/en.js";
import { TEXT } from "../client/text.js";
import { contentIn, courseData, loadCourse, stagePage, type StageContent } from "../content.js";
import { mapMain } from "../map.js";
import { escapeHtml } from "../client/widgets/shared.js";
import { lessonHtml, markdown, stageMain } from "../render.js";

const sources: SiteSources = siteSources();
const course = loadCourse();
const first = course.stages.find((content) => content.stage.nn === "01");
if (!first) throw new Error("the course has stage 01");
const stage01: StageContent = first;
const zh01 = contentIn(stage01, "zh-CN");
if (!zh01) throw new Error("stage 01 has its Chinese edition");
const chinese01: StageContent = zh01;

let out = "";
let built: BuildResult;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "forge-editions-"));
  built = await buildSite(out, sources);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(out, path), "utf8");
/** What a relative link on a page points at, relative to the site's root. */
const target = (page: string, href: string) =>
  relative(out, join(out, dirname(page), href))
    .split("\\")
    .join("/");
const englishPages = () => built.pages.filter((page) => !page.startsWith(EDITION_DIRS["zh-CN"]));

it("builds every page in both editions: the Chinese ones under zh-CN/, mirroring the English ones", () => {
  const english = englishPages();
  expect(english, "the English pages").toEqual(
    expect.arrayContaining(["index.html", MAP_PAGE, "glossary.html", ...course.stages.map(({ stage }) => stagePage(stage))]),
  );
  expect(
    built.pages.filter((page) => page.startsWith("zh-CN/")),
    "the Chinese pages",
  ).toEqual(english.map((page) => `zh-CN/${page}`));
  expect(built.pages.length, "pages in all").toBe(english.length * LOCALES.length);
});

it("declares each page's language on its <html> element", () => {
  const langs = Object.fromEntries(built.pages.map((page) => [page, /^<!doctype html>\n<html lang="([^"]+)"/.exec(read(page))?.[1]]));
  expect(langs, "<html lang> by page").toEqual(
    Object.fromEntries(built.pages.map((page) => [page, page.startsWith("zh-CN/") ? "zh-CN" : "en"])),
  );
});

it("puts a switch on every page that leads to the same page in the other edition, and names every twin", () => {
  const switches: Record<string, string> = {};
  const alternates: Record<string, string[]> = {};
  for (const page of built.pages) {
    const html = read(page);
    const found =
      /<a class="edition-switch" href="([^"]+)" hreflang="([^"]+)" lang="([^"]+)" data-edition-switch="([^"]+)">([^<]+)<\/a>/.exec(html);
    switches[page] = found ? `${target(page, found[1] ?? "")} ${found[2]} ${found[3]} ${found[4]} ${found[5]}` : "no switch";
    alternates[page] = [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
      (match) => `${match[1]} ${target(page, match[2] ?? "")}`,
    );
  }
  const twin = (page: string) => (page.startsWith("zh-CN/") ? page.slice("zh-CN/".length) : `zh-CN/${page}`);
  expect(switches, "each page's switch: target, hreflang, lang, remembered edition, words").toEqual(
    Object.fromEntries(
      built.pages.map((page) => [
        page,
        page.startsWith("zh-CN/") ? `${twin(page)} en en en English` : `${twin(page)} zh-CN zh-CN zh-CN 简体中文`,
      ]),
    ),
  );
  expect(alternates, "each page's alternates").toEqual(
    Object.fromEntries(
      built.pages.map((page) => {
        const english = page.startsWith("zh-CN/") ? twin(page) : page;
        return [page, [`en ${english}`, `zh-CN zh-CN/${english}`]];
      }),
    ),
  );
  expect(
    built.pages.filter((page) => !existsSync(join(out, twin(page)))),
    "pages whose twin was not built",
  ).toEqual([]);
});

it("drops the README's line to the twin page instead of showing it as a link to a repository file", () => {
  const leftovers = built.pages.filter((page) =>
    /data-repository-path="README(?:\.zh-CN)?\.md"|>\[(?:简体中文|English)\]\(README/.test(read(page)),
  );
  expect(leftovers, "pages with the README's switch line left").toEqual([]);
  for (const [page, name] of [
    ["index.html", "简体中文"],
    ["zh-CN/index.html", "English"],
    [`zh-CN/${stagePage(stage01.stage)}`, "English"],
    [`stages/${stage01.stage.id}.html`, "简体中文"],
  ] as const)
    expect(read(page).split(`>${name}</a>`).length - 1, `links reading "${name}" on ${page}: only the switch`).toBe(1);
});

it("keeps every link of a Chinese page inside the Chinese edition, but for the switch and the shared assets", () => {
  const outside: string[] = [];
  for (const page of built.pages.filter((candidate) => candidate.startsWith("zh-CN/"))) {
    const html = read(page);
    for (const tag of html.match(/<a [^>]*>/g) ?? []) {
      const href = /href="([^"]*)"/.exec(tag)?.[1] ?? "#";
      if (href.startsWith("#") || /^https?:/.test(href) || tag.includes("data-edition-switch")) continue;
      const where = target(page, href);
      if (!where.startsWith("zh-CN/") || !existsSync(join(out, where))) outside.push(`${page} → ${href}`);
    }
  }
  expect(outside, "links of Chinese pages that leave the edition or lead nowhere").toEqual([]);
  // A Chinese lesson links another lesson and the map by their Chinese files; both stay in the edition.
  const readme = chinese01.readme.replace(
    "\n## 先做判断\n",
    "\n见[地图](../README.zh-CN.md)、[阶段 02](../stage-02-workspace-path-policy/README.zh-CN.md)和[英文的阶段 03](../stage-03-dry-run-change-plan/README.md)。\n\n## 先做判断\n",
  );
  const html = lessonHtml({ ...chinese01, readme });
  expect(html, "the map from a Chinese lesson").toContain('<a href="../course-map.html">地图</a>');
  expect(html, "a Chinese lesson from a Chinese lesson").toContain('<a href="../stages/stage-02-workspace-path-policy.html">阶段 02</a>');
  expect(html, "an English lesson's file from a Chinese lesson").toContain(
    '<a href="../stages/stage-03-dry-run-change-plan.html">英文的阶段 03</a>',
  );
});

it("builds a Chinese stage page from README.zh-CN.md, with every widget's text from the zh-CN edition", () => {
  const spec = specIn(stage01.spec, "zh-CN");
  const contract = contractIn(stage01.contract, "zh-CN");
  if (!spec || !contract) throw new Error("stage 01 has its zh-CN text");
  const md = markdown(1, "zh-CN");
  const html = read(`zh-CN/${stagePage(stage01.stage)}`);
  const shown = {
    title: spec.title,
    question: md.renderInline(spec.prediction.question),
    why: md.renderInline(spec.prediction.why),
    "first hint": md.renderInline(spec.hints[0] ?? ""),
    "last hint": md.renderInline(spec.hints.at(-1) ?? ""),
    "transfer title": md.renderInline(spec.transfer.title),
    "transfer task": md.renderInline(spec.transfer.task),
    "design question": md.renderInline(spec.design.question),
    "first rubric item": md.renderInline(spec.design.rubric[0] ?? ""),
    "first diagnosis step": md.renderInline(contract.diagnosis[0] ?? ""),
    "fix principle": md.renderInline(contract.fixPrinciple),
  };
  expect(
    Object.fromEntries(Object.entries(shown).map(([name, text]) => [name, html.includes(text)])),
    "zh-CN texts on the Chinese page",
  ).toEqual(Object.fromEntries(Object.keys(shown).map((name) => [name, true])));
  const english = markdown(1, "en");
  const leaked = {
    question: english.renderInline(stage01.spec.prediction.question),
    "first hint": english.renderInline(stage01.spec.hints[0] ?? ""),
    "fix principle": english.renderInline(stage01.contract.fixPrinciple),
    "the first English heading": '<h2 id="the-problem">',
  };
  expect(
    Object.fromEntries(Object.entries(leaked).map(([name, text]) => [name, html.includes(text)])),
    "English texts on the Chinese page",
  ).toEqual(Object.fromEntries(Object.keys(leaked).map((name) => [name, false])));
  expect(html, "the first Chinese section, with its anchor").toContain('<h2 id="先看一个具体问题">先看一个具体问题</h2>');
  expect(html, "the table of contents links it").toContain('<a href="#先看一个具体问题">先看一个具体问题</a>');
});

it("says everything the site adds to a Chinese page in Chinese", () => {
  const english = TEXT.en;
  const html = read(`zh-CN/${stagePage(stage01.stage)}`)
    .replace(/<pre[\s\S]*?<\/pre>/g, "")
    .replace(/<script[\s\S]*?<\/script>/g, "");
  const words = {
    "Choose one answer": english.widgets.chooseOne,
    "Show hint 1 of …": english.widgets.showHint(1, chinese01.spec.hints.length),
    "the reference solution's button": english.reveals.solution.closed,
    "the challenge note": english.reveals.challengeNote,
    "the instructor view's button": english.widgets.instructor.closed,
    "the rubric's button": english.widgets.strongAnswer.closed,
    "Diagnosis, in order": "Diagnosis, in order",
    "Open when stuck": "Open when stuck",
    "the self-check's privacy note": english.panel.privacyHtml,
    "the CI note": english.verdicts.ciEvidenceNote,
    "On this page": english.nav.onThisPage,
    "Progress and self-check": english.nav.progress,
    "the challenge switch": english.stage.challengeSwitch,
    "the footer": english.page.footer,
    "not checked": `>${english.widgets.badge.unknown}<`,
  };
  expect(
    Object.fromEntries(Object.entries(words).map(([name, text]) => [name, html.includes(text)])),
    "English words of the site on the Chinese stage page",
  ).toEqual(Object.fromEntries(Object.keys(words).map((name) => [name, false])));
  const chinese = TEXT["zh-CN"];
  expect(html, "the hints button").toContain(`>${chinese.widgets.showHint(1, chinese01.spec.hints.length)}</button>`);
  expect(html, "the reference solution's button").toContain(`<span data-label="closed">${chinese.reveals.solution.closed}</span>`);
  expect(read("zh-CN/index.html"), "the board's first state").toContain('<span class="state" data-state>未开始</span>');
  expect(read("zh-CN/index.html"), "the states, in order").toContain(
    "状态依次为：未开始 → 阅读中 → 已下载实验 → 已读取测试结果 → 自检通过。",
  );
});

it("has the same keys in both tables of words, each a value of the same kind", () => {
  const shape = (value: unknown): unknown =>
    typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
      : typeof value;
  expect(shape(TEXT["zh-CN"]), "the Chinese table's keys and kinds").toEqual(shape(TEXT.en));
});

it("shows a stage without its translation in English inside the Chinese page, marked as English, and says so", () => {
  const html = stageMain(stage01, "zh-CN");
  expect(html, "the title, marked English").toContain(`<h1 lang="en">${stage01.spec.title}</h1>`);
  expect(html, "the note").toContain(`<p class="untranslated" role="note">${TEXT["zh-CN"].page.untranslated}</p>`);
  expect(html, "the lesson, marked English").toContain('<div class="lesson-body" lang="en">');
  expect(html, "the site's own buttons, in Chinese").toContain(TEXT["zh-CN"].reveals.solution.closed);
  expect(stageMain(chinese01, "zh-CN"), "a translated stage's page").not.toContain('lang="en"');
  const untranslated = { ...stage01, twins: {} };
  expect(contentIn(untranslated, "zh-CN"), "the Chinese edition of a stage without a twin lesson").toBe(null);
  expect(contentIn(stage01, "en"), "the English edition of a stage").toBe(stage01);
});

it("renders the Chinese course map from its twin, and from the English map, marked, while there is none", () => {
  const path = learningPath(
    course.stages.map(({ stage }) => stage),
    "zh-CN",
  );
  const twin =
    "# 课程地图\n\n[English](README.md)\n\n在阶段 01 之前阅读本页。\n\n## 卡住时怎么办\n\n<!-- forge:path -->\n<!-- /forge:path -->\n";
  const fromTwin = mapMain(twin, path, "zh-CN");
  expect(fromTwin, "the twin's heading, with its anchor").toContain('<h2 id="卡住时怎么办">卡住时怎么办</h2>');
  expect(fromTwin, "a page marked English").not.toContain('lang="en"');
  expect(fromTwin, "the path's table, in Chinese").toContain(`<th scope="col">${PATH_COLUMNS["zh-CN"][1]}</th>`);
  expect(fromTwin, "the twin's switch line").not.toContain("English");
  const fromEnglish = mapMain(sources.courseMap, path, "zh-CN", "en");
  expect(fromEnglish, "the English map, marked").toContain('<article class="course-map" lang="en">');
  expect(fromEnglish, "the path inside it, marked Chinese").toContain('<div lang="zh-CN"><figure class="path-figure">');
  // The repository's map has its twin: the built Chinese map is rendered from it.
  const mapPage = read(`zh-CN/${MAP_PAGE}`);
  expect(sources.courseMapTwins["zh-CN"]?.startsWith("# 课程地图\n"), "the twin read from stages/README.zh-CN.md").toBe(true);
  expect(mapPage, "the built Chinese map's article").toContain('<article class="course-map"><h1>课程地图</h1>');
  expect(mapPage, "the built Chinese map's path table").toContain(`<th scope="col">${PATH_COLUMNS["zh-CN"][3]}</th>`);
  expect(built.untranslated, "pages the build shows in English in another edition").toEqual([]);
});

it("gives the self-check's verdicts in Chinese with the Chinese table, and in English by default", () => {
  const data = courseData(course, "zh-CN");
  const stage = data.stages.find((candidate) => candidate.nn === "01");
  if (!stage) throw new Error("stage 01 is in the course data");
  const record = (failing: boolean) =>
    JSON.stringify(
      buildVerification({
        stage: stage01.stage,
        target: "workspace",
        generatedAt: new Date("2026-05-06T07:08:09.000Z"),
        tools: { node: "v20", vitest: "4", forgeLab: "0.2.0" },
        git: null,
        run: null,
        sources: [{ path: "workspace/forge/tools/registry.ts", sha256: "0".repeat(64) }],
        tests: stage.tests.map((name, index) => ({
          name,
          file: stage.testFiles.find((file) => file.endsWith(stage.mastery.includes(name) ? "registry.test.ts" : "transfer.test.ts")) ?? "",
          status: failing && index === 0 ? ("failed" as const) : ("passed" as const),
          durationMs: 1,
          failure: failing && index === 0 ? { kind: "assertion" as const, message: "expected 1 to be 2" } : null,
        })),
        loadErrors: [],
        complete: true,
        missingModules: [],
        contract: null,
      }),
    );
  const chinese = TEXT["zh-CN"].verdicts;
  expect(checkVerification(record(false), data, chinese).message, "the verdict on a passing run, in Chinese").toBe(
    `自检通过：${stage.id} 的全部 ${stage.tests.length} 个测试，在你自己工作区代码的一次运行中通过（2026-05-06T07:08:09.000Z）。`,
  );
  expect(checkVerification(record(true), data, chinese).message, "the verdict on a failing run, in Chinese").toBe(
    `已读取 ${stage.id} 的结果，尚未通过。这次运行自己记录的验收结果是 "failed"，不是 "passed"。有 1 个测试没有通过：“${stage.tests[0]}”（failed）。`,
  );
  expect(checkVerification("{ not json", data, chinese).message, "the verdict on a file that is not JSON").toMatch(/^这个文件不是 JSON（/);
  expect(checkVerification(record(false), data, VERDICTS).message, "the verdict in English").toMatch(
    /^Self-check passed: all \d+ tests of /,
  );
});

it("embeds each test name once in a page's course data, and reads back the same course data", () => {
  const data = courseData(course, "zh-CN");
  const packed = packCourse(data);
  expect(unpackCourse(JSON.parse(JSON.stringify(packed))), "the course data read back from the page").toEqual(data);
  const names = JSON.stringify(packed).match(/"[^"]*"/g) ?? [];
  const first = data.stages[0]?.mastery[0] ?? "";
  expect(names.filter((name) => name === JSON.stringify(first)).length, `times "${first}" is embedded`).toBe(1);
});

it("sends a home page to the remembered edition only when it is the other one, and survives refused storage", () => {
  expect(editionToOpen("en", "zh-CN"), "an English home page, Chinese remembered").toBe("zh-CN");
  expect(editionToOpen("zh-CN", "en"), "a Chinese home page, English remembered").toBe("en");
  expect(editionToOpen("zh-CN", "zh-CN"), "a Chinese home page, Chinese remembered").toBe(null);
  expect(editionToOpen("en", null), "an English home page, nothing remembered").toBe(null);
  const data = new Map<string, string>();
  const storage = { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
  rememberEdition(storage, "zh-CN");
  expect(data.get(EDITION_KEY), "what storage holds").toBe("zh-CN");
  expect(rememberedEdition(storage), "the remembered edition").toBe("zh-CN");
  data.set(EDITION_KEY, "fr");
  expect(rememberedEdition(storage), "an edition the site does not have").toBe(null);
  const refusing = {
    getItem: (): string | null => {
      throw new Error("denied");
    },
    setItem: () => {
      throw new Error("denied");
    },
  };
  expect(() => rememberEdition(refusing, "en"), "remembering in refused storage").not.toThrow();
  expect(rememberedEdition(refusing), "the edition remembered in refused storage").toBe(null);
});

it("builds a glossary page in each edition from every term of the glossary", () => {
  for (const locale of LOCALES) {
    const html = read(`${EDITION_DIRS[locale]}glossary.html`);
    const rows = [...html.matchAll(/<tr><th scope="row">([^<]*)<\/th>/g)].map((match) => match[1]);
    expect(rows, `the terms on the ${locale} glossary page, in the page's language`).toEqual(
      GLOSSARY.map((entry) => escapeHtml(entry[locale])),
    );
  }
  expect(read("index.html"), "the English home page's link to the glossary").toContain('<a href="glossary.html">Glossary</a>');
  expect(read("zh-CN/index.html"), "the Chinese home page's link to the glossary").toContain('<a href="glossary.html">术语表</a>');
});

it("shows each test of a Chinese stage page by its English name with its gloss beside it, and the English page without", () => {
  const spec = stage01.stage.spec;
  if (!spec) throw new Error("stage 01 has its stage.json");
  const [test] = spec.mastery;
  if (!test) throw new Error("stage 01 lists mastery tests");
  const gloss = spec["zh-CN"]?.tests?.[test];
  expect(gloss, `the Chinese gloss of "${test}" in stage 01's stage.json`).toBeTruthy();
  const mastery = (html: string) => /<li data-mastery>[^\n]*?<\/li>/.exec(html)?.[0] ?? "(no mastery item)";
  expect(mastery(stageMain(chinese01, "zh-CN")), "the first mastery item of the Chinese page").toContain(
    `<span class="test-name">${escapeHtml(test)}</span> <span class="gloss" lang="zh-CN">（${escapeHtml(gloss ?? "")}）</span>`,
  );
  expect(mastery(stageMain(stage01, "en")), "the first mastery item of the English page").not.toContain('class="gloss"');
});
