#!/usr/bin/env node
// `npm test`: vitest, with Node's cache of compiled code turned on before vitest's first module loads
// (lab/vitest/compile-cache.mjs). The configuration turns it on too, for a vitest started some other way
// (an editor's), but by then the process has compiled vitest's and vite's own modules: on Node 22 to
// 26 the cache from the first module on saves 50–70 ms of a 0.7–0.9 s `npm test -- stage-01 --run`.
// Vite's own command turns the cache on the same way.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { keepCompiledCode } from "../vitest/compile-cache.mjs";

keepCompiledCode();
let vitest;
try {
  vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
} catch {
  // Before `npm ci`, or after node_modules went away: one line, not a resolver's stack.
  console.error("npm test: vitest is not installed in this checkout; run npm ci first.");
  process.exit(1);
}
await import(pathToFileURL(vitest).href);
