// Turns the course into HTML at build time, in each edition: lessons rendered from their README with
// markdown-it and highlight.js, the generated blocks swapped for widgets built from stage.json and
// failure.json, and one page template. An interactive widget's HTML comes from its module in
// client/widgets/, which also hydrates it in the page; this file renders the markdown and code it is
// given. Every word comes from the edition's table (client/text.ts). No request ever leaves the page:
// everything is inlined or local.
import hljs from "highlight.js";
import markdownIt, { type MarkdownIt } from "markdown-it";
import { switchLine } from "../lab/authoring/editions.js";
import { BLOCK_NAMES, blockPattern, FOLD_SUMMARIES, scenarioLabel, scanFolds, type BlockName } from "../lab/authoring/lesson.js";
import { BLOCK_WORDS } from "../lab/authoring/words/index.js";
import { experimentId, faultCommand } from "../lab/catalog/catalog.js";
import { withLf } from "../lab/core/files.js";
import { evidenceFolder, localized } from "../lab/core/layout.js";
import { testGloss } from "../lab/i18n/content.js";
import { GLOSSARY, term } from "../lab/i18n/glossary.js";
import { LOCALE_NAMES, LOCALES, type Locale } from "../lab/core/locale.js";
import { strengthSentence } from "../lab/mutation/summary.js";
import { type CourseData } from "../lab/evidence/course-data.js";
import { EDITION_DIRS, GLOSSARY_PAGE, MAP_PAGE, STAGE_DATA_ID, type StagePageData } from "./client/course.js";
import { STATES } from "./client/progress.js";
import { TEXT } from "./client/text.js";
import { hintsHtml } from "./client/widgets/hints.js";
import { acceptanceHtml, masteryHtml } from "./client/widgets/mastery.js";
import { quizHtml } from "./client/widgets/quiz.js";
import { foldLabels, REVEAL_END, revealHtml, revealStart } from "./client/widgets/reveal.js";
import { rubricHtml } from "./client/widgets/rubric.js";
import { selfCheckPanelHtml } from "./client/widgets/selfcheck-panel.js";
import { escapeHtml } from "./client/widgets/shared.js";
import { stagePage, type StageContent } from "./content.js";

/** ` lang="…"` for text in another language than the page around it, else nothing. */
export function langAttribute(text: Locale, page: Locale): string {
  return text === page ? "" : ` lang="${text}"`;
}

function highlight(code: string, language: string): string {
  const lang = language === "sh" ? "bash" : language;
  return hljs.getLanguage(lang) ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value : escapeHtml(code);
}

/** A code block; its language travels with it, to name it when it scrolls (see the browser code). */
function codeBlock(html: string, language: string): string {
  const lang = language.trim().split(/\s+/)[0] ?? "";
  return `<pre class="code"${lang ? ` data-lang="${escapeHtml(lang)}"` : ""}><code class="hljs">${html}</code></pre>`;
}

/** The line each page has after its H1 leading to its twin (`[简体中文](README.zh-CN.md)`): on the site the language switch does that. */
const SWITCH_LINES = new Set(LOCALES.map((locale) => switchLine(localized("README.md", locale), locale)));

/** The markdown of a page without its line leading to its twin. */
export function withoutSwitchLine(markdown: string): string {
  return withLf(markdown)
    .split("\n")
    .filter((line) => !SWITCH_LINES.has(line))
    .join("\n");
}

// A lesson or the course map in any edition: `README.md` or its twin `README.zh-CN.md`.
const README = `README(?:\\.(?:${LOCALES.filter((locale) => locale !== "en").join("|")}))?\\.md`;
const LESSON_LINK = new RegExp(`(?:^|/)(stage-\\d{2}-[a-z0-9-]+)/${README}$`);
const MAP_LINK = new RegExp(`^(?:\\./)?stages/${README}$`);
const MAP_LINK_FROM_LESSON = new RegExp(`^\\.\\./${README}$`);

/**
 * Where a repository link to a lesson or to the course map goes on the site, or null for any other file.
 * Either edition's file leads to the page of the edition being built: a lesson links within its edition.
 */
