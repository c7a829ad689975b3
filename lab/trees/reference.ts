// The lab's own tools change learner files the way the course teaches: through the reference modules
// (plan → approve → atomic write → rollback). This loads them from the layered solution folders, with
// the same layering the tests use, so the lab never keeps a second copy of that logic.
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import type * as Atomic from "../../solutions/stage-05-atomic-write/forge/tools/atomic.js";
import type * as Controller from "../../solutions/stage-07-side-effect-controller/forge/tools/controller.js";
import type * as Paths from "../../solutions/stage-02-workspace-path-policy/forge/tools/paths.js";
import type * as Rollback from "../../solutions/stage-06-rollback-journal/forge/tools/rollback.js";
import { loadCatalog } from "../catalog/catalog.js";
import { findModule } from "./trees.js";

export interface ReferenceModules {
  readonly paths: typeof Paths;
  readonly atomic: typeof Atomic;
  readonly rollback: typeof Rollback;
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
      rollback: await load<typeof Rollback>("rollback"),
      controller: await load<typeof Controller>("controller"),
    };
  })();
  return loaded;
}
