// A vitest reporter that turns each stage's results into verification.json, after every run
// (also every rerun in watch mode). It sits beside vitest's own reporter and prints nothing itself.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import type { Stage } from "../catalog/catalog.js";
import { buildVerification, evidenceFile, writeEvidence } from "./build.js";
import { ROOT, repoPath } from "../core/layout.js";
import type { ProjectIndex, StageProject } from "../vitest/projects.js";
import { MISSING_MODULE_ERROR } from "../vitest/resolver.js";
import type { LoadError, TestResult, Verification } from "./schema.js";
import { findModule, layersFor } from "../trees/trees.js";

export interface StageRun extends StageProject {
  readonly verification: Verification;
  readonly file: string;
}

interface ErrorLike {
  readonly name?: string;
  readonly message?: string;
}

const MISSING = /^forge\/tools\/([a-z][a-z0-9-]*) /;

export function toLoadError(file: string, error: ErrorLike): LoadError {
  const message = error.message ?? String(error);
  const missingModule = error.name === MISSING_MODULE_ERROR ? (MISSING.exec(message)?.[1] ?? null) : null;
  return { file, message, missingModule };
}

export function toTestResult(file: string, test: TestCase): TestResult {
  const result = test.result();
  const status = result.state === "passed" ? "passed" : result.state === "failed" ? "failed" : "skipped";
  const error: ErrorLike | undefined = result.state === "failed" ? result.errors[0] : undefined;
  return {
    name: test.fullName,
    file,
    status,
    durationMs: Math.round((test.diagnostic()?.duration ?? 0) * 1000) / 1000,
    failure: error
      ? { kind: error.name === "AssertionError" ? "assertion" : "error", message: error.message ?? String(error) }
      : null,
  };
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The checkout's commit and whether it has changes; null outside a git checkout or without git. */
async function gitState(): Promise<Verification["git"]> {
  const git = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile("git", args, { cwd: ROOT, encoding: "utf8" }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
    );
  try {
    const [commit, status] = await Promise.all([git("rev-parse", "HEAD"), git("status", "--porcelain")]);
    return { commit, dirty: status !== "" };
  } catch {
    return null;
  }
}

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const version = typeof manifest === "object" && manifest !== null && "version" in manifest ? manifest.version : null;
  return typeof version === "string" ? version : "unknown";
}

export class EvidenceReporter implements Reporter {
  #vitest: Vitest | null = null;
  #runs = new Map<string, StageRun>();

  constructor(private readonly index: ProjectIndex) {}

  /** The latest run of every (stage, target) seen so far, keyed by project name. */
  get runs(): ReadonlyMap<string, StageRun> {
    return this.#runs;
  }

  #git: Promise<Verification["git"]> | null = null;

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
    const git = await (this.#git ?? gitState());
    const generatedAt = new Date();
    const tools = { node: process.version, vitest: this.#vitest?.version ?? "unknown", forgeLab: packageVersion() };

    for (const name of touched) {
      const pair = this.index.get(name);
      if (!pair) continue;
      const modules = latest.filter((module) => module.project.name === name);
      const tests: TestResult[] = [];
      const loadErrors: LoadError[] = [];
      for (const module of modules) {
        const file = repoPath(module.moduleId);
        for (const test of module.children.allTests()) tests.push(toTestResult(file, test));
        for (const error of module.errors()) loadErrors.push(toLoadError(file, error));
      }
      const complete = reason !== "interrupted" && modules.every((module) => !["queued", "pending"].includes(module.state()));
      const verification = buildVerification({
        stage: pair.stage,
        target: pair.target,
        generatedAt,
        tools,
        git,
        sources: this.#sources(pair),
        tests,
        loadErrors,
        complete,
        missingModules: (pair.stage.spec?.modules ?? []).filter((module) => findModule(this.#layers(pair), module) === null),
        contract: pair.stage.contract,
      });
      const file = evidenceFile(pair.stage, pair.target);
      writeEvidence(file, verification);
      this.#runs.set(name, { ...pair, verification, file });
    }
  }

  #layers({ stage, target }: StageProject): string[] {
    return layersFor(this.index.catalog, stage, target);
  }

  /** The stage's test files and every module its tree provides for this stage and the ones before. */
  #sources(pair: StageProject): Verification["sources"] {
    const { stage } = pair;
    const layers = this.#layers(pair);
    const modules = this.index.catalog.stages
      .filter((other: Stage) => other.number <= stage.number)
      .flatMap((other) => other.spec?.modules ?? []);
    const files = [...stage.testFiles, ...modules.map((name) => findModule(layers, name)).filter((file) => file !== null)];
    return files.map((file) => ({ path: repoPath(file), sha256: sha256(file) }));
  }
}
