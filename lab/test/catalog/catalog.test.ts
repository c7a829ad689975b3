import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { experimentId, faultCommand, moduleOwners, stageByName } from "../../catalog/catalog.js";
import { compileCatalog, loadCatalog } from "../../catalog/load.js";
import { readCompiledCatalog, StaleCatalogError } from "../../catalog/compiled.js";
import { tsconfigFor } from "../../authoring/generated.js";
import { layoutOf, ROOT } from "../../core/layout.js";
import { temporaryFolder, writeTree } from "../../testing.js";

const realStage = "stage-01-capability-registry";
const DEFAULT_FAULT = (JSON.parse(readFileSync(join(ROOT, "fixtures", realStage, "failure.json"), "utf8")) as { id: string }).id;
const real = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** A checkout holding a copy of stage 01, with some files replaced. */
function checkout(overrides: Readonly<Record<string, string>> = {}) {
  return loadCatalog(layoutOf(checkoutFolder(overrides)));
}

function checkoutFolder(overrides: Readonly<Record<string, string>> = {}): string {
  const root = temporaryFolder();
  writeTree(root, {
    [`stages/${realStage}/README.md`]: real(`stages/${realStage}/README.md`),
    [`stages/${realStage}/stage.json`]: real(`stages/${realStage}/stage.json`),
    [`stages/${realStage}/registry.test.ts`]: "",
    [`fixtures/${realStage}/failure.json`]: real(`fixtures/${realStage}/failure.json`),
    [`solutions/${realStage}/forge/tools/registry.ts`]: "",
    [`faulty/${realStage}/${DEFAULT_FAULT}.patch`]: "",
    ...overrides,
  });
  return root;
}

function editJson(path: string, edit: (data: Record<string, unknown>) => void): Record<string, string> {
  const data = JSON.parse(real(path)) as Record<string, unknown>;
  edit(data);
  return { [path]: JSON.stringify(data) };
}

const messages = (catalog: ReturnType<typeof loadCatalog>) => catalog.problems.map((problem) => `${problem.file}: ${problem.message}`);

it("finds this repository's stages with no problems", () => {
  const catalog = loadCatalog();
  expect(messages(catalog)).toEqual([]);
  expect(catalog.stages.map((stage) => stage.id)).toContain(realStage);
  expect(moduleOwners(catalog).get("registry")?.id).toBe(realStage);
});

it("accepts a well-formed copy of a stage", () => {
  const catalog = checkout();
  expect(messages(catalog)).toEqual([]);
  expect(catalog.stages[0]?.spec?.modules).toEqual(["registry"]);
});

it("names the file and the field of a stage.json that breaks the schema", () => {
  const catalog = checkout(
    editJson(`stages/${realStage}/stage.json`, (data) => {
      (data.prediction as { options: string[] }).options.pop();
      data.hints = ["only one"];
    }),
  );
  expect(messages(catalog)).toEqual([
    `stages/${realStage}/stage.json: prediction.options: must have exactly 4 options`,
    `stages/${realStage}/stage.json: hints: must have at least 2 graded hints`,
  ]);
  expect(catalog.stages[0]?.spec).toBeNull();
});

it("reports a stage file that is not JSON, and keeps the other files of the stage", () => {
  const catalog = checkout({ [`fixtures/${realStage}/failure.json`]: "{ not json" });
  expect(messages(catalog)).toHaveLength(1);
  expect(messages(catalog)[0]).toMatch(new RegExp(`^fixtures/${realStage}/failure.json: not valid JSON`));
  expect(catalog.stages[0]?.spec).not.toBeNull();
});

it("rejects a fault contract whose expected failure is not a regular expression", () => {
  const catalog = checkout(editJson(`fixtures/${realStage}/failure.json`, (data) => (data.expectedFailure = "expected (unclosed")));
  expect(messages(catalog)).toEqual([`fixtures/${realStage}/failure.json: expectedFailure: must be a valid regular expression`]);
});

it("derives what the folder name says instead of storing it, and refuses a stage file that stores it", () => {
  const catalog = checkout({
    ...editJson(`stages/${realStage}/stage.json`, (data) => (data.experimentId = "tools-sandbox-side-effects-01-other")),
    ...editJson(`fixtures/${realStage}/failure.json`, (data) => (data.command = "FORGE_TARGET=faulty npm test -- stage-01 --run")),
  });
  expect(messages(catalog)).toEqual([
    `stages/${realStage}/stage.json: (top level): Unrecognized key: "experimentId"`,
    `fixtures/${realStage}/failure.json: (top level): Unrecognized key: "command"`,
  ]);
  const stage = loadCatalog().stages[0];
  expect(stage && experimentId(stage)).toBe("tools-sandbox-side-effects-01-capability-registry");
  expect(stage && faultCommand(stage)).toBe("npm run lab -- test 1 --target faulty");
});

