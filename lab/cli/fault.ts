// `lab fault <stage> [<fault-id>]`: the instructor's demo of one of a stage's injected faults (the
// default one unless named), the list of them (`--list`), and the learner's repair lab (`--open` copies
// the faulty module out, `--check` tests the repair).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findFault, type Catalog, type Fault, type Stage } from "../catalog/catalog.js";
import type { FaultContract } from "../catalog/failure-schema.js";
import { evaluateContract } from "../evidence/judge.js";
import { writeFileAtomic } from "../core/files.js";
import { dirs, repoPath } from "../core/layout.js";
import { runStageTests } from "../evidence/run-stage.js";
import { displayWidth, padDisplay, paint } from "../core/style.js";
import { contractIn } from "../i18n/content.js";
import type { CliWords } from "./words/index.js";
import type { NotReproduced } from "./vocabulary.js";
import { materializeFault, patchText } from "../trees/faults.js";
import { faultTree, repairTree } from "../trees/trees.js";
import { CommandError, fileHash, UsageError, type Output } from "./shared.js";

/** A fault whose contract is valid, as every fault command needs it. */
export type ContractedFault = Fault & { readonly contract: FaultContract };

/** The stage's fault named `id` (the default one when no id is given), with its contract. */
export function requireFault(stage: Stage, id: string | undefined, text: CliWords): ContractedFault {
  const fault = findFault(stage, id);
  if (!fault) throw new UsageError(text.fault.noSuchFault(stage.id, id, text.list(stage.faults.map((known) => known.id))));
  const { contract } = fault;
  if (!contract) throw new CommandError(text.fault.noContract(stage.id, fault.id, repoPath(fault.contractPath)));
  return { ...fault, contract };
}

/** One line per fault of the stage: its id, whether it is the default, and the test that catches it. */
export function listFaults(stage: Stage, output: Output, text: CliWords): void {
  const width = Math.max(...stage.faults.map((fault) => fault.id.length));
  const roleWidth = displayWidth(text.fault.isDefault);
  for (const fault of stage.faults) {
    const role = padDisplay(fault.isDefault ? text.fault.isDefault : "", roleWidth);
    const caught = fault.contract
      ? text.fault.caughtBy(fault.contract.targetTest)
      : text.fault.contractMissing(repoPath(fault.contractPath));
    output.out(`${fault.id.padEnd(width)}  ${role}  ${caught}`);
  }
}

/** The fault's patch as it is stored, coloured on a terminal: the change the fault makes; the fix undoes it. */
export function faultDiff(fault: ContractedFault, colours = paint()): string {
  return patchText(fault)
    .trimEnd()
    .split("\n")
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
export async function demonstrate(
  catalog: Catalog,
  stage: Stage,
  fault: ContractedFault,
  output: Output,
  text: CliWords,
): Promise<boolean> {
  const { contract } = fault;
  // The diagnosis and fix principle in the edition's words (the English ones until the fault has them).
  const words = contractIn(contract, text.locale) ?? contract;
  const colours = paint();
  const { labels } = text.fault;
  const width = Math.max(...Object.values(labels).map(displayWidth)) + 2;
  output.out(colours.bold(text.fault.title(stage.id, contract.id)));
  output.out("");
  output.out(text.fault.contract);
  output.out(`  ${padDisplay(labels.faultFile, width)}${repoPath(fault.patchPath)}`);
  output.out(`  ${padDisplay(labels.targetTest, width)}${contract.targetTest}`);
  output.out(`  ${padDisplay(labels.expectedFailure, width)}/${contract.expectedFailure}/`);
  output.out(
    `  ${padDisplay(labels.alsoFailing, width)}${contract.alsoFailing.length === 0 ? text.fault.nothing : contract.alsoFailing.join(text.fault.separator)}`,
  );
  output.out("");

  const { tests, loadErrors } = await runStageTests(catalog, stage, faultTree(catalog, stage, fault), text.locale);
  const result = evaluateContract(contract, tests, loadErrors);
  output.out(text.fault.whatFailed);
  for (const test of tests.filter((candidate) => candidate.status !== "passed")) {
    output.out(`  ${colours.red("✘")} ${test.name}`);
    output.out(`      ${(test.failure?.message ?? test.status).split("\n")[0]}`);
  }
  for (const error of loadErrors) output.out(`  ${colours.red("✘")} ${text.fault.didNotLoad(error.file, error.message)}`);
  output.out(text.fault.othersPassed(tests.filter((test) => test.status === "passed").length));
  output.out("");
  output.out(text.fault.diagnosis);
  words.diagnosis.forEach((step, index) => output.out(`  ${index + 1}. ${step}`));
  output.out("");
  output.out(text.fault.fixPrinciple(words.fixPrinciple));
  output.out("");
  output.out(text.fault.theFix);
  output.out(faultDiff(fault, colours));
  output.out("");
  if (result.reproduced) {
    output.out(colours.green(text.fault.reproduced));
    return true;
  }
  const reasons: NotReproduced[] = [
    ...(result.targetFailedByAssertion ? [] : [{ kind: "not by an assertion" as const, test: contract.targetTest }]),
    ...(result.targetFailedByAssertion && !result.messageMatched ? [{ kind: "message" as const, pattern: contract.expectedFailure }] : []),
    ...result.unexpectedFailures.map((failure) => ({ kind: "unexpected" as const, failure })),
  ];
  output.out(colours.red(text.fault.notReproduced(reasons)));
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
export function openFaultLab(stage: Stage, fault: ContractedFault, yes: boolean, output: Output, text: CliWords): void {
  const { contract } = fault;
  const source = materializeFault(stage, fault);
  if (source === null) throw new CommandError(text.fault.noPatch(fault.id, repoPath(fault.patchPath)));
  const target = join(faultlabFolder(stage, fault), contract.faultFile);
  const current = fileHash(target, text);
  if (current !== null && current !== fileHash(source, text) && !yes) throw new CommandError(text.fault.repairInProgress(repoPath(target)));
  writeFileAtomic(target, readFileSync(source));
  output.out(text.fault.copied(repoPath(target)));
  output.out(text.fault.repairThen(faultArgs(stage, fault)));
}

/** Runs the stage's tests with the learner's repaired module on top of the reference; true when all pass. */
export async function checkFaultLab(
  catalog: Catalog,
  stage: Stage,
  fault: ContractedFault,
  output: Output,
  text: CliWords,
): Promise<boolean> {
  const { contract } = fault;
  const folder = faultlabFolder(stage, fault);
  if (!existsSync(join(folder, contract.faultFile))) throw new CommandError(text.fault.noRepair(faultArgs(stage, fault)));
  const { tests, loadErrors } = await runStageTests(catalog, stage, repairTree(catalog, stage, folder), text.locale);
  const failing = tests.filter((test) => test.status !== "passed");
  const colours = paint();
  const repair = repoPath(join(folder, contract.faultFile));
  if (failing.length === 0 && loadErrors.length === 0 && tests.length > 0) {
    output.out(colours.green(text.fault.fixed(tests.length, stage.id, repair)));
    return true;
  }
  output.out(colours.red(text.fault.notFixed(failing.length + loadErrors.length, repair)));
  for (const test of failing) output.out(`  ✘ ${test.name}: ${(test.failure?.message ?? test.status).split("\n")[0]}`);
  for (const error of loadErrors) output.out(`  ✘ ${text.fault.didNotLoad(error.file, error.message)}`);
  return false;
}
