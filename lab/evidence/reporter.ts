// A vitest reporter that turns each stage's results into verification.json, after every run (also every
// rerun in watch mode). It prints nothing itself, and the lab's plugin (plugin.ts) adds it beside whatever
// reporters vitest was given, so `--reporter=junit` or an editor's own reporter never drops the evidence.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Reporter, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import type { Catalog } from "../catalog/catalog.js";
import { dirs, ROOT, repoPath, shownPath } from "../core/layout.js";
import { findModule } from "../trees/trees.js";
import type { ProjectIndex, StageProject } from "../vitest/projects.js";
import { buildVerification, evidenceFile, writeEvidence } from "./build.js";
import { resultsOf, type Results } from "./results.js";
import { ciRun } from "./run.js";
import type { Target } from "../trees/targets.js";
import type { Verification } from "./schema.js";
import type { Locale } from "../core/locale.js";
import { testWords } from "../vitest/words/index.js";

/** The error a run ends with when a verification.json could not be written. */
export const EVIDENCE_NOT_WRITTEN_ERROR = "EvidenceNotWritten";

/**
 * The commit and whether anything differs from it, from `git status --porcelain=v2 --branch`: a header
 * `# branch.oid` names the commit (`(initial)` before the first one), and every line that is not a header
 * is a change, an untracked file included. Null when there is no commit yet.
 */
export function parseGitStatus(output: string): Verification["git"] {
  const lines = output.split("\n").filter((line) => line !== "");
  const oid = lines.find((line) => line.startsWith("# branch.oid "))?.slice("# branch.oid ".length);
  if (oid === undefined || !/^[0-9a-f]{40,64}$/.test(oid)) return null;
  return { commit: oid, dirty: lines.some((line) => !line.startsWith("# ")) };
}

/**
 * The checkout's commit and whether it has changes; null outside a git checkout or without git. One git
 * process, not two: starting a process is a good part of what the evidence costs a test run's start.
 */
export function gitState(): Promise<Verification["git"]> {
  return new Promise((resolve) =>
    execFile("git", ["status", "--porcelain=v2", "--branch"], { cwd: ROOT, encoding: "utf8" }, (error, stdout) =>
      resolve(error ? null : parseGitStatus(stdout)),
    ),
  );
}

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(dirs.packageJson, "utf8"));
  const version = typeof manifest === "object" && manifest !== null && "version" in manifest ? manifest.version : null;
  return typeof version === "string" ? version : "unknown";
}

export interface RunContext {
  readonly generatedAt: Date;
  readonly tools: Verification["tools"];
  readonly git: Verification["git"];
  readonly run: Verification["run"];
}

export function runContext(vitestVersion: string, git: Verification["git"] = null): RunContext {
  return {
    generatedAt: new Date(),
    tools: { node: process.version, vitest: vitestVersion, forgeLab: packageVersion() },
    git,
    run: ciRun(),
  };
}

/** The stage's test files and every module its tree provides for this stage and the ones before. */
function sources(catalog: Catalog, { stage, tree }: StageProject): Verification["sources"] {
  const modules = catalog.stages.filter((other) => other.number <= stage.number).flatMap((other) => other.spec?.modules ?? []);
  const files = [...stage.testFiles, ...modules.map((name) => findModule(tree.layers, name)).filter((file) => file !== null)];
  return files.map((file) => ({ path: repoPath(file), sha256: createHash("sha256").update(readFileSync(file)).digest("hex") }));
}

/** What a run of a target's tree proves, as verification.json records it. */
export function recordRun(catalog: Catalog, project: StageProject, target: Target, results: Results, context: RunContext): Verification {
  const { stage, tree } = project;
  // A run of some of the stage's files (`npm test -- stage-12-mcp-server/transfer`) is not the stage's
  // verdict: every one of its files must have run, or loaded and failed.
  const ran = new Set([...results.tests, ...results.loadErrors].map((result) => result.file));
  const everyFile = stage.testFiles.every((file) => ran.has(repoPath(file)));
  return buildVerification({
    stage,
    target,
    ...context,
    sources: sources(catalog, project),
    ...results,
    complete: results.complete && everyFile,
    missingModules: (stage.spec?.modules ?? []).filter((module) => findModule(tree.layers, module) === null),
    contract: stage.contract,
  });
}

export class EvidenceReporter implements Reporter {
  #vitest: Vitest | null = null;
  #git: Promise<Verification["git"]> | null = null;

  constructor(
    private readonly index: ProjectIndex,
    private readonly locale: Locale = "en",
  ) {}

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  // Asked while the tests run, so the answer is ready when they end.
  onTestRunStart(): void {
    this.#git = gitState();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    const touched = new Set(testModules.map((module) => module.project.name));
    // In watch mode only some files rerun; the state holds the latest result of every file.
    const latest = this.#vitest?.state.getTestModules() ?? [...testModules];
    const context = runContext(this.#vitest?.version ?? "unknown", await (this.#git ?? gitState()));
    const unwritten: string[] = [];
    for (const name of touched) {
      const project = this.index.get(name);
      const target = project?.tree.target;
      if (!project || !target) continue; // not a stage, or a tree that records no evidence
      const results = resultsOf(
        latest.filter((module) => module.project.name === name),
        reason,
      );
      const file = evidenceFile(project.stage, target);
      try {
        writeEvidence(file, recordRun(this.index.catalog, project, target, results, context));
      } catch (error) {
        // A read-only or full disk, or a file where the folder belongs: the other stages' evidence is
        // still written, and the run fails with one line per file instead of a stack trace.
        unwritten.push(testWords(this.locale).evidenceNotWritten(shownPath(file), error instanceof Error ? error.message : String(error)));
      }
    }
    if (unwritten.length > 0) {
      const error = new Error(unwritten.join("\n"));
      error.name = EVIDENCE_NOT_WRITTEN_ERROR;
      error.stack = `${error.name}: ${error.message}`;
      throw error;
    }
  }
}
