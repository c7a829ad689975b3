import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { type Stage } from "../../catalog/catalog.js";
import { loadCatalog } from "../../catalog/load.js";
import { layoutOf, ROOT } from "../../core/layout.js";
import { LOAD_FAILURE_TEST, loadFailuresAsFailedTests } from "../../mutation/load-failures.js";
import { currentSources, judgeMutation } from "../../mutation/stage.js";
import { judgeMutationSummary } from "../../verify/judges/mutation.js";
import { scoreOf, summarize, verdicts, type MutationSummary, type StrykerReport } from "../../mutation/summary.js";
import { temporaryFolder, writeTree } from "../../testing.js";
import { SLOW } from "../support/cli.js";

const realStage = "stage-01-capability-registry";
const real = (path: string) => readFileSync(join(ROOT, path), "utf8");

function mutant(status: string, line: number, replacement = "false", mutatorName = "ConditionalExpression") {
  return { status, mutatorName, replacement, location: { start: { line, column: 3 } } };
}

function report(...mutants: ReturnType<typeof mutant>[]): StrykerReport {
  return { files: { "solutions/x/forge/tools/registry.ts": { mutants } } };
}

const options = { coverageAnalysis: "all" as const, sources: {}, previous: null };

describe("the mutation summary", () => {
  it("scores killed plus timed out over valid mutants, leaving out those that do not type-check", () => {
    const summary = summarize(
      report(
        mutant("Killed", 1),
        mutant("Killed", 2),
        mutant("Timeout", 3),
        mutant("Survived", 4),
        mutant("CompileError", 5),
        mutant("RuntimeError", 6),
      ),
      options,
    );
    expect(summary.mutants, "counts by status").toEqual({
      killed: 2,
      timedOut: 1,
      survived: 1,
      noCoverage: 0,
      compileErrors: 1,
      runtimeErrors: 1,
    });
    expect(summary.score, "3 detected of 4 valid").toBe(75);
    expect(summary.unexplained, "the survivor, as a reviewer finds it").toEqual([
      { at: "4:3", mutator: "ConditionalExpression", replacement: "false" },
    ]);
  });

  it("counts a mutant no test reached as undetected, like a survivor", () => {
    expect(scoreOf({ killed: 9, timedOut: 0, survived: 0, noCoverage: 1, compileErrors: 0, runtimeErrors: 0 }), "9 of 10").toBe(90);
  });

  it("rounds the score to two decimals and gives 100 when there is no valid mutant", () => {
    expect(scoreOf({ killed: 2, timedOut: 0, survived: 1, noCoverage: 0, compileErrors: 0, runtimeErrors: 0 }), "2 of 3").toBe(66.67);
    expect(scoreOf({ killed: 0, timedOut: 0, survived: 0, noCoverage: 0, compileErrors: 4, runtimeErrors: 0 }), "no valid mutant").toBe(
      100,
    );
  });

  it("keeps a reviewer's reason while the same mutant survives, and drops it once a test kills it", () => {
    const previous = summarize(report(mutant("Survived", 4), mutant("Survived", 7, '""', "StringLiteral")), options);
    const reviewed: MutationSummary = {
      ...previous,
      equivalent: previous.unexplained.map((ref) => ({ ...ref, reason: "the value is never observed by a caller" })),
      unexplained: [],
    };
    const next = summarize(report(mutant("Survived", 4), mutant("Killed", 7, '""', "StringLiteral")), { ...options, previous: reviewed });
    expect(
      next.equivalent.map((entry) => entry.at),
      "still surviving, still explained",
    ).toEqual(["4:3"]);
    expect(next.unexplained, "nothing new to explain").toEqual([]);
  });

  it("refuses a report with mutants that were not run", () => {
    expect(() => summarize(report(mutant("Ignored", 1)), options), "an ignored mutant").toThrow(/status "Ignored"/);
  });

  it("lists verdicts in one order, so two runs can be compared line by line", () => {
    const one = verdicts(report(mutant("Killed", 9), mutant("Survived", 2)));
    const two = verdicts(report(mutant("Survived", 2), mutant("Killed", 9)));
    expect(one, "same mutants, other order").toEqual(two);
    expect(one[0], "a verdict line").toMatch(/ 2:3 ConditionalExpression false → Survived$/);
  });
});

