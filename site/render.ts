// Turns the course into HTML at build time: lessons rendered from their README with markdown-it and
// highlight.js, the generated blocks swapped for interactive widgets built from stage.json and
// failure.json, and one page template. No request ever leaves the page: everything is inlined or local.
import hljs from "highlight.js";
import markdownIt, { type MarkdownIt } from "markdown-it";
import { experimentId, faultCommand } from "../lab/catalog/catalog.js";
import { evidenceFolder } from "../lab/core/layout.js";
import { BLOCK_NAMES, blockPattern, FOLD_SUMMARY, scenarioLabel, scanFolds, type BlockName } from "../lab/authoring/lesson.js";
import { withLf } from "../lab/core/files.js";
import { OPTION_LETTERS } from "../lab/catalog/names.js";
import { strengthSentence } from "../lab/mutation/summary.js";
import { COURSE_DATA_ID, MAP_PAGE, STAGE_DATA_ID, type CourseData, type StagePageData } from "./client/course.js";
import { STATES } from "./client/progress.js";
import { CI_EVIDENCE_NOTE } from "./client/selfcheck.js";
import { stagePage, type StageContent } from "./content.js";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
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

/** Where a repository link to a lesson or to the course map goes on the site, or null for any other file. */
function siteLink(href: string, depth: number): string | null {
  const up = depth > 0 ? "../" : "";
  const lesson = /(?:^|\/)(stage-\d{2}-[a-z0-9-]+)\/README\.md$/.exec(href);
  if (lesson) return `${up}stages/${lesson[1]}.html`;
  // The course map is stages/README.md: `stages/README.md` from the top, `../README.md` from a lesson.
  if (/^(?:\.\/)?stages\/README\.md$/.test(href) || (depth > 0 && href === "../README.md")) return `${up}${MAP_PAGE}`;
  return null;
}

/** Markdown from the repository: no raw HTML, code highlighted, links to other lessons kept in the site. */
function markdown(depth: number): MarkdownIt {
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
      token.attrSet("title", `${href} in the repository`);
    }
    return defaultLink ? defaultLink(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };
  return md;
}

/** Inline markdown of a stage page (the widgets, a fold's summary): its links resolve from stages/. */
const inline = (text: string) => markdown(1).renderInline(text);

function table(rows: readonly (readonly [string, string])[]): string {
  return `<table class="facts"><tbody>${rows.map(([key, value]) => `<tr><th scope="row">${key}</th><td>${value}</td></tr>`).join("")}</tbody></table>`;
}

interface RevealLabels {
  /** The button while closed. */
  readonly closed: string;
  /** The button while open. */
  readonly open: string;
  /** For a challenge part: the button while closed with the Challenge switch on. */
  readonly challenge?: string;
}

/** The opening of a reveal: a button that shows one label at a time, and the body it opens. */
function revealStart(id: string, labels: RevealLabels): string {
  const part = labels.challenge !== undefined;
  const label = (kind: string, html: string, hidden: boolean) => `<span data-label="${kind}"${hidden ? " hidden" : ""}>${html}</span>`;
  const button = `<button type="button" class="reveal-button" aria-expanded="false" aria-controls="${id}" data-reveal>${label("closed", labels.closed, false)}${part ? label("challenge", labels.challenge ?? "", true) : ""}${label("open", labels.open, true)}</button>`;
  const note = part
    ? `<p class="challenge-note" data-challenge-note hidden>Hidden on the challenge path. Opening it is noted: only a run made before then counts as passed on the challenge path.</p>`
    : "";
  return `<div class="reveal${part ? " challenge-part" : ""}"${part ? " data-challenge-part" : ""}>${note}${button}<div id="${id}" class="reveal-body" hidden>`;
}

const REVEAL_END = "</div></div>";

function reveal(id: string, labels: RevealLabels, body: string): string {
  return `${revealStart(id, labels)}${body}${REVEAL_END}`;
}

function codeListing(path: string, code: string, language: string): string {
  return `<figure class="listing"><figcaption><code>${escapeHtml(path)}</code></figcaption>${codeBlock(highlight(code, language), language)}</figure>`;
}

