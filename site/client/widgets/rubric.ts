// The rubric (a lesson's Design block): the design question, and behind a reveal what a strong answer
// contains, as boxes a learner ticks for themselves. Its HTML, from the question and items site/render.ts
// has rendered, and its behaviour in the page, which keeps the ticks with the stage's progress.
import type { StagePageData } from "../course.js";
import type { ProgressStore, StageProgress } from "../progress.js";
import type { SiteText } from "../text/en.js";
import { revealHtml } from "./reveal.js";
import { all } from "./shared.js";

export function rubricHtml(nn: string, questionHtml: string, itemsHtml: readonly string[], text: SiteText): string {
  const items = itemsHtml
    .map(
      (item, index) =>
        `<li><input type="checkbox" id="rubric-${index}" data-rubric="${index}"><label for="rubric-${index}">${item}</label></li>`,
    )
    .join("");
  const body = `<p>${text.widgets.rubricNote}</p><ul class="rubric">${items}</ul>`;
  return `<section class="widget design"><p class="question">${questionHtml}</p>
${revealHtml(`rubric-${nn}`, text.widgets.strongAnswer, body, text.reveals)}</section>`;
}

export function hydrateRubric(stage: StagePageData, store: ProgressStore): void {
  for (const box of all<HTMLInputElement>("[data-rubric]")) {
    box.addEventListener("change", () => {
      store.update(stage.id, (progress) => {
        const rubric = Array.from({ length: stage.rubric }, (_, index) => Boolean(progress.rubric?.[index]));
        rubric[Number(box.dataset.rubric)] = box.checked;
        return { ...progress, rubric };
      });
    });
  }
}

/** The boxes as this stage's progress has them. */
export function renderRubric(progress: StageProgress | undefined): void {
  for (const box of all<HTMLInputElement>("[data-rubric]")) box.checked = Boolean(progress?.rubric?.[Number(box.dataset.rubric)]);
}
