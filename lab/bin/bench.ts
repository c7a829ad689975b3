// `npm run bench`: the learner's loop and the proof, measured against a baseline taken in the same run.
//
//   1. `npm test`'s command (lab/bin/test.mjs) running stage-01 on the solution tree and on a learner's
//      workspace (a passing module whose content changes before every run, as after an edit, so its
//      type-check is never a cached one),
//      against a bare `vitest run` of a one-assertion test: medians of interleaved runs after a warm-up.
//      Bounds: the workspace target at most 1.3x the bare run; the solution target at most 1.5x.
//   2. Watch mode: from saving the learner's file to vitest's result line, median of several saves,
//      beside a bare vitest watching its one test file, saved the same way; both watch at once and the
//      saves alternate between them. Bound: the bare rerun plus 60 ms.
//   3. `npm run verify`, whole (skip with --quick), with the CPU time the machine spent meanwhile, the
//      floor that sets on its wall time, that time by program and what the host took, and
//      `npm run verify -- stage-04`. Bounds: 75 s and 25 s.
//   4. The stages' own figures (lab/bench/*): stage 09's decision on a 1 MiB command line of any shape,
//      stage 10's time and memory under one-byte pushes and invalid bytes, each against a baseline of
//      its own taken in the same run.
//   5. Stage 12's MCP server (lab/bench/stage-12-mcp-server.ts): the whole attack suite against the
//      reference over the same suite against the official filesystem server 2026.8.31 (bound 1.0x), and
//      a read_text_file round trip over stdio, the reference's median over 2026.8.31's (bound 2.0x).
//
// `--only loop`, `--only verify`, `--only stages`, `--only mcp` (repeatable) run some parts alone.
// `--node 24` runs the loop's vitest (bare and course alike) on the official binary of a supported line
// (lab/bench/node-binary.ts) instead of this process's Node.js: the lines learners have.
//
// Exits 1 when a bound is exceeded, so each figure is a check and not just a number.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, type CpuInfo } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { $ } from "zx";
import { type Figure, type Measure, withinBound } from "../bench/figure.js";
import { measure as scopeFigures } from "../bench/stage-09-terminal-path-scope.js";
import { measure as outputFigures } from "../bench/stage-10-output-decoding.js";
import { nodeOf } from "../bench/node-binary.js";
import { samplePrograms, stolenSeconds } from "../bench/programs.js";
import { measure as serverFigures } from "../bench/stage-12-mcp-server.js";
import { dirs, moduleFile, ROOT } from "../core/layout.js";
import { enginesRange, supportedLines } from "../core/node-lines.js";

const RUNS = 5;
const SAVES = 7;
const BOUNDS = { workspace: 1.3, solution: 1.5, watchOverBareMs: 60, verifySeconds: 75, stageVerifySeconds: 25 } as const;
const PARTS = ["loop", "verify", "stages", "mcp"] as const;
type Part = (typeof PARTS)[number];
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string", multiple: true },
    node: { type: "string" },
  },
});
const only = values.only ?? [];
const unknownPart = only.find((part) => !(PARTS as readonly string[]).includes(part));
if (unknownPart !== undefined) {
  console.error(`--only ${unknownPart}: not a part of the bench; use ${PARTS.join(", ")}`);
  process.exit(2);
}
const lines = supportedLines(enginesRange());
if (values.node !== undefined && !lines.map(String).includes(values.node)) {
  console.error(`--node ${values.node}: not a supported Node.js line; use one of ${lines.join(", ")}`);
  process.exit(2);
}
/** The Node.js that runs the loop's vitest. */
const loopNode = values.node === undefined ? process.execPath : await nodeOf(Number(values.node));
/** Whether a part of the bench runs: every part by default, `--only` picks, `--quick` drops verify. */
const runs = (part: Part) => (only.length > 0 ? only.includes(part) : !(part === "verify" && values.quick));

/** A bare vitest is vitest's own command; the course's runs are `npm test`'s (lab/bin/test.mjs). */
const bareVitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
// Inside the checkout (vitest's watcher ignores node_modules) and git-ignored.
const scratch = join(dirs.labState, "bench");
rmSync(scratch, { recursive: true, force: true });
const bare = join(scratch, "bare");
const workspace = join(scratch, "workspace");
mkdirSync(bare, { recursive: true });
writeFileSync(join(bare, "vitest.config.mjs"), "export default {};\n");
const bareTest = join(bare, "one.test.mjs");
const bareSource = 'import { expect, it } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n';
writeFileSync(bareTest, bareSource);
const learnerFile = moduleFile(workspace, "registry");
mkdirSync(join(learnerFile, ".."), { recursive: true });
copyFileSync(moduleFile(join(dirs.solutions, "stage-01-capability-registry"), "registry"), learnerFile);
const learnerSource = readFileSync(learnerFile, "utf8");
let edits = 0;
/** The learner saves their module: the same code, new bytes. */
const edit = () => writeFileSync(learnerFile, `${learnerSource}// edit ${++edits}\n`);
/** The same save of the bare run's one test file. */
const editBare = () => writeFileSync(bareTest, `${bareSource}// edit ${++edits}\n`);

