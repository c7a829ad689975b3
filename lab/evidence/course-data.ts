// What the self-check knows of the course: each stage's id, its suite and the hashes of the course's
// own modules. The site embeds it in every page at build time; the class report builds it the same way.
import type { Locale } from "../core/locale.js";

export interface StageSummary {
  readonly id: string;
  readonly nn: string;
  /** The edition its title and summary are in: the page's, or English while the stage has no translation. */
  readonly locale: Locale;
  readonly title: string;
  readonly summary: string;
  readonly experimentId: string;
  readonly mastery: readonly string[];
  /** Every test of the stage's current suite (mastery, transfer and the rest): a pass needs all of them. */
  readonly tests: readonly string[];
  /** The stage's test files, relative to the repository. */
  readonly testFiles: readonly string[];
  /** The modules the stage adds under forge/tools/. */
  readonly modules: readonly string[];
  /** Hashes of the course's own versions of those modules, in both line-ending forms: a copy is not the learner's work. */
  readonly copies: ReadonlyArray<{ readonly module: string; readonly kind: "reference" | "faulty"; readonly sha256: string }>;
  /** The stage page, relative to its edition's root. */
  readonly page: string;
}

export interface CourseData {
  readonly stages: readonly StageSummary[];
}
