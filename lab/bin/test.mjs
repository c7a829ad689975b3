#!/usr/bin/env node
// `npm test`: vitest, with Node's cache of compiled code turned on before vitest's first module loads
// (lab/vitest/compile-cache.mjs), and `vitest.config.ts` loaded from a bundle made once
// (lab/vitest/config-bundle.mjs) instead of bundled again on every run. The configuration turns the
// cache on too, for a vitest started some other way (an editor's), but by then the process has compiled
// vitest's and vite's own modules: on Node 22 to 26 the cache from the first module on saves 50–70 ms of
// a 0.7–0.9 s `npm test -- stage-01 --run`, and the bundle about 100 ms more. Vite's own command turns
// the cache on the same way. A stage named by its number (`4`, `stage-4`) runs that stage; a number that
// names no stage, an option of the lab's test command or one vitest does not know is one line, exit 2.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { learnerCommandLine } from "../vitest/command-line.mjs";
import { bundledConfig, choosesItsOwnConfig } from "../vitest/config-bundle.mjs";
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
/** One line in the learner's language, and exit status 2; the words load only on this path. */
async function refuse(problem) {
  const { tsImport } = await import("tsx/esm/api");
  const { explainCommandLine } = await tsImport("../vitest/command-line-words.ts", import.meta.url);
  console.error(explainCommandLine(problem));
  process.exit(2);
}

const root = fileURLToPath(new URL("../..", import.meta.url));
// A stage named by its number becomes its folder (lab/vitest/command-line.mjs).
let stageFolders = [];
try {
  stageFolders = readdirSync(join(root, "stages"));
} catch {
  // No stages folder: a number then names no stage, and vitest says what else is wrong.
}
const line = learnerCommandLine(process.argv.slice(2), stageFolders);
if (line.problem !== undefined) await refuse(line.problem);
process.argv.splice(2, Infinity, ...line.args);
if (!choosesItsOwnConfig(process.argv.slice(2))) {
  const bundle = await bundledConfig(join(root, "vitest.config.ts"), join(root, "node_modules", ".cache", "forge-lab", "vitest-config"));
  // Before the command's own words, so that a trailing `--` or an option's value cannot swallow these.
  if (bundle !== null) process.argv.splice(2, 0, "--config", bundle.path, "--configLoader", "native");
}
try {
  await import(pathToFileURL(vitest).href);
} catch (error) {
  // An option vitest does not know: one line, not its parser's stack.
  if (!(error instanceof Error) || error.name !== "CACError") throw error;
  await refuse({ kind: "unknownOption", message: error.message });
}