function widget(name: BlockName, content: StageContent): string {
  const { stage, spec, contract } = content;
  switch (name) {
    case "predict": {
      const options = spec.prediction.options
        .map(
          (option, index) =>
            `<li><button type="button" class="option" data-option="${index}" aria-pressed="false"><span class="letter" aria-hidden="true">${OPTION_LETTERS[index]}</span><span class="option-text">${inline(option)}</span></button></li>`,
        )
        .join("");
      return `<section class="widget quiz" data-quiz aria-labelledby="quiz-question">
<p id="quiz-question" class="question">${inline(spec.prediction.question)}</p>
<ol class="options" aria-label="Choose one answer">${options}</ol>
<div class="quiz-feedback" aria-live="polite"><p class="quiz-verdict"></p><div class="quiz-why" hidden><p><strong>Why:</strong> ${inline(spec.prediction.why)}</p></div></div>
</section>`;
    }
    case "experiment":
      return table([
        ["Experiment id", `<code>${escapeHtml(experimentId(stage))}</code>`],
        ["Input scenario", inline(spec.scenario)],
        ["Evidence folder", `<code>${escapeHtml(evidenceFolder(stage))}/</code>`],
        ["Your acceptance", `<span data-acceptance>pending</span> <span class="muted">(from the last verification file you loaded)</span>`],
      ]);
    case "hints": {
      const hints = spec.hints
        .map(
          (hint, index) =>
            `<li class="hint" data-hint="${index}" tabindex="-1" hidden><strong>Hint ${index + 1}.</strong> ${inline(hint)}</li>`,
        )
        .join("");
      return `<section class="widget hints" data-hints aria-label="Graded hints">
<ol class="hint-list" aria-live="polite">${hints}</ol>
<button type="button" class="next-hint" data-next-hint>Show hint 1 of ${spec.hints.length}</button>
</section>`;
    }
    case "fault": {
      const several = content.faults.length > 1;
      const sections = content.faults.map((fault) => {
        const { contract: faultContract } = fault;
        const rows: [string, string][] = [
          ["Fault", `<code>${escapeHtml(fault.id)}</code>${several && fault.isDefault ? " (the stage's default fault)" : ""}`],
          ["Fault file", `<code>${escapeHtml(fault.file)}</code>`],
          ["Target test", escapeHtml(faultContract.targetTest)],
          ["Expected failure", `<code>/${escapeHtml(faultContract.expectedFailure)}/</code>`],
          ["Also failing", faultContract.alsoFailing.length === 0 ? "none" : faultContract.alsoFailing.map(escapeHtml).join("; ")],
        ];
        const steps = faultContract.diagnosis.map((step) => `<li>${inline(step)}</li>`).join("");
        const level = several ? "h4" : "h3";
        const heading = several ? `<h3>Fault <code>${escapeHtml(fault.id)}</code></h3>` : "";
        return `${heading}${table(rows)}<${level}>Diagnosis, in order</${level}><ol>${steps}</ol><p><strong>Fix principle.</strong> ${inline(faultContract.fixPrinciple)}</p><pre class="code"><code class="hljs">${highlight(faultCommand(stage, fault), "bash")}</code></pre><${level}>The fix, as a diff from the faulty module to the reference</${level}><pre class="code diff"><code class="hljs">${highlight(fault.diff, "diff")}</code></pre>`;
      });
      const intro = several
        ? `<p>This stage has ${content.faults.length} faults; <code>npm run lab -- fault ${stage.nn} --list</code> lists them.</p>`
        : "";
      return reveal(
        `instructor-${stage.nn}`,
        { closed: "Show the instructor view: fault contract and fix", open: "Hide the instructor view: fault contract and fix" },
        `${intro}${sections.join("")}`,
      );
    }
    case "transfer": {
      const { scenario, title, change, task, criteria, tests } = spec.transfer;
      return `<section class="widget transfer"><p><strong>${inline(title)}</strong> <span class="tag">${scenarioLabel(scenario, "en")}</span></p>
<p><em>What changes:</em> ${inline(change)}</p><p>${inline(task)}</p>
<h3>Done when</h3><ul>${criteria.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>
<h3>Tests that check it</h3><ul>${tests.map((test) => `<li>${escapeHtml(test)}</li>`).join("")}</ul></section>`;
    }
    case "design": {
      const items = spec.design.rubric
        .map(
          (item, index) =>
            `<li><input type="checkbox" id="rubric-${index}" data-rubric="${index}"><label for="rubric-${index}">${inline(item)}</label></li>`,
        )
        .join("");
      return `<section class="widget design"><p class="question">${inline(spec.design.question)}</p>
${reveal(`rubric-${stage.nn}`, { closed: "Show what a strong answer contains", open: "Hide what a strong answer contains" }, `<p>Tick what your answer covers. This is for you: it is kept in this browser only.</p><ul class="rubric">${items}</ul>`)}</section>`;
    }
    case "mastery": {
      const items = spec.mastery
        .map(
          (test) =>
            `<li data-mastery="${escapeHtml(test)}"><span class="badge" data-status="unknown">not checked</span> ${escapeHtml(test)}</li>`,
        )
        .join("");
      return `<section class="widget mastery"><p>These tests must pass against your own code in <code>workspace/</code>:</p><ul class="mastery-list">${items}</ul>
<pre class="code"><code class="hljs">${highlight(`npm test -- stage-${stage.nn}`, "bash")}</code></pre>${content.mutation ? `<p>${inline(strengthSentence(content.mutation, stage.nn))}</p>` : ""}${selfCheckPanel(`Load the verification.json of stage ${stage.nn}`)}</section>`;
    }
  }
}

