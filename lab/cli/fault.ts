// `lab fault <stage>`: the instructor's demo of a stage's injected fault, and the learner's repair lab
// (`--open` copies the faulty module out, `--check` tests the repair).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { faultPatch } from "../catalog/fault-patch.js";
import { evaluateContract } from "../verify/judge-contract.js";
import { writeFileAtomic } from "../core/files.js";
import { dirs, repoPath } from "../core/layout.js";
import { runStageTests } from "../vitest/run-stage.js";
import { paint } from "../core/style.js";
import { repairTree, treeFor } from "../trees/trees.js";
import { CommandError, fileHash, type Output } from "./shared.js";

function requireContract(stage: Stage) {
  if (!stage.contract) throw new CommandError(`${stage.id} has no valid fault contract (fixtures/${stage.id}/failure.json).`);
  return stage.contract;
}

/** The unified diff from the faulty module to the reference, coloured on a terminal. */
export function faultDiff(stage: Stage, colours = paint()): string {
  return faultPatch(stage, requireContract(stage))
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
export async function demonstrate(catalog: Catalog, stage: Stage, output: Output): Promise<boolean> {
  const contract = requireContract(stage);
  const colours = paint();
  output.out(colours.bold(`Fault lab · ${stage.id} · fault "${contract.id}"`));
  output.out("");
  output.out("Contract");
  output.out(`  fault file        faulty/${stage.id}/${contract.faultFile}`);
  output.out(`  target test       ${contract.targetTest}`);
  output.out(`  expected failure  /${contract.expectedFailure}/`);
  output.out(`  also failing      ${contract.alsoFailing.length === 0 ? "none" : contract.alsoFailing.join("; ")}`);
  output.out("");

  const { tests, loadErrors } = await runStageTests(catalog, stage, treeFor(catalog, stage, "faulty"));
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
  output.out(faultDiff(stage, colours));
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

export function faultlabFolder(stage: Stage): string {
  return join(dirs.faultlab, stage.id);
}

/** Copies the faulty module into faultlab/ for a learner to repair; a repair in progress is never overwritten without consent. */
export function openFaultLab(stage: Stage, yes: boolean, output: Output): void {
  const contract = requireContract(stage);
  const source = join(stage.faultyDir, contract.faultFile);
  const target = join(faultlabFolder(stage), contract.faultFile);
  const current = fileHash(target);
  if (current !== null && current !== fileHash(source) && !yes) {
    throw new CommandError(`${repoPath(target)} holds your repair in progress; rerun with --yes to start over from the faulty module.`);
  }
  writeFileAtomic(target, readFileSync(source));
  output.out(`Copied the faulty module to ${repoPath(target)}.`);
  output.out(`Repair it there, then run: npm run lab -- fault ${stage.nn} --check`);
}

/** Runs the stage's tests with the learner's repaired module on top of the reference; true when all pass. */
export async function checkFaultLab(catalog: Catalog, stage: Stage, output: Output): Promise<boolean> {
  const contract = requireContract(stage);
  const folder = faultlabFolder(stage);
  if (!existsSync(join(folder, contract.faultFile))) {
    throw new CommandError(`There is no repair to check: run npm run lab -- fault ${stage.nn} --open first.`);
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
