// The browser side of the course site: progress, the quiz, graded hints, the rubric, reveals, the
// challenge path, the self-check and the language switch. Everything runs in this page; the only request
// it may make is to the local server that `npm start` runs, for the list of evidence files in this
// checkout. Its words are its edition's (each edition's pages load their own bundle: words.ts).
import { OPTION_LETTERS } from "../../lab/catalog/names.js";
import { term } from "../../lab/i18n/glossary.js";
import { isLocale, type Locale } from "../../lab/core/locale.js";
import { EVIDENCE_ENDPOINT, STAGE_DATA_ID, type StagePageData } from "./course.js";
import { rememberEdition } from "./edition.js";
import {
  challengeMarked,
  createChallengePreference,
  createStore,
  resultsFromVerdict,
  stateOf,
  withResults,
  withReveal,
  type ChallengePreference,
  type ProgressStore,
} from "./progress.js";
import { MAX_FILE_BYTES, megabytes } from "../../lab/evidence/file-size.js";
import type { Verdict } from "../../lab/evidence/selfcheck.js";
import { loadSelfCheck } from "./selfcheck-api.js";
import type { SiteText } from "./text/en.js";
import { WORDS } from "./words.js";

function readJson<T>(id: string): T | null {
  const element = document.getElementById(id);
  return element?.textContent ? (JSON.parse(element.textContent) as T) : null;
}

