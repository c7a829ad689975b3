// The course data every page carries, embedded at build time (a page opened from disk cannot fetch).
export interface StageSummary {
  readonly id: string;
  readonly nn: string;
  readonly title: string;
  readonly summary: string;
  readonly experimentId: string;
  readonly mastery: readonly string[];
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
}

export const COURSE_DATA_ID = "forge-course";
export const STAGE_DATA_ID = "forge-stage";