const env = { ...process.env, CI: "true", NO_COLOR: "1", FORGE_EVIDENCE: join(scratch, "evidence"), FORGE_WORKSPACE: workspace };

async function timed(command: string, args: readonly string[], extra: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const result = await $({ cwd: ROOT, env: { ...env, ...extra }, nothrow: true, quiet: true })`${loopNode} ${command} ${args}`;
  if (result.exitCode !== 0)
    throw new Error(`vitest ${args.join(" ")} exited with ${result.exitCode}:\n${result.stdout}\n${result.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
const seconds = (value: number) => `${value.toFixed(2)} s`;

const runBare = () => timed(bareVitest, ["run", "--root", bare]);
const runSolution = () => timed(dirs.testCommand, ["run", "stage-01"], { FORGE_TARGET: "solution" });
const runWorkspace = () => {
  edit();
  return timed(dirs.testCommand, ["run", "stage-01"], { FORGE_TARGET: "workspace" });
};

let ok = true;
const verdict = (value: number, bound: number, unit: string) =>
  `${value.toFixed(2)}${unit} (bound ${bound}${unit}): ${value <= bound ? "within" : "EXCEEDED"}`;

if (runs("loop")) {
  const version = loopNode === process.execPath ? process.version : (await $({ quiet: true })`${loopNode} --version`).stdout.trim();
  console.log(`the learner's loop, vitest on Node.js ${version}`);
  const stealBefore = stolenSeconds();
  for (const warmUp of [runBare, runSolution, runWorkspace]) await warmUp();
  const times = { bare: [] as number[], solution: [] as number[], workspace: [] as number[] };
  for (let index = 0; index < RUNS; index += 1) {
    times.bare.push(await runBare());
    times.solution.push(await runSolution());
    times.workspace.push(await runWorkspace());
  }
  const ratio = { solution: median(times.solution) / median(times.bare), workspace: median(times.workspace) / median(times.bare) };
  const row = (label: string, list: readonly number[]) =>
    `${label.padEnd(44)} median ${seconds(median(list))}  (${list.map(seconds).join(", ")})`;
  console.log(row("bare vitest run, one assertion", times.bare));
  console.log(row("vitest run stage-01, solution target", times.solution));
  console.log(row("vitest run stage-01, workspace target (edited)", times.workspace));
  console.log(`workspace ratio ${verdict(ratio.workspace, BOUNDS.workspace, "x")}`);
  console.log(`solution ratio  ${verdict(ratio.solution, BOUNDS.solution, "x")}`);
  ok &&= ratio.workspace <= BOUNDS.workspace && ratio.solution <= BOUNDS.solution;

  /**
   * A vitest in watch mode, started and past its first run: `rerun` saves a file and resolves with the
   * time from the save to the line that reports the rerun's result.
   */
  async function watcher(command: string, args: readonly string[], extra: Record<string, string>) {
    const child = spawn(loopNode, [command, "watch", ...args], {
      cwd: ROOT,
      env: { ...env, CI: "", ...extra },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let waiting: (() => void) | null = null;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (waiting && /Test Files .*\n/.test(output)) {
        output = "";
        waiting();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const result = () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no result line within 60 s; vitest printed:\n${output}`)), 60_000);
        waiting = () => {
          clearTimeout(timer);
          waiting = null;
          resolve();
        };
        if (/Test Files .*\n/.test(output)) {
          output = "";
          waiting();
        }
      });
    try {
      await result(); // the first run
    } catch (error) {
      child.kill("SIGTERM");
      throw error;
    }
    return {
      async rerun(save: () => void): Promise<number> {
        output = ""; // anything printed since the last result is not this save's
        const done = result();
        const started = performance.now();
        save();
        await done;
        return performance.now() - started;
      },
      close: () => child.kill("SIGTERM"),
    };
  }

  // Both watchers stay up and the saves alternate between them, as the runs above alternate: a burst of
  // load (or of the host taking a core) then falls on both sides instead of on one.
  const bareWatcher = await watcher(bareVitest, ["--root", bare], {});
  const bareReruns: number[] = [];
  const reruns: number[] = [];
  try {
    const learnerWatcher = await watcher(dirs.testCommand, ["stage-01"], { FORGE_TARGET: "workspace" });
    try {
      for (let index = 0; index < SAVES; index += 1) {
        bareReruns.push(await bareWatcher.rerun(editBare));
        reruns.push(await learnerWatcher.rerun(edit));
      }
    } finally {
      learnerWatcher.close();
    }
  } finally {
    bareWatcher.close();
  }
  const milliseconds = (list: readonly number[]) =>
    `median ${median(list).toFixed(0)} ms  (${list.map((ms) => ms.toFixed(0)).join(", ")} ms)`;
  console.log(`bare watch mode, save → result line         ${milliseconds(bareReruns)}`);
  console.log(`watch mode stage-01, save → result line     ${milliseconds(reruns)}`);
  const over = median(reruns) - median(bareReruns);
  console.log(`watch rerun over the bare one ${verdict(over, BOUNDS.watchOverBareMs, " ms")}`);
  ok &&= over <= BOUNDS.watchOverBareMs;
  const stealAfter = stolenSeconds();
  if (stealBefore !== null && stealAfter !== null)
    console.log(`  stolen by the host meanwhile: ${(stealAfter - stealBefore).toFixed(2)} s`);
}

/** CPU time the whole machine spent since `from` (every core, user and system), in seconds. */
const cpuBusy = (from: readonly CpuInfo[]) =>
  cpus().reduce((sum, cpu, index) => {
    const before = from[index]?.times;
    if (!before) return sum;
    const { user, nice, sys, irq } = cpu.times;
    return sum + (user - before.user + nice - before.nice + sys - before.sys + irq - before.irq) / 1000;
  }, 0);

if (runs("verify")) {
  const cpusBefore = cpus();
  const programs = samplePrograms();
  const started = performance.now();
  const verify = await $({
    cwd: ROOT,
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    nothrow: true,
    quiet: true,
  })`npm run --silent verify`;
  const total = (performance.now() - started) / 1000;
  const busy = cpuBusy(cpusBefore);
  console.log(`npm run verify                               ${seconds(total)}${verify.exitCode === 0 ? "" : " (it FAILED)"}`);
  // No schedule finishes sooner than the work divided by the cores: the floor says whether a bound is
  // a matter of parallelism or of doing less work.
  console.log(`  CPU busy ${seconds(busy)} on ${cpus().length} cores: at least ${seconds(busy / cpus().length)} however it is scheduled`);
  const { byProgram, stealSeconds } = programs.stop();
  if (byProgram.length > 0)
    console.log(
      `  by program: ${byProgram
        .slice(0, 6)
        .map(([name, spent]) => `${name} ${seconds(spent)}`)
        .join(", ")}`,
    );
  // Time the host gave to other machines: a figure taken while it is large is not this code's.
  if (stealSeconds !== null) console.log(`  stolen by the host meanwhile: ${seconds(stealSeconds)}`);
  console.log(`verify ${verdict(total, BOUNDS.verifySeconds, " s")}`);
  ok &&= total <= BOUNDS.verifySeconds && verify.exitCode === 0;
  const stageStarted = performance.now();
  const stage = await $({
    cwd: ROOT,
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    nothrow: true,
    quiet: true,
  })`npm run --silent verify -- stage-04`;
  const stageTotal = (performance.now() - stageStarted) / 1000;
  console.log(`npm run verify -- stage-04                   ${seconds(stageTotal)}${stage.exitCode === 0 ? "" : " (it FAILED)"}`);
  console.log(`verify of one stage ${verdict(stageTotal, BOUNDS.stageVerifySeconds, " s")}`);
  ok &&= stageTotal <= BOUNDS.stageVerifySeconds && stage.exitCode === 0;
}
rmSync(scratch, { recursive: true, force: true });

// The stages' own figures: each module under lab/bench/ measures one concern against a baseline of its
// own, taken in the same run.
const MEASURES: readonly Measure[] = [...(runs("stages") ? [scopeFigures, outputFigures] : []), ...(runs("mcp") ? [serverFigures] : [])];
const shown = (figure: Figure) =>
  `${figure.label}: ${figure.value.toFixed(figure.unit === "x" ? 2 : 1)} ${figure.unit} (bound ${figure.bound} ${figure.unit}; baseline ${figure.baseline}): ${withinBound(figure) ? "within" : "EXCEEDED"}`;
for (const measure of MEASURES) {
  for (const figure of await measure()) {
    console.log(shown(figure));
    ok &&= withinBound(figure);
  }
}
if (!ok) process.exitCode = 1;
