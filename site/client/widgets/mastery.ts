// The mastery list: the stage's mastery tests, each with a badge showing what the last verification
// file read says of it, the command that runs them, and the self-check panel; also the acceptance line of
// the experiment card, which shows the same file's verdict. Their HTML, from pieces site/render.ts has
// rendered, and how the page redraws them from the stage's progress.
import type { StageProgress } from "../progress.js";
import type { SiteText } from "../text/en.js";
import { selfCheckPanelHtml } from "./selfcheck-panel.js";
import { all, escapeHtml } from "./shared.js";

export interface MasteryParts {
  readonly introHtml: string;
  /** Each test by its English name (what vitest prints), with the edition's gloss beside it, or "". */
  readonly tests: ReadonlyArray<{ readonly name: string; readonly glossHtml: string }>;
  /** The command that runs the stage's tests, highlighted. */
  readonly commandHtml: string;
  /** What the stage's mutation summary says of its tests, when it has one. */
  readonly strengthHtml: string | undefined;
}

export function masteryHtml(nn: string, { introHtml, tests, commandHtml, strengthHtml }: MasteryParts, text: SiteText): string {
  const items = tests
    .map(
      ({ name, glossHtml }) =>
        // The test's name is read from the item itself, so the page carries it once.
        `<li data-mastery><span class="badge" data-status="unknown">${text.widgets.badge.unknown}</span> <span class="test-name">${escapeHtml(name)}</span>${glossHtml}</li>`,
    )
    .join("");
  return `<section class="widget mastery"><p>${introHtml}</p><ul class="mastery-list">${items}</ul>
<pre class="code"><code class="hljs">${commandHtml}</code></pre>${strengthHtml === undefined ? "" : `<p>${strengthHtml}</p>`}${selfCheckPanelHtml(text.panel.masteryHeading(nn), text)}</section>`;
}

/** The experiment card's acceptance: pending until a verification file is read. */
export function acceptanceHtml(words: SiteText["widgets"]): string {
  return `<span data-acceptance>${words.acceptance.pending}</span> <span class="muted">${words.acceptanceNote}</span>`;
}

/** The badges and the acceptance line, as the stage's last results have them. */
export function renderMastery(results: StageProgress["results"], words: SiteText["widgets"]): void {
  for (const item of all<HTMLElement>("[data-mastery]")) {
    const badge = item.querySelector<HTMLElement>(".badge");
    const name = item.querySelector(".test-name")?.textContent;
    const status = results?.mastery.find((test) => test.name === name)?.status ?? "unknown";
    if (badge) {
      badge.dataset.status = status;
      badge.textContent = words.badge[status];
    }
  }
  const acceptance = document.querySelector<HTMLElement>("[data-acceptance]");
  if (acceptance)
    acceptance.textContent = results ? (results.passed ? words.acceptance.passed : words.acceptance.notPassed) : words.acceptance.pending;
}