describe("verify's judgement of a committed summary", () => {
  function stageWith(summary: ((stage: Stage) => unknown) | null): Stage {
    const root = temporaryFolder();
    writeTree(root, {
      [`stages/${realStage}/README.md`]: real(`stages/${realStage}/README.md`),
      [`stages/${realStage}/stage.json`]: real(`stages/${realStage}/stage.json`),
      [`stages/${realStage}/registry.test.ts`]: "// tests\n",
      [`fixtures/${realStage}/failure.json`]: real(`fixtures/${realStage}/failure.json`),
      [`solutions/${realStage}/forge/tools/registry.ts`]: "export const x = 1;\n",
      [`faulty/${realStage}/capability-validation-dropped.patch`]:
        "--- a/forge/tools/registry.ts\n+++ b/forge/tools/registry.ts\n@@ -1 +1 @@\n-export const x = 1;\n+export const x = 2;\n",
    });
    const stage = loadCatalog(layoutOf(root)).stages[0];
    if (!stage) throw new Error("the copied stage did not load");
    if (summary) writeFileSync(join(root, "fixtures", realStage, "mutation.json"), JSON.stringify(summary(stage)));
    return stage;
  }
  const fresh = (stage: Stage, counts: Partial<MutationSummary["mutants"]> = {}): MutationSummary => {
    const mutants = { killed: 9, timedOut: 1, survived: 0, noCoverage: 0, compileErrors: 2, runtimeErrors: 0, ...counts };
    return { score: scoreOf(mutants), mutants, coverageAnalysis: "all", sources: currentSources(stage), equivalent: [], unexplained: [] };
  };

  it("meets the goal with a fresh summary at 90% or more and nothing unexplained", () => {
    const verdict = judgeMutation(stageWith(fresh));
    expect(verdict.state, JSON.stringify(verdict)).toBe("met");
  });

  it("fails a missing summary, naming the command that writes it", () => {
    const verdict = judgeMutation(stageWith(null));
    expect(verdict, "no mutation.json").toMatchObject({
      state: "broken",
      stale: true,
      problem: expect.stringMatching(/mutation\.json is missing: run npm run mutate -- stage-01/),
    });
  });

  it("fails a summary computed from another version of the module, naming the file", () => {
    const stage = stageWith((stage) => ({
      ...fresh(stage),
      sources: { ...currentSources(stage), [`solutions/${realStage}/forge/tools/registry.ts`]: "0".repeat(64) },
    }));
    expect(judgeMutation(stage), "module changed").toMatchObject({
      state: "broken",
      stale: true,
      problem: expect.stringContaining(`solutions/${realStage}/forge/tools/registry.ts`),
    });
  });

  it("recomputes the score instead of trusting the one written down", () => {
    const stage = stageWith((stage) => ({
      ...fresh(stage, { survived: 5 }),
      score: 99,
      unexplained: Array.from({ length: 5 }, (_, i) => ({ at: `${i + 1}:1`, mutator: "BlockStatement", replacement: "{}" })),
    }));
    expect(judgeMutation(stage), "score 99 over counts that give 66.67").toMatchObject({
      state: "broken",
      problem: expect.stringMatching(/says 99% but its counts give 66\.67%/),
    });
  });

  it("fails a summary whose survivors are not all listed", () => {
    const stage = stageWith((stage) => fresh(stage, { killed: 90, survived: 2 }));
    expect(judgeMutation(stage), "two survivors, none listed").toMatchObject({
      state: "broken",
      problem: "2 mutants survived but 0 are listed",
    });
  });

  it("calls a fresh summary below 90%, or with an unexplained survivor, short of the goal", () => {
    const low = stageWith((stage) => ({
      ...fresh(stage, { killed: 8, timedOut: 0, survived: 2 }),
      unexplained: [
        { at: "1:1", mutator: "BlockStatement", replacement: "{}" },
        { at: "2:1", mutator: "BlockStatement", replacement: "{}" },
      ],
    }));
    expect(judgeMutation(low), "8 of 10").toMatchObject({ state: "below", problem: "mutation score 80% is below 90%" });
    const open = stageWith((stage) => ({
      ...fresh(stage, { killed: 99, survived: 1 }),
      unexplained: [{ at: "3:1", mutator: "StringLiteral", replacement: '""' }],
    }));
    expect(judgeMutation(open), "99% with one survivor nobody explained").toMatchObject({
      state: "below",
      problem: expect.stringMatching(/^1 surviving mutants have no test and no reason, first StringLiteral at 3:1/),
    });
  });

  it("makes verify fail a stage short of the goal, and pass one that meets it", () => {
    const met = judgeMutationSummary(stageWith(fresh));
    const low = judgeMutationSummary(
      stageWith((stage) => ({
        ...fresh(stage, { killed: 8, timedOut: 0, survived: 2 }),
        equivalent: [],
        unexplained: [
          { at: "1:1", mutator: "BlockStatement", replacement: "{}" },
          { at: "2:1", mutator: "BlockStatement", replacement: "{}" },
        ],
      })),
    );
    const open = judgeMutationSummary(
      stageWith((stage) => ({
        ...fresh(stage, { killed: 99, survived: 1 }),
        unexplained: [{ at: "3:1", mutator: "StringLiteral", replacement: '""' }],
      })),
    );
    expect({ met: met.ok, low: low.ok, open: open.ok }, "verify's mutation column passes (true) or fails (false)").toEqual({
      met: true,
      low: false,
      open: false,
    });
    expect(low.problems, "why 8 of 10 fails").toEqual(["mutation score 80% is below 90%"]);
    expect(open.problems.join(" "), "why 99% with one unexplained survivor fails").toMatch(
      /1 surviving mutants have no test and no reason/,
    );
  });

  it("refuses a folder or a FIFO where the summary belongs, without waiting on it", () => {
    const folder = stageWith(null);
    mkdirSync(join(folder.root, "fixtures", realStage, "mutation.json"));
    expect(judgeMutation(folder), "a folder named mutation.json").toMatchObject({
      state: "broken",
      problem: expect.stringMatching(/mutation\.json is a folder, not a file/),
    });
    if (process.platform === "win32") return; // no FIFOs on Windows; the folder case above covers it there
    const fifo = stageWith(null);
    execFileSync("mkfifo", [join(fifo.root, "fixtures", realStage, "mutation.json")]);
    expect(judgeMutation(fifo), "a FIFO named mutation.json").toMatchObject({
      state: "broken",
      problem: expect.stringMatching(/mutation\.json is .*, not a file/),
    });
  });

  it("rejects a summary that is not JSON or breaks the schema, naming the field", () => {
    expect(judgeMutation(stageWith(() => "{")).state, "not an object").toBe("broken");
    const stage = stageWith((stage) => ({
      ...fresh(stage),
      equivalent: [{ at: "1:1", mutator: "BlockStatement", replacement: "{}", reason: "" }],
    }));
    expect(judgeMutation(stage), "an equivalent without a reason").toMatchObject({
      state: "broken",
      problem: expect.stringMatching(/equivalent\.0\.reason/),
    });
  });
});

