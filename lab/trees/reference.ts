// The lab's own tools change learner files through the course's reference modules (the path policy,
// the atomic write, the plan digest). This loads them from the layered solution folders, with the same
// layering the tests use, so the lab never keeps a second copy of that logic.
import * as nodeModule from "node:module";
import { pathToFileURL } from "node:url";
import type * as Atomic from "forge/tools/atomic";
import type * as Controller from "forge/tools/controller";
import type * as Paths from "forge/tools/paths";
import { loadCatalog } from "../catalog/load.js";
import { layeredURL, packageParent, withLayerFormat } from "./reference-hooks.js";
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
    const load = async <T>(name: string): Promise<T> => {
      const loadedModule = await loadLayered<T>(layers, name);
      if (loadedModule === null) throw new Error(`the reference module forge/tools/${name} is missing from solutions/`);
      return loadedModule;
    };
    return {
      paths: await load<typeof Paths>("paths"),
      atomic: await load<typeof Atomic>("atomic"),
      controller: await load<typeof Controller>("controller"),
    };
  })();
  return loaded;
}

const installed = new Set<string>();

/**
 * Imports `forge/tools/<name>` from a stack of layers (lowest first), with the layering the tests use
 * for its relative imports. Null when no layer has the module.
 */
export async function loadLayered<T>(layers: readonly string[], name: string): Promise<T | null> {
  const file = findModule(layers, name);
  if (!file) return null;
  const key = JSON.stringify(layers);
  if (!installed.has(key)) {
    installed.add(key);
    installLayeredResolution(layers);
  }
  return (await import(pathToFileURL(file).href)) as T;
}

// `module.registerHooks` (Node 22.15 and later; not in Node 20's types) runs a synchronous hook in this
// thread, where tsx already loads TypeScript. `module.register`, the only way on Node 20, runs its hooks
// in a thread of their own, which on Node 22 and later cannot load this lab's TypeScript, and is
// deprecated from Node 24 (DEP0205).
interface ResolveContext {
  readonly parentURL?: string | undefined;
}
type SyncResolve = (specifier: string, context: ResolveContext, next: (specifier: string, context: ResolveContext) => unknown) => unknown;
type RegisterHooks = (hooks: { resolve: SyncResolve }) => unknown;

function installLayeredResolution(layers: readonly string[]): void {
  const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks;
  if (typeof registerHooks === "function") {
    registerHooks({
      resolve: (specifier, context, next) => {
        const parentURL = packageParent(layers, specifier, context.parentURL) ?? context.parentURL;
        const local = layeredURL(layers, specifier, context.parentURL) ?? specifier;
        return withLayerFormat(layers, next(local, parentURL === undefined ? context : { ...context, parentURL }));
      },
    });
    return;
  }
  nodeModule.register("./reference-hooks.ts", { parentURL: import.meta.url, data: { layers } });
}
