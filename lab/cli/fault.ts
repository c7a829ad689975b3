// `lab fault <stage> [<fault-id>]`: the instructor's demo of one of a stage's injected faults (the
// default one unless named), the list of them (`--list`), and the learner's repair lab (`--open` copies
// the faulty module out, `--check` tests the repair).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findFault, type Catalog, type Fault, type Stage } from "../catalog/catalog.js";
import type { FaultContract } from "../catalog/failure-schema.js";
import { faultPatch } from "../catalog/fault-patch.js";
import { evaluateContract } from "../verify/judge-contract.js";
import { writeFileAtomic } from "../core/files.js";
import { dirs, repoPath } from "../core/layout.js";
import { runStageTests } from "../vitest/run-stage.js";
import { paint } from "../core/style.js";
import { faultTree, repairTree } from "../trees/trees.js";
import { CommandError, fileHash, UsageError, type Output } from "./shared.js";

/** A fault whose contract is valid, as every fault command needs it. */
export type ContractedFault = Fault & { readonly contract: FaultContract };

/** The stage's fault named `id` (the default one when no id is given), with its contract. */
export function requireFault(stage: Stage, id?: string): ContractedFault {
  const fault = findFault(stage, id);
  if (!fault) {
    throw new UsageError(`${stage.id} has no fault "${id}". Its faults: ${stage.faults.map((known) => known.id).join(", ")}`);
  }
  const { contract } = fault;
  if (!contract) throw new CommandError(`${stage.id} has no valid contract for fault "${fault.id}" (${repoPath(fault.contractPath)}).`);
  return { ...fault, contract };
}

/** One line per fault of the stage: its id, whether it is the default, and the test that catches it. */
export function listFaults(stage: Stage, output: Output): void {
  const width = Math.max(...stage.faults.map((fault) => fault.id.length));
  for (const fault of stage.faults) {
    const role = fault.isDefault ? "default" : "       ";
    const caught = fault.contract
      ? `caught by "${fault.contract.targetTest}"`
      : `(contract missing or invalid: ${repoPath(fault.contractPath)})`;
    output.out(`${fault.id.padEnd(width)}  ${role}  ${caught}`);
  }
}

/** The unified diff from the faulty module to the reference, coloured on a terminal. */
export function faultDiff(stage: Stage, fault: ContractedFault, colours = paint()): string {
  return faultPatch(stage, fault)
    .split("\n")
    .filter((line) => !/^={3,}$/.test(line))
    .map((line) =>
      line.startsWith("+") && !line.startsWith("+++")
        ? colours.green(line)
        : line.startsWith("-") && !line.startsWith("---")
          ? colours.red(line)
          : line.startsWith("@@")
            ? colours.cyan(line)
            : line,
    )
    .join("\n");
}

/** Runs the faulty tree and says whether the contract holds. True only when the fault is reproduced exactly. */
export async function demonstrate(catalog: Catalog, stage: Stage, fault: ContractedFault, output: Output): Promise<boolean> {
  const { contract } = fault;
  const colours = paint();
  output.out(colours.bold(`Fault lab · ${stage.id} · fault "${contract.id}"`));
  output.out("");
  output.out("Contract");
  output.out(`  fault file        ${repoPath(join(fault.dir, contract.faultFile))}`);
  output.out(`  target test       ${contract.targetTest}`);
  output.out(`  expected failure  /${contract.expectedFailure}/`);
  output.out(`  also failing      ${contract.alsoFailing.length === 0 ? "none" : contract.alsoFailing.join("; ")}`);
  output.out("");

  const { tests, loadErrors } = await runStageTests(catalog, stage, faultTree(catalog, stage, fault));
  const result = evaluateContract(contract, tests, loadErrors);
  output.out("What failed against the faulty tree");
  for (const test of tests.filter((candidate) => candidate.status !== "passed")) {
    output.out(`  ${colours.red("✘")} ${test.name}`);
    output.out(`      ${(test.failure?.message ?? test.status).split("\n")[0]}`);
  }
  for (const error of loadErrors) output.out(`  ${colours.red("✘")} ${error.file} did not load: ${error.message}`);
  output.out(`  (${tests.filter((test) => test.status === "passed").length} other tests passed)`);
  output.out("");
  output.out("Diagnosis, in order");
  contract.diagnosis.forEach((step, index) => output.out(`  ${index + 1}. ${step}`));
  output.out("");
  output.out(`Fix principle: ${contract.fixPrinciple}`);
  output.out("");
  output.out("The fix, from the faulty module to the reference");
  output.out(faultDiff(stage, fault, colours));
  output.out("");
  if (result.reproduced) {
    output.out(
      colours.green("fault reproduced — this is not a fix: the named test caught the injected fault, exactly as the contract says."),
    );
    return true;
  }
  const reasons = [
    ...(result.targetFailedByAssertion ? [] : [`"${contract.targetTest}" did not fail by an assertion`]),
    ...(result.targetFailedByAssertion && !result.messageMatched ? [`its message does not match /${contract.expectedFailure}/`] : []),
    ...result.unexpectedFailures.map((failure) => `unexpected: ${failure}`),
  ];
  output.out(colours.red(`fault NOT reproduced: ${reasons.join("; ")}`));
  return false;
}