function all<T extends Element>(selector: string, root: ParentNode = document): T[] {
  return Array.from(root.querySelectorAll<T>(selector));
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

/**
 * A code block that scrolls sideways must be reachable from the keyboard (WCAG 2.1.1): such a block,
 * and only such a block, joins the tab order with a name. Whether it scrolls depends on the window's
 * width, so this runs again when the window or a block's size changes.
 */
function markScrollable(words: SiteText["widgets"], root: ParentNode = document): void {
  for (const block of all<HTMLElement>("pre.code", root)) {
    const scrolls = block.scrollWidth > block.clientWidth + 1;
    if (scrolls === block.hasAttribute("tabindex")) continue;
    if (scrolls) {
      const caption = block.closest("figure")?.querySelector("figcaption")?.textContent?.trim();
      const language = block.dataset.lang;
      block.tabIndex = 0;
      block.setAttribute("role", "group");
      block.setAttribute("aria-label", words.scrolls(caption ?? (language ? words.codeIn(language) : words.code)));
    } else {
      block.removeAttribute("tabindex");
      block.removeAttribute("role");
      block.removeAttribute("aria-label");
    }
  }
}

/** Shows one of a reveal button's labels: closed, closed with the Challenge switch on, or open. */
function showLabel(button: HTMLElement, kind: "closed" | "challenge" | "open"): void {
  const labels = all<HTMLElement>("[data-label]", button);
  const wanted = labels.some((label) => label.dataset.label === kind) ? kind : "closed";
  for (const label of labels) label.hidden = label.dataset.label !== wanted;
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

  /** Scrolling code blocks in `root`, named in this page's language. */
  private markScrollable(root: ParentNode = document): void {
    markScrollable(this.text.widgets, root);
  }

  start(): void {
    this.setUpReveals();
    this.setUpEditionSwitch();
    this.setUpSelfCheck();
    this.setUpBoard();
    if (this.stage) this.setUpStage(this.stage);
    this.render();
    this.markScrollable();
    if (typeof ResizeObserver === "function") {
      const observer = new ResizeObserver(() => this.markScrollable());
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
    const results = mine?.results;
    for (const item of all<HTMLElement>("[data-mastery]")) {
      const badge = item.querySelector<HTMLElement>(".badge");
      const name = item.querySelector(".test-name")?.textContent;
      const status = results?.mastery.find((test) => test.name === name)?.status ?? "unknown";
      if (badge) {
        badge.dataset.status = status;
        badge.textContent = this.text.widgets.badge[status];
      }
    }
    const acceptance = document.querySelector<HTMLElement>("[data-acceptance]");
    const words = this.text.widgets.acceptance;
    if (acceptance) acceptance.textContent = results ? (results.passed ? words.passed : words.notPassed) : words.pending;
    const downloaded = document.querySelector<HTMLInputElement>("[data-downloaded]");
    if (downloaded) downloaded.checked = Boolean(mine?.downloaded);
    for (const box of all<HTMLInputElement>("[data-rubric]")) box.checked = Boolean(mine?.rubric?.[Number(box.dataset.rubric)]);
    this.renderChallenge(this.stage);
  }

  /** The switch, the labels and notes of the hidden parts, and what this stage's record says. */
  private renderChallenge(stage: StagePageData): void {
    const on = this.challenge.read();
    document.documentElement.dataset.challenge = on ? "on" : "off";
    const toggle = document.querySelector<HTMLInputElement>("[data-challenge-switch]");
    if (toggle) toggle.checked = on;
    for (const part of all<HTMLElement>("[data-challenge-part]")) {
      const button = part.querySelector<HTMLButtonElement>("[data-reveal]");
      const note = part.querySelector<HTMLElement>("[data-challenge-note]");
      const open = button?.getAttribute("aria-expanded") === "true";
      if (note) note.hidden = !on || open;
      if (button) showLabel(button, open ? "open" : on ? "challenge" : "closed");
    }
    const status = document.querySelector<HTMLElement>("[data-challenge-status]");
    if (!status) return;
    const mine = this.store.read().stages[stage.id];
    const words = this.text.client;
    if (challengeMarked(mine)) status.textContent = words.challengePassed;
    else if (mine?.revealedAt) status.textContent = words.challengeRevealed(new Date(mine.revealedAt).toLocaleString(this.locale));
    else status.textContent = on ? words.challengeHidden(stage.challengeParts) : "";
  }

  private setUpReveals(): void {
    for (const button of all<HTMLButtonElement>("[data-reveal]")) {
      const body = document.getElementById(button.getAttribute("aria-controls") ?? "");
      const part = button.closest<HTMLElement>("[data-challenge-part]");
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        if (body) body.hidden = !open;
        showLabel(button, open ? "open" : part && this.challenge.read() ? "challenge" : "closed");
        const note = part?.querySelector<HTMLElement>("[data-challenge-note]");
        if (note) note.hidden = open || !this.challenge.read();
        // Opening a challenge part is what the board's mark is about: the first time is recorded.
        if (open && part && this.stage) {
          const id = this.stage.id;
          this.store.update(id, (progress) => withReveal(progress, new Date()));
          this.render();
        }
        if (open && body) this.markScrollable(body);
      });
    }
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
      this.say("status", this.text.client.resetDone);
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
    for (const box of all<HTMLInputElement>("[data-rubric]")) {
      box.addEventListener("change", () => {
        this.store.update(stage.id, (progress) => {
          const rubric = Array.from({ length: stage.rubric }, (_, index) => Boolean(progress.rubric?.[index]));
          rubric[Number(box.dataset.rubric)] = box.checked;
          return { ...progress, rubric };
        });
      });
    }
    this.setUpQuiz(stage);
    this.setUpHints(stage);
  }

  private setUpQuiz(stage: StagePageData): void {
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
        verdict.textContent = right
          ? this.text.client.quizRight(letter(choice))
          : this.text.client.quizWrong(letter(choice), letter(stage.prediction.answer));
        verdict.dataset.right = String(right);
      }
      if (why) why.hidden = false;
      if (remember) this.store.update(stage.id, (progress) => ({ ...progress, quiz: choice }));
    };
    for (const option of all<HTMLButtonElement>("[data-option]", quiz)) {
      option.addEventListener("click", () => choose(Number(option.dataset.option), true));
    }
    const earlier = this.store.read().stages[stage.id]?.quiz;
    if (earlier !== undefined) choose(earlier, false);
  }

  private setUpHints(stage: StagePageData): void {
    const button = document.querySelector<HTMLButtonElement>("[data-next-hint]");
    const hints = all<HTMLElement>("[data-hint]");
    if (!button) return;
    const show = (count: number) => {
      hints.forEach((hint, index) => (hint.hidden = index >= count));
      this.markScrollable(button.closest("[data-hints]") ?? document);
      button.hidden = count >= hints.length;
      button.textContent = this.text.widgets.showHint(Math.min(count + 1, hints.length), hints.length);
    };
    let shown = Math.min(this.store.read().stages[stage.id]?.hintsShown ?? 0, hints.length);
    show(shown);
    button.addEventListener("click", () => {
      shown = Math.min(shown + 1, hints.length);
      this.store.update(stage.id, (progress) => ({ ...progress, hintsShown: shown }));
      show(shown);
      hints[shown - 1]?.focus();
    });
  }

  private setUpSelfCheck(): void {
    const panel = document.querySelector<HTMLElement>("[data-selfcheck]");
    if (!panel) return;
    const input = panel.querySelector<HTMLInputElement>("[data-file]");
    input?.addEventListener("change", () => {
      const file = input.files?.[0];
      if (file) void this.readFile(file);
      input.value = "";
    });
    const zone = panel.querySelector<HTMLElement>("[data-dropzone]");
    zone?.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("dragging");
    });
    zone?.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone?.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("dragging");
      const file = event.dataTransfer?.files[0];
      if (file) void this.readFile(file);
      else this.say("alert", this.text.client.dropNothing);
    });
    void this.offerLocalEvidence(panel);
  }

  private async readFile(file: File): Promise<void> {
    if (file.size > MAX_FILE_BYTES) {
      // Refused before reading: parsing a huge file would freeze the page.
      this.verdict("alert", this.text.client.about(file.name, this.text.verdicts.tooLarge(megabytes(file.size))));
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      this.verdict("alert", this.text.client.unreadable(file.name, error instanceof Error ? error.message : String(error)));
      return;
    }
    await this.check(text, file.name);
  }

  /** Judges a file's text with the self-check, loaded on first use. */
  private async check(text: string, source: string): Promise<void> {
    let check: Awaited<ReturnType<typeof loadSelfCheck>>;
    try {
      check = await loadSelfCheck(document.querySelector<HTMLScriptElement>("script[data-app]"), this.locale);
    } catch (error) {
      this.verdict("alert", this.text.client.couldNotLoad(source, error instanceof Error ? error.message : String(error)));
      return;
    }
    this.apply(check(text, this.text.verdicts), source);
  }

  apply(verdict: Verdict, source: string): void {
    const words = this.text.client;
    if (verdict.kind === "invalid" || verdict.kind === "not-counted") {
      this.verdict("alert", words.about(source, verdict.message));
      return;
    }
    const progress = this.store.update(verdict.stage.id, (stage) =>
      withResults(stage, resultsFromVerdict(verdict.passed, verdict.generatedAt, verdict.mastery), this.challenge.read()),
    );
    const elsewhere = this.stage && this.stage.id !== verdict.stage.id ? words.otherStage(verdict.stage.nn) : "";
    // Said only of the run the mark was earned by, and only while the switch is on: the page says what it saw.
    const seen = verdict.passed && this.challenge.read() && progress.stages[verdict.stage.id]?.challengeOnPassAt === verdict.generatedAt;
    const challenge = seen ? words.challengeSeen : "";
    this.render();
    this.verdict("status", words.about(source, `${verdict.message}${challenge}${elsewhere}`));
  }

  /** One message at a time: a problem goes to the alert region, a result to the status region. */
  say(kind: "alert" | "status", message: string): void {
    const alert = document.querySelector<HTMLElement>("[data-live-alert]");
    const status = document.querySelector<HTMLElement>("[data-live-status]");
    if (alert) alert.textContent = kind === "alert" ? message : "";
    if (status) status.textContent = kind === "status" ? message : "";
  }

  /**
   * What a file proves, said, brought into view and given focus: the file was picked, dropped or loaded
   * from a list that may be long, and a verdict below the window would change nothing the learner sees.
   * The region is focusable from code only (tabindex -1), so Tab leaves it as from any other place.
   */
  private verdict(kind: "alert" | "status", message: string): void {
    this.say(kind, message);
    const region = document.querySelector<HTMLElement>("[data-verdict]");
    if (!region) return;
    region.focus({ preventScroll: true });
    const fits = region.getBoundingClientRect().height <= window.innerHeight;
    region.scrollIntoView({ block: fits ? "nearest" : "start" });
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

  /** Served by `npm start`, the page can list this checkout's evidence; from disk or a static host it cannot. */
  private async offerLocalEvidence(panel: HTMLElement): Promise<void> {
    if (!location.protocol.startsWith("http")) return;
    // The endpoint sits at the site's root; the page says how far up that is (a lesson of the Chinese edition is two folders down).
    const base = document.documentElement.dataset.root ?? "";
    let files: Array<{ key: string; stage: string; target: string; file: string }>;
    try {
      const response = await fetch(`${base}${EVIDENCE_ENDPOINT}`, { cache: "no-store" });
      if (!response.ok) return;
      files = (await response.json()) as typeof files;
    } catch {
      return; // a static host has no such endpoint
    }
    this.labPresent();
    const box = panel.querySelector<HTMLElement>("[data-local-evidence]");
    const ownList = box?.querySelector("[data-own-evidence]");
    const fold = box?.querySelector<HTMLDetailsElement>("[data-reference-runs]");
    const foldList = fold?.querySelector("ul");
    const summary = fold?.querySelector("summary");
    if (!box || !ownList || !fold || !foldList || !summary || files.length === 0) return;
    const item = (entry: (typeof files)[number]) => {
      const line = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = this.text.client.load(entry.file);
      button.addEventListener("click", async () => {
        try {
          const response = await fetch(`${base}${EVIDENCE_ENDPOINT}/${encodeURIComponent(entry.key)}`, { cache: "no-store" });
          if (!response.ok) throw new Error(this.text.client.serverAnswered(response.status));
          await this.check(await response.text(), entry.file);
        } catch (error) {
          this.verdict("alert", this.text.client.couldNotLoad(entry.file, error instanceof Error ? error.message : String(error)));
        }
      });
      line.append(button);
      return line;
    };
    // The learner's own runs first, this page's stage before the others; the reference runs, which
    // never count, folded after them.
    const here = this.stage?.id;
    const rank = (entry: (typeof files)[number]) => (`stage-${entry.stage}` === here ? 0 : 1);
    const own = files.filter((entry) => entry.target === "workspace").sort((a, b) => rank(a) - rank(b) || (a.key < b.key ? -1 : 1));
    const reference = files.filter((entry) => entry.target !== "workspace");
    if (own.length === 0) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = this.text.client.noOwnEvidence;
      ownList.append(none);
    }
    ownList.append(...own.map(item));
    foldList.append(...reference.map(item));
    summary.textContent = this.text.client.referenceRuns(reference.length);
    fold.hidden = reference.length === 0;
    box.hidden = false;
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
