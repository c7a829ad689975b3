// The browser side of the course site: the page's orchestration. It reads the stage's data and the
// learner's progress, hydrates each widget (widgets/: the quiz, graded hints, the rubric, reveals, the
// mastery list, the self-check), redraws everything that shows progress from one store, and runs the
// challenge path, the board and the language switch. Everything runs in this page; the only request it
// may make is to the local server that `npm start` runs, for the list of evidence files in this
// checkout. Its words are its edition's (each edition's pages load their own bundle: words.ts).
import { term } from "../../lab/i18n/glossary.js";
import { isLocale, type Locale } from "../../lab/core/locale.js";
import { STAGE_DATA_ID, type StagePageData } from "./course.js";
import { rememberEdition } from "./edition.js";
import {
  challengeMarked,
  createChallengePreference,
  createStore,
  stateOf,
  withReveal,
  type ChallengePreference,
  type ProgressStore,
} from "./progress.js";
import type { SiteText } from "./text/en.js";
import { hydrateHints } from "./widgets/hints.js";
import { renderMastery } from "./widgets/mastery.js";
import { hydrateQuiz } from "./widgets/quiz.js";
import { hydrateReveals, renderChallengeParts } from "./widgets/reveal.js";
import { hydrateRubric, renderRubric } from "./widgets/rubric.js";
import { hydrateSelfCheck, say } from "./widgets/selfcheck-panel.js";
import { all, markScrollable } from "./widgets/shared.js";
import { WORDS } from "./words.js";

function readJson<T>(id: string): T | null {
  const element = document.getElementById(id);
  return element?.textContent ? (JSON.parse(element.textContent) as T) : null;
}

