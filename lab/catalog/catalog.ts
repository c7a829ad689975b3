// The catalog: every stage folder found on disk, its validated stage.json and failure.json, and every
// problem found on the way. A broken file never hides the other stages; it becomes a problem that names
// the file and the field. No schema library here: the files are read through a `SpecReader`, which
// validates them (load.ts) or takes what `npm run generate` compiled (compiled.ts), so that
// `vitest.config.ts` loads no schema library.
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { COURSE_ID, MODULE_DIR, moduleFile, repoPath, stageFiles, type Layout } from "../core/layout.js";
import { STAGE_ID } from "./names.js";
import type { StageSpec } from "./stage-schema.js";
import type { FaultContract } from "./failure-schema.js";

export interface Stage {
  /** The folder name, e.g. stage-01-capability-registry. */
  readonly id: string;
  /** The checkout the stage belongs to. */
  readonly root: string;
  readonly number: number;
  /** The two-digit number, e.g. "01". */
  readonly nn: string;
  readonly slug: string;
  readonly dir: string;
  readonly readmePath: string;
  readonly specPath: string;
  readonly contractPath: string;
  readonly solutionDir: string;
  /** Where the stage's fault patches are: faulty/<stage>/. */
  readonly patchesDir: string;
  /** The default fault's tree (the `faulty` target's top layer), made from its patch on demand. */
  readonly faultyDir: string;
  readonly testFiles: readonly string[];
  readonly spec: StageSpec | null;
  /** The default fault's contract (also the first of `faults`). */
  readonly contract: FaultContract | null;
  /** Every fault of the stage, the default first, then the others by id. */
  readonly faults: readonly Fault[];
}

/**
 * One injected fault of a stage: a one-hunk patch of the reference, faulty/<stage>/<fault-id>.patch, and
 * its contract: fixtures/<stage>/failure.json for the default fault, fixtures/<stage>/faults/<fault-id>.json
 * for each further one. Its tree is the reference with the patched module on top (lab/trees/faults.ts).
 */
export interface Fault {
  readonly id: string;
  readonly isDefault: boolean;
  readonly patchPath: string;
  /** The layer that holds the faulty module, made from the patch on demand. */
  readonly dir: string;
  readonly contractPath: string;
  readonly contract: FaultContract | null;
}

export interface Problem {
  readonly stage: string | null;
  readonly file: string;
  readonly message: string;
}

export interface Catalog {
  readonly stages: readonly Stage[];
  readonly problems: readonly Problem[];
}

/** A stage's experiment id, from its folder name: `tools-sandbox-side-effects-02-workspace-path-policy`. */
export function experimentId(stage: Pick<Stage, "nn" | "slug">): string {
  return `${COURSE_ID}-${stage.nn}-${stage.slug}`;
}

/**
 * The command that shows a fault caught, as the fault lab gives it: the stage's tests against its faulty
 * tree for the default fault, the fault demo for any other (its tree is not a target).
 */
export function faultCommand(stage: Pick<Stage, "number">, fault?: Pick<Fault, "id" | "isDefault">): string {
  if (fault && !fault.isDefault) return `npm run lab -- fault ${stage.number} ${fault.id}`;
  return `npm run lab -- test ${stage.number} --target faulty`;
}

/** Records a problem with a file: the file's absolute path and what is wrong with it. */
export type ProblemSink = (file: string, message: string) => void;

/**
 * Where the catalog's data files come from. Each method returns the file's validated content, or null
 * after telling `problem` why there is none (missing, not JSON, a field wrong).
 */
export interface SpecReader {
  stage(file: string, problem: ProblemSink): StageSpec | null;
  contract(file: string, problem: ProblemSink): FaultContract | null;
}

/** Reads every stage of a checkout, its data files through `reader`. */
export function readCatalog(layout: Layout, reader: SpecReader): Catalog {
  const problems: Problem[] = [];
  const names = existsSync(layout.stages) ? readdirSync(layout.stages, { withFileTypes: true }) : [];
  const stages: Stage[] = [];
  for (const entry of names) {
    if (!entry.isDirectory()) continue;
    const match = STAGE_ID.exec(entry.name);
    if (!match) {
      problems.push({
        stage: null,
        file: repoPath(join(layout.stages, entry.name), layout.root),
        message: "folder name must look like stage-NN-some-slug",
      });
      continue;
    }
    stages.push(loadStage(layout, reader, entry.name, Number(match[1]), match[1] ?? "", match[2] ?? "", problems));
  }
  stages.sort((a, b) => a.number - b.number);
  checkAcrossStages(layout, stages, problems);
  return { stages, problems };
}

