// The course data every page carries, embedded at build time (a page opened from disk cannot fetch).
export interface StageSummary {
  readonly id: string;
  readonly nn: string;
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
  /** The stage page, relative to the site root. */
  readonly page: string;
}

export interface CourseData {
  readonly stages: readonly StageSummary[];
}

/** The interactive parts of one stage page. */
export interface StagePageData {
  readonly id: string;
  readonly prediction: { readonly answer: number; readonly options: readonly string[] };
  readonly hints: number;
  readonly rubric: number;
  /** How many parts of the lesson the challenge path hides: its folds and the reference solution. */
  readonly challengeParts: number;
}

export const COURSE_DATA_ID = "forge-course";
/** Where `npm start` lists this checkout's evidence files (relative to the site root); a key appended fetches one. */
export const EVIDENCE_ENDPOINT = "__forge/evidence";
export const STAGE_DATA_ID = "forge-stage";
/** The course map's page, relative to the site root. */
export const MAP_PAGE = "course-map.html";
