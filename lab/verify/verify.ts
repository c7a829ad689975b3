// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join } from "node:path";
import type { TestModule } from "vitest/node";
import { createVitest } from "vitest/node";
import { loadCatalog, type Catalog, type Fault, type Problem, type Stage } from "../catalog/catalog.js";
import { evaluateContract, evaluateStart } from "../evidence/judge.js";
import { dirs, layoutOf, localized, moduleFile, ROOT, repoPath } from "../core/layout.js";
import { readFileState } from "../core/files.js";
import { lessonParityProblems, pageParityProblems, type TwinPage } from "../authoring/editions.js";
import { TWIN_LOCALE } from "../core/locale.js";
import { environmentInstructions, lessonProblems } from "../authoring/lesson.js";
import { expectedMessages, unshownMessages } from "../authoring/expected-messages.js";
import { courseMapSync, staleGenerated } from "../authoring/generated.js";
import { placeholders } from "../authoring/scaffold.js";
import { faultyModule, materializeFaults, parsePatch, PatchError } from "../trees/faults.js";
import { ProjectIndex, projectName, stageProject, type StageProject, type Suite } from "../vitest/projects.js";
import { evidencePlugin } from "../evidence/plugin.js";
import { recordRun, runContext } from "../evidence/reporter.js";
import { resultsOf, toTestResult } from "../evidence/results.js";
import type { ContractResult, LoadError, TestResult, Verification } from "../evidence/schema.js";
import type { FaultContract } from "../catalog/failure-schema.js";
import { faultTree, treeFor } from "../trees/trees.js";
import { lintProblems } from "./lint.js";
import { committedSummary, judgeMutation } from "../mutation/stage.js";
import { runTsc, type Diagnostic } from "../vitest/typecheck.js";
import type { Target } from "../trees/targets.js";

export const VERIFY_TARGETS = ["solution", "faulty", "start"] as const satisfies readonly Target[];
/**
 * Test files run at once. Vitest's default (one less than the cores) leaves a 2-core machine running one
 * file at a time, while many files mostly wait: on the CLI processes they start, on the browser. One
 * more file than there are cores keeps both cores busy: on 2 cores, verify of one commit took 159 s one
 * file at a time, 113 s three at a time, and 119 s four at a time.
 */
export const VERIFY_WORKERS = availableParallelism() + 1;
/** Every stage proves its behaviour with at least this many tests. */
export /** A stage with this many tests suggests an order to make them green in (stage.json `order`). */
const ORDERED_FROM = 20;
const MIN_TESTS = 6;

export interface Check {
  readonly ok: boolean;
  /** A few words for the table. */
  readonly summary: string;
  /** What is wrong, each naming what to look at. */
  readonly problems: readonly string[];
}

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

