// The course data the self-check judges with, embedded at build time in each edition's self-check script
// (a page opened from disk cannot fetch it), and the data each stage page carries about itself.
import type { Locale } from "../../lab/core/locale.js";
import type { CourseData, StageSummary } from "../../lab/evidence/course-data.js";

/**
 * The course data as the self-check script embeds it: each test name once. A stage's suite (`tests`)
 * lists its mastery tests too, and test names are most of the data, so the suite is embedded as the
 * tests it adds to the mastery ones.
 */
export interface PackedCourse {
  readonly stages: ReadonlyArray<Omit<StageSummary, "tests"> & { readonly moreTests: readonly string[] }>;
}

export function packCourse(course: CourseData): PackedCourse {
  return {
    stages: course.stages.map(({ tests, ...stage }) => ({ ...stage, moreTests: tests.filter((name) => !stage.mastery.includes(name)) })),
  };
}

/** The course data again: the suite is the mastery tests, then the rest, as `courseData` lists it. */
export function unpackCourse(packed: PackedCourse): CourseData {
  return {
    stages: packed.stages.map(({ moreTests, ...stage }) => ({ ...stage, tests: [...new Set([...stage.mastery, ...moreTests])] })),
  };
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

/** Where `npm start` lists this checkout's evidence files (relative to the site root); a key appended fetches one. */
export const EVIDENCE_ENDPOINT = "__forge/evidence";
export const STAGE_DATA_ID = "forge-stage";
/** The course map's page, relative to its edition's root. */
export const MAP_PAGE = "course-map.html";
/** The glossary's page, relative to its edition's root. */
export const GLOSSARY_PAGE = "glossary.html";
/** Where each edition's pages are, relative to the site's root: English at the root, each other edition in a folder of its own. */
export const EDITION_DIRS: Readonly<Record<Locale, string>> = { en: "", "zh-CN": "zh-CN/" };

/** Each edition's self-check script, in assets/ beside the page's own bundle (client/selfcheck.ts). */
export const selfCheckScript = (locale: string) => `selfcheck.${locale}.js`;
