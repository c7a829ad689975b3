// Module resolution for the reference modules the lab loads (lab/trees/reference.ts): a reference
// module's relative import finds its neighbour in whichever layer provides it, as lab/vitest/resolver.ts
// does for vitest. `layeredURL` is the rule; the rest hands it to Node in the two ways Node offers.
// Node 22.15 and later take synchronous hooks in the loading thread (`module.registerHooks`), so this
// file is imported as usual, through tsx. Node 20 has only `module.register`, which loads this file
// again in its hooks thread and calls `initialize` and `resolve` there.
import { dirname, relative, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isInside } from "../core/inside.js";
import { dirs } from "../core/layout.js";
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

/**
 * The format a resolved module loads as: every TypeScript module of a layer is an ES module, as in the
 * checkout, whose package.json says so. A layer outside the checkout (a workspace that FORGE_WORKSPACE
 * moved to a folder without a package.json) would otherwise load as CommonJS, which cannot import ESM in a cycle.
 */
export function withLayerFormat<R>(layers: readonly string[], resolved: R): R {
  const url = (resolved as { url?: unknown } | null)?.url;
  if (typeof url !== "string" || !url.startsWith("file:") || !url.endsWith(".ts")) return resolved;
  const file = fileURLToPath(url);
  return layers.some((root) => isInside(root, file)) ? { ...resolved, format: "module" } : resolved;
}

/**
 * Where a layer's package import is looked up: beside its importer, as usual, and for a layer outside the
 * checkout (no node_modules above it), in the checkout, whose packages the course's modules are written for.
 */
export function packageParent(layers: readonly string[], specifier: string, parentURL: string | undefined): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("node:") || !parentURL?.startsWith("file:")) return null;
  const parent = fileURLToPath(parentURL);
  if (isInside(dirs.root, parent) || !layers.some((root) => isInside(root, parent))) return null;
  return pathToFileURL(dirs.packageJson).href;
}

// The hooks thread's side, for Node 20 (`module.register`).
let registeredLayers: readonly string[] = [];

export function initialize(data: { layers: readonly string[] }): void {
  registeredLayers = data.layers;
}

type Next = (specifier: string, context: { parentURL?: string }) => Promise<unknown>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<unknown> {
  const parentURL = packageParent(registeredLayers, specifier, context.parentURL) ?? context.parentURL;
  const local = layeredURL(registeredLayers, specifier, context.parentURL) ?? specifier;
  return withLayerFormat(registeredLayers, await next(local, parentURL === undefined ? context : { ...context, parentURL }));
}
