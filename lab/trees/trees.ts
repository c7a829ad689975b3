// A tree is what a stage's tests run against: a stack of layers, where a module is taken from the
// highest layer that has it, so no tree is ever copied. The four targets (workspace, solution, faulty,
// start) are trees whose runs leave evidence; a learner's repair of a fault is a tree that leaves none.
import { join } from "node:path";
import { entryKind, type NotAFile } from "../core/files.js";
import { MODULE_DIR, dirs } from "../core/layout.js";
import type { Catalog, Fault, Stage } from "../catalog/catalog.js";
import { materializeFault } from "./faults.js";
import { TARGETS, type Target } from "./targets.js";

export class UnknownTargetError extends Error {
  constructor(readonly value: string) {
    super(`FORGE_TARGET="${value}" is not a target. Use one of: ${TARGETS.join(", ")} (workspace is the default).`);
    this.name = "UnknownTargetError";
  }
}

/** Reads FORGE_TARGET; unset or empty means the learner's workspace. */
export function parseTarget(value: string | undefined): Target {
  if (value === undefined || value.trim() === "") return "workspace";
  const target = TARGETS.find((name) => name === value.trim());
  if (!target) throw new UnknownTargetError(value);
  return target;
}

export interface Tree {
  /** How projects and messages name it: a target's name, or `repair`. */
  readonly name: string;
  /** The target whose evidence a run of this tree records; null for a tree that records none. */
  readonly target: Target | null;
  /** Lowest first. */
  readonly layers: readonly string[];
  /** The layer with the learner's own code, which is type-checked and looked at afresh on every rerun. */
  readonly learner: string | null;
}

function referenceLayers(catalog: Catalog, stage: Stage, upTo: "before" | "including"): string[] {
  return catalog.stages
    .filter((other) => (upTo === "before" ? other.number < stage.number : other.number <= stage.number))
    .map((other) => other.solutionDir);
}

/** The tree of one of the four targets. */
export function treeFor(catalog: Catalog, stage: Stage, target: Target): Tree {
  switch (target) {
    case "workspace":
      return { name: target, target, layers: [dirs.workspace], learner: dirs.workspace };
    case "start":
      return { name: target, target, layers: referenceLayers(catalog, stage, "before"), learner: null };
    case "solution":
      return { name: target, target, layers: referenceLayers(catalog, stage, "including"), learner: null };
    case "faulty": {
      const [fault] = stage.faults;
      // The default fault's tree is made from its patch here, so every run of the target sees a real file.
      if (fault) materializeFault(stage, fault);
      return { name: target, target, layers: [...referenceLayers(catalog, stage, "including"), stage.faultyDir], learner: null };
    }
  }
}

/**
 * The tree of one of a stage's faults: the default fault's is the `faulty` target (it records
 * evidence); a further fault's is the reference with that fault's folder on top, and records none.
 */
export function faultTree(catalog: Catalog, stage: Stage, fault: Fault): Tree {
  if (fault.isDefault) return treeFor(catalog, stage, "faulty");
  materializeFault(stage, fault);
  return { name: `fault-${fault.id}`, target: null, layers: [...referenceLayers(catalog, stage, "including"), fault.dir], learner: null };
}

/** The reference with a learner's repaired module on top (`lab fault --check`): it records no evidence. */
export function repairTree(catalog: Catalog, stage: Stage, folder: string): Tree {
  // The repair is the learner's code: type-checked and reported in one line, as their workspace is.
  return { name: "repair", target: null, layers: [...referenceLayers(catalog, stage, "including"), folder], learner: folder };
}

/** What the highest layer that has anything at a path holds there: the file, or what stands in its place. */
export interface LayerEntry {
  readonly path: string;
  readonly kind: "file" | NotAFile;
}

/**
 * The entry a stack of layers answers for a path inside a layer (`.js` and `.ts` both mean the .ts
 * file). A folder, FIFO or symbolic link in a layer answers too: the search stops there, so a learner's
 * layer with a FIFO where their module belongs is never read (it would wait forever) nor passed over
 * for the reference below it.
 */
export function lookupInLayers(layers: readonly string[], pathInLayer: string): LayerEntry | null {
  const base = pathInLayer.replace(/\.(?:js|ts)$/, "");
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const candidate = join(layers[index] ?? "", `${base}.ts`);
    const kind = entryKind(candidate);
    if (kind !== "missing") return { path: candidate, kind };
  }
  return null;
}

/** The regular file a stack of layers answers for a path inside a layer, or null. */
export function findInLayers(layers: readonly string[], pathInLayer: string): string | null {
  const entry = lookupInLayers(layers, pathInLayer);
  return entry?.kind === "file" ? entry.path : null;
}

export function findModule(layers: readonly string[], name: string): string | null {
  return findInLayers(layers, join(MODULE_DIR, name));
}
