// Turns the course into HTML at build time: lessons rendered from their README with markdown-it and
// highlight.js, the generated blocks swapped for interactive widgets built from stage.json and
// failure.json, and one page template. No request ever leaves the page: everything is inlined or local.
import hljs from "highlight.js";
import markdownIt, { type MarkdownIt } from "markdown-it";
import { experimentId, faultCommand } from "../lab/catalog/catalog.js";
import { evidenceFolder } from "../lab/core/layout.js";
import { BLOCK_NAMES, blockPattern, SCENARIO_LABELS, type BlockName } from "../lab/authoring/lesson.js";
import { OPTION_LETTERS } from "../lab/catalog/names.js";
import { COURSE_DATA_ID, STAGE_DATA_ID, type CourseData, type StagePageData } from "./client/course.js";
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

/** Markdown from the repository: no raw HTML, code highlighted, links to other lessons kept in the site. */
function markdown(depth: number): MarkdownIt {
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  md.options.highlight = (code, language) => `<pre class="code"><code class="hljs">${highlight(code, language)}</code></pre>`;
  const defaultLink = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const href = String(token?.attrGet("href") ?? "");
    const lesson = /(?:^|\/)stages\/(stage-\d{2}-[a-z0-9-]+)\/README\.md$/.exec(href);
    if (token && lesson) token.attrSet("href", `${depth > 0 ? "" : "stages/"}${lesson[1]}.html`);
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

const inline = (text: string) => markdown(0).renderInline(text);

function table(rows: readonly (readonly [string, string])[]): string {
  return `<table class="facts"><tbody>${rows.map(([key, value]) => `<tr><th scope="row">${key}</th><td>${value}</td></tr>`).join("")}</tbody></table>`;
}

function reveal(id: string, label: string, body: string): string {
  return `<div class="reveal"><button type="button" class="reveal-button" aria-expanded="false" aria-controls="${id}" data-reveal>${label}</button><div id="${id}" class="reveal-body" hidden>${body}</div></div>`;
}

function codeListing(path: string, code: string, language: string): string {
  return `<figure class="listing"><figcaption><code>${escapeHtml(path)}</code></figcaption><pre class="code"><code class="hljs">${highlight(code, language)}</code></pre></figure>`;
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
      const rows: [string, string][] = [
        ["Fault", `<code>${escapeHtml(contract.id)}</code>`],
        ["Fault file", `<code>faulty/${escapeHtml(stage.id)}/${escapeHtml(contract.faultFile)}</code>`],
        ["Target test", escapeHtml(contract.targetTest)],
        ["Expected failure", `<code>/${escapeHtml(contract.expectedFailure)}/</code>`],
        ["Also failing", contract.alsoFailing.length === 0 ? "none" : contract.alsoFailing.map(escapeHtml).join("; ")],
      ];
      const steps = contract.diagnosis.map((step) => `<li>${inline(step)}</li>`).join("");
      const body = `${table(rows)}<h3>Diagnosis, in order</h3><ol>${steps}</ol><p><strong>Fix principle.</strong> ${inline(contract.fixPrinciple)}</p><pre class="code"><code class="hljs">${highlight(faultCommand(stage), "bash")}</code></pre><h3>The fix, as a diff from the faulty module to the reference</h3><pre class="code diff"><code class="hljs">${highlight(content.faultDiff, "diff")}</code></pre>`;
      return reveal(`instructor-${stage.nn}`, "Show the instructor view: fault contract and fix", body);
    }
    case "transfer": {
      const { scenario, title, change, task, criteria, tests } = spec.transfer;
      return `<section class="widget transfer"><p><strong>${inline(title)}</strong> <span class="tag">${SCENARIO_LABELS[scenario]}</span></p>
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
${reveal(`rubric-${stage.nn}`, "Show what a strong answer contains", `<p>Tick what your answer covers. This is for you: it is kept in this browser only.</p><ul class="rubric">${items}</ul>`)}</section>`;
    }
    case "mastery": {
      const items = spec.mastery
        .map(
          (test) =>
            `<li data-mastery="${escapeHtml(test)}"><span class="badge" data-status="unknown">not checked</span> ${escapeHtml(test)}</li>`,
        )
        .join("");
      return `<section class="widget mastery"><p>These tests must pass against your own code in <code>workspace/</code>:</p><ul class="mastery-list">${items}</ul>
<pre class="code"><code class="hljs">${highlight(`npm test -- stage-${stage.nn}`, "bash")}</code></pre>${selfCheckPanel(`Load the verification.json of stage ${stage.nn}`)}</section>`;
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

/** The lesson with its generated blocks replaced by widgets and the reference code behind a reveal. */
export function lessonHtml(content: StageContent): string {
  const placeholders = new Map<string, string>();
  let text = content.readme.replace(/^# .*\n/, "");
  for (const name of BLOCK_NAMES) {
    const pattern = blockPattern(name);
    const key = `FORGEWIDGET${name.toUpperCase()}`;
    text = text.replace(pattern, `\n${key}\n`);
    placeholders.set(key, widget(name, content));
  }
  let html = markdown(1).render(text);
  // Replacements are given as functions: a string would have its `$&`, `$'` and `$1` read as patterns,
  // and lessons and code (stage 09's shell syntax, say) contain exactly those.
  for (const [key, replacement] of placeholders) html = html.replace(`<p>${key}</p>`, () => replacement);
  // Anchors for the table of contents; the reference code goes at the end of its own section.
  html = html.replace(/<h2>(.*?)<\/h2>/g, (_match: string, title: string) => `<h2 id="${slug(title)}">${title}</h2>`);
  const code = content.solution.map((file) => codeListing(file.path, file.code, "typescript")).join("");
  const solution = reveal(`solution-${content.stage.nn}`, "Reveal the reference solution", code);
  return html.replace(/(<h2 id="guided-practice">)/, (heading: string) => `${solution}\n${heading}`);
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

export function stageNav(current: string, course: CourseData, sections: readonly string[]): string {
  const stages = course.stages
    .map(
      (stage) =>
        `<li><a href="${stage.id}.html"${stage.id === current ? ' aria-current="page"' : ""}>${stage.nn} · ${escapeHtml(stage.title)}</a></li>`,
    )
    .join("");
  const toc = sections.map((section) => `<li><a href="#${slug(section)}">${escapeHtml(section)}</a></li>`).join("");
  return `<nav class="side" aria-label="Course"><h2 class="nav-title">On this page</h2><ol class="toc">${toc}</ol><h2 class="nav-title">Stages</h2><ol class="stage-list">${stages}</ol><p><a href="../index.html">Progress and self-check</a></p></nav>`;
}

export function homeMain(course: CourseData, overview: string): string {
  const rows = course.stages
    .map(
      (stage) =>
        `<tr data-stage-row="${stage.id}"><td>${stage.nn}</td><td><a href="${stagePage(stage)}">${escapeHtml(stage.title)}</a><br><span class="muted">${escapeHtml(stage.summary)}</span></td><td><span class="state" data-state>${STATES[0]}</span></td></tr>`,
    )
    .join("");
  return `${overview}
<section aria-labelledby="board-title"><h2 id="board-title">Your progress</h2>
<table class="board"><caption class="visually-hidden">State of each stage</caption><thead><tr><th scope="col">Stage</th><th scope="col">Lesson</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">States, in order: ${STATES.join(" → ")}.</p>
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
<p class="lab-setup"><input type="checkbox" id="lab-downloaded" data-downloaded><label for="lab-downloaded">I have the lab on my machine and ran <code>npm test -- stage-${stage.nn}</code></label></p>
${lessonHtml(content)}
</article>`;
}

export { markdown };
