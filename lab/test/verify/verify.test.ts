// verify's judgement must be able to fail: each check is tried on runs that break it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { findStage, type Stage } from "../../catalog/catalog.js";
import { loadCatalog } from "../../catalog/load.js";
import { buildVerification, type RunFacts } from "../../evidence/build.js";

import type { LoadError, TestResult } from "../../evidence/schema.js";
import type { Target } from "../../trees/targets.js";
import { treeFor } from "../../trees/trees.js";
import { judgeFault, judgeSolution, judgeStart, type StageRun } from "../../verify/judges/runs.js";
import { judgePatches } from "../../verify/judges/patches.js";
import { judgeSpec } from "../../verify/judges/spec.js";
import { applyPatch, faultyModule, parsePatch, PatchError } from "../../trees/faults.js";
import { lintProblems } from "../../verify/lint.js";
import { temporaryFolder } from "../../testing.js";
import { copyRepositoryTo } from "../support/repository.js";

const catalog = loadCatalog();
const found = findStage(catalog, "stage-01-capability-registry");
if (!found?.spec || !found.contract) throw new Error("stage 01 must load");
const stage: Stage = found;
/** Stage 01 with its default fault alone, for the judgement of fault contracts. */
const defaultOnly: Stage = { ...found, faults: found.faults.filter((fault) => fault.isDefault) };
const spec = found.spec;
const contract = found.contract;
const file = "stages/stage-01-capability-registry/registry.test.ts";

const passed = (name: string): TestResult => ({ name, file, status: "passed", durationMs: 1, failure: null });
const failed = (name: string, message: string): TestResult => ({
  name,
  file,
  status: "failed",
  durationMs: 1,
  failure: { kind: "assertion", message },
});
/** How stage 01's target test fails against its faulty tree. */
const caught = `defineTool("shell", capabilities) with a capability outside the vocabulary, not refused with an error containing "invalid": expected { '["root"]': 'no error; returned tool "shell" with capabilities [root]' } to deeply equal {}`;
const allPassing = () => [...new Set([...spec.mastery, ...spec.transfer.tests])].map(passed);

function run(target: Target, tests: readonly TestResult[], loadErrors: readonly LoadError[] = []): StageRun {
  const facts: RunFacts = {
    stage,
    target,
    generatedAt: new Date(),
    tools: { node: "v20", vitest: "4", forgeLab: "0" },
    git: null,
    run: null,
    sources: [],
    tests,
    loadErrors,
    complete: true,
    missingModules: [],
    contract,
  };
  return { stage, tree: treeFor(catalog, stage, target), verification: buildVerification(facts) };
}

it("passes a solution run only when every test passed", () => {
  expect(judgeSolution(stage, run("solution", allPassing()))).toMatchObject({
    ok: true,
    summary: `${allPassing().length}/${allPassing().length}`,
  });
  const broken = judgeSolution(stage, run("solution", [...allPassing().slice(1), failed(spec.mastery[0] ?? "", "expected 1 to be 2")]));
  expect(broken.ok).toBe(false);
  expect(broken.problems).toEqual([`"${spec.mastery[0]}" failed: expected 1 to be 2`]);
  expect(judgeSolution(stage, undefined).ok).toBe(false);
});

it("proves the fault contract only when the target test alone fails with the expected message", () => {
  const others = allPassing().filter((test) => test.name !== contract.targetTest);
  expect(judgeFault(defaultOnly, run("faulty", [...others, failed(contract.targetTest, caught)])).ok).toBe(true);
  const uncaught = judgeFault(defaultOnly, run("faulty", allPassing()));
  expect(uncaught.problems[0]).toBe(`"${contract.targetTest}" passed against the faulty tree: the fault is not caught`);
  const wrongMessage = judgeFault(defaultOnly, run("faulty", [...others, failed(contract.targetTest, "expected 1 to be 2")]));
  expect(wrongMessage.problems[0]).toMatch(/does not match/);
  const collateral = judgeFault(
    defaultOnly,
    run("faulty", [...others.slice(1), failed(others[0]?.name ?? "", "x"), failed(contract.targetTest, caught)]),
  );
  expect(collateral.problems).toEqual([`unexpected failure: ${others[0]?.name} (failed)`]);
});

