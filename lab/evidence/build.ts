// Builds and writes verification.json. Building is pure; writing is atomic, so a reader never sees
// half a file and a crash never leaves a broken one behind. The file is typed here and validated by
// whoever reads it (schema.ts's readVerification: the self-check, verify, `lab status`), so a run's
// writing loads no schema library; the lab's tests check that what is built validates.
import { join } from "node:path";
import { experimentId, type Stage } from "../catalog/catalog.js";
import { evidenceDir } from "../core/layout.js";
import { evaluateContract } from "./judge.js";
import { writeFileAtomic } from "../core/files.js";
import type { FaultContract } from "../catalog/failure-schema.js";
import { TARGETS, type Target } from "../trees/targets.js";
import type { LoadError, TestResult, Verification } from "./schema.js";
import { VERIFICATION_SCHEMA_VERSION } from "./version.js";

export interface RunFacts {
  readonly stage: Pick<Stage, "id" | "nn" | "slug">;
  readonly target: Target;
  readonly generatedAt: Date;
  readonly tools: Verification["tools"];
  readonly git: Verification["git"];
  /** The GitHub Actions run that wrote the file; null for any other run. */
  readonly run: Verification["run"];
  readonly sources: Verification["sources"];
  readonly tests: readonly TestResult[];
  readonly loadErrors: readonly LoadError[];
  /** False when the run was interrupted before every test file finished, or left one of the stage's files out. */
  readonly complete: boolean;
  /** The stage's own modules that the tree does not have: a stage nobody started has not failed. */
  readonly missingModules: readonly string[];
  readonly contract: FaultContract | null;
}

export function buildVerification(facts: RunFacts): Verification {
  const count = (status: TestResult["status"]) => facts.tests.filter((test) => test.status === status).length;
  const summary = {
    total: facts.tests.length,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    loadErrors: facts.loadErrors.length,
  };
  const acceptance =
    facts.missingModules.length > 0
      ? "pending"
      : summary.failed > 0 || summary.loadErrors > 0
        ? "failed"
        : facts.complete && summary.total > 0 && summary.skipped === 0
          ? "passed"
          : "pending";
  return {
    schemaVersion: VERIFICATION_SCHEMA_VERSION,
    stage: facts.stage.id,
    experimentId: experimentId(facts.stage),
    target: facts.target,
    generatedAt: facts.generatedAt.toISOString(),
    tools: facts.tools,
    git: facts.git,
    sources: facts.sources,
    tests: [...facts.tests],
    loadErrors: [...facts.loadErrors],
    summary,
    acceptance,
    contract: facts.target === "faulty" && facts.contract ? evaluateContract(facts.contract, facts.tests, facts.loadErrors) : null,
    run: facts.run,
  };
}

/** The name of a run's evidence file: a learner's run writes verification.json, a reference run never overwrites it. */
export function evidenceName(target: Target): string {
  return target === "workspace" ? "verification.json" : `verification.${target}.json`;
}

export function evidenceFile(stage: Pick<Stage, "nn" | "slug">, target: Target): string {
  return join(evidenceDir(stage), evidenceName(target));
}

/** The target whose run writes a file of this name, or null for any other name. */
export function targetOfEvidence(name: string): Target | null {
  return TARGETS.find((target) => evidenceName(target) === name) ?? null;
}

export function writeEvidence(file: string, verification: Verification): void {
  writeFileAtomic(file, `${JSON.stringify(verification, null, 2)}\n`);
}
