// The self-check panel, on the home page and in each stage's mastery list: a verification.json picked,
// dropped or loaded from this checkout's evidence (when `npm start` serves the page), judged in this
// browser, its verdict said and kept with the stage's progress. Its HTML and its behaviour in the page;
// the checks themselves load on first use (../selfcheck-api.ts).
import type { Locale } from "../../../lab/core/locale.js";
import { MAX_FILE_BYTES, megabytes } from "../../../lab/evidence/file-size.js";
import type { Verdict } from "../../../lab/evidence/selfcheck.js";
import { EVIDENCE_ENDPOINT, type StagePageData } from "../course.js";
import { resultsFromVerdict, withResults, type ChallengePreference, type ProgressStore } from "../progress.js";
import { loadSelfCheck } from "../selfcheck-api.js";
import type { SiteText } from "../text/en.js";
import { escapeHtml } from "./shared.js";

export function selfCheckPanelHtml(heading: string, text: SiteText): string {
  const words = text.panel;
  return `<section class="selfcheck" data-selfcheck aria-labelledby="selfcheck-title">
<h3 id="selfcheck-title">${escapeHtml(heading)}</h3>
<p class="privacy">${words.privacyHtml}</p>
<p class="privacy">${words.limitsHtml}</p>
<p class="privacy ci-note">${escapeHtml(text.verdicts.ciEvidenceNote)}</p>
<div class="dropzone" data-dropzone>
<label class="file-label" for="verification-file">${words.chooseHtml}</label>
<input type="file" id="verification-file" accept=".json,application/json" data-file>
<p class="drop-hint">${words.dropHint}</p>
</div>
<div class="verdict" role="region" aria-label="${words.verdictLabel}" tabindex="-1" data-verdict>
<div class="alert" role="alert" data-live-alert></div>
<p class="status" role="status" aria-live="polite" data-live-status></p>
</div>
<div class="local-evidence" data-local-evidence hidden><h4>${words.localEvidence}</h4><ul data-own-evidence></ul>
<details class="reference-runs" data-reference-runs hidden><summary></summary><p class="muted">${words.referenceRunsNote}</p><ul></ul></details></div>
</section>`;
}

/** One message at a time: a problem goes to the panel's alert region, a result to its status region. */
export function say(kind: "alert" | "status", message: string): void {
  const alert = document.querySelector<HTMLElement>("[data-live-alert]");
  const status = document.querySelector<HTMLElement>("[data-live-status]");
  if (alert) alert.textContent = kind === "alert" ? message : "";
  if (status) status.textContent = kind === "status" ? message : "";
}

export interface SelfCheckContext {
  readonly locale: Locale;
  /** This page's stage, or null on a page of the whole course (the home page). */
  readonly stage: StagePageData | null;
  readonly store: ProgressStore;
  readonly challenge: ChallengePreference;
  readonly text: SiteText;
  /** Redraws everything that shows progress. */
  readonly render: () => void;
  /** The evidence endpoint answered: `npm start` serves this page, so the lab is on this machine. */
  readonly labPresent: () => void;
}

interface EvidenceEntry {
  readonly key: string;
  readonly stage: string;
  readonly target: string;
  readonly file: string;
}

