// The quiz (a lesson's Predict block): one question, lettered options, and after a choice the verdict
// and why. Its HTML, from the question, options and explanation site/render.ts has rendered, and its
// behaviour in the page, which remembers the learner's choice.
import { OPTION_LETTERS } from "../../../lab/catalog/names.js";
import type { StagePageData } from "../course.js";
import type { ProgressStore } from "../progress.js";
import type { SiteText } from "../text/en.js";
import { all } from "./shared.js";

export interface QuizParts {
  readonly questionHtml: string;
  readonly optionsHtml: readonly string[];
  readonly whyHtml: string;
}

export function quizHtml({ questionHtml, optionsHtml, whyHtml }: QuizParts, text: SiteText): string {
  const words = text.widgets;
  const options = optionsHtml
    .map(
      (option, index) =>
        `<li><button type="button" class="option" data-option="${index}" aria-pressed="false"><span class="letter" aria-hidden="true">${OPTION_LETTERS[index]}</span><span class="option-text">${option}</span></button></li>`,
    )
    .join("");
  return `<section class="widget quiz" data-quiz aria-labelledby="quiz-question">
<p id="quiz-question" class="question">${questionHtml}</p>
<ol class="options" aria-label="${words.chooseOne}">${options}</ol>
<div class="quiz-feedback" aria-live="polite"><p class="quiz-verdict"></p><div class="quiz-why" hidden><p><strong>${words.why}</strong>${text.gap}${whyHtml}</p></div></div>
</section>`;
}

export function hydrateQuiz(stage: StagePageData, store: ProgressStore, words: SiteText["client"]): void {
  const quiz = document.querySelector<HTMLElement>("[data-quiz]");
  if (!quiz) return;
  const verdict = quiz.querySelector<HTMLElement>(".quiz-verdict");
  const why = quiz.querySelector<HTMLElement>(".quiz-why");
  const choose = (choice: number, remember: boolean) => {
    for (const option of all<HTMLButtonElement>("[data-option]", quiz)) {
      const index = Number(option.dataset.option);
      option.setAttribute("aria-pressed", String(index === choice));
      option.classList.toggle("chosen", index === choice);
      option.classList.toggle("correct", index === stage.prediction.answer);
    }
    const right = choice === stage.prediction.answer;
    if (verdict) {
      const letter = (index: number) => OPTION_LETTERS[index] ?? String(index);
      verdict.textContent = right ? words.quizRight(letter(choice)) : words.quizWrong(letter(choice), letter(stage.prediction.answer));
      verdict.dataset.right = String(right);
    }
    if (why) why.hidden = false;
    if (remember) store.update(stage.id, (progress) => ({ ...progress, quiz: choice }));
  };
  for (const option of all<HTMLButtonElement>("[data-option]", quiz)) {
    option.addEventListener("click", () => choose(Number(option.dataset.option), true));
  }
  const earlier = store.read().stages[stage.id]?.quiz;
  if (earlier !== undefined) choose(earlier, false);
}
