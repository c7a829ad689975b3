// The difference between a fault's faulty module and the stage's reference: the fix an instructor shows,
// and the proof that the faulty copy has drifted nowhere else. One home for both, read from the catalog's
// files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch, structuredPatch } from "diff";
import { repoPath } from "../core/layout.js";
import type { Stage } from "./catalog.js";
import type { FaultContract } from "./failure-schema.js";

/** A fault with a valid contract: the folder of its faulty tree and the contract naming its file. */
export interface ContractedFault {
  readonly dir: string;
  readonly contract: FaultContract;
}

function versions(stage: Pick<Stage, "solutionDir">, fault: ContractedFault) {
  const faulty = join(fault.dir, fault.contract.faultFile);
  const reference = join(stage.solutionDir, fault.contract.faultFile);
  return { faulty, reference, faultyText: readFileSync(faulty, "utf8"), referenceText: readFileSync(reference, "utf8") };
}

/** The unified diff from the faulty module to the reference: what the fix changes. */
export function faultPatch(stage: Pick<Stage, "solutionDir">, fault: ContractedFault): string {
  const { faulty, reference, faultyText, referenceText } = versions(stage, fault);
  return createTwoFilesPatch(repoPath(faulty), repoPath(reference), faultyText, referenceText, "faulty", "reference");
}

/** How many separate places the faulty module differs from the reference in (a fault is one). */
export function faultHunks(stage: Pick<Stage, "solutionDir">, fault: ContractedFault): number {
  const { faultyText, referenceText } = versions(stage, fault);
  return structuredPatch("faulty", "reference", faultyText, referenceText).hunks.length;
}