it("proves each further fault by the run of its own tree, and names the fault that is not caught", () => {
  const others = allPassing().filter((test) => test.name !== contract.targetTest);
  const defaultRun = run("faulty", [...others, failed(contract.targetTest, caught)]);
  const extraContract = {
    ...contract,
    id: "blank-name-accepted",
    targetTest: "rejects a blank tool name",
    expectedFailure: "blank names",
    alsoFailing: [],
  };
  const [first] = stage.faults;
  if (!first) throw new Error("stage 01 has a default fault");
  // The extra fault's patch is the default's here: judgePatches sees one change, as it does for the default.
  const extra = { ...first, id: extraContract.id, isDefault: false, contract: extraContract };
  const withTwo: Stage = { ...defaultOnly, faults: [...defaultOnly.faults, extra] };
  const extraOthers = allPassing().filter((test) => test.name !== extraContract.targetTest);
  const caughtExtra = new Map([
    [extra.id, { tests: [...extraOthers, failed(extraContract.targetTest, "blank names given to defineTool")], loadErrors: [] }],
  ]);
  expect(judgeFault(withTwo, defaultRun, caughtExtra), "both faults caught as their contracts say").toMatchObject({
    ok: true,
    summary: "2 reproduced",
  });
  expect(judgeFault(withTwo, defaultRun).problems, "the further fault's tree did not run").toEqual([
    'fault "blank-name-accepted": its faulty tree was not run',
  ]);
  const missed = new Map([[extra.id, { tests: allPassing(), loadErrors: [] }]]);
  expect(judgeFault(withTwo, defaultRun, missed).problems, "the further fault passed every test").toEqual([
    `fault "blank-name-accepted": "rejects a blank tool name" passed against the faulty tree: the fault is not caught`,
  ]);
});

it("accepts a starting point only when every test file stops at the stage's own missing module", () => {
  const missing = (path: string): LoadError => ({ file: path, message: "forge/tools/registry …", missingModule: "registry" });
  const files = stage.testFiles.map((test) => test.slice(test.indexOf("stages/")));
  expect(judgeStart(stage, run("start", [], files.map(missing))).ok).toBe(true);
  expect(judgeStart(stage, run("start", allPassing())).ok).toBe(false);
  const compileError = judgeStart(
    stage,
    run(
      "start",
      [],
      files.map((path) => ({ file: path, message: "SyntaxError", missingModule: null })),
    ),
  );
  expect(compileError.problems[0]).toMatch(/failed for another reason: SyntaxError/);
});

it("finds a stage incomplete when stage.json names a test that does not exist or there are too few tests", () => {
  expect(judgeSpec(stage, catalog.problems, run("solution", allPassing()))).toMatchObject({ ok: true, problems: [] });
  const renamed = allPassing().map((test) => (test.name === spec.mastery[1] ? passed("a renamed test") : test));
  expect(judgeSpec(stage, catalog.problems, run("solution", renamed)).problems).toEqual([
    `stages/stage-01-capability-registry/stage.json: mastery names "${spec.mastery[1]}", which is not a test of this stage`,
    `stages/stage-01-capability-registry/stage.json: "a renamed test" is a test of this stage but neither mastery nor transfer.tests names it, so the self-check would not require it`,
    `fixtures/stage-01-capability-registry/failure.json: targetTest/alsoFailing names "${spec.mastery[1]}", which is not a test of this stage`,
  ]);
  expect(judgeSpec(stage, catalog.problems, run("solution", allPassing().slice(0, 3))).problems).toContain(
    "stage-01-capability-registry has 3 tests; every stage needs at least 6",
  );
});

it("finds a stage incomplete when two of its tests share a name, since evidence keys results by name", () => {
  const twice = [...allPassing(), passed(spec.mastery[2] ?? "")];
  expect(judgeSpec(stage, catalog.problems, run("solution", twice)).problems).toEqual([
    `${file}: two tests of stage-01-capability-registry are named "${spec.mastery[2]}"; evidence keys results by name`,
  ]);
});

it("keeps lint green beside a learner's module and a stray folder, and still finds an unformatted or unused file of the course's", {
  timeout: 120_000,
}, async (context) => {
  const copy = join(temporaryFolder({ onFinished: context.onTestFinished }), "forge-lab");
  copyRepositoryTo(copy);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=lab", "-c", "user.email=lab@example.invalid", ...args], { cwd: copy, stdio: "ignore" });
  git("init", "--quiet");
  git("add", "--all");
  git("commit", "--quiet", "--no-verify", "-m", "the course");
  expect(await lintProblems(copy), "lint of a fresh copy").toEqual([]);

  // A learner's module (unformatted, as a learner may leave it) and a folder of their own.
  const tools = join(copy, "workspace", "forge", "tools");
  mkdirSync(tools, { recursive: true });
  const reference = readFileSync(join(copy, "solutions", "stage-01-capability-registry", "forge", "tools", "registry.ts"), "utf8");
  writeFileSync(join(tools, "registry.ts"), reference.replaceAll("  ", "    "));
  mkdirSync(join(copy, "scratch"));
  writeFileSync(join(copy, "scratch", "try.ts"), "export const tried   =  1\n");
  expect(await lintProblems(copy), "lint beside a learner's module and a stray folder").toEqual([]);

  // The same files tracked are the course's: the check still sees them.
  git("add", "--all");
  expect(await lintProblems(copy), "lint once those files are tracked").toEqual(
    expect.arrayContaining([
      "scratch/try.ts is not formatted: run npm run format",
      "workspace/forge/tools/registry.ts is not formatted: run npm run format",
      expect.stringMatching(/^knip: scratch\/try\.ts\b/),
    ]),
  );
});

