// One vitest project per (stage, target): the stage's test files with the resolver of that tree.
// `npm test` builds one target's projects; `verify` builds several targets' in the same process.
import type { TestProjectInlineConfiguration } from "vitest/config";
import { moduleOwners, type Catalog, type Stage } from "./catalog.js";
import { ROOT, repoPath } from "./layout.js";
import { forgeLayers } from "./resolver.js";
import { layersFor, type Target } from "./targets.js";

export interface StageProject {
  readonly stage: Stage;
  readonly target: Target;
}

/** Short and readable in vitest's output, e.g. `stage-01:solution`. */
export function projectName(stage: Pick<Stage, "nn">, target: Target): string {
  return `stage-${stage.nn}:${target}`;
}

/**
 * The project of one stage against one tree. `layers` and `name` are for the lab's own trees, such as a
 * learner's repair of a fault (`lab fault --check`); the four targets compute theirs.
 */
export function stageProject(
  catalog: Catalog,
  stage: Stage,
  target: Target,
  custom: { layers: readonly string[]; name: string } | null = null,
): TestProjectInlineConfiguration {
  const layers = custom?.layers ?? layersFor(catalog, stage, target);
  return {
    plugins: [forgeLayers({ stage, target, layers, owners: moduleOwners(catalog) })],
    test: {
      // A test that starts a child process needs the file behind a module: see lab/testing.ts.
      provide: { forgeLayers: [...layers] },
      name: custom?.name ?? projectName(stage, target),
      root: ROOT,
      include: stage.testFiles.map((file) => repoPath(file)),
      // Stage tests keep no global state, so one thread may run a stage's files one after another:
      // it starts in a fraction of the time of a forked, isolated worker per file. The learner's
      // workspace stays isolated: in watch mode each rerun must see their files afresh.
      pool: "threads",
      isolate: target === "workspace",
      // A failure message shows values whole (chai cuts them at 40 characters by default), so an error
      // message is never cut before the word a test looks for. Bounded, so a runaway value stays readable.
      chaiConfig: { truncateThreshold: 10_000 },
    },
  };
}

export const LAB_PROJECT = "lab";

/** The lab engine's own tests. */
export function labProject(): TestProjectInlineConfiguration {
  return { test: { name: LAB_PROJECT, root: ROOT, include: ["lab/test/**/*.test.ts"] } };
}

/**
 * The stages whose test files a vitest command-line filter can select (vitest matches filters as
 * substrings of the file path). Building only those projects keeps `npm test -- stage-01` quick no
 * matter how many stages exist; with no filter, or one that matches nothing, every stage is kept.
 */
export function stagesMatching(catalog: Catalog, filters: readonly string[]): readonly Stage[] {
  const needles = filters.map((filter) => filter.replace(/:\d+$/, "").replaceAll("\\", "/")).filter((filter) => filter !== "");
  const matching = catalog.stages.filter((stage) =>
    stage.testFiles.some((file) => needles.some((needle) => file.replaceAll("\\", "/").includes(needle))),
  );
  return matching.length > 0 ? matching : catalog.stages;
}

export const SITE_PROJECT = "site";

/** The course site's tests: the self-check logic, and the built site in a real Chromium. */
export function siteProject(): TestProjectInlineConfiguration {
  return { test: { name: SITE_PROJECT, root: ROOT, include: ["site/test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 } };
}

/** Finds the stage and target behind a project name. */
export class ProjectIndex {
  readonly #projects = new Map<string, StageProject>();

  constructor(readonly catalog: Catalog, pairs: readonly StageProject[]) {
    for (const pair of pairs) this.#projects.set(projectName(pair.stage, pair.target), pair);
  }

  get(name: string): StageProject | undefined {
    return this.#projects.get(name);
  }
}