it("checks that the files of a stage agree with each other and with the folders", () => {
  const catalog = checkout({
    ...editJson(`stages/${realStage}/stage.json`, (data) => (data.modules = ["registry", "ledger"])),
    ...editJson(`fixtures/${realStage}/failure.json`, (data) => {
      data.faultFile = "forge/tools/paths.ts";
      data.id = "unpatched";
    }),
  });
  expect(messages(catalog)).toEqual([
    `solutions/${realStage}/forge/tools/ledger.ts: missing: stage.json lists module "ledger" but the reference solution has no such file`,
    `faulty/${realStage}/unpatched.patch: missing: failure.json is the contract of fault "unpatched", whose patch this is`,
    `fixtures/${realStage}/failure.json: faultFile: "forge/tools/paths.ts" is not one of the modules this stage adds`,
  ]);
});

it("refuses a module claimed by two stages and a folder that is not a stage", () => {
  const copy = `stage-02-copy`;
  const spec = JSON.parse(real(`stages/${realStage}/stage.json`)) as Record<string, unknown>;
  const catalog = checkout({
    [`stages/${copy}/stage.json`]: JSON.stringify(spec),
    [`stages/${copy}/README.md`]: "",
    [`stages/${copy}/a.test.ts`]: "",
    [`solutions/${copy}/forge/tools/registry.ts`]: "",
    "stages/notes/README.md": "",
  });
  expect(messages(catalog)).toContain(
    `stages/${copy}/stage.json: modules: "registry" is already added by ${realStage}; a module belongs to one stage`,
  );
  expect(messages(catalog)).toContain("stages/notes: folder name must look like stage-NN-some-slug");
  expect(messages(catalog)).toContain(`fixtures/${copy}/failure.json: missing`);
});

it("loads a stage's further faults, each a patch with its own tree, and refuses a contract whose id is not its file's name", () => {
  const contract = JSON.parse(real(`fixtures/${realStage}/failure.json`)) as Record<string, unknown>;
  const catalog = checkout({
    [`fixtures/${realStage}/faults/blank-name.json`]: JSON.stringify({ ...contract, id: "blank-name" }),
    [`faulty/${realStage}/blank-name.patch`]: "",
    [`fixtures/${realStage}/faults/renamed.json`]: JSON.stringify({ ...contract, id: "other-name" }),
    [`faulty/${realStage}/renamed.patch`]: "",
  });
  const stage = catalog.stages[0];
  const inRoot = (path: string) => path.slice((stage?.root.length ?? 0) + 1);
  expect(
    stage?.faults.map((fault) => `${fault.id}${fault.isDefault ? " (default)" : ""}: ${inRoot(fault.patchPath)} → ${inRoot(fault.dir)}`),
    "faults",
  ).toEqual([
    `${contract.id} (default): faulty/${realStage}/${contract.id}.patch → .lab/faults/${realStage}/${contract.id}`,
    `blank-name: faulty/${realStage}/blank-name.patch → .lab/faults/${realStage}/blank-name`,
    `renamed: faulty/${realStage}/renamed.patch → .lab/faults/${realStage}/renamed`,
  ]);
  expect(messages(catalog), "problems").toEqual([
    `fixtures/${realStage}/faults/renamed.json: id: "other-name" must be the file's name, "renamed"`,
  ]);
});

it("adds each fault's tree to tsconfig.json's rootDirs, the default faults first, and type-checks the trees", () => {
  const root = temporaryFolder();
  const layout = layoutOf(root);
  for (const id of ["stage-01-one", "stage-03-three"]) writeTree(layout.stages, { [`${id}/README.md`]: "" });
  // A further fault's module imports its stage's other modules by relative path: its folder must be a root dir.
  writeTree(layout.fixtures, { "stage-03-three/faults/wrong-order.json": "{}" });
  const generated = JSON.parse(tsconfigFor(loadCatalog(layout), JSON.stringify({ compilerOptions: {}, include: ["lab", "faulty"] }))) as {
    compilerOptions: { rootDirs: string[] };
    include: string[];
  };
  expect(generated.compilerOptions.rootDirs, "the rootDirs tsconfigFor writes for a stage with a further fault").toEqual([
    "./solutions/stage-01-one",
    "./solutions/stage-03-three",
    "./.lab/faults/stage-01-one/default",
    "./.lab/faults/stage-03-three/default",
    "./.lab/faults/stage-03-three/wrong-order",
  ]);
  expect(generated.include, "what tsc reads: the fault trees, not the patches").toEqual(["lab", ".lab/faults"]);
});

it("names a stage by number, short name or folder name", () => {
  const catalog = loadCatalog();
  for (const name of ["1", "01", "stage-01", "stage-01-capability-registry"]) {
    expect(stageByName(catalog, name)?.id).toBe("stage-01-capability-registry");
  }
  expect(stageByName(catalog, "stage-99")).toBeUndefined();
  expect(stageByName(catalog, "registry")).toBeUndefined();
});