export function selfCheckPanel(heading: string): string {
  return `<section class="selfcheck" data-selfcheck aria-labelledby="selfcheck-title">
<h3 id="selfcheck-title">${escapeHtml(heading)}</h3>
<p class="privacy">The file is read only in this browser: nothing is uploaded. The self-check verifies the lab contract, not a certification: the file is a run of your own code in <code>workspace/</code> (not a copy of the reference), its counts add up, and every test of the stage's current suite passed.</p>
<p class="privacy">What it cannot prove: that nobody edited the file by hand. Results a class can trust come from a CI run of your repository, not from a file on your machine.</p>
<p class="privacy ci-note">${escapeHtml(CI_EVIDENCE_NOTE)}</p>
<div class="dropzone" data-dropzone>
<label class="file-label" for="verification-file">Choose <code>verification.json</code></label>
<input type="file" id="verification-file" accept=".json,application/json" data-file>
<p class="drop-hint">or drop the file here</p>
</div>
<div class="local-evidence" data-local-evidence hidden><h4>Evidence files in this checkout</h4><ul></ul></div>
<div class="alert" role="alert" data-live-alert></div>
<p class="status" role="status" aria-live="polite" data-live-status></p>
</section>`;
}

/** The labels of a fold's reveal, from its summary ("Open when stuck: the steps"). */
function foldLabels(summary: string): RevealLabels {
  const what = inline(summary);
  return { closed: `${escapeHtml(FOLD_SUMMARY.trimEnd())} ${what}`, challenge: `Reveal a hidden part: ${what}`, open: `Hide: ${what}` };
}

/** The reference code, behind a reveal that is itself a challenge part. */
function solutionReveal(content: StageContent): string {
  const code = content.solution.map((file) => codeListing(file.path, file.code, "typescript")).join("");
  return reveal(
    `solution-${content.stage.nn}`,
    {
      closed: "Reveal the reference solution",
      challenge: "Show the reference solution, hidden on the challenge path",
      open: "Hide the reference solution",
    },
    code,
  );
}

/** How many parts of a lesson the challenge path hides: each fold, and the reference solution. */
export function challengeParts(content: StageContent): number {
  return scanFolds(content.readme).folds.length + 1;
}

/** Markdown tables may leave the corner header cell empty; a header must name its column, so it becomes a plain cell. */
function withoutEmptyHeaders(html: string): string {
  return html.replace(/<th><\/th>/g, "<td></td>");
}

/**
 * The lesson with its generated blocks replaced by widgets, each fold (the convention every lesson
 * follows) turned into a reveal marked as a challenge part, and the reference code behind a reveal.
 */
