// `npm run bench`: measures the lab's overhead against a baseline taken in the same run.
//
//   1. `FORGE_TARGET=solution vitest run stage-01` against a bare `vitest run` of a one-assertion
//      test: medians of 5 interleaved runs each, after one warm-up of each. Bound: at most 1.5x.
//   2. The wall time of `npm run verify`, and of `tsc --noEmit` alone (skip with --quick).
//
// Exits 1 when a bound is exceeded, so the figure is a check and not just a number.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, dirs } from "../core/layout.js";

const RUNS = 5;
const BOUND = 1.5;
const { values } = parseArgs({ options: { quick: { type: "boolean", default: false } } });

const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const scratch = join(dirs.cache, "bench");
rmSync(scratch, { recursive: true, force: true });
const bare = join(scratch, "bare");
mkdirSync(bare, { recursive: true });
writeFileSync(join(bare, "vitest.config.mjs"), "export default {};\n");
writeFileSync(join(bare, "one.test.mjs"), 'import { expect, it } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n');

function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, CI: "true", NO_COLOR: "1", FORGE_EVIDENCE: join(scratch, "evidence"), ...env },
    encoding: "utf8",
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return seconds;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const runBare = () => timed(process.execPath, [vitest, "run", "--root", bare]);
const runStage = () => timed(process.execPath, [vitest, "run", "stage-01"], { FORGE_TARGET: "solution" });

runBare();
runStage();
const bareTimes: number[] = [];
const stageTimes: number[] = [];
for (let index = 0; index < RUNS; index += 1) {
  bareTimes.push(runBare());
  stageTimes.push(runStage());
}
const ratio = median(stageTimes) / median(bareTimes);
const seconds = (value: number) => `${value.toFixed(2)} s`;
console.log(`bare vitest run, one assertion          median ${seconds(median(bareTimes))}  (${bareTimes.map(seconds).join(", ")})`);
console.log(`FORGE_TARGET=solution vitest run stage-01  median ${seconds(median(stageTimes))}  (${stageTimes.map(seconds).join(", ")})`);
console.log(`ratio ${ratio.toFixed(2)}x (bound ${BOUND}x): ${ratio <= BOUND ? "within" : "EXCEEDED"}`);
const ok = ratio <= BOUND;

if (!values.quick) {
  const tsc = timed(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"]);
  const verify = timed("npm", ["run", "--silent", "verify"]);
  console.log(`npm run verify                          ${seconds(verify)}`);
  console.log(
    `tsc --noEmit alone                      ${seconds(tsc)} (${((tsc / verify) * 100).toFixed(0)}% of verify; verify runs it in parallel with the tests)`,
  );
}
rmSync(scratch, { recursive: true, force: true });
if (!ok) process.exitCode = 1;
