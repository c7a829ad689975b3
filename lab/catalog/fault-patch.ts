// The difference between a stage's faulty module and its reference: the fix an instructor shows, and the
// proof that the faulty copy has drifted nowhere else. One home for both, read from the catalog's files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch, structuredPatch } from "diff";
import { repoPath } from "../core/layout.js";
import type { Stage } from "./catalog.js";
import type { FaultContract } from "./failure-schema.js";

function versions(stage: Pick<Stage, "solutionDir" | "faultyDir">, contract: FaultContract) {
  const faulty = join(stage.faultyDir, contract.faultFile);
  const reference = join(stage.solutionDir, contract.faultFile);
  return { faulty, reference, faultyText: readFileSync(faulty, "utf8"), referenceText: readFileSync(reference, "utf8") };
}

/** The unified diff from the faulty module to the reference: what the fix changes. */
export function faultPatch(stage: Pick<Stage, "solutionDir" | "faultyDir">, contract: FaultContract): string {
  const { faulty, reference, faultyText, referenceText } = versions(stage, contract);
  return createTwoFilesPatch(repoPath(faulty), repoPath(reference), faultyText, referenceText, "faulty", "reference");
}

/** How many separate places the faulty module differs from the reference in (a fault is one). */
export function faultHunks(stage: Pick<Stage, "solutionDir" | "faultyDir">, contract: FaultContract): number {
  const { faultyText, referenceText } = versions(stage, contract);
  return structuredPatch("faulty", "reference", faultyText, referenceText).hunks.length;
}