function siteLink(href: string, depth: number): string | null {
  const up = depth > 0 ? "../" : "";
  const lesson = LESSON_LINK.exec(href);
  if (lesson) return `${up}stages/${lesson[1]}.html`;
  // The course map is stages/README.md: `stages/README.md` from the top, `../README.md` from a lesson.
  if (MAP_LINK.test(href) || (depth > 0 && MAP_LINK_FROM_LESSON.test(href))) return `${up}${MAP_PAGE}`;
  return null;
}

const renderers = new Map<string, MarkdownIt>();

/**
 * Markdown from the repository, for a page `depth` folders below its edition's root: no raw HTML, code
 * highlighted, links to other lessons kept in the site, and a repository file named in `locale`.
 */
function markdown(depth: number, locale: Locale = "en"): MarkdownIt {
  const key = `${depth} ${locale}`;
  const known = renderers.get(key);
  if (known) return known;
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  md.options.highlight = (code, language) => codeBlock(highlight(code, language), language);
  const defaultLink = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const href = String(token?.attrGet("href") ?? "");
    const site = siteLink(href, depth);
    if (token && site) token.attrSet("href", site);
    else if (token && !/^(?:https?:|#)/.test(href)) {
      // A file of the repository: not part of the site, so name it instead of linking to nothing.
      token.attrSet("href", "#");
      token.attrSet("data-repository-path", href);
      token.attrSet("title", TEXT[locale].page.repositoryFile(href));
    }
    return defaultLink ? defaultLink(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };
  renderers.set(key, md);
  return md;
}

/** Inline markdown of a stage page (the widgets, a fold's summary): its links resolve from stages/. */
const inline = (text: string, locale: Locale) => markdown(1, locale).renderInline(text);

/** A block's label as a heading: "Done when:" → "Done when". */
const asHeading = (label: string) => label.replace(/[:：]$/, "");

function table(rows: readonly (readonly [string, string])[]): string {
  return `<table class="facts"><tbody>${rows.map(([key, value]) => `<tr><th scope="row">${key}</th><td>${value}</td></tr>`).join("")}</tbody></table>`;
}

function codeListing(path: string, code: string, language: string): string {
  return `<figure class="listing"><figcaption><code>${escapeHtml(path)}</code></figcaption>${codeBlock(highlight(code, language), language)}</figure>`;
}

/**
 * A widget: its labels in the page's edition (`locale`), its text from the content's stage.json and
 * failure.json (the same edition, unless the stage is not translated yet). An interactive widget's HTML
 * is its module's (client/widgets/), given the markdown and code rendered here. The experiment card, the
 * order and the transfer have no behaviour (the card's acceptance line is the mastery module's): they are
 * tables and lists of rendered markdown, so they stay here, beside the markdown they are made of.
 */
function widget(name: BlockName, content: StageContent, locale: Locale): string {
  const { stage, spec } = content;
  const text = TEXT[locale];
  const words = text.widgets;
  const block = BLOCK_WORDS[locale];
  const md = (markdownText: string) => inline(markdownText, locale);
  // A test goes by its English name (what vitest prints and a learner searches for), with the edition's gloss beside it.
  const gloss = (test: string) => {
    const glossed = stage.spec ? testGloss(stage.spec, locale, test) : undefined;
    return glossed ? ` <span class="gloss" lang="${locale}">（${escapeHtml(glossed)}）</span>` : "";
  };
  const testName = (test: string) => `${escapeHtml(test)}${gloss(test)}`;
  switch (name) {
    case "predict":
      return quizHtml(
        { questionHtml: md(spec.prediction.question), optionsHtml: spec.prediction.options.map(md), whyHtml: md(spec.prediction.why) },
        text,
      );
    case "experiment":
      return table([
        [words.experimentId, `<code>${escapeHtml(experimentId(stage))}</code>`],
        [words.inputScenario, md(spec.scenario)],
        [words.evidenceFolder, `<code>${escapeHtml(evidenceFolder(stage))}/</code>`],
        [words.yourAcceptance, acceptanceHtml(words)],
        [escapeHtml(term("Usually takes", locale)), escapeHtml(block.minutes(spec.effort.minutes))],
      ]);
    case "order": {
      if (!spec.order) return `<p>${md(block.anyOrder(spec.mastery.length + spec.transfer.tests.length))}</p>`;
      const steps = spec.order
        .map((step) => `<li><p>${md(step.why)}</p><ul>${step.tests.map((test) => `<li>${testName(test)}</li>`).join("")}</ul></li>`)
        .join("");
      return `<section class="widget order"><p>${md(block.order)}</p><ol>${steps}</ol></section>`;
    }
    case "hints":
      return hintsHtml(spec.hints.map(md), text);
    case "fault": {
      const several = content.faults.length > 1;
      const sections = content.faults.map((fault) => {
        const { contract: faultContract } = fault;
        const rows: [string, string][] = [
          [words.fault, `<code>${escapeHtml(fault.id)}</code>${several && fault.isDefault ? words.defaultFault : ""}`],
          [words.faultFile, `<code>${escapeHtml(fault.file)}</code>`],
          [words.targetTest, testName(faultContract.targetTest)],
          [words.expectedFailure, `<code>/${escapeHtml(faultContract.expectedFailure)}/</code>`],
          [
            words.alsoFailing,
            faultContract.alsoFailing.length === 0
              ? block.none
              : faultContract.alsoFailing.map((test) => testName(test)).join(locale === "en" ? "; " : "；"),
          ],
        ];
        const steps = faultContract.diagnosis.map((step) => `<li>${md(step)}</li>`).join("");
        const level = several ? "h4" : "h3";
        const heading = several ? `<h3>${words.faultHeadingHtml(`<code>${escapeHtml(fault.id)}</code>`)}</h3>` : "";
        return `${heading}${table(rows)}<${level}>${asHeading(block.diagnosis)}</${level}><ol>${steps}</ol><p>${md(block.fixPrinciple)}${text.gap}${md(faultContract.fixPrinciple)}</p><pre class="code"><code class="hljs">${highlight(faultCommand(stage, fault), "bash")}</code></pre><${level}>${words.diffHeading}</${level}><pre class="code diff"><code class="hljs">${highlight(fault.diff, "diff")}</code></pre>`;
      });
      const intro = several
        ? `<p>${words.faultsIntroHtml(content.faults.length, `<code>npm run lab -- fault ${stage.nn} --list</code>`)}</p>`
        : "";
      return revealHtml(`instructor-${stage.nn}`, words.instructor, `${intro}${sections.join("")}`, text.reveals);
    }
    case "transfer": {
      const { scenario, title, change, task, criteria, tests } = spec.transfer;
      return `<section class="widget transfer"><p><strong>${md(title)}</strong> <span class="tag">${scenarioLabel(scenario, locale)}</span></p>
<p>${md(block.whatChanges)}${text.gap}${md(change)}</p><p>${md(task)}</p>
<h3>${asHeading(block.doneWhen)}</h3><ul>${criteria.map((item) => `<li>${md(item)}</li>`).join("")}</ul>
<h3>${asHeading(block.testsThatCheck)}</h3><ul>${tests.map((test) => `<li>${testName(test)}</li>`).join("")}</ul></section>`;
    }
    case "design":
      return rubricHtml(stage.nn, md(spec.design.question), spec.design.rubric.map(md), text);
    case "mastery":
      return masteryHtml(
        stage.nn,
        {
          introHtml: md(block.mastery),
          tests: spec.mastery.map((test) => ({ name: test, glossHtml: gloss(test) })),
          commandHtml: highlight(`npm test -- stage-${stage.nn}`, "bash"),
          strengthHtml: content.mutation ? md(strengthSentence(content.mutation, stage.nn, locale)) : undefined,
        },
        text,
      );
  }
}

/** The reference code, behind a reveal that is itself a challenge part. */
function solutionReveal(content: StageContent, locale: Locale): string {
  const code = content.solution.map((file) => codeListing(file.path, file.code, "typescript")).join("");
  const words = TEXT[locale].reveals;
  return revealHtml(`solution-${content.stage.nn}`, words.solution, code, words);
}

/** How many parts of a lesson the challenge path hides: each fold, and the reference solution. */
export function challengeParts(content: StageContent): number {
  return scanFolds(content.readme, content.locale).folds.length + 1;
}

/** Markdown tables may leave the corner header cell empty; a header must name its column, so it becomes a plain cell. */
function withoutEmptyHeaders(html: string): string {
  return html.replace(/<th><\/th>/g, "<td></td>");
}

/**
 * The lesson with its generated blocks replaced by widgets, each fold (the convention every lesson
 * follows) turned into a reveal marked as a challenge part, and the reference code behind a reveal. The
 * labels the site adds are in the page's edition, `locale`: the lesson's own, unless it is not
 * translated yet.
 */
export function lessonHtml(content: StageContent, locale: Locale = content.locale): string {
  const placeholders = new Map<string, string>();
  let text = withoutSwitchLine(content.readme).replace(/^# .*\n/, "");
  for (const name of BLOCK_NAMES) {
    const pattern = blockPattern(name);
    const key = `FORGEWIDGET${name.toUpperCase()}`;
    text = text.replace(pattern, `\n${key}\n`);
    placeholders.set(key, widget(name, content, locale));
  }
  // Each fold becomes two placeholders around its body, so the body is rendered in place, with the
  // rest of the lesson (its code fences, lists and links), and then wrapped in a reveal.
  const folds = scanFolds(text, content.locale).folds;
  for (const [index, fold] of [...folds.entries()].reverse()) {
    const start = `FORGEFOLDSTART${index}`;
    const end = `FORGEFOLDEND${index}`;
    text = `${text.slice(0, fold.start)}\n\n${start}\n\n${fold.body}\n\n${end}\n\n${text.slice(fold.end)}`;
    const words = TEXT[locale].reveals;
    const labels = foldLabels(FOLD_SUMMARIES[locale], inline(fold.summary, locale), words);
    placeholders.set(start, revealStart(`fold-${content.stage.nn}-${index + 1}`, labels, words));
    placeholders.set(end, REVEAL_END);
  }
  let html = markdown(1, locale).render(text);
  // Replacements are given as functions: a string would have its `$&`, `$'` and `$1` read as patterns,
  // and lessons and code (stage 09's shell syntax, say) contain exactly those.
  for (const [key, replacement] of placeholders) {
    const marker = `<p>${key}</p>`;
    if (!html.includes(marker)) throw new Error(`${content.stage.id}: the lesson's ${key} did not render as a paragraph of its own`);
    html = html.replace(marker, () => replacement);
  }
  // Anchors for the table of contents; the reference code goes at the end of its own section.
  html = withHeadingIds(html);
  const practice = `<h2 id="${slug(term("Guided practice", content.locale))}">`;
  return withoutEmptyHeaders(html).replace(practice, (heading: string) => `${solutionReveal(content, locale)}\n${heading}`);
}

/** Every H2 with the id the table of contents links to. */
export function withHeadingIds(html: string): string {
  return html.replace(/<h2>(.*?)<\/h2>/g, (_match: string, title: string) => `<h2 id="${slug(title)}">${title}</h2>`);
}

/** An anchor for a heading in either edition: lower-case letters and digits of any script, dashes between. */
export function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");
}

export interface PageInput {
  readonly locale: Locale;
  /** The page's path below its edition's root: `index.html`, `stages/<id>.html`. */
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly main: string;
  readonly stage?: StagePageData;
  readonly nav?: string;
}

/** Each edition's browser script: the same code, with only that edition's words (client/words.ts). */
export const appScript = (locale: Locale) => `app.${locale}.js`;

/** How many folders a page is below its edition's root. */
const depthOf = (path: string) => path.split("/").length - 1;

/** The way up from a page of `locale` at `path` to the site's root, where the assets are. */
function toRoot(locale: Locale, path: string): string {
  return "../".repeat(depthOf(`${EDITION_DIRS[locale]}${path}`));
}

function jsonScript(id: string, data: unknown): string {
  // `<` is escaped so no text in the data can close the script element.
  return `<script type="application/json" id="${id}">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

/** The same page in each edition, from a page of `locale` at `path`. */
function twinHref(locale: Locale, path: string, twin: Locale): string {
  return `${toRoot(locale, path)}${EDITION_DIRS[twin]}${path}`;
}

export function page(input: PageInput): string {
  const { locale, path } = input;
  const text = TEXT[locale];
  const root = toRoot(locale, path);
  const up = "../".repeat(depthOf(path));
  const others = LOCALES.filter((other) => other !== locale);
  const alternates = LOCALES.map((twin) => `<link rel="alternate" hreflang="${twin}" href="${twinHref(locale, path, twin)}">`).join("\n");
  const switches = others
    .map(
      (other) =>
        `<a class="edition-switch" href="${twinHref(locale, path, other)}" hreflang="${other}" lang="${other}" data-edition-switch="${other}">${LOCALE_NAMES[other]}</a>`,
    )
    .join("");
  // The home page sends a learner who chose the other edition there, before it is drawn (client/home.ts).
  const home = path === "index.html" ? `\n<script src="${root}assets/home.js"></script>` : "";
  return `<!doctype html>
<html lang="${locale}" data-root="${root}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'">
<title>${escapeHtml(input.title)}</title>
<meta name="description" content="${escapeHtml(input.description)}">
<link rel="icon" href="data:,">
${alternates}${home}
<link rel="stylesheet" href="${root}assets/app.css">
${input.stage ? jsonScript(STAGE_DATA_ID, input.stage) : ""}
<script defer data-app src="${root}assets/${appScript(locale)}"></script>
</head>
<body>
<a class="skip" href="#main">${text.page.skip}</a>
<header class="site-header"><a class="brand" href="${up}index.html">Forge Lab</a><span class="tagline">${text.page.tagline}</span><nav class="site-links" aria-label="${text.page.siteLinks}"><a href="${up}${GLOSSARY_PAGE}"${path === GLOSSARY_PAGE ? ' aria-current="page"' : ""}>${text.page.glossary}</a>${switches}</nav></header>
<div class="layout">
${input.nav ?? ""}
<main id="main" tabindex="-1">
${input.main}
</main>
</div>
<footer class="site-footer"><p>${text.page.footer}</p></footer>
</body>
</html>
`;
}

export interface NavInput {
  readonly locale: Locale;
  /** The page's stage id, or its path below the edition's root for any other page. */
  readonly current: string;
  readonly course: CourseData;
  /** This page's sections, and the edition they are written in (English, for a page not translated yet). */
  readonly sections: readonly string[];
  readonly sectionsLocale?: Locale;
  /** How many folders the page is below its edition's root. */
  readonly depth: 0 | 1;
}

/** The side navigation: this page's sections, then the course map and the stages in order. */
export function siteNav(input: NavInput): string {
  const { locale, current, course, sections, depth } = input;
  const text = TEXT[locale].nav;
  const up = depth > 0 ? "../" : "";
  const here = (id: string) => (id === current ? ' aria-current="page"' : "");
  const stages = course.stages
    .map(
      (stage) =>
        `<li><a href="${up}${stage.page}"${here(stage.id)}${langAttribute(stage.locale, locale)}>${stage.nn} · ${escapeHtml(stage.title)}</a></li>`,
    )
    .join("");
  const map = `<li><a href="${up}${MAP_PAGE}"${here(MAP_PAGE)}>${text.courseMap}</a></li>`;
  const toc = sections.map((section) => `<li><a href="#${slug(section)}">${escapeHtml(section)}</a></li>`).join("");
  const onThisPage =
    sections.length === 0
      ? ""
      : `<h2 class="nav-title">${text.onThisPage}</h2><ol class="toc"${langAttribute(input.sectionsLocale ?? locale, locale)}>${toc}</ol>`;
  return `<nav class="side" aria-label="${text.label}">${onThisPage}<h2 class="nav-title">${text.stages}</h2><ol class="stage-list">${map}${stages}</ol><p><a href="${up}index.html">${text.progress}</a></p></nav>`;
}

export function homeMain(course: CourseData, overview: string, locale: Locale): string {
  const text = TEXT[locale].home;
  const rows = course.stages
    .map(
      (stage) =>
        `<tr data-stage-row="${stage.id}"><td>${stage.nn}</td><td${langAttribute(stage.locale, locale)}><a href="${stagePage(stage)}">${escapeHtml(stage.title)}</a><br><span class="muted">${escapeHtml(stage.summary)}</span></td><td><span class="state" data-state>${term(STATES[0], locale)}</span><span class="challenge-mark" data-challenge-mark hidden>${text.challengeMark}</span></td></tr>`,
    )
    .join("");
  const [stageColumn, lessonColumn, stateColumn] = text.columns;
  const states = STATES.map((state) => term(state, locale));
  return `${overview}
<section aria-labelledby="board-title"><h2 id="board-title">${text.boardTitle}</h2>
<table class="board"><caption class="visually-hidden">${text.boardCaption}</caption><thead><tr><th scope="col">${stageColumn}</th><th scope="col">${lessonColumn}</th><th scope="col">${stateColumn}</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">${escapeHtml(text.statesNote(states, text.challengeMark))}</p>
<button type="button" class="reset" data-reset>${text.reset}</button> <span class="muted" data-storage-note></span>
</section>
${selfCheckPanelHtml(text.selfCheckHeading, TEXT[locale])}`;
}

/** The note on a page of one edition that shows another's text, because its translation is not written yet. */
export function untranslatedNote(locale: Locale): string {
  return `<p class="untranslated" role="note">${TEXT[locale].page.untranslated}</p>`;
}

/**
 * A stage page of `locale`. `content` is the lesson in that edition, or the English one while the stage
 * has no translation: its text is then marked as English, and the page says why.
 */
export function stageMain(content: StageContent, locale: Locale): string {
  const { stage, spec } = content;
  const text = TEXT[locale].stage;
  const lang = langAttribute(content.locale, locale);
  return `<article class="lesson">
<p class="eyebrow">${text.eyebrow(stage.nn)}</p>
<h1${lang}>${escapeHtml(spec.title)}</h1>
${lang ? untranslatedNote(locale) : ""}<p class="lead"${lang}>${inline(spec.summary, content.locale)}</p>
<p class="lab-setup" data-lab-setup><input type="checkbox" id="lab-downloaded" data-downloaded><label for="lab-downloaded">${text.labDownloadedHtml(stage.nn)}</label></p>
<p class="lab-setup" data-lab-present hidden><span>${text.labPresentHtml}</span></p>
<div class="challenge-setup"><p class="switch"><input type="checkbox" role="switch" id="challenge-switch" data-challenge-switch><label for="challenge-switch">${text.challengeSwitch}</label></p>
<p class="muted" data-challenge-status></p></div>
${lang ? `<div class="lesson-body"${lang}>${lessonHtml(content, locale)}</div>` : lessonHtml(content)}
</article>`;
}

/** The glossary page: every term of lab/i18n/glossary.ts, in the page's language first, then the other edition's. */
export function glossaryMain(locale: Locale): string {
  const text = TEXT[locale].glossary;
  const others = LOCALES.filter((other) => other !== locale);
  const rows = GLOSSARY.map(
    (entry) =>
      `<tr><th scope="row">${escapeHtml(entry[locale])}</th>${others.map((other) => `<td lang="${other}">${escapeHtml(entry[other])}</td>`).join("")}<td${langAttribute("en", locale)}>${escapeHtml(entry.note)}</td></tr>`,
  ).join("");
  const columns = [locale, ...others].map((edition) => `<th scope="col"${langAttribute(edition, locale)}>${LOCALE_NAMES[edition]}</th>`);
  return `<article class="glossary">
<h1>${text.heading}</h1>
<p>${text.introHtml}</p>
<table class="terms"><thead><tr>${columns.join("")}<th scope="col">${text.noteColumn}</th></tr></thead><tbody>${rows}</tbody></table>
</article>`;
}

export { markdown };