export function lessonHtml(content: StageContent): string {
  const placeholders = new Map<string, string>();
  let text = withLf(content.readme).replace(/^# .*\n/, "");
  for (const name of BLOCK_NAMES) {
    const pattern = blockPattern(name);
    const key = `FORGEWIDGET${name.toUpperCase()}`;
    text = text.replace(pattern, `\n${key}\n`);
    placeholders.set(key, widget(name, content));
  }
  // Each fold becomes two placeholders around its body, so the body is rendered in place, with the
  // rest of the lesson (its code fences, lists and links), and then wrapped in a reveal.
  const folds = scanFolds(text).folds;
  for (const [index, fold] of [...folds.entries()].reverse()) {
    const start = `FORGEFOLDSTART${index}`;
    const end = `FORGEFOLDEND${index}`;
    text = `${text.slice(0, fold.start)}\n\n${start}\n\n${fold.body}\n\n${end}\n\n${text.slice(fold.end)}`;
    placeholders.set(start, revealStart(`fold-${content.stage.nn}-${index + 1}`, foldLabels(fold.summary)));
    placeholders.set(end, REVEAL_END);
  }
  let html = markdown(1).render(text);
  // Replacements are given as functions: a string would have its `$&`, `$'` and `$1` read as patterns,
  // and lessons and code (stage 09's shell syntax, say) contain exactly those.
  for (const [key, replacement] of placeholders) {
    const marker = `<p>${key}</p>`;
    if (!html.includes(marker)) throw new Error(`${content.stage.id}: the lesson's ${key} did not render as a paragraph of its own`);
    html = html.replace(marker, () => replacement);
  }
  // Anchors for the table of contents; the reference code goes at the end of its own section.
  html = html.replace(/<h2>(.*?)<\/h2>/g, (_match: string, title: string) => `<h2 id="${slug(title)}">${title}</h2>`);
  return withoutEmptyHeaders(html).replace(/(<h2 id="guided-practice">)/, (heading: string) => `${solutionReveal(content)}\n${heading}`);
}

export function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export interface PageInput {
  readonly title: string;
  readonly description: string;
  /** 0 for the home page, 1 for a stage page. */
  readonly depth: 0 | 1;
  readonly main: string;
  readonly course: CourseData;
  readonly stage?: StagePageData;
  readonly nav?: string;
}

function jsonScript(id: string, data: unknown): string {
  // `<` is escaped so no text in the data can close the script element.
  return `<script type="application/json" id="${id}">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

export function page(input: PageInput): string {
  const up = input.depth === 1 ? "../" : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'">
<title>${escapeHtml(input.title)}</title>
<meta name="description" content="${escapeHtml(input.description)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${up}assets/app.css">
${jsonScript(COURSE_DATA_ID, input.course)}
${input.stage ? jsonScript(STAGE_DATA_ID, input.stage) : ""}
<script defer src="${up}assets/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="site-header"><a class="brand" href="${up}index.html">Forge Lab</a><span class="tagline">Tools, sandboxes and side-effect control</span></header>
<div class="layout">
${input.nav ?? ""}
<main id="main" tabindex="-1">
${input.main}
</main>
</div>
<footer class="site-footer"><p>Forge Lab · MIT licensed · progress is kept in this browser only.</p></footer>
</body>
</html>
`;
}

/** The side navigation: this page's sections, then the course map and the stages in order. */
export function siteNav(current: string, course: CourseData, sections: readonly string[], depth: 0 | 1): string {
  const up = depth > 0 ? "../" : "";
  const here = (id: string) => (id === current ? ' aria-current="page"' : "");
  const stages = course.stages
    .map((stage) => `<li><a href="${up}${stage.page}"${here(stage.id)}>${stage.nn} · ${escapeHtml(stage.title)}</a></li>`)
    .join("");
  const map = `<li><a href="${up}${MAP_PAGE}"${here(MAP_PAGE)}>Course map</a></li>`;
  const toc = sections.map((section) => `<li><a href="#${slug(section)}">${escapeHtml(section)}</a></li>`).join("");
  return `<nav class="side" aria-label="Course"><h2 class="nav-title">On this page</h2><ol class="toc">${toc}</ol><h2 class="nav-title">Stages</h2><ol class="stage-list">${map}${stages}</ol><p><a href="${up}index.html">Progress and self-check</a></p></nav>`;
}

export function homeMain(course: CourseData, overview: string): string {
  const rows = course.stages
    .map(
      (stage) =>
        `<tr data-stage-row="${stage.id}"><td>${stage.nn}</td><td><a href="${stagePage(stage)}">${escapeHtml(stage.title)}</a><br><span class="muted">${escapeHtml(stage.summary)}</span></td><td><span class="state" data-state>${STATES[0]}</span><span class="challenge-mark" data-challenge-mark hidden>passed on the challenge path</span></td></tr>`,
    )
    .join("");
  return `${overview}
<section aria-labelledby="board-title"><h2 id="board-title">Your progress</h2>
<table class="board"><caption class="visually-hidden">State of each stage</caption><thead><tr><th scope="col">Stage</th><th scope="col">Lesson</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">States, in order: ${STATES.join(" → ")}. A stage is marked "passed on the challenge path" when its self-check passed with a run made before any of its challenge parts was revealed.</p>
<button type="button" class="reset" data-reset>Reset progress</button> <span class="muted" data-storage-note></span>
</section>
${selfCheckPanel("Self-check: load a verification.json")}`;
}

export function stageMain(content: StageContent): string {
  const { stage, spec } = content;
  return `<article class="lesson">
<p class="eyebrow">Stage ${stage.nn}</p>
<h1>${escapeHtml(spec.title)}</h1>
<p class="lead">${inline(spec.summary)}</p>
<p class="lab-setup" data-lab-setup><input type="checkbox" id="lab-downloaded" data-downloaded><label for="lab-downloaded">I have the lab on my machine and ran <code>npm test -- stage-${stage.nn}</code></label></p>
<p class="lab-setup" data-lab-present hidden><span>The lab is on this machine: <code>npm start</code> serves this page.</span></p>
<div class="challenge-setup"><p class="switch"><input type="checkbox" role="switch" id="challenge-switch" data-challenge-switch><label for="challenge-switch">Challenge path: keep the worked steps and the reference solution hidden until I reveal them</label></p>
<p class="muted" data-challenge-status></p></div>
${lessonHtml(content)}
</article>`;
}

export { markdown };
