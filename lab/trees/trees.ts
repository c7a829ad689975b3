// A target names the tree a stage's tests run against. Trees are stacks of layers: a module is taken
// from the highest layer that has it, so no tree is ever copied.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MODULE_DIR, dirs } from "../core/layout.js";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { TARGETS, type Target } from "../evidence/schema.js";

export { TARGETS, type Target };

export class UnknownTargetError extends Error {
  constructor(value: string) {
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

export const TARGET_MEANING: Readonly<Record<Target, string>> = {
  workspace: "your code in workspace/",
  solution: "the reference solutions of this stage and the ones before it",
  faulty: "the reference solutions with this stage's injected fault on top",
  start: "the reference solutions of the earlier stages only: this stage's starting point",
};

/** The layers of a stage's tree, lowest first. */
export function layersFor(catalog: Catalog, stage: Stage, target: Target): string[] {
  if (target === "workspace") return [dirs.workspace];
  const earlier = catalog.stages.filter((other) => other.number < stage.number).map((other) => other.solutionDir);
  switch (target) {
    case "start":
      return earlier;
    case "solution":
      return [...earlier, stage.solutionDir];
    case "faulty":
      return [...earlier, stage.solutionDir, stage.faultyDir];
  }
}

/** The file a stack of layers answers for a path inside a layer (`.js` and `.ts` both mean the .ts file). */
export function findInLayers(layers: readonly string[], pathInLayer: string): string | null {
  const base = pathInLayer.replace(/\.(?:js|ts)$/, "");
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const candidate = join(layers[index] ?? "", `${base}.ts`);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function findModule(layers: readonly string[], name: string): string | null {
  return findInLayers(layers, join(MODULE_DIR, name));
}
