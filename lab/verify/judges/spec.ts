// Whether a stage's spec is complete: its files valid, no placeholder left, its lesson whole and showing
// what a learner needs, and its lists of tests naming the suite exactly.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { existsSync, readFileSync } from "node:fs";
import { expectedMessages, unshownMessages } from "../../authoring/expected-messages.js";
import { effortMismatches, environmentInstructions, lessonProblems, sourceCitations } from "../../authoring/lesson.js";
import { placeholders } from "../../authoring/scaffold.js";
import { type Problem, type Stage } from "../../catalog/catalog.js";
import { localized, moduleFile, repoPath } from "../../core/layout.js";
import { TWIN_LOCALE } from "../../core/locale.js";
import { committedSummary } from "../../mutation/stage.js";
import { type Check, fail, pass } from "../check.js";
import { type StageRun } from "./runs.js";

/** Every stage proves its behaviour with at least this many tests. */
export const MIN_TESTS = 6;

/** A stage with this many tests suggests an order to make them green in (stage.json `order`). */
export const ORDERED_FROM = 20;

/**
 * What a lesson (either edition) fails to show a learner who has only it: a message the stage's tests
 * compare with and the lesson's inline code does not show, a line that sets one of the lab's
 * environment variables, a line that cites a source document the learner does not have, or a time that
 * is not the experiment card's.
 */
export function learnerFacing(stage: Stage, lesson: string, text: string): string[] {
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
    ...sourceCitations(text).map((problem) => `${shown}: ${problem}`),
    ...(stage.spec ? effortMismatches(text, stage.spec.effort.minutes).map((problem) => `${shown}: ${problem}`) : []),
  ];
}

/** The files an author writes for a stage, with their text. */
export function stageTexts(stage: Stage): Array<{ file: string; text: string }> {
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
