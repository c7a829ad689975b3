// Module resolution for the reference modules the lab loads (lab/trees/reference.ts): a reference
// module's relative import finds its neighbour in whichever layer provides it, as lab/vitest/resolver.ts
// does for vitest. `layeredURL` is the rule; the rest hands it to Node in the two ways Node offers.
// Node 22.15 and later take synchronous hooks in the loading thread (`module.registerHooks`), so this
// file is imported as usual, through tsx. Node 20 has only `module.register`, which loads this file
// again in its hooks thread and calls `initialize` and `resolve` there.
import { dirname, relative, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isInside } from "../core/inside.js";
import { findInLayers } from "./trees.js";

/** The file URL a relative import from inside a layer means, or null when the layers do not answer it. */
export function layeredURL(layers: readonly string[], specifier: string, parentURL: string | undefined): string | null {
  if (!specifier.startsWith(".") || !parentURL?.startsWith("file:")) return null;
  const parent = fileURLToPath(parentURL);
  const layer = layers.find((root) => isInside(root, parent));
  if (!layer) return null;
  const found = findInLayers(layers, relative(layer, resolvePath(dirname(parent), specifier)));
  return found ? pathToFileURL(found).href : null;
}

// The hooks thread's side, for Node 20 (`module.register`).
let registeredLayers: readonly string[] = [];

export function initialize(data: { layers: readonly string[] }): void {
  registeredLayers = data.layers;
}

type Next = (specifier: string, context: { parentURL?: string }) => Promise<unknown>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<unknown> {
  return next(layeredURL(registeredLayers, specifier, context.parentURL) ?? specifier, context);
}
