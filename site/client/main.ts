// The browser side of the course site: progress, the quiz, graded hints, the rubric, reveals and the
// self-check. Everything runs in this page; the only request it may make is to the local server that
// `npm start` runs, for the list of evidence files in this checkout.
import { OPTION_LETTERS } from "../../lab/catalog/names.js";
import { COURSE_DATA_ID, EVIDENCE_ENDPOINT, STAGE_DATA_ID, type CourseData, type StagePageData } from "./course.js";
import { createStore, resultsFromVerdict, stateOf, type ProgressStore } from "./progress.js";
import { checkVerification, MAX_FILE_BYTES, type Verdict } from "./selfcheck.js";

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

class Page {
  constructor(
    private readonly course: CourseData,
    private readonly stage: StagePageData | null,
    private readonly store: ProgressStore,
  ) {}

  start(): void {
    this.setUpReveals();
    this.setUpSelfCheck();
    this.setUpBoard();
    if (this.stage) this.setUpStage(this.stage);
    this.render();
  }

  /** Everything that shows progress is redrawn from the store, so no view can drift from it. */
  render(): void {
    const progress = this.store.read();
    for (const row of all<HTMLElement>("[data-stage-row]")) {
      const state = row.querySelector<HTMLElement>("[data-state]");
      const id = row.dataset.stageRow ?? "";
      if (state) {
        state.textContent = stateOf(progress.stages[id]);
        state.dataset.value = state.textContent;
      }
    }
    const note = document.querySelector<HTMLElement>("[data-storage-note]");
    if (note) note.textContent = this.store.persistent ? "" : "This browser refuses storage here: progress lasts until you leave the page.";
    if (!this.stage) return;
    const mine = progress.stages[this.stage.id];
    const results = mine?.results;
    for (const item of all<HTMLElement>("[data-mastery]")) {
      const badge = item.querySelector<HTMLElement>(".badge");
      const status = results?.mastery.find((test) => test.name === item.dataset.mastery)?.status ?? "unknown";
      if (badge) {
        badge.dataset.status = status;
        badge.textContent = status === "unknown" ? "not checked" : status;
      }
    }
    const acceptance = document.querySelector<HTMLElement>("[data-acceptance]");
    if (acceptance) acceptance.textContent = results ? (results.passed ? "passed" : "not passed yet") : "pending";
    const downloaded = document.querySelector<HTMLInputElement>("[data-downloaded]");
    if (downloaded) downloaded.checked = Boolean(mine?.downloaded);
    for (const box of all<HTMLInputElement>("[data-rubric]")) box.checked = Boolean(mine?.rubric?.[Number(box.dataset.rubric)]);
  }

  private setUpReveals(): void {
    for (const button of all<HTMLButtonElement>("[data-reveal]")) {
      const body = document.getElementById(button.getAttribute("aria-controls") ?? "");
      const label = button.textContent ?? "";
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        if (body) body.hidden = !open;
        button.textContent = open ? label.replace(/^(Show|Reveal)/, "Hide") : label;
      });
    }
  }

  private setUpBoard(): void {
    document.querySelector("[data-reset]")?.addEventListener("click", () => {
      if (!window.confirm("Reset your progress in every stage? Your files and evidence are not touched.")) return;
      this.store.reset();
      this.say("status", "Progress reset. Nothing else was changed.");
      this.render();
    });
  }

  private setUpStage(stage: StagePageData): void {
    this.store.update(stage.id, (progress) => ({ ...progress, reading: true }));
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
        verdict.textContent = right
          ? `Right: ${OPTION_LETTERS[choice]} is the answer.`
          : `Not quite: you chose ${OPTION_LETTERS[choice]}; the answer is ${OPTION_LETTERS[stage.prediction.answer]}.`;
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
      button.hidden = count >= hints.length;
      button.textContent = `Show hint ${Math.min(count + 1, hints.length)} of ${hints.length}`;
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
      else this.say("alert", "Nothing to read: drop the verification.json file itself.");
    });
    void this.offerLocalEvidence(panel);
  }

  private async readFile(file: File): Promise<void> {
    if (file.size > MAX_FILE_BYTES) {
      // Refused before reading: parsing a huge file would freeze the page.
      this.say(
        "alert",
        `${file.name}: This file is ${(file.size / 1024 / 1024).toFixed(1)} MB; a verification file is a few kilobytes, so it was not read.`,
      );
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      this.say("alert", `The browser could not read ${file.name}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.apply(checkVerification(text, this.course), file.name);
  }

  apply(verdict: Verdict, source: string): void {
    if (verdict.kind === "invalid") {
      this.say("alert", `${source}: ${verdict.message}`);
      return;
    }
    if (verdict.kind === "not-counted") {
      this.say("alert", `${source}: ${verdict.message}`);
      return;
    }
    this.store.update(verdict.stage.id, (progress) => ({
      ...progress,
      downloaded: true,
      results: resultsFromVerdict(verdict.passed, verdict.generatedAt, verdict.mastery),
    }));
    const elsewhere =
      this.stage && this.stage.id !== verdict.stage.id ? ` (This file is for stage ${verdict.stage.nn}; its progress was updated.)` : "";
    this.say("status", `${source}: ${verdict.message}${elsewhere}`);
    this.render();
  }

  /** One message at a time: a problem goes to the alert region, a result to the status region. */
  say(kind: "alert" | "status", message: string): void {
    const alert = document.querySelector<HTMLElement>("[data-live-alert]");
    const status = document.querySelector<HTMLElement>("[data-live-status]");
    if (alert) alert.textContent = kind === "alert" ? message : "";
    if (status) status.textContent = kind === "status" ? message : "";
  }

  /** Served by `npm start`, the page can list this checkout's evidence; from disk or a static host it cannot. */
  private async offerLocalEvidence(panel: HTMLElement): Promise<void> {
    if (!location.protocol.startsWith("http")) return;
    const base = this.stage ? "../" : "";
    let files: Array<{ key: string; stage: string; target: string; file: string }>;
    try {
      const response = await fetch(`${base}${EVIDENCE_ENDPOINT}`, { cache: "no-store" });
      if (!response.ok) return;
      files = (await response.json()) as typeof files;
    } catch {
      return; // a static host has no such endpoint
    }
    const box = panel.querySelector<HTMLElement>("[data-local-evidence]");
    const list = box?.querySelector("ul");
    if (!box || !list || files.length === 0) return;
    for (const entry of files) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Load ${entry.file}`;
      button.addEventListener("click", async () => {
        try {
          const response = await fetch(`${base}${EVIDENCE_ENDPOINT}/${encodeURIComponent(entry.key)}`, { cache: "no-store" });
          if (!response.ok) throw new Error(`the server answered ${response.status}`);
          this.apply(checkVerification(await response.text(), this.course), entry.file);
        } catch (error) {
          this.say("alert", `Could not load ${entry.file}: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
      item.append(button);
      list.append(item);
    }
    box.hidden = false;
  }
}

function main(): void {
  const course = readJson<CourseData>(COURSE_DATA_ID);
  if (!course) throw new Error("the page carries no course data");
  const page = new Page(course, readJson<StagePageData>(STAGE_DATA_ID), createStore(browserStorage()));
  page.start();
  // Marks the page interactive; the end-to-end tests measure navigation-to-interactive from it.
  document.documentElement.dataset.readyAt = String(Math.round(performance.now()));
  document.documentElement.dataset.ready = "true";
}

main();
