// Stage 10's figures: the cap on what a StreamDecoder keeps must bound its memory and its time too, not
// only the bytes kept. Each workload runs in a fresh Node process (three of them; the figure is the
// best time and the median memory), started with --expose-gc so that it begins from a collected heap,
// and measures itself:
//
//   - time: from the first push to the last text read, as the CPU time of the process (user and
//     system): the work done, which other load on a shared machine does not lengthen the way it
//     lengthens the wall time (given beside it, in the baseline's words);
//   - memory: the growth of the process's peak resident set (Linux's VmHWM, reset through
//     /proc/self/clear_refs just before the first push; elsewhere, the peak's growth since start-up),
//     divided by the raw bytes the decoders kept.
//
// The baseline of each figure is the same work done by one TextDecoder per stream over the whole
// buffer, measured the same way in its own processes: what decoding these bytes costs at the least.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { dirs, moduleFile, ROOT } from "../core/layout.js";
import type { Figure, Measure } from "./figure.js";

const MiB = 1024 * 1024;
const RUNS = 3;
const reference = pathToFileURL(moduleFile(join(dirs.solutions, "stage-10-output-decoding"), "output")).href;

/** The workloads. Each is the body of an async function that gets `StreamDecoder` and returns the bytes it kept. */
const workloads = {
  // A pipe fed a byte per write: 8 MiB per stream, stdout and stderr interleaved, one byte per push.
  oneBytePushes: {
    setup: `const line = new TextEncoder().encode("build step 12/40: 编译 ok ✓\\n");
      const text = new Uint8Array(8 * ${MiB});
      for (let at = 0; at < text.length; at += line.length) text.set(line.subarray(0, text.length - at), at);
      const byte = Array.from({ length: 256 }, (_, value) => Uint8Array.of(value));`,
    decoder: `const out = new StreamDecoder(), err = new StreamDecoder();
      for (let index = 0; index < text.length; index += 1) { out.push(byte[text[index]]); err.push(byte[text[index]]); }
      out.end(); err.end();
      return { kept: out.facts().rawBytes + err.facts().rawBytes, chars: out.text.length + err.text.length };`,
    baseline: `const chars = new TextDecoder().decode(text).length + new TextDecoder().decode(text).length;
      return { kept: 2 * text.length, chars };`,
  },
  // 16 MiB of bytes that are never UTF-8 (0xFF), each one a U+FFFD, in pipe-sized chunks.
  invalidBytes: {
    setup: `const bytes = new Uint8Array(16 * ${MiB}).fill(0xff);`,
    decoder: `const decoder = new StreamDecoder({ maxBytes: 16 * ${MiB} });
      for (let start = 0; start < bytes.length; start += 65536) decoder.push(bytes.subarray(start, start + 65536));
      decoder.end();
      return { kept: decoder.facts().rawBytes, chars: decoder.text.length };`,
    baseline: `return { kept: bytes.length, chars: new TextDecoder().decode(bytes).length };`,
  },
  // Random bytes on both streams, read with replace: about half of them become U+FFFD.
  randomBytes: {
    setup: `let seed = 0x5eed;
      const random = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 24; };
      const streams = [0, 1].map(() => { const bytes = new Uint8Array(8 * ${MiB}); for (let index = 0; index < bytes.length; index += 1) bytes[index] = random(); return bytes; });`,
    decoder: `const decoders = streams.map(() => new StreamDecoder());
      for (let start = 0; start < 8 * ${MiB}; start += 65536) streams.forEach((bytes, index) => decoders[index].push(bytes.subarray(start, start + 65536)));
      decoders.forEach((decoder) => decoder.end());
      const texts = decoders.map((decoder) => decoder.text);
      return { kept: decoders.reduce((sum, decoder) => sum + decoder.facts().rawBytes, 0), chars: texts[0].length + texts[1].length };`,
    baseline: `const texts = streams.map((bytes) => new TextDecoder().decode(bytes));
      return { kept: 16 * ${MiB}, chars: texts[0].length + texts[1].length };`,
  },
} as const;

type Workload = keyof typeof workloads;

