// Node's on-disk cache of compiled code (Node.js 22.1 and later; Node 20 has none and is left as it is).
// A learner's `npm test` starts Node and a worker thread afresh on every run, and each compiles vitest,
// chai and the learner's zod again; with the cache, the second run reuses the first one's work: on
// Node 24, about 0.15 s of a 0.9 s stage-01 run (`npm run bench -- --only loop --node 24`).
import * as nodeModule from "node:module";

interface CompileCache {
  readonly enableCompileCache?: () => { readonly directory?: string };
}

/**
 * Turns the cache on for this process and, through NODE_COMPILE_CACHE, for the worker threads and
 * processes it starts after this (the API alone reaches only this thread). It uses the folder
 * NODE_COMPILE_CACHE already names, else Node's own under the temporary folder; NODE_DISABLE_COMPILE_CACHE=1
 * turns it off, as it does for Node itself.
 */
export function keepCompiledCode(): void {
  const { directory } = (nodeModule as CompileCache).enableCompileCache?.() ?? {};
  if (directory !== undefined) process.env.NODE_COMPILE_CACHE = directory;
}