function loadStage(layout: Layout, reader: SpecReader, id: string, number: number, nn: string, slug: string, problems: Problem[]): Stage {
  const files = stageFiles(layout, id);
  const { dir, spec: specPath, contract: contractPath } = files;
  const problem: ProblemSink = (file, message) => problems.push({ stage: id, file: repoPath(file, layout.root), message });
  const spec = reader.stage(specPath, problem);
  const contract = reader.contract(contractPath, problem);
  const defaultId = contract?.id ?? "default";
  const faults: Fault[] = [
    { id: defaultId, isDefault: true, patchPath: files.patchOf(defaultId), dir: files.faultTreeOf(defaultId), contractPath, contract },
  ];
  const further = existsSync(files.faultContracts)
    ? readdirSync(files.faultContracts, { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
        .map((entry) => entry.name)
        .sort()
    : [];
  for (const name of further) {
    const faultId = name.slice(0, -".json".length);
    const path = join(files.faultContracts, name);
    const extra = reader.contract(path, problem);
    if (extra && extra.id !== faultId) problem(path, `id: "${extra.id}" must be the file's name, "${faultId}"`);
    if (faults.some((fault) => fault.id === faultId)) problem(path, `a fault named "${faultId}" already exists in this stage`);
    faults.push({
      id: faultId,
      isDefault: false,
      patchPath: files.patchOf(faultId),
      dir: files.faultTreeOf(faultId),
      contractPath: path,
      contract: extra,
    });
  }
  const stage: Stage = {
    id,
    root: layout.root,
    number,
    nn,
    slug,
    dir,
    readmePath: files.readme,
    specPath,
    contractPath,
    solutionDir: files.solution,
    patchesDir: files.faulty,
    faultyDir: files.faultTreeOf(defaultId),
    testFiles: readdirSync(dir)
      .filter((name) => name.endsWith(".test.ts"))
      .sort()
      .map((name) => join(dir, name)),
    spec,
    contract,
    faults,
  };
  if (!existsSync(stage.readmePath)) problem(stage.readmePath, "missing: every stage needs its lesson README.md");
  if (stage.testFiles.length === 0) problem(dir, "no *.test.ts file: every stage needs tests");

  if (spec) {
    for (const name of spec.modules) {
      const file = moduleFile(stage.solutionDir, name);
      if (!existsSync(file)) problem(file, `missing: stage.json lists module "${name}" but the reference solution has no such file`);
    }
  }
  for (const fault of stage.faults) {
    if (!fault.contract) continue;
    if (!existsSync(fault.patchPath))
      problem(fault.patchPath, `missing: ${basename(fault.contractPath)} is the contract of fault "${fault.id}", whose patch this is`);
    const faultModule = fault.contract.faultFile.replace(/^forge\/tools\//, "").replace(/\.ts$/, "");
    if (spec && !spec.modules.includes(faultModule)) {
      problem(fault.contractPath, `faultFile: "${fault.contract.faultFile}" is not one of the modules this stage adds`);
    }
  }
  return stage;
}

function checkAcrossStages(layout: Layout, stages: readonly Stage[], problems: Problem[]): void {
  const owners = new Map<string, string>();
  stages.forEach((stage, index) => {
    if (index > 0 && stages[index - 1]?.number === stage.number) {
      problems.push({ stage: stage.id, file: repoPath(stage.dir, layout.root), message: `stage number ${stage.nn} is used twice` });
    }
    for (const name of stage.spec?.modules ?? []) {
      const owner = owners.get(name);
      if (owner) {
        problems.push({
          stage: stage.id,
          file: repoPath(stage.specPath, layout.root),
          message: `modules: "${name}" is already added by ${owner}; a module belongs to one stage`,
        });
      } else {
        owners.set(name, stage.id);
      }
    }
  });
}

/** The stage that adds a module, for the hint a learner sees when the module is missing. */
export function moduleOwners(catalog: Catalog): ReadonlyMap<string, Stage> {
  const owners = new Map<string, Stage>();
  for (const stage of catalog.stages) {
    for (const name of stage.spec?.modules ?? []) if (!owners.has(name)) owners.set(name, stage);
  }
  return owners;
}

/** A stage's fault by id; the default when no id is given. */
export function findFault(stage: Stage, id?: string): Fault | undefined {
  return id === undefined ? stage.faults[0] : stage.faults.find((fault) => fault.id === id);
}

export function findStage(catalog: Catalog, id: string): Stage | undefined {
  return catalog.stages.find((stage) => stage.id === id);
}

/** A stage named as a learner would: `4`, `04`, `stage-04` or the folder name `stage-04-approval-gate`. */
export function stageByName(catalog: Catalog, name: string): Stage | undefined {
  const trimmed = name.trim();
  const number = /^(?:stage-)?(\d{1,2})$/.exec(trimmed)?.[1];
  if (number !== undefined) return catalog.stages.find((stage) => stage.number === Number(number));
  return findStage(catalog, trimmed);
}