describe("a mutation run's results as StrykerJS reads them", () => {
  // A vitest of its own starts (a vite server, workers): on a loaded machine that outlasts the default 5 s.
  it("gives a test file that cannot load one failed test with the load error, and leaves a file that loaded as it is", SLOW, async () => {
    // StrykerJS reads the tests of each file in vitest's state; a file whose import throws has none,
    // so a mutant that stops the module from loading would look like a survivor.
    const folder = temporaryFolder();
    writeTree(folder, {
      "broken.ts": 'throw new Error("module refused to load");\nexport const value = 1;\n',
      "fine.ts": "export const value = 1;\n",
      "broken.test.ts":
        'import { expect, it } from "vitest";\nimport { value } from "./broken.js";\nit("reads the value", () => expect(value).toBe(1));\n',
      "fine.test.ts":
        'import { expect, it } from "vitest";\nimport { value } from "./fine.js";\nit("reads the value", () => expect(value).toBe(1));\n',
    });
    const vitest = await createVitest(
      "test",
      { watch: false, config: false, root: folder, include: ["*.test.ts"], reporters: [loadFailuresAsFailedTests()] },
      {},
    );
    try {
      await vitest.start();
      const tests = Object.fromEntries(
        vitest.state
          .getFiles()
          .map((file) => [
            file.name,
            file.tasks.map((task) =>
              `${task.name}: ${task.result?.state ?? "no result"} ${task.result?.errors?.[0]?.message ?? ""}`.trim(),
            ),
          ]),
      );
      expect(tests, "each test file's tests with their state and first error, after the run").toEqual({
        "broken.test.ts": [`${LOAD_FAILURE_TEST}: fail module refused to load`],
        "fine.test.ts": ["reads the value: pass"],
      });
    } finally {
      await vitest.close();
    }
  });
});