/** A stage's tests run against one of its trees, and what the run proves. */
export interface StageRun extends StageProject {
  readonly verification: Verification;
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

const pass = (summary: string): Check => ({ ok: true, summary, problems: [] });
const fail = (summary: string, problems: readonly string[]): Check => ({ ok: false, summary, problems });

export function judgeSolution(stage: Stage, run: StageRun | undefined): Check {
  if (!run) return fail("not run", ["the solution tree was not run"]);
  const { summary, tests, loadErrors } = run.verification;
  const label = `${summary.passed}/${summary.total}`;
  if (run.verification.acceptance === "passed") return pass(label);
  return fail(label, [
    ...tests
      .filter((test) => test.status !== "passed")
      .map((test) => `"${test.name}" ${test.status}: ${test.failure?.message ?? ""}`.trim()),
    ...loadErrors.map((error) => `${error.file} did not load: ${error.message}`),
    ...(summary.total === 0 && loadErrors.length === 0 ? [`no tests ran for ${stage.id}`] : []),
  ]);
}

/**
 * Each fault is a patch of one hunk that still applies to the reference: a patch that no longer applies
 * names the fault and the lines an edit of the reference touched, so the fault is re-made, not lost.
 */
export function judgePatches(stage: Stage): string[] {
  return stage.faults.flatMap((fault) => {
    if (!fault.contract || !existsSync(fault.patchPath)) return []; // the catalog names what is missing
    const patch = repoPath(fault.patchPath, stage.root);
    try {
      const parsed = parsePatch(readFileSync(fault.patchPath, "utf8"));
      if (parsed.file !== fault.contract.faultFile)
        return [`${patch} changes ${parsed.file}, but its contract names ${fault.contract.faultFile} as the fault file`];
      if (parsed.hunks.length !== 1)
        return [`${patch} changes the reference in ${parsed.hunks.length} places; a fault is one injected change`];
      if (!parsed.hunks[0]?.lines.some((line) => line.startsWith("-") || line.startsWith("+"))) return [`${patch} injects no change`];
      faultyModule(stage, fault);
      return [];
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return [`fault "${fault.id}" (${patch}): ${error.message}; make it again with npm run lab -- new-fault ${stage.nn} ${fault.id}`];
    }
  });
}

/** Why a fault's run does not reproduce its contract; empty when it does. */
function contractProblems(contract: FaultContract, result: ContractResult, target: TestResult | undefined): string[] {
  if (result.reproduced) return [];
  const problems: string[] = [];
  if (target?.status === "passed") problems.push(`"${contract.targetTest}" passed against the faulty tree: the fault is not caught`);
  else if (target?.failure && !result.targetFailedByAssertion) {
    problems.push(`"${contract.targetTest}" failed by an error, not an assertion: ${target.failure.message}`);
  } else if (target?.failure && !result.messageMatched) {
    problems.push(`"${contract.targetTest}" failed with "${target.failure.message}", which does not match /${contract.expectedFailure}/`);
  }
  problems.push(...result.unexpectedFailures.map((failure) => `unexpected failure: ${failure}`));
  return problems;
}

/** The results of a further fault's tree (it records no evidence, so verify evaluates its contract here). */
export interface FaultResults {
  readonly tests: readonly TestResult[];
  readonly loadErrors: readonly LoadError[];
}

/**
 * Every fault of the stage is caught exactly as its contract says: the default one by the `faulty`
 * target's run, each further one by the run of its own tree.
 */
export function judgeFault(stage: Stage, run: StageRun | undefined, further: ReadonlyMap<string, FaultResults> = new Map()): Check {
  if (!stage.contract) return fail("no contract", ["failure.json is missing or invalid"]);
  if (!run || !run.verification.contract) return fail("not run", ["the faulty tree was not run"]);
  const broken = judgePatches(stage);
  if (broken.length > 0) return fail("patch broken", broken);
  const several = stage.faults.length > 1;
  const problems: string[] = [];
  for (const fault of stage.faults) {
    const label = several ? `fault "${fault.id}": ` : "";
    if (!fault.contract) {
      problems.push(`${label}${repoPath(fault.contractPath, stage.root)} is missing or invalid`);
      continue;
    }
    const results = fault.isDefault ? run.verification : further.get(fault.id);
    if (!results) {
      problems.push(`${label}its faulty tree was not run`);
      continue;
    }
    const result =
      fault.isDefault && run.verification.contract
        ? run.verification.contract
        : evaluateContract(fault.contract, results.tests, results.loadErrors);
    const target = results.tests.find((test) => test.name === fault.contract?.targetTest);
    problems.push(...contractProblems(fault.contract, result, target).map((problem) => `${label}${problem}`));
  }
  if (problems.length === 0) return pass(several ? `${stage.faults.length} reproduced` : "reproduced");
  return fail("not reproduced", problems);
}

export function judgeStart(stage: Stage, run: StageRun | undefined): Check {
  if (!run) return fail("not run", ["the start tree was not run"]);
  const result = evaluateStart(
    stage.spec?.modules ?? [],
    stage.testFiles.map((file) => repoPath(file)),
    run.verification.tests,
    run.verification.loadErrors,
  );
  return result.failsForMissingModule ? pass("module missing") : fail("does not fail", [result.reason]);
}

/**
 * What a lesson (either edition) fails to show a learner who has only it: a message the stage's tests
 * compare with and the lesson's inline code does not show, or a line that sets one of the lab's
 * environment variables.
 */
function learnerFacing(stage: Stage, lesson: string, text: string): string[] {
  const shown = repoPath(lesson, stage.root);
  const expected = stage.testFiles
    .filter((file) => existsSync(file))
    .flatMap((file) => expectedMessages(readFileSync(file, "utf8"), file).map((message) => ({ ...message, file })));
  const seen = new Set<string>();
  const unshown = unshownMessages(expected, text).filter((message) => !seen.has(message.text) && seen.add(message.text));
  return [
    ...unshown.map(
      (message) =>
        `${shown}: the tests expect ${message.kind === "whole" ? "the message" : "a message containing"} ${JSON.stringify(message.text)} (${repoPath(message.file, stage.root)}:${message.line}), which no inline code of the lesson shows (write it in the message table, \`…\` for what varies)`,
    ),
    ...environmentInstructions(text).map((problem) => `${shown}: ${problem}`),
  ];
}

/** The files an author writes for a stage, with their text. */
function stageTexts(stage: Stage): Array<{ file: string; text: string }> {
  const modules = (stage.spec?.modules ?? []).map((name) => moduleFile(stage.solutionDir, name));
  const patches = stage.faults.map((fault) => fault.patchPath);
  return [
    stage.readmePath,
    localized(stage.readmePath, TWIN_LOCALE),
    stage.specPath,
    stage.contractPath,
    ...stage.testFiles,
    ...modules,
    ...patches,
  ]
    .filter((file) => existsSync(file))
    .map((file) => ({ file, text: readFileSync(file, "utf8") }));
}

export function judgeSpec(stage: Stage, catalogProblems: readonly Problem[], solution: StageRun | undefined): Check {
  const problems = catalogProblems.filter((problem) => problem.stage === stage.id).map((problem) => `${problem.file}: ${problem.message}`);
  const { spec, contract } = stage;
  problems.push(...placeholders(stageTexts(stage), stage.root));
  if (spec && contract && existsSync(stage.readmePath)) {
    const readme = repoPath(stage.readmePath, stage.root);
    problems.push(...learnerFacing(stage, stage.readmePath, readFileSync(stage.readmePath, "utf8")));
    problems.push(
      ...lessonProblems(readFileSync(stage.readmePath, "utf8"), { stage, spec, contract, mutation: committedSummary(stage) }).map(
        (problem) => `${readme}: ${problem}`,
      ),
    );
  }
  if (solution) {
    const names = new Set(solution.verification.tests.map((test) => test.name));
    const named = (file: string, field: string, list: readonly string[]) => {
      for (const name of list) if (!names.has(name)) problems.push(`${file}: ${field} names "${name}", which is not a test of this stage`);
    };
    if (spec) {
      named(repoPath(stage.specPath, stage.root), "mastery", spec.mastery);
      named(repoPath(stage.specPath, stage.root), "transfer.tests", spec.transfer.tests);
      // The site's self-check requires every test of the suite, and learns the suite from these two lists.
      const listed = new Set([...spec.mastery, ...spec.transfer.tests]);
      for (const name of names) {
        if (!listed.has(name))
          problems.push(
            `${repoPath(stage.specPath, stage.root)}: "${name}" is a test of this stage but neither mastery nor transfer.tests names it, so the self-check would not require it`,
          );
      }
    }
    const seen = new Set<string>();
    for (const test of solution.verification.tests) {
      if (seen.has(test.name))
        problems.push(`${test.file}: two tests of ${stage.id} are named "${test.name}"; evidence keys results by name`);
      seen.add(test.name);
    }
    if (spec?.order) {
      const ordered = spec.order.flatMap((step) => step.tests);
      named(repoPath(stage.specPath, stage.root), "order", ordered);
      const twice = ordered.filter((name, index) => ordered.indexOf(name) !== index);
      for (const name of new Set(twice))
        problems.push(`${repoPath(stage.specPath, stage.root)}: order names "${name}" in more than one step; each test has one place`);
      for (const name of names)
        if (!ordered.includes(name))
          problems.push(`${repoPath(stage.specPath, stage.root)}: order leaves out "${name}"; a suggested order places every test`);
    }
    for (const fault of stage.faults) {
      if (fault.contract)
        named(repoPath(fault.contractPath, stage.root), "targetTest/alsoFailing", [
          fault.contract.targetTest,
          ...fault.contract.alsoFailing,
        ]);
    }
    if (names.size < MIN_TESTS) problems.push(`${stage.id} has ${names.size} tests; every stage needs at least ${MIN_TESTS}`);
    if (spec && !spec.order && names.size >= ORDERED_FROM)
      problems.push(
        `${repoPath(stage.specPath, stage.root)}: ${stage.id} has ${names.size} tests and no order; a stage of ${ORDERED_FROM} tests or more suggests which to make green first, and why`,
      );
  }
  return problems.length === 0 ? pass("complete") : fail("incomplete", problems);
}

/**
 * The committed mutation summary: missing, stale or inconsistent fails, and so does a fresh one short of
 * the goal (below 90%, or with a survivor that neither a test kills nor a reason explains).
 */
export function judgeMutationSummary(stage: Stage): Check {
  const verdict = judgeMutation(stage);
  if (verdict.state === "broken") return fail(verdict.stale ? "stale" : "invalid", [verdict.problem]);
  const { score, unexplained } = verdict.summary;
  if (verdict.state === "met") return pass(`${score}%`);
  return fail(`${score}% (${unexplained.length} open)`, [verdict.problem]);
}

/** A page's text, or why it cannot be read (missing, or not a regular file). */
function readPage(file: string, root: string): { text: string } | { problem: string } {
  let state: ReturnType<typeof readFileState>;
  try {
    state = readFileState(file);
  } catch (error) {
    return { problem: `${repoPath(file, root)} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (state.kind === "missing") return { problem: `${repoPath(file, root)} is missing` };
  if (state.kind !== "file") return { problem: `${repoPath(file, root)} is ${state.what}, not a file` };
  return { text: Buffer.from(state.bytes).toString("utf8") };
}

/** Both pages of a pair, or what keeps them from being compared. */
function readTwins(english: string, root: string): { page: TwinPage } | { problems: string[] } {
  const twin = localized(english, TWIN_LOCALE);
  const [a, b] = [readPage(english, root), readPage(twin, root)];
  if ("problem" in a || "problem" in b) return { problems: [a, b].flatMap((read) => ("problem" in read ? [read.problem] : [])) };
  return {
    page: { english: a.text, twin: b.text, englishName: basename(english), twinName: basename(twin), locale: TWIN_LOCALE },
  };
}

/** The lesson's Chinese twin and the Chinese fields of stage.json and failure.json, in parity with the English. */
export function judgeTwin(stage: Stage): Check {
  const { spec, contract } = stage;
  if (!spec || !contract) return fail("not checked", ["stage.json or failure.json is missing or invalid"]);
  const read = readTwins(stage.readmePath, stage.root);
  if ("problems" in read) return fail("missing", read.problems);
  const problems = [
    ...lessonParityProblems(read.page, { stage, spec, contract, mutation: committedSummary(stage) }),
    ...learnerFacing(stage, localized(stage.readmePath, TWIN_LOCALE), read.page.twin).map((problem) =>
      problem.slice(repoPath(stage.dir, stage.root).length + 1),
    ),
  ];
  const where = repoPath(stage.dir, stage.root);
  return problems.length === 0
    ? pass("in parity")
    : fail(
        "differs",
        [...new Set(problems)].map((problem) => `${where}/${problem}`),
      );
}

/** The twins of the pages around the lessons: the course map, the workspace README and the repository README. */
export function judgeEditions(catalog: Catalog): Check {
  const layout = layoutOf(catalog.stages[0]?.root ?? ROOT);
  const problems = [layout.courseMap, layout.workspaceReadme, layout.readme].flatMap((english) => {
    const read = readTwins(english, layout.root);
    if ("problems" in read) return read.problems;
    const folder = repoPath(dirname(english), layout.root);
    const prefix = folder === "" ? "" : `${folder}/`;
    // The course map and the workspace README are read as lessons are: neither asks for a variable.
    const variables =
      english === layout.readme
        ? []
        : [
            ...environmentInstructions(read.page.english).map((problem) => `${read.page.englishName}: ${problem}`),
            ...environmentInstructions(read.page.twin).map((problem) => `${read.page.twinName}: ${problem}`),
          ];
    return [...pageParityProblems(read.page), ...variables].map((problem) => `${prefix}${problem}`);
  });
  return problems.length === 0 ? pass("in parity") : fail(`${problems.length} difference(s)`, problems);
}

export function judgeGenerated(stale: readonly string[], problems: readonly string[] = []): Check {
  if (stale.length === 0 && problems.length === 0) return pass("fresh");
  return fail(stale.length > 0 ? `${stale.length} stale` : "incomplete", [
    ...stale.map((file) => `${file} is not what npm run generate makes of the sources: run npm run generate`),
    ...problems,
  ]);
}

export function judgeTypecheck(diagnostics: readonly Diagnostic[]): Check {
  if (diagnostics.length === 0) return pass("no errors");
  return fail(
    `${diagnostics.length} error(s)`,
    diagnostics.map((d) => `${repoPath(d.file)}:${d.line}:${d.column} ${d.code}: ${d.message}`),
  );
}

/** A suite of the repository's own tests (the lab engine's, the site's): every test passed. */
export function judgeSuite(modules: readonly TestModule[]): Check {
  const results = modules.flatMap((module) => [...module.children.allTests()].map((test) => toTestResult(repoPath(module.moduleId), test)));
  const loadErrors = modules.flatMap((module) => module.errors().map((error) => `${repoPath(module.moduleId)}: ${error.message ?? ""}`));
  const failed = results.filter((test) => test.status !== "passed");
  const label = `${results.length - failed.length}/${results.length}`;
  if (modules.length === 0) return fail("not run", ["no tests were found"]);
  if (failed.length === 0 && loadErrors.length === 0) return pass(label);
  return fail(label, [
    ...failed.map((test) => `${test.file} › "${test.name}" ${test.status}: ${test.failure?.message ?? ""}`),
    ...loadErrors.map((error) => `did not load: ${error}`),
  ]);
}

export interface VerifyOptions {
  /** Only these stages (ids); all when empty. */
  readonly stages?: readonly string[];
  /** The repository's own suites to run beside the stages (the lab engine's, the site's). */
  readonly suites?: readonly Suite[];
  /** Called as each project finishes, for progress output. */
  readonly onProjectEnd?: (name: string) => void;
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
  // The repository, and the site's browser code with the DOM types it alone may use.
  const typecheck = Promise.all([dirs.tsconfig, dirs.siteTsconfig].map((project) => runTsc(project))).then(
    (results) => {
      const diagnostics = results.flat();
      typecheckSeconds = (performance.now() - started) / 1000;
      return judgeTypecheck(diagnostics);
    },
    (error: unknown) => fail("did not run", [error instanceof Error ? error.message : String(error)]),
  );

  const lint = lintProblems().then(
    (problems) => (problems.length === 0 ? pass("clean") : fail(`${problems.length} finding(s)`, problems)),
    (error: unknown) => fail("did not run", [error instanceof Error ? error.message : String(error)]),
  );

  const progress = options.onProjectEnd;
  const suites = options.suites ?? [];
  const vitest = await createVitest(
    "test",
    // A reporter that says nothing when no progress is asked for: verify prints its own table.
    {
      watch: false,
      config: false,
      root: ROOT,
      maxWorkers: VERIFY_WORKERS,
      reporters: [progress ? projectProgress(progress) : {}],
    },
    {
      test: {
        projects: [
          // verify's report is the authors', in English; it judges a missing module by its error's name.
          ...projects.map((project) => stageProject(catalog, project, { locale: "en", plugins: [evidence] })),
          ...faultProjects.map(({ project }) => stageProject(catalog, project, { locale: "en" })),
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

/** A reporter that reports each project once all its test files have finished. */
function projectProgress(onProjectEnd: (name: string) => void) {
  const pending = new Map<string, number>();
  return {
    onTestRunStart(specifications: ReadonlyArray<{ project: { name: string } }>) {
      for (const { project } of specifications) pending.set(project.name, (pending.get(project.name) ?? 0) + 1);
    },
    onTestModuleEnd(module: TestModule) {
      const left = (pending.get(module.project.name) ?? 1) - 1;
      pending.set(module.project.name, left);
      if (left === 0) onProjectEnd(module.project.name);
    },
  };
}
