// Module resolution hooks (node:module `register`) that let a reference module's relative import find
// its neighbour in whichever layer provides it, as lab/vitest/resolver.ts does for vitest. Runs in the hooks
// thread, so it receives the layers through `initialize`.
import { dirname, relative, resolve as resolvePath } from "node:path";
import { isInside } from "../core/inside.js";
import { fileURLToPath, pathToFileURL } from "node:url";
import { findInLayers } from "./trees.js";

let layers: readonly string[] = [];

export function initialize(data: { layers: readonly string[] }): void {
  layers = data.layers;
}

type Next = (specifier: string, context: { parentURL?: string }) => Promise<unknown>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<unknown> {
  if (specifier.startsWith(".") && context.parentURL?.startsWith("file:")) {
    const parent = fileURLToPath(context.parentURL);
    const layer = layers.find((root) => isInside(root, parent));
    if (layer) {
      const found = findInLayers(layers, relative(layer, resolvePath(dirname(parent), specifier)));
      if (found) return next(pathToFileURL(found).href, context);
    }
  }
  return next(specifier, context);
}