it("maps forge/tools/* in tsconfig.json to every stage's reference, in stage order, whatever the numbers", () => {
  const root = temporaryFolder();
  const layout = layoutOf(root);
  // Numbers with gaps: the entries follow the stages present, not their numbers.
  for (const id of ["stage-01-one", "stage-03-three", "stage-10-ten"]) writeTree(layout.stages, { [`${id}/README.md`]: "" });
  const generated = JSON.parse(
    tsconfigFor(loadCatalog(layout), JSON.stringify({ compilerOptions: { strict: true, paths: { other: ["x"] } } })),
  ) as {
    compilerOptions: { strict: boolean; paths: Record<string, string[]>; rootDirs: string[] };
  };
  expect(generated.compilerOptions, "the compiler options tsconfigFor writes").toEqual({
    strict: true,
    paths: {
      "forge/tools/*": [
        "./solutions/stage-01-one/forge/tools/*",
        "./solutions/stage-03-three/forge/tools/*",
        "./solutions/stage-10-ten/forge/tools/*",
      ],
    },
    rootDirs: [
      "./solutions/stage-01-one",
      "./solutions/stage-03-three",
      "./solutions/stage-10-ten",
      "./.lab/faults/stage-01-one/default",
      "./.lab/faults/stage-03-three/default",
      "./.lab/faults/stage-10-ten/default",
    ],
  });
});

it("reads from the compiled catalog exactly what it reads from the files, in this checkout and with problems", () => {
  expect(readCompiledCatalog(), "the committed compiled catalog, read back").toEqual(loadCatalog());
  const broken = checkoutFolder({ [`fixtures/${realStage}/failure.json`]: "{ not json" });
  const layout = layoutOf(broken);
  writeTree(broken, { "lab/catalog/compiled.json": compileCatalog(layout) });
  const compiled = readCompiledCatalog(layout);
  expect(compiled, "a checkout whose contract is not JSON").toEqual(loadCatalog(layout));
  expect(messages(compiled)).toHaveLength(1);
});

it("refuses a compiled catalog that a data file has moved on from, naming the file", () => {
  const root = checkoutFolder();
  const layout = layoutOf(root);
  const refusal = (what: string) => {
    try {
      readCompiledCatalog(layout);
    } catch (error) {
      if (error instanceof StaleCatalogError) return error.message;
      throw error;
    }
    throw new Error(`${what}: the compiled catalog was read without a word`);
  };
  expect(refusal("no compiled catalog")).toBe(
    "lab/catalog/compiled.json is not what the compiled catalog was made from: run npm run generate",
  );
  writeTree(root, { "lab/catalog/compiled.json": compileCatalog(layout) });
  expect(readCompiledCatalog(layout).stages.map((stage) => stage.id)).toEqual([realStage]);
  // Line endings are not content: a CRLF checkout reads the same catalog.
  writeTree(root, { [`stages/${realStage}/stage.json`]: real(`stages/${realStage}/stage.json`).replaceAll("\n", "\r\n") });
  expect(readCompiledCatalog(layout).stages[0]?.spec?.modules).toEqual(["registry"]);
  writeTree(
    root,
    editJson(`stages/${realStage}/stage.json`, (data) => (data.hints = ["only one"])),
  );
  expect(refusal("an edited stage.json")).toBe(
    `stages/${realStage}/stage.json is not what the compiled catalog was made from: run npm run generate`,
  );
  writeTree(root, { "lab/catalog/compiled.json": compileCatalog(layout) });
  writeTree(root, { [`fixtures/${realStage}/faults/constructor.json`]: real(`fixtures/${realStage}/failure.json`) });
  expect(refusal("a contract generation never saw")).toBe(
    `fixtures/${realStage}/faults/constructor.json is not what the compiled catalog was made from: run npm run generate`,
  );
  // A FIFO where a file belongs is refused at once: a read would wait forever.
  rmSync(join(root, "lab/catalog/compiled.json"));
  execFileSync("mkfifo", [join(root, "lab/catalog/compiled.json")]);
  expect(refusal("a FIFO where the compiled catalog belongs")).toMatch(/^lab\/catalog\/compiled\.json is not/);
  rmSync(join(root, "lab/catalog/compiled.json"));
  writeTree(root, { "lab/catalog/compiled.json": compileCatalog(layout) });
  rmSync(join(root, `stages/${realStage}/stage.json`));
  execFileSync("mkfifo", [join(root, `stages/${realStage}/stage.json`)]);
  expect(refusal("a FIFO where a stage.json belongs")).toMatch(new RegExp(`^stages/${realStage}/stage\\.json is not`));
  writeTree(root, { "lab/catalog/compiled.json": '{"version":99,"files":[]}' });
  expect(refusal("a compiled catalog of another version")).toMatch(/^lab\/catalog\/compiled\.json is not/);
});