it("keeps a fault's patch applying after an edit elsewhere in the reference, and names the fault and its lines when an edit touches them", (context) => {
  const stage = findStage(catalog, "stage-04-approval-gate");
  if (!stage) throw new Error("stage 04 loads");
  const [fault] = stage.faults;
  if (!fault?.contract) throw new Error("stage 04 has a default fault with a contract");
  const reference = readFileSync(join(stage.solutionDir, fault.contract.faultFile), "utf8");
  const edited = (text: string) => {
    const folder = temporaryFolder({ onFinished: context.onTestFinished });
    mkdirSync(join(folder, "forge", "tools"), { recursive: true });
    writeFileSync(join(folder, fault.contract?.faultFile ?? ""), text);
    return { ...stage, solutionDir: folder } satisfies Stage;
  };
  expect(judgePatches(stage), "the committed patch of stage 04").toEqual([]);
  const above = edited(`// a comment added at the top\n${reference}`);
  expect(judgePatches(above), "after an edit above the fault's lines").toEqual([]);
  expect(faultyModule(above, fault).text, "the fault's module after that edit").toContain("return approval.operationId === operationId;\n");
  const touched = edited(reference.replace("approval.planDigest === planDigest;", "approval.planDigest === planDigest && true;"));
  // Both of the stage's faults change that line: each is named.
  expect(judgePatches(touched), "after an edit of the lines the faults change").toEqual(
    ["stale-approval", "operation-unbound"].map((id) =>
      expect.stringMatching(
        new RegExp(
          `^fault "${id}" \\(faulty/stage-04-approval-gate/${id}\\.patch\\): the reference no longer has the lines \\d+–\\d+ of forge/tools/approval\\.ts this fault changes: an edit touched them; make it again with npm run lab -- new-fault 04 ${id}$`,
        ),
      ),
    ),
  );
});

it("reads a one-hunk unified diff and applies it exactly, refusing what is not one", () => {
  const patch = parsePatch("--- a/forge/tools/x.ts\n+++ b/forge/tools/x.ts\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n");
  expect(patch, "the parsed patch").toEqual({
    file: "forge/tools/x.ts",
    hunks: [{ oldStart: 2, oldLines: 3, newStart: 2, newLines: 3, lines: [" b", "-c", "+C", " d"] }],
  });
  expect(applyPatch("a\nb\nc\nd\ne\n", patch), "applied where it says").toBe("a\nb\nC\nd\ne\n");
  expect(applyPatch("z\na\nb\nc\nd\ne\n", patch), "applied one line further down").toBe("z\na\nb\nC\nd\ne\n");
  const said = (call: () => unknown) => {
    try {
      call();
      return "applied";
    } catch (error) {
      return error instanceof PatchError ? error.message : `not a PatchError: ${String(error)}`;
    }
  };
  expect(
    {
      "no header": said(() => parsePatch("@@ -1 +1 @@\n-a\n+b\n")),
      "no hunk": said(() => parsePatch("--- a/x\n+++ b/x\n")),
      "short hunk": said(() => parsePatch("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n")),
      "lines gone": said(() => applyPatch("a\nx\nc\nd\n", patch)),
      "lines twice": said(() => applyPatch("b\nc\nd\nb\nc\nd\n", parsePatch("--- a/x\n+++ b/x\n@@ -9,3 +9,3 @@\n b\n-c\n+C\n d\n"))),
    },
    "what is refused",
  ).toEqual({
    "no header": "not a unified diff: no --- and +++ header lines",
    "no hunk": "the patch changes nothing: it has no hunk",
    "short hunk": "the hunk at line 1 promises 2 old and 2 new lines; it has 1 and 1",
    "lines gone": "the reference no longer has the lines 2–4 of forge/tools/x.ts this fault changes: an edit touched them",
    "lines twice": "the lines 9–11 of x this fault changes stand in the reference more than once: give the hunk more context",
  });
});
