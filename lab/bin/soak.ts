// `npm run verify:soak -- --runs N --load K`: runs `npm run verify` N times, one after another, while K
// busy-loop processes hold the CPUs, and prints `N passed, M failed` with what failed in each run. A
// proof that fails at random teaches people to ignore it; this is how we check that ours does not.
import { parseArgs } from "node:util";
import { $, type ProcessPromise } from "zx";
import { busyLoop } from "../bench/load.js";
import { ROOT } from "../core/layout.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "10" }, load: { type: "string", default: "2" } },
  allowPositionals: false,
});
const count = (name: string, value: string | undefined): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    console.error(`--${name} must be a whole number, 0 or more; got "${value}"`);
    process.exit(2);
  }
  return number;
};
const runs = count("runs", values.runs);
const load = count("load", values.load);

/** The breaches verify printed (`  ✘ …` under "N breach(es):"), or its last lines when it printed none. */
function failuresIn(output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => /^\d+ breach\(es\):/.test(line.trim()));
  if (start >= 0)
    return lines
      .slice(start + 1)
      .filter((line) => line.trim().startsWith("✘"))
      .map((line) => line.trim().slice(2));
  return [`verify failed without a breach list; its last lines: ${lines.slice(-5).join(" | ")}`];
}

const loaders = Array.from({ length: load }, busyLoop);
const stop = () => {
  for (const loader of loaders) loader.kill("SIGKILL");
};
/** The verify that is running now, if one is. */
let current: ProcessPromise | null = null;
// Ended from outside (Ctrl+C, a `kill`, a closed terminal): the loops go, and so does the verify that is
// running, with every process it started (zx ends the whole tree), instead of running on unseen.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  process.once(signal, () => {
    stop();
    let ended: Promise<void> = Promise.resolve();
    try {
      if (current !== null) ended = current.kill(signal);
    } catch {
      // It ended on its own meanwhile.
    }
    void ended.catch(() => undefined).finally(() => process.exit(code));
  });
}

let passed = 0;
const failures: Array<{ run: number; problems: string[] }> = [];
try {
  for (let run = 1; run <= runs; run += 1) {
    const started = performance.now();
    current = $({
      cwd: ROOT,
      nothrow: true,
      quiet: true,
      env: { ...process.env, CI: "true", NO_COLOR: "1" },
    })`npm run --silent verify`;
    const result = await current;
    current = null;
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    if (result.exitCode === 0) {
      passed += 1;
      console.log(`run ${run}/${runs}: passed (${seconds} s)`);
    } else {
      const problems = failuresIn(result.stdout + result.stderr);
      failures.push({ run, problems });
      console.log(`run ${run}/${runs}: FAILED (${seconds} s)`);
      for (const problem of problems) console.log(`  ✘ ${problem}`);
    }
  }
} finally {
  stop();
}
console.log(`${passed} passed, ${failures.length} failed (${runs} runs of npm run verify, ${load} busy-loop process(es) holding the CPUs)`);
process.exitCode = failures.length === 0 ? 0 : 1;
