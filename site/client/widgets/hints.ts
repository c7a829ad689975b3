// The graded hints: a list shown one hint at a time, and a button for the next one. Its HTML, from the
// hints site/render.ts has rendered, and its behaviour in the page, which remembers how many are shown.
import type { StagePageData } from "../course.js";
import type { ProgressStore } from "../progress.js";
import type { SiteText } from "../text/en.js";
import { all, markScrollable } from "./shared.js";

export function hintsHtml(hints: readonly string[], text: SiteText): string {
  const words = text.widgets;
  const items = hints
    .map(
      (hint, index) =>
        `<li class="hint" data-hint="${index}" tabindex="-1" hidden><strong>${words.hint(index + 1)}</strong>${text.gap}${hint}</li>`,
    )
    .join("");
  return `<section class="widget hints" data-hints aria-label="${words.hintsLabel}">
<ol class="hint-list" aria-live="polite">${items}</ol>
<button type="button" class="next-hint" data-next-hint>${words.showHint(1, hints.length)}</button>
</section>`;
}

export function hydrateHints(stage: StagePageData, store: ProgressStore, words: SiteText["widgets"]): void {
  const button = document.querySelector<HTMLButtonElement>("[data-next-hint]");
  const hints = all<HTMLElement>("[data-hint]");
  if (!button) return;
  const show = (count: number) => {
    hints.forEach((hint, index) => (hint.hidden = index >= count));
    markScrollable(words, button.closest("[data-hints]") ?? document);
    button.hidden = count >= hints.length;
    button.textContent = words.showHint(Math.min(count + 1, hints.length), hints.length);
  };
  let shown = Math.min(store.read().stages[stage.id]?.hintsShown ?? 0, hints.length);
  show(shown);
  button.addEventListener("click", () => {
    shown = Math.min(shown + 1, hints.length);
    store.update(stage.id, (progress) => ({ ...progress, hintsShown: shown }));
    show(shown);
    hints[shown - 1]?.focus();
  });
}
