// One vitest project per (stage, tree): the stage's test files with the resolver of that tree. `npm test`
// builds one target's projects; `verify` builds several targets' in the same process.
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import type { TestProjectInlineConfiguration } from "vitest/config";
import type { WatcherTriggerPattern } from "vitest/node";
import { moduleOwners, type Catalog, type Stage } from "../catalog/catalog.js";
import { MODULE_DIR, ROOT, repoPath } from "../core/layout.js";
import type { Locale } from "../core/locale.js";
import type { Tree } from "../trees/trees.js";
import { forgeLayers } from "./resolver.js";
import { threadsWithSpare } from "./threads-pool.js";

const VISIBLE_FAILURES = fileURLToPath(new URL("./visible-failures.ts", import.meta.url));

/** A stage and the tree its tests run against: what one project stands for. */
export interface StageProject {
  readonly stage: Stage;
  readonly tree: Tree;
}

/** Short and readable in vitest's output, e.g. `stage-01:solution`. */
export function projectName({ stage, tree }: StageProject): string {
  return `stage-${stage.nn}:${tree.name}`;
}

export interface ProjectOptions {
  /** The edition of the messages a learner reads when a module cannot load. */
  readonly locale: Locale;
  /** More plugins: the evidence plugin, for runs that record evidence. */
  readonly plugins?: readonly Plugin[];
  /** A test's time limit in ms, for a run that shares the machine with much else (verify); vitest's own otherwise. */
  readonly testTimeout?: number;
}

/** The project of a (stage, tree). */
export function stageProject(catalog: Catalog, project: StageProject, options: ProjectOptions): TestProjectInlineConfiguration {
  const { stage, tree } = project;
  return {
    plugins: [forgeLayers({ stage, tree, owners: moduleOwners(catalog), locale: options.locale }), ...(options.plugins ?? [])],
    test: {
      // A test that starts a child process needs the file behind a module: see lab/testing.ts.
      provide: { forgeLayers: [...tree.layers] },
      name: projectName(project),
      root: ROOT,
      include: stage.testFiles.map((file) => repoPath(file)),
      // Stage tests keep no global state, so one thread may run a stage's files one after another: it
      // starts in a fraction of the time of a forked, isolated worker per file. In watch mode a learner's
      // changed modules are fetched afresh because the resolver forgets them (and what imports them)
      // before each rerun.
      pool: threadsWithSpare,
      isolate: false,
      // A failure message shows values whole (chai cuts them at 40 characters by default), so an error
      // message is never cut before the word a test looks for. Bounded, so a runaway value stays readable.
      chaiConfig: { truncateThreshold: 10_000 },
      // A failure shows invisible characters as escapes: a table keyed by `cat a\u202eb` and `cat ab`
      // must not print two rows that look the same.
      setupFiles: [VISIBLE_FAILURES],
      ...(options.testTimeout === undefined ? {} : { testTimeout: options.testTimeout }),
    },
  };
}

/**
 * What reruns when a file under a learner folder appears, changes or goes away in watch mode: every test
 * file of the projects that read that folder. A regular expression on the file's own path (vitest passes
 * it with forward slashes), not a glob: a glob that starts with `**` matches no path through a folder
 * whose name starts with a dot (a checkout under ~/.src/), and vitest hands globs to its file watcher,
 * which then stops reporting changes to files it already watched.
 */
export function learnerWatchTriggers(projects: readonly StageProject[]): WatcherTriggerPattern[] {
  const testsByFolder = new Map<string, string[]>();
  for (const { stage, tree } of projects) {
    if (tree.learner === null) continue;
    const folder = join(tree.learner, MODULE_DIR).split(sep).join("/");
    const tests = testsByFolder.get(folder) ?? [];
    tests.push(...stage.testFiles);
    testsByFolder.set(folder, tests);
  }
  return [...testsByFolder].map(([folder, tests]) => ({
    // Windows compares paths without regard to case, and so does this pattern there.
    pattern: new RegExp(`^${folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/`, process.platform === "win32" ? "i" : ""),
    testsToRun: () => tests,
  }));
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

/** Finds the stage and tree behind a project name. */
export class ProjectIndex {
  readonly #projects = new Map<string, StageProject>();

  constructor(
    readonly catalog: Catalog,
    projects: readonly StageProject[],
  ) {
    for (const project of projects) this.#projects.set(projectName(project), project);
  }

  get(name: string): StageProject | undefined {
    return this.#projects.get(name);
  }
}

/** One of the repository's own test suites (the lab engine's, the site's), as verify runs it. */
export interface Suite {
  /** The row verify prints for it. */
  readonly label: string;
  readonly project: TestProjectInlineConfiguration & { readonly test: { readonly name: string } };
}
