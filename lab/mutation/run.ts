// Runs StrykerJS on one stage's reference module against that stage's tests: its vitest runner through
// lab/mutation/vitest.config.ts (the same layered solution tree every other run resolves) and its
// TypeScript checker, so mutants that do not type-check are not counted.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { $ } from "zx";
import type { Stage } from "../catalog/catalog.js";
import { writeFileAtomic } from "../core/files.js";
import { acquireLock, LockRefused } from "../core/lock.js";
import { dirs, repoPath, ROOT } from "../core/layout.js";
import { currentSources, mutatedModules, readSummary, summaryFile } from "./stage.js";
import { summarize, verdicts, type MutationSummary, type StrykerReport } from "./summary.js";

/**
 * "all" rather than "perTest": with vitest 4, per-test coverage lets verdicts differ between identical
 * runs (stryker-js #6073), and the stages' suites are small enough to run whole for every mutant.
 */
export const COVERAGE_ANALYSIS = "perTest" as const;

const STRYKER = join(ROOT, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
const TYPESCRIPT_5 = pathToFileURL(join(ROOT, "lab", "mutation", "typescript-5.mjs")).href;

const relativeTo = (folder: string, file: string) => `./${relative(folder, file).split(sep).join("/")}`;

export interface StageRun {
  readonly summary: MutationSummary;
  readonly verdicts: readonly string[];
  readonly seconds: number;
  readonly report: string;
}

export async function mutateStage(stage: Stage, options: { readonly quiet?: boolean } = {}): Promise<StageRun> {
  // Two runs of one stage would remove each other's sandbox: the second refuses, naming the first.
  // `npm run mutate` is an author's tool, and speaks English as the rest of its output does.
  const { lock } = mutationLock(stage);
  try {
    return await runStryker(stage, options);
  } finally {
    lock.release();
  }
}

async function runStryker(stage: Stage, options: { readonly quiet?: boolean }): Promise<StageRun> {
  const state = join(dirs.mutationState, stage.id);
  rmSync(state, { recursive: true, force: true });
  mkdirSync(state, { recursive: true });
  mkdirSync(dirs.mutationReports, { recursive: true });
  const jsonReport = join(state, "report.json");
  const htmlReport = join(dirs.mutationReports, `${stage.id}.html`);
  // The checker compiles only what the stage's tests reach, not the whole repository: most of a run's
  // time would otherwise go to re-checking the lab and the site for every mutant.
  // One per stage, so runs of different stages at once never read each other's.
  const tsconfig = join(ROOT, `tsconfig.mutate.${stage.id}.json`);
  writeFileSync(
    tsconfig,
    `${JSON.stringify({ extends: relativeTo(ROOT, dirs.tsconfig), include: [], files: [...mutatedModules(stage), ...stage.testFiles].map((file) => relativeTo(ROOT, file)) }, null, 2)}\n`,
  );
  const config = {
    packageManager: "npm",
    testRunner: "vitest",
    vitest: { configFile: "lab/mutation/vitest.config.ts", related: false },
    checkers: ["typescript"],
    tsconfigFile: repoPath(tsconfig),
    mutate: mutatedModules(stage).map((file) => repoPath(file)),
    coverageAnalysis: COVERAGE_ANALYSIS,
    concurrency: 2,
    reporters: ["html", "json", "progress"],
    htmlReporter: { fileName: repoPath(htmlReport) },
    jsonReporter: { fileName: repoPath(jsonReport) },
    tempDirName: repoPath(join(state, "sandbox")),
    cleanTempDir: process.env.FORGE_KEEP_SANDBOX ? false : "always",
    // The sandbox needs the stages, their references and the lab; not the learner's folders or outputs.
    ignorePatterns: [...["/workspace", "/evidence", "/site/dist", "/test-results", "/faultlab", "/reports"], `/${repoPath(dirs.labState)}`],
    plugins: ["@stryker-mutator/vitest-runner", "@stryker-mutator/typescript-checker"],
    thresholds: { high: 95, low: 90, break: null },
    timeoutMS: 10_000,
  };
  const configFile = join(state, "stryker.config.json");
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const started = performance.now();
  const env = {
    ...process.env,
    FORGE_MUTATE_STAGE: stage.id,
    // Every process StrykerJS starts (checker and test-runner workers) loads the TypeScript 5 redirect.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${TYPESCRIPT_5}`.trim(),
  };
  const result = await $({ cwd: ROOT, env, nothrow: true, quiet: options.quiet ?? false })`node ${STRYKER} run ${configFile}`.finally(() =>
    rmSync(tsconfig, { force: true }),
  );
  if (result.exitCode !== 0) throw new Error(`StrykerJS failed on ${stage.id} (exit ${result.exitCode}); its log is above`);
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(jsonReport, "utf8")) as StrykerReport;
  const previous = readSummary(stage);
  const summary = summarize(report, {
    coverageAnalysis: COVERAGE_ANALYSIS,
    sources: currentSources(stage),
    previous: "summary" in previous ? previous.summary : null,
  });
  return { summary, verdicts: verdicts(report), seconds, report: htmlReport };
}

export function writeSummary(stage: Stage, summary: MutationSummary): void {
  writeFileAtomic(summaryFile(stage), `${JSON.stringify(summary, null, 2)}\n`);
}

function mutationLock(stage: Stage) {
  try {
    return acquireLock(join(dirs.mutationState, `${stage.id}.lock`), `mutate ${stage.id}`);
  } catch (error) {
    if (!(error instanceof LockRefused)) throw error;
    // `npm run mutate` is an author's tool and speaks English: the lock's own words say who holds it.
    throw new Error(`${error.message}: another mutation run of ${stage.id} is under way`);
  }
}