function browserStorage(): Storage | null {
  try {
    const storage = window.localStorage;
    const probe = "forge-lab/probe";
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

class Page {
  private readonly text: SiteText = WORDS;

  constructor(
    private readonly locale: Locale,
    private readonly stage: StagePageData | null,
    private readonly store: ProgressStore,
    private readonly challenge: ChallengePreference,
    private readonly storage: Storage | null,
  ) {}

  start(): void {
    const words = this.text.widgets;
    hydrateReveals({ challengeOn: () => this.challenge.read(), challengePartOpened: () => this.challengePartOpened(), words });
    this.setUpEditionSwitch();
    hydrateSelfCheck({
      locale: this.locale,
      stage: this.stage,
      store: this.store,
      challenge: this.challenge,
      text: this.text,
      render: () => this.render(),
      labPresent: () => this.labPresent(),
    });
    this.setUpBoard();
    if (this.stage) this.setUpStage(this.stage);
    this.render();
    markScrollable(words);
    if (typeof ResizeObserver === "function") {
      const observer = new ResizeObserver(() => markScrollable(words));
      for (const block of all<HTMLElement>("pre.code")) observer.observe(block);
    }
  }

  /** Everything that shows progress is redrawn from the store, so no view can drift from it. */
  render(): void {
    const progress = this.store.read();
    for (const row of all<HTMLElement>("[data-stage-row]")) {
      const state = row.querySelector<HTMLElement>("[data-state]");
      const id = row.dataset.stageRow ?? "";
      if (state) {
        // The English state is the value styles key on; the text is the edition's word for it.
        const value = stateOf(progress.stages[id]);
        state.textContent = term(value, this.locale);
        state.dataset.value = value;
      }
      const mark = row.querySelector<HTMLElement>("[data-challenge-mark]");
      if (mark) mark.hidden = !challengeMarked(progress.stages[id]);
    }
    const note = document.querySelector<HTMLElement>("[data-storage-note]");
    if (note) note.textContent = this.store.persistent ? "" : this.text.client.storageRefused;
    if (!this.stage) return;
    const mine = progress.stages[this.stage.id];
    renderMastery(mine?.results, this.text.widgets);
    const downloaded = document.querySelector<HTMLInputElement>("[data-downloaded]");
    if (downloaded) downloaded.checked = Boolean(mine?.downloaded);
    renderRubric(mine);
    this.renderChallenge(this.stage);
  }

  /** The switch, the labels and notes of the hidden parts, and what this stage's record says. */
  private renderChallenge(stage: StagePageData): void {
    const on = this.challenge.read();
    document.documentElement.dataset.challenge = on ? "on" : "off";
    const toggle = document.querySelector<HTMLInputElement>("[data-challenge-switch]");
    if (toggle) toggle.checked = on;
    renderChallengeParts(on);
    const status = document.querySelector<HTMLElement>("[data-challenge-status]");
    if (!status) return;
    const mine = this.store.read().stages[stage.id];
    const words = this.text.client;
    if (challengeMarked(mine)) status.textContent = words.challengePassed;
    else if (mine?.revealedAt) status.textContent = words.challengeRevealed(new Date(mine.revealedAt).toLocaleString(this.locale));
    else status.textContent = on ? words.challengeHidden(stage.challengeParts) : "";
  }

  /** A challenge part was opened: the first time is what the board's mark is about, so it is recorded. */
  private challengePartOpened(): void {
    if (!this.stage) return;
    this.store.update(this.stage.id, (progress) => withReveal(progress, new Date()));
    this.render();
  }

  /** The switch leads to the same page in the other edition; following it makes that edition the remembered one. */
  private setUpEditionSwitch(): void {
    for (const link of all<HTMLAnchorElement>("[data-edition-switch]")) {
      link.addEventListener("click", () => {
        const wanted = link.dataset.editionSwitch;
        if (isLocale(wanted)) rememberEdition(this.storage, wanted);
      });
    }
  }

  private setUpBoard(): void {
    document.querySelector("[data-reset]")?.addEventListener("click", () => {
      if (!window.confirm(this.text.client.resetConfirm)) return;
      this.store.reset();
      say("status", this.text.client.resetDone);
      this.render();
    });
  }

  private setUpStage(stage: StagePageData): void {
    this.store.update(stage.id, (progress) => ({ ...progress, reading: true }));
    document.querySelector<HTMLInputElement>("[data-challenge-switch]")?.addEventListener("change", (event) => {
      this.challenge.write((event.target as HTMLInputElement).checked);
      this.render();
    });
    document.querySelector<HTMLInputElement>("[data-downloaded]")?.addEventListener("change", (event) => {
      const checked = (event.target as HTMLInputElement).checked;
      this.store.update(stage.id, (progress) => ({ ...progress, downloaded: checked }));
      this.render();
    });
    hydrateRubric(stage, this.store);
    hydrateQuiz(stage, this.store, this.text.client);
    hydrateHints(stage, this.store, this.text.widgets);
  }

  /**
   * The evidence endpoint answered, so `npm start` serves this page from a checkout of the lab: the
   * lab is on this machine. Every stage read so far moves to "Lab downloaded" without a checkbox.
   */
  private labPresent(): void {
    for (const [id, progress] of Object.entries(this.store.read().stages)) {
      if (progress.reading && !progress.downloaded) this.store.update(id, (stage) => ({ ...stage, downloaded: true }));
    }
    const setup = document.querySelector<HTMLElement>("[data-lab-setup]");
    const present = document.querySelector<HTMLElement>("[data-lab-present]");
    if (setup && present) {
      setup.hidden = true;
      present.hidden = false;
    }
    this.render();
  }
}

function main(): void {
  const storage = browserStorage();
  const lang = document.documentElement.lang;
  const page = new Page(
    isLocale(lang) ? lang : "en",
    readJson<StagePageData>(STAGE_DATA_ID),
    createStore(storage),
    createChallengePreference(storage),
    storage,
  );
  page.start();
  // Marks the page interactive; the end-to-end tests measure navigation-to-interactive from it.
  document.documentElement.dataset.readyAt = String(Math.round(performance.now()));
  document.documentElement.dataset.ready = "true";
}

main();
