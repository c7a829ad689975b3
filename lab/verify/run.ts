// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, beside the lab engine's and the site's suites, while the compiler
// type-checks the repository and lint runs. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { availableParallelism } from "node:os";
import type { TestModule } from "vitest/node";
import { createVitest } from "vitest/node";
import { courseMapSync, staleGenerated } from "../authoring/generated.js";
import { type Catalog, type Fault, type Problem, type Stage } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { dirs, ROOT } from "../core/layout.js";
import { evidencePlugin } from "../evidence/plugin.js";
import { recordRun, runContext } from "../evidence/reporter.js";
import { resultsOf } from "../evidence/results.js";
import { materializeFaults } from "../trees/faults.js";
import type { Target } from "../trees/targets.js";
import { faultTree, treeFor } from "../trees/trees.js";
import { ProjectIndex, projectName, stageProject, type StageProject, type Suite } from "../vitest/projects.js";
import { runTsc } from "../vitest/typecheck.js";
import { type Check, fail, pass } from "./check.js";
import { judgeEditions, judgeTwin } from "./judges/editions.js";
import { judgeMutationSummary } from "./judges/mutation.js";
import { judgeGenerated, judgeSuite, judgeTypecheck } from "./judges/repository.js";
import { judgeFault, judgeSolution, judgeStart, type StageRun } from "./judges/runs.js";
import { judgeSpec } from "./judges/spec.js";
import { lintProblems } from "./lint.js";

export const VERIFY_TARGETS = ["solution", "faulty", "start"] as const satisfies readonly Target[];

/**
 * Test files run at once. Vitest's default (one less than the cores) leaves a 2-core machine running one
 * file at a time, while many files mostly wait: on the CLI processes they start, on the browser. One
 * more file than there are cores keeps both cores busy: on 2 cores, verify of one commit took 159 s one
 * file at a time, 113 s three at a time, and 119 s four at a time.
 */
export const VERIFY_WORKERS = availableParallelism() + 1;

export interface StageRow {
  readonly stage: Stage;
  readonly solution: Check;
  readonly fault: Check;
  readonly start: Check;
  readonly spec: Check;
  readonly mutation: Check;
  /** The Chinese twin of the lesson and of the structured fields, in parity with the English. */
  readonly twin: Check;
}

export interface VerifyReport {
  readonly rows: readonly StageRow[];
  readonly catalogProblems: readonly Problem[];
  /** Committed files that `npm run generate` would change. */
  readonly generated: Check;
  readonly typecheck: Check;
  /** The formatter and the unused-code check (npm run lint). */
  readonly lint: Check;
  /** The twins of the course map, the workspace README and the repository README. */
  readonly editions: Check;
  /** The repository's own suites (the lab engine's, the site's), each with its label. */
  readonly suites: ReadonlyArray<{ readonly label: string; readonly check: Check }>;
  readonly seconds: { readonly total: number; readonly typecheck: number };
  readonly ok: boolean;
}

