// The reveal: a button that opens and closes a body, used by a lesson's folds, the reference solution,
// the instructor's fault view and the rubric. Its HTML (built by site/render.ts around bodies it has
// rendered) and its behaviour in the page; a reveal marked as a challenge part also speaks of the Challenge switch.
import type { SiteText } from "../text/en.js";
import { all, escapeHtml, markScrollable } from "./shared.js";

export interface RevealLabels {
  /** The button while closed. */
  readonly closed: string;
  /** The button while open. */
  readonly open: string;
  /** For a challenge part: the button while closed with the Challenge switch on. */
  readonly challenge?: string;
}

/** The opening of a reveal: a button that shows one label at a time, and the body it opens. */
export function revealStart(id: string, labels: RevealLabels, words: SiteText["reveals"]): string {
  const part = labels.challenge !== undefined;
  const label = (kind: string, html: string, hidden: boolean) => `<span data-label="${kind}"${hidden ? " hidden" : ""}>${html}</span>`;
  const button = `<button type="button" class="reveal-button" aria-expanded="false" aria-controls="${id}" data-reveal>${label("closed", labels.closed, false)}${part ? label("challenge", labels.challenge ?? "", true) : ""}${label("open", labels.open, true)}</button>`;
  const note = part ? `<p class="challenge-note" data-challenge-note hidden>${words.challengeNote}</p>` : "";
  return `<div class="reveal${part ? " challenge-part" : ""}"${part ? " data-challenge-part" : ""}>${note}${button}<div id="${id}" class="reveal-body" hidden>`;
}

/** The end of what `revealStart` opened. */
export const REVEAL_END = "</div></div>";

export function revealHtml(id: string, labels: RevealLabels, bodyHtml: string, words: SiteText["reveals"]): string {
  return `${revealStart(id, labels, words)}${bodyHtml}${REVEAL_END}`;
}

/** The labels of a fold's reveal: its summary's opening words ("Open when stuck: ") as text, then what it holds, rendered. */
export function foldLabels(opening: string, whatHtml: string, words: SiteText["reveals"]): RevealLabels {
  return {
    closed: `${escapeHtml(opening)}${whatHtml}`,
    challenge: words.foldChallengeHtml(whatHtml),
    open: words.foldOpenHtml(whatHtml),
  };
}

/** Shows one of a reveal button's labels: closed, closed with the Challenge switch on, or open. */
function showLabel(button: HTMLElement, kind: "closed" | "challenge" | "open"): void {
  const labels = all<HTMLElement>("[data-label]", button);
  const wanted = labels.some((label) => label.dataset.label === kind) ? kind : "closed";
  for (const label of labels) label.hidden = label.dataset.label !== wanted;
}

export interface RevealContext {
  /** Whether the Challenge switch is on now. */
  readonly challengeOn: () => boolean;
  /** A challenge part was opened: the page records the stage's first reveal and redraws. */
  readonly challengePartOpened: () => void;
  readonly words: SiteText["widgets"];
}

export function hydrateReveals(context: RevealContext): void {
  for (const button of all<HTMLButtonElement>("[data-reveal]")) {
    const body = document.getElementById(button.getAttribute("aria-controls") ?? "");
    const part = button.closest<HTMLElement>("[data-challenge-part]");
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      if (body) body.hidden = !open;
      showLabel(button, open ? "open" : part && context.challengeOn() ? "challenge" : "closed");
      const note = part?.querySelector<HTMLElement>("[data-challenge-note]");
      if (note) note.hidden = open || !context.challengeOn();
      // Opening a challenge part is what the board's mark is about.
      if (open && part) context.challengePartOpened();
      if (open && body) markScrollable(context.words, body);
    });
  }
}

/** The labels and notes of the challenge parts, redrawn when the Challenge switch changes. */
export function renderChallengeParts(challengeOn: boolean): void {
  for (const part of all<HTMLElement>("[data-challenge-part]")) {
    const button = part.querySelector<HTMLButtonElement>("[data-reveal]");
    const note = part.querySelector<HTMLElement>("[data-challenge-note]");
    const open = button?.getAttribute("aria-expanded") === "true";
    if (note) note.hidden = !challengeOn || open;
    if (button) showLabel(button, open ? "open" : challengeOn ? "challenge" : "closed");
  }
}