/** Where a fault's module is repaired: faultlab/<stage>/ for the default fault, faultlab/<stage>/<fault-id>/ for another. */
export function faultlabFolder(stage: Stage, fault: Pick<Fault, "id" | "isDefault">): string {
  return fault.isDefault ? join(dirs.faultlab, stage.id) : join(dirs.faultlab, stage.id, fault.id);
}

/** The command that names a fault: the stage alone for the default one. */
function faultArgs(stage: Stage, fault: Pick<Fault, "id" | "isDefault">): string {
  return fault.isDefault ? stage.nn : `${stage.nn} ${fault.id}`;
}

/** Copies the faulty module into faultlab/ for a learner to repair; a repair in progress is never overwritten without consent. */
export function openFaultLab(stage: Stage, fault: ContractedFault, yes: boolean, output: Output): void {
  const { contract } = fault;
  const source = join(fault.dir, contract.faultFile);
  const target = join(faultlabFolder(stage, fault), contract.faultFile);
  const current = fileHash(target);
  if (current !== null && current !== fileHash(source) && !yes) {
    throw new CommandError(`${repoPath(target)} holds your repair in progress; rerun with --yes to start over from the faulty module.`);
  }
  writeFileAtomic(target, readFileSync(source));
  output.out(`Copied the faulty module to ${repoPath(target)}.`);
  output.out(`Repair it there, then run: npm run lab -- fault ${faultArgs(stage, fault)} --check`);
}

/** Runs the stage's tests with the learner's repaired module on top of the reference; true when all pass. */
export async function checkFaultLab(catalog: Catalog, stage: Stage, fault: ContractedFault, output: Output): Promise<boolean> {
  const { contract } = fault;
  const folder = faultlabFolder(stage, fault);
  if (!existsSync(join(folder, contract.faultFile))) {
    throw new CommandError(`There is no repair to check: run npm run lab -- fault ${faultArgs(stage, fault)} --open first.`);
  }
  const { tests, loadErrors } = await runStageTests(catalog, stage, repairTree(catalog, stage, folder));
  const failing = tests.filter((test) => test.status !== "passed");
  const colours = paint();
  if (failing.length === 0 && loadErrors.length === 0 && tests.length > 0) {
    output.out(colours.green(`fixed: all ${tests.length} tests of ${stage.id} pass with ${repoPath(join(folder, contract.faultFile))}.`));
    return true;
  }
  output.out(colours.red(`not fixed: ${failing.length + loadErrors.length} problem(s) with ${repoPath(join(folder, contract.faultFile))}`));
  for (const test of failing) output.out(`  ✘ ${test.name}: ${(test.failure?.message ?? test.status).split("\n")[0]}`);
  for (const error of loadErrors) output.out(`  ✘ ${error.file} did not load: ${error.message}`);
  return false;
}
