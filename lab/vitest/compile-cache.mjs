// Node's on-disk cache of compiled code (Node.js 22.1 and later; Node 20 has none and is left as it is).
// A learner's `npm test` starts Node and a worker thread afresh on every run, and each compiles vitest,
// chai and the learner's zod again; with the cache, the second run reuses the first one's work. On
// Node 24 a stage-01 run took 825 ms against 890 ms without the cache for vitest's own modules
// (docs/design.md, "Where the time goes").
// Plain JavaScript: `npm test`'s command (lab/bin/test.mjs) calls it before any TypeScript loader or
// vitest module is loaded. Its type is in compile-cache.d.mts.
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Turns the cache on for this process and, through NODE_COMPILE_CACHE, for the worker threads and
 * processes it starts after this (the API alone reaches only this thread). It uses the folder
 * NODE_COMPILE_CACHE already names, else Node's own default one under the temporary folder, named in
 * the variable before the cache is turned on: Node keeps each version's code in a folder of its own
 * under the one named, so a worker then lands in the same version folder. NODE_DISABLE_COMPILE_CACHE=1
 * turns it off, as it does for Node itself.
 */
export function keepCompiledCode() {
  /** @type {(() => { directory?: string }) | undefined} */
  const enable = "enableCompileCache" in nodeModule ? nodeModule.enableCompileCache : undefined;
  if (enable === undefined) return;
  const named = process.env.NODE_COMPILE_CACHE;
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "node-compile-cache");
  const { directory } = enable();
  if (directory === undefined && named === undefined) delete process.env.NODE_COMPILE_CACHE;
}