interface Run {
  /** CPU time of the workload, user and system. */
  readonly seconds: number;
  readonly wallSeconds: number;
  /** Growth of the peak resident set, in bytes. */
  readonly rssGrowth: number;
  readonly kept: number;
  readonly chars: number;
}

function childSource(workload: Workload, side: "decoder" | "baseline"): string {
  const { setup, decoder, baseline } = workloads[workload];
  return `
    import { readFileSync, writeFileSync } from "node:fs";
    import { StreamDecoder } from ${JSON.stringify(reference)};
    const peak = () => {
      try { return 1024 * Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]); }
      catch { return 1024 * process.resourceUsage().maxRSS; }
    };
    ${setup}
    globalThis.gc();
    try { writeFileSync("/proc/self/clear_refs", "5"); } catch {}
    const before = peak();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await (async () => { ${side === "decoder" ? decoder : baseline} })();
    const { user, system } = process.cpuUsage(cpu);
    const wallSeconds = (performance.now() - started) / 1000;
    process.stdout.write(JSON.stringify({ seconds: (user + system) / 1e6, wallSeconds, rssGrowth: peak() - before, ...result }));
  `;
}

function runChild(workload: Workload, side: "decoder" | "baseline"): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", childSource(workload, side)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      out += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      err += text;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`stage 10 bench, ${workload} (${side}): exit ${code}\n${err}`));
      else resolve(JSON.parse(out) as Run);
    });
  });
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** RUNS fresh processes, one after another: the best time and the median memory growth. */
async function measured(workload: Workload, side: "decoder" | "baseline") {
  const runs: Run[] = [];
  for (let index = 0; index < RUNS; index += 1) runs.push(await runChild(workload, side));
  const kept = runs[0]?.kept ?? 0;
  return {
    seconds: Math.min(...runs.map((run) => run.seconds)),
    wallSeconds: Math.min(...runs.map((run) => run.wallSeconds)),
    perKept: median(runs.map((run) => run.rssGrowth)) / kept,
    kept,
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

export const measure: Measure = async () => {
  const figures: Figure[] = [];
  const results = new Map<Workload, { decoder: Awaited<ReturnType<typeof measured>>; baseline: Awaited<ReturnType<typeof measured>> }>();
  for (const workload of Object.keys(workloads) as Workload[]) {
    results.set(workload, { decoder: await measured(workload, "decoder"), baseline: await measured(workload, "baseline") });
  }
  const get = (workload: Workload) => {
    const result = results.get(workload);
    if (result === undefined) throw new Error(`stage 10 bench: no result for ${workload}`);
    return result;
  };
  const pushes = get("oneBytePushes");
  const invalid = get("invalidBytes");
  const random = get("randomBytes");
  const cpu = (result: Awaited<ReturnType<typeof measured>>) => `${round(result.seconds)} s CPU, ${round(result.wallSeconds)} s wall`;
  figures.push(
    {
      label: "stage 10: 1-byte pushes, 8 MiB per stream, both streams (CPU time)",
      value: round(pushes.decoder.seconds),
      unit: "s",
      bound: 2,
      baseline: `one TextDecoder per stream over the whole 8 MiB: ${cpu(pushes.baseline)}; this run's wall time ${round(pushes.decoder.wallSeconds)} s`,
    },
    {
      label: "stage 10: 16 MiB of invalid bytes (0xFF), replace (CPU time)",
      value: round(invalid.decoder.seconds),
      unit: "s",
      bound: 1,
      baseline: `one TextDecoder over the same 16 MiB: ${cpu(invalid.baseline)}; this run's wall time ${round(invalid.decoder.wallSeconds)} s`,
    },
  );
  for (const [result, what] of [
    [pushes, "1-byte pushes, both streams, 2 x 8 MiB kept"],
    [invalid, "16 MiB of invalid bytes kept"],
    [random, "random bytes, replace, both streams, 2 x 8 MiB kept"],
  ] as const) {
    figures.push({
      label: `stage 10: RSS growth per byte kept, ${what}`,
      value: round(result.decoder.perKept),
      unit: "x",
      bound: 4,
      baseline: `one TextDecoder per stream over the same bytes: ${round(result.baseline.perKept)}x`,
    });
  }
  return figures;
};