/** The panel's file input, drop zone and, when the page is served by `npm start`, the list of this checkout's evidence. */
export function hydrateSelfCheck(context: SelfCheckContext): void {
  const panel = document.querySelector<HTMLElement>("[data-selfcheck]");
  if (!panel) return;
  const { locale, stage, store, challenge, text, render, labPresent } = context;
  const words = text.client;

  /**
   * What a file proves, said, brought into view and given focus: the file was picked, dropped or loaded
   * from a list that may be long, and a verdict below the window would change nothing the learner sees.
   * The region is focusable from code only (tabindex -1), so Tab leaves it as from any other place.
   */
  const verdict = (kind: "alert" | "status", message: string): void => {
    say(kind, message);
    const region = document.querySelector<HTMLElement>("[data-verdict]");
    if (!region) return;
    region.focus({ preventScroll: true });
    const fits = region.getBoundingClientRect().height <= window.innerHeight;
    region.scrollIntoView({ block: fits ? "nearest" : "start" });
  };

  const apply = (result: Verdict, source: string): void => {
    if (result.kind === "invalid" || result.kind === "not-counted") {
      verdict("alert", words.about(source, result.message));
      return;
    }
    const progress = store.update(result.stage.id, (record) =>
      withResults(record, resultsFromVerdict(result.passed, result.generatedAt, result.mastery), challenge.read()),
    );
    const elsewhere = stage && stage.id !== result.stage.id ? words.otherStage(result.stage.nn) : "";
    // Said only of the run the mark was earned by, and only while the switch is on: the page says what it saw.
    const seen = result.passed && challenge.read() && progress.stages[result.stage.id]?.challengeOnPassAt === result.generatedAt;
    const challengeSeen = seen ? words.challengeSeen : "";
    render();
    verdict("status", words.about(source, `${result.message}${challengeSeen}${elsewhere}`));
  };

  /** Judges a file's text with the self-check, loaded on first use. */
  const check = async (fileText: string, source: string): Promise<void> => {
    let selfCheck: Awaited<ReturnType<typeof loadSelfCheck>>;
    try {
      selfCheck = await loadSelfCheck(document.querySelector<HTMLScriptElement>("script[data-app]"), locale);
    } catch (error) {
      verdict("alert", words.couldNotLoad(source, error instanceof Error ? error.message : String(error)));
      return;
    }
    apply(selfCheck(fileText, text.verdicts), source);
  };

  const readFile = async (file: File): Promise<void> => {
    if (file.size > MAX_FILE_BYTES) {
      // Refused before reading: parsing a huge file would freeze the page.
      verdict("alert", words.about(file.name, text.verdicts.tooLarge(megabytes(file.size))));
      return;
    }
    let fileText: string;
    try {
      fileText = await file.text();
    } catch (error) {
      verdict("alert", words.unreadable(file.name, error instanceof Error ? error.message : String(error)));
      return;
    }
    await check(fileText, file.name);
  };

  /** Served by `npm start`, the page can list this checkout's evidence; from disk or a static host it cannot. */
  const offerLocalEvidence = async (): Promise<void> => {
    if (!location.protocol.startsWith("http")) return;
    // The endpoint sits at the site's root; the page says how far up that is (a lesson of the Chinese edition is two folders down).
    const base = document.documentElement.dataset.root ?? "";
    let files: EvidenceEntry[];
    try {
      const response = await fetch(`${base}${EVIDENCE_ENDPOINT}`, { cache: "no-store" });
      if (!response.ok) return;
      files = (await response.json()) as EvidenceEntry[];
    } catch {
      return; // a static host has no such endpoint
    }
    labPresent();
    const box = panel.querySelector<HTMLElement>("[data-local-evidence]");
    const ownList = box?.querySelector("[data-own-evidence]");
    const fold = box?.querySelector<HTMLDetailsElement>("[data-reference-runs]");
    const foldList = fold?.querySelector("ul");
    const summary = fold?.querySelector("summary");
    if (!box || !ownList || !fold || !foldList || !summary || files.length === 0) return;
    const item = (entry: EvidenceEntry) => {
      const line = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = words.load(entry.file);
      button.addEventListener("click", async () => {
        try {
          const response = await fetch(`${base}${EVIDENCE_ENDPOINT}/${encodeURIComponent(entry.key)}`, { cache: "no-store" });
          if (!response.ok) throw new Error(words.serverAnswered(response.status));
          await check(await response.text(), entry.file);
        } catch (error) {
          verdict("alert", words.couldNotLoad(entry.file, error instanceof Error ? error.message : String(error)));
        }
      });
      line.append(button);
      return line;
    };
    // The learner's own runs first, this page's stage before the others; the reference runs, which
    // never count, folded after them.
    const here = stage?.id;
    const rank = (entry: EvidenceEntry) => (`stage-${entry.stage}` === here ? 0 : 1);
    const own = files.filter((entry) => entry.target === "workspace").sort((a, b) => rank(a) - rank(b) || (a.key < b.key ? -1 : 1));
    const reference = files.filter((entry) => entry.target !== "workspace");
    if (own.length === 0) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = words.noOwnEvidence;
      ownList.append(none);
    }
    ownList.append(...own.map(item));
    foldList.append(...reference.map(item));
    summary.textContent = words.referenceRuns(reference.length);
    fold.hidden = reference.length === 0;
    box.hidden = false;
  };

  const input = panel.querySelector<HTMLInputElement>("[data-file]");
  input?.addEventListener("change", () => {
    const file = input.files?.[0];
    if (file) void readFile(file);
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
    if (file) void readFile(file);
    else say("alert", words.dropNothing);
  });
  void offerLocalEvidence();
}
