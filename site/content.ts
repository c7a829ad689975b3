// What the site is built from: the catalog's stages, each with its lesson, structured parts, reference
// code and the diff from its faulty module to the reference. Read once, at build time.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { experimentId, loadCatalog, type Problem, type Stage } from "../lab/catalog/catalog.js";
import { faultPatch } from "../lab/catalog/fault-patch.js";
import { knownCopies } from "../lab/evidence/copies.js";
import { moduleFile, repoPath } from "../lab/core/layout.js";
import type { FaultContract } from "../lab/catalog/failure-schema.js";
import type { StageSpec } from "../lab/catalog/stage-schema.js";
import { committedSummary } from "../lab/mutation/stage.js";
import type { MutationSummary } from "../lab/mutation/summary.js";
import type { CourseData } from "./client/course.js";

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
  readonly stage: Stage;
  readonly spec: StageSpec;
  readonly contract: FaultContract;
  readonly readme: string;
  readonly solution: readonly SourceFile[];
  /** Every fault with a valid contract, the default first, each with its diff to the reference. */
  readonly faults: readonly FaultContent[];
  /** The committed mutation summary, when the stage has a valid one. */
  readonly mutation: MutationSummary | null;
}

export interface Course {
  readonly stages: readonly StageContent[];
  /** Stages left out because their files are incomplete; the build names them. */
  readonly skipped: readonly Problem[];
}

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
    const faults = stage.faults.flatMap(({ id, isDefault, dir, contract: faultContract }) =>
      faultContract
        ? [
            {
              id,
              isDefault,
              contract: faultContract,
              file: repoPath(join(dir, faultContract.faultFile)),
              diff: faultPatch(stage, { dir, contract: faultContract }),
            },
          ]
        : [],
    );
    stages.push({
      stage,
      spec,
      contract,
      readme: readFileSync(stage.readmePath, "utf8"),
      solution,
      faults,
      mutation: committedSummary(stage),
    });
  }
  return { stages, skipped };
}

export function courseData(course: Course): CourseData {
  return {
    stages: course.stages.map(({ stage, spec }) => ({
      id: stage.id,
      nn: stage.nn,
      title: spec.title,
      summary: spec.summary,
      experimentId: experimentId(stage),
      mastery: spec.mastery,
      tests: [...new Set([...spec.mastery, ...spec.transfer.tests])],
      testFiles: stage.testFiles.map((file) => repoPath(file)),
      modules: spec.modules,
      copies: knownCopies(stage),
      page: stagePage(stage),
    })),
  };
}
