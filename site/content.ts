// What the site is built from: the catalog's stages, each with its lesson (and the lesson's twins in the
// other editions), structured parts, reference code and the diff from its faulty module to the
// reference. Read once, at build time.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { experimentId, type Problem, type Stage } from "../lab/catalog/catalog.js";
import { loadCatalog } from "../lab/catalog/load.js";
import { patchText } from "../lab/trees/faults.js";
import { knownCopies } from "../lab/evidence/copies.js";
import { localized, moduleFile, repoPath } from "../lab/core/layout.js";
import { contractIn, specIn } from "../lab/i18n/content.js";
import { LOCALES, type Locale } from "../lab/core/locale.js";
import type { FaultContract } from "../lab/catalog/failure-schema.js";
import type { StageSpec } from "../lab/catalog/stage-schema.js";
import { committedSummary } from "../lab/mutation/stage.js";
import type { MutationSummary } from "../lab/mutation/summary.js";
import type { CourseData } from "../lab/evidence/course-data.js";

export interface SourceFile {
  readonly path: string;
  readonly code: string;
}

export interface FaultContent {
  readonly id: string;
  readonly isDefault: boolean;
  readonly contract: FaultContract;
  /** The faulty module's path in the repository. */
  readonly file: string;
  /** Unified diff from the faulty module to the reference: what the fix changes. */
  readonly diff: string;
}

export interface StageContent {
  /** The edition the lesson, the spec's text and the contracts' text are in. */
  readonly locale: Locale;
  readonly stage: Stage;
  readonly spec: StageSpec;
  readonly contract: FaultContract;
  readonly readme: string;
  readonly solution: readonly SourceFile[];
  /** Every fault with a valid contract, the default first, each with its diff to the reference. */
  readonly faults: readonly FaultContent[];
  /** The committed mutation summary, when the stage has a valid one. */
  readonly mutation: MutationSummary | null;
  /** The lesson's twin in each other edition that has one (README.zh-CN.md beside README.md). */
  readonly twins: Readonly<Partial<Record<Locale, string>>>;
}

export interface Course {
  readonly stages: readonly StageContent[];
  /** Stages left out because their files are incomplete; the build names them. */
  readonly skipped: readonly Problem[];
}

/** A stage's page, relative to its edition's root. */
export function stagePage(stage: Pick<Stage, "id">): string {
  return `stages/${stage.id}.html`;
}

export function loadCourse(): Course {
  const catalog = loadCatalog();
  const stages: StageContent[] = [];
  const skipped: Problem[] = [];
  for (const stage of catalog.stages) {
    const { spec, contract } = stage;
    if (!spec || !contract || !existsSync(stage.readmePath)) {
      skipped.push({ stage: stage.id, file: repoPath(stage.dir), message: "stage.json, failure.json or README.md is missing or invalid" });
      continue;
    }
    const solution = spec.modules.map((name) => {
      const file = moduleFile(stage.solutionDir, name);
      return { path: repoPath(file), code: readFileSync(file, "utf8") };
    });
    const faults = stage.faults.flatMap(({ id, isDefault, patchPath, contract: faultContract }) =>
      faultContract && existsSync(patchPath)
        ? [{ id, isDefault, contract: faultContract, file: repoPath(patchPath), diff: patchText({ patchPath }) }]
        : [],
    );
    const twins: Partial<Record<Locale, string>> = {};
    for (const locale of LOCALES) {
      const twin = localized(stage.readmePath, locale);
      if (locale !== "en" && existsSync(twin)) twins[locale] = readFileSync(twin, "utf8");
    }
    stages.push({
      locale: "en",
      stage,
      spec,
      contract,
      readme: readFileSync(stage.readmePath, "utf8"),
      solution,
      faults,
      mutation: committedSummary(stage),
      twins,
    });
  }
  return { stages, skipped };
}

/**
 * A stage as loaded (English) in `locale`: its twin lesson and the text of that edition in stage.json and failure.json, or
 * null while any of them is missing (the page then shows the English lesson, and says so). A further
 * fault without the edition's text keeps its English diagnosis.
 */
export function contentIn(content: StageContent, locale: Locale): StageContent | null {
  if (locale === content.locale) return content;
  const readme = content.twins[locale];
  const spec = specIn(content.spec, locale);
  const contract = contractIn(content.contract, locale);
  if (readme === undefined || !spec || !contract) return null;
  const faults = content.faults.map((fault) => ({ ...fault, contract: contractIn(fault.contract, locale) ?? fault.contract }));
  return { ...content, locale, readme, spec, contract, faults };
}

/** The course data a page of `locale` carries: titles and summaries in that edition where it has them. */
export function courseData(course: Course, locale: Locale = "en"): CourseData {
  return {
    stages: course.stages.map(({ stage, spec: english }) => {
      const spec = specIn(english, locale);
      return {
        id: stage.id,
        nn: stage.nn,
        locale: spec ? locale : "en",
        title: (spec ?? english).title,
        summary: (spec ?? english).summary,
        experimentId: experimentId(stage),
        mastery: english.mastery,
        tests: [...new Set([...english.mastery, ...english.transfer.tests])],
        testFiles: stage.testFiles.map((file) => repoPath(file)),
        modules: english.modules,
        copies: knownCopies(stage),
        page: stagePage(stage),
      };
    }),
  };
}
