// The lab's own tools change learner files through the course's reference modules (the path policy,
// the atomic write, the plan digest). This loads them from the layered solution folders, with the same
// layering the tests use, so the lab never keeps a second copy of that logic.
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import type * as Atomic from "forge/tools/atomic";
import type * as Controller from "forge/tools/controller";
import type * as Paths from "forge/tools/paths";
import { loadCatalog } from "../catalog/catalog.js";
import { findModule } from "./trees.js";

export interface ReferenceModules {
  readonly paths: typeof Paths;
  readonly atomic: typeof Atomic;
  readonly controller: typeof Controller;
}

let loaded: Promise<ReferenceModules> | null = null;

/** The reference solutions of every stage, layered; loaded once per process. */
export function reference(): Promise<ReferenceModules> {
  loaded ??= (async () => {
    const layers = loadCatalog().stages.map((stage) => stage.solutionDir);
    register("./reference-hooks.ts", { parentURL: import.meta.url, data: { layers } });
    const load = async <T>(name: string): Promise<T> => {
      const file = findModule(layers, name);
      if (!file) throw new Error(`the reference module forge/tools/${name} is missing from solutions/`);
      return (await import(pathToFileURL(file).href)) as T;
    };
    return {
      paths: await load<typeof Paths>("paths"),
      atomic: await load<typeof Atomic>("atomic"),
      controller: await load<typeof Controller>("controller"),
    };
  })();
  return loaded;
}