export interface VerifyOptions {
  /** Only these stages (ids); all when empty. */
  readonly stages?: readonly string[];
  /** The repository's own suites to run beside the stages (the lab engine's, the site's). */
  readonly suites?: readonly Suite[];
  /** Told as each check finishes: a (stage, tree) project or suite, the type-check, lint. */
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** One check finished: what it was, whether it held, and how long it took since verify started. */
export interface ProgressEvent {
  readonly label: string;
  readonly ok: boolean;
  /** A few words: "15 passed", "2 failed of 15", "clean". */
  readonly detail: string;
  readonly seconds: number;
}

export async function runVerify(options: VerifyOptions = {}): Promise<VerifyReport> {
  const started = performance.now();
  const catalog: Catalog = loadCatalog();
  const wanted = (stage: Stage) => !options.stages?.length || options.stages.includes(stage.id);
  const stages = catalog.stages.filter(wanted);
  // Every fault's tree is made from its patch first; a patch that no longer applies leaves its fault's
  // project out, and its stage's fault column names why (judgePatches).
  const broken = new Set(materializeFaults(stages).map(({ stage, fault }) => `${stage.id}/${fault.id}`));
  const applies = (stage: Stage, fault: Pick<Fault, "id">) => !broken.has(`${stage.id}/${fault.id}`);
  const projects: StageProject[] = stages.flatMap((stage) =>
    VERIFY_TARGETS.filter((target) => target !== "faulty" || stage.faults[0] === undefined || applies(stage, stage.faults[0])).map(
      (target) => ({ stage, tree: treeFor(catalog, stage, target) }),
    ),
  );
  // A further fault's tree is a project of its own; it records no evidence.
  const faultProjects = stages.flatMap((stage) =>
    stage.faults
      .filter((fault) => !fault.isDefault && applies(stage, fault))
      .map((fault) => ({ fault, project: { stage, tree: faultTree(catalog, stage, fault) } })),
  );
  // The evidence plugin writes each run's evidence file; the judgement below reads vitest's results itself.
  const evidence = evidencePlugin(new ProjectIndex(catalog, projects));

  let typecheckSeconds = 0;
  // The repository, and the site's browser code with the DOM types it alone may use. One thread each:
  // verify keeps both cores busy with everything else, and the compiler's parallel checkers spent about
  // 5.9 s of CPU on the repository against 3.7 s on one thread, for the same diagnostics.
  const typecheck = Promise.all([dirs.tsconfig, dirs.siteTsconfig].map((project) => runTsc(project, { singleThreaded: true }))).then(
    (results) => {
      const diagnostics = results.flat();
      typecheckSeconds = (performance.now() - started) / 1000;
      return judgeTypecheck(diagnostics);
    },
    (error: unknown) => fail("did not run", [error instanceof Error ? error.message : String(error)]),
  );
  const progress = options.onProgress;
  const seconds = () => (performance.now() - started) / 1000;
  const told = (label: string) => (check: Check) => {
    progress?.({ label, ok: check.ok, detail: check.summary, seconds: seconds() });
    return check;
  };
  void typecheck.then(told("typecheck"));

  const lint = lintProblems()
    .then(
      (problems) => (problems.length === 0 ? pass("clean") : fail(`${problems.length} finding(s)`, problems)),
      (error: unknown) => fail("did not run", [error instanceof Error ? error.message : String(error)]),
    )
    .then(told("lint"));

  const suites = options.suites ?? [];
  // verify's report is the authors', in English; it judges a missing module by its error's name. Its
  // stage runs share two cores with every other tree, the lab's processes and a browser: a corpus test
  // that takes two seconds alone has taken over five there, so verify gives each test 30 s, as the lab
  // suite does (a learner's `npm test` keeps vitest's 5 s).
  const stageRun = { locale: "en", testTimeout: 30_000 } as const;
  const vitest = await createVitest(
    "test",
    // A reporter that says nothing when no progress is asked for: verify prints its own table.
    {
      watch: false,
      config: false,
      root: ROOT,
      maxWorkers: VERIFY_WORKERS,
      reporters: [progress ? projectProgress((project) => progress({ ...project, seconds: seconds() })) : {}],
    },
    {
      test: {
        projects: [
          ...projects.map((project) => stageProject(catalog, project, { ...stageRun, plugins: [evidence] })),
          ...faultProjects.map(({ project }) => stageProject(catalog, project, stageRun)),
          ...suites.map((suite) => suite.project),
        ],
      },
    },
  );
  let modules: TestModule[] = [];
  try {
    await vitest.start();
    modules = vitest.state.getTestModules();
  } finally {
    await vitest.close();
  }

  const context = runContext(vitest.version);
  const runs = new Map<string, StageRun>();
  for (const project of projects) {
    const name = projectName(project);
    const ran = modules.filter((module) => module.project.name === name);
    if (ran.length === 0 || !project.tree.target) continue;
    runs.set(name, { ...project, verification: recordRun(catalog, project, project.tree.target, resultsOf(ran), context) });
  }
  const run = (stage: Stage, target: Target) => runs.get(`stage-${stage.nn}:${target}`);
  const furtherResults = (stage: Stage) =>
    new Map(
      faultProjects
        .filter(({ project }) => project.stage === stage)
        .flatMap(({ fault, project }) => {
          const ran = modules.filter((module) => module.project.name === projectName(project));
          return ran.length === 0 ? [] : [[fault.id, resultsOf(ran)] as const];
        }),
    );
  const rows = stages.map((stage) => ({
    stage,
    solution: judgeSolution(stage, run(stage, "solution")),
    fault: judgeFault(stage, run(stage, "faulty"), furtherResults(stage)),
    start: judgeStart(stage, run(stage, "start")),
    spec: judgeSpec(stage, catalog.problems, run(stage, "solution")),
    mutation: judgeMutationSummary(stage),
    twin: judgeTwin(stage),
  }));
  const catalogProblems = catalog.problems.filter((problem) => problem.stage === null);
  const generated = judgeGenerated(staleGenerated(catalog), courseMapSync(catalog).problems);
  const editions = judgeEditions(catalog);
  const typecheckCheck = await typecheck;
  const lintCheck = await lint;
  const suiteChecks = suites.map((suite: Suite) => ({
    label: suite.label,
    check: judgeSuite(modules.filter((module) => module.project.name === suite.project.test.name)),
  }));
  const ok =
    rows.every((row) => row.solution.ok && row.fault.ok && row.start.ok && row.spec.ok && row.mutation.ok && row.twin.ok) &&
    catalogProblems.length === 0 &&
    generated.ok &&
    editions.ok &&
    typecheckCheck.ok &&
    lintCheck.ok &&
    suiteChecks.every((suite) => suite.check.ok) &&
    stages.length > 0;
  return {
    rows,
    catalogProblems,
    generated,
    editions,
    typecheck: typecheckCheck,
    lint: lintCheck,
    suites: suiteChecks,
    seconds: { total: (performance.now() - started) / 1000, typecheck: typecheckSeconds },
    ok,
  };
}

/**
 * A reporter that tells each project once all its test files have finished, with its counts. A stage
 * tree's tests may fail by design (the faulty and start trees): "ok" here means only that every file
 * ran; the judges decide what the results prove.
 */
export function projectProgress(onProjectEnd: (project: Omit<ProgressEvent, "seconds">) => void) {
  const pending = new Map<string, { files: number; passed: number; failed: number; loadErrors: number }>();
  return {
    onTestRunStart(specifications: ReadonlyArray<{ project: { name: string } }>) {
      for (const { project } of specifications) {
        const known = pending.get(project.name) ?? { files: 0, passed: 0, failed: 0, loadErrors: 0 };
        pending.set(project.name, { ...known, files: known.files + 1 });
      }
    },
    onTestModuleEnd(module: TestModule) {
      const known = pending.get(module.project.name) ?? { files: 1, passed: 0, failed: 0, loadErrors: 0 };
      let { passed, failed } = known;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
      }
      const now = { files: known.files - 1, passed, failed, loadErrors: known.loadErrors + module.errors().length };
      pending.set(module.project.name, now);
      if (now.files > 0) return;
      const loads = now.loadErrors > 0 ? `, ${now.loadErrors} file(s) did not load` : "";
      onProjectEnd({
        label: module.project.name,
        ok: true,
        detail: `${now.passed} passed${now.failed > 0 ? `, ${now.failed} failed` : ""}${loads}`,
      });
    },
  };
}
