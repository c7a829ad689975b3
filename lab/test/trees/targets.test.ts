import { join } from "node:path";
import { expect, it } from "vitest";
import { loadCatalog } from "../../catalog/load.js";
import { dirs, layoutOf } from "../../core/layout.js";
import { learnerWatchTriggers, stagesMatching } from "../../vitest/projects.js";
import { TARGETS } from "../../trees/targets.js";
import { findModule, parseTarget, repairTree, treeFor, UnknownTargetError } from "../../trees/trees.js";
import { temporaryFolder, writeTree } from "../../testing.js";

it("reads FORGE_TARGET, defaulting to the workspace", () => {
  expect(parseTarget(undefined)).toBe("workspace");
  expect(parseTarget("")).toBe("workspace");
  for (const target of TARGETS) expect(parseTarget(target)).toBe(target);
});

it("refuses any other target with a message naming the four", () => {
  expect(() => parseTarget("solutions")).toThrow(UnknownTargetError);
  expect(() => parseTarget("solutions")).toThrow(
    'FORGE_TARGET="solutions" is not a target. Use one of: workspace, solution, faulty, start',
  );
});

it("layers each target from the stages at and below the one under test", () => {
  const root = temporaryFolder();
  const layout = layoutOf(root);
  for (const id of ["stage-01-one", "stage-02-two", "stage-03-three"]) writeTree(layout.stages, { [`${id}/README.md`]: "" });
  const catalog = loadCatalog(layout);
  const [one, two, three] = catalog.stages;
  if (!one || !two || !three) throw new Error("expected three stages");
  expect(treeFor(catalog, one, "start").layers).toEqual([]);
  expect(treeFor(catalog, three, "start").layers).toEqual([one.solutionDir, two.solutionDir]);
  expect(treeFor(catalog, two, "solution").layers).toEqual([one.solutionDir, two.solutionDir]);
  expect(treeFor(catalog, two, "faulty").layers).toEqual([one.solutionDir, two.solutionDir, two.faultyDir]);
  expect(treeFor(catalog, three, "workspace")).toEqual({
    name: "workspace",
    target: "workspace",
    layers: [dirs.workspace],
    learner: dirs.workspace,
  });
  // A learner's repair of a fault sits on the reference and records no evidence.
  expect(repairTree(catalog, two, join(root, "faultlab"))).toEqual({
    name: "repair",
    target: null,
    layers: [one.solutionDir, two.solutionDir, join(root, "faultlab")],
    learner: join(root, "faultlab"),
  });
});

it("answers a module from the highest layer that has it", () => {
  const root = temporaryFolder();
  writeTree(root, {
    "low/forge/tools/paths.ts": "// low",
    "low/forge/tools/plans.ts": "// low",
    "high/forge/tools/plans.ts": "// high",
  });
  const layers = [join(root, "low"), join(root, "high")];
  expect(findModule(layers, "plans")).toBe(join(root, "high", "forge", "tools", "plans.ts"));
  expect(findModule(layers, "paths")).toBe(join(root, "low", "forge", "tools", "paths.ts"));
  expect(findModule(layers, "atomic")).toBeNull();
});

it("builds projects only for the stages a command-line filter selects", () => {
  const root = temporaryFolder();
  const layout = layoutOf(root);
  writeTree(layout.stages, { "stage-01-one/a.test.ts": "", "stage-02-two/b.test.ts": "", "stage-02-two/c.test.ts": "" });
  const catalog = loadCatalog(layout);
  const ids = (filters: string[]) => stagesMatching(catalog, filters).map((stage) => stage.id);
  expect(ids(["stage-02"])).toEqual(["stage-02-two"]);
  expect(ids(["stage-01-one/a.test.ts:3"])).toEqual(["stage-01-one"]);
  expect(ids([])).toEqual(["stage-01-one", "stage-02-two"]);
  // A filter that matches nothing keeps every stage, so vitest itself reports "no test files found".
  expect(ids(["stage-09"])).toEqual(["stage-01-one", "stage-02-two"]);
});

it("reruns in watch mode every test of the stages that read a learner folder, matched on that folder's own path", () => {
  const catalog = loadCatalog();
  const [one, two] = catalog.stages;
  if (!one || !two) throw new Error("expected two stages");
  // A checkout under a folder whose name starts with a dot, named as a second download is.
  const learner = join("/", "home", "ada", ".src", "forge-lab (1)", "workspace");
  const tree = { ...treeFor(catalog, one, "workspace"), layers: [learner], learner };
  const triggers = learnerWatchTriggers([
    { stage: one, tree },
    { stage: two, tree },
    { stage: two, tree: treeFor(catalog, two, "solution") },
  ]);
  expect(triggers.length, "one trigger per learner folder; a reference tree has none").toBe(1);
  const [trigger] = triggers;
  if (!trigger) throw new Error("expected a trigger");
  const folder = "/home/ada/.src/forge-lab (1)/workspace/forge/tools";
  expect(trigger.pattern.test(`${folder}/registry.ts`), "a learner module").toBe(true);
  expect(trigger.pattern.test(`${folder}/nested/helper.ts`), "a file in a folder of its own").toBe(true);
  expect(trigger.pattern.test(`${folder}-old/registry.ts`), "a sibling folder whose name starts the same").toBe(false);
  expect(
    trigger.pattern.test("/home/ada/.src/forge-lab 1/workspace/forge/tools/registry.ts"),
    "a path the parentheses would match as a pattern",
  ).toBe(false);
  const match = trigger.pattern.exec(`${folder}/registry.ts`);
  if (!match) throw new Error("expected a match");
  expect(trigger.testsToRun(`${folder}/registry.ts`, match), "the tests to rerun").toEqual([...one.testFiles, ...two.testFiles]);
});
