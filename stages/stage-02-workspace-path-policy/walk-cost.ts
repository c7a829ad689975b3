// The child process of stage 02's walk-cost test (paths.test.ts).
//
//   node walk-cost.mjs <module file> <workspace> <rounds> <request> [<rounds> <request>]...
//
// It imports resolveWorkspacePath from the module and measures the processor time of one call for
// each request: the user and system time of this process, to which another process's load adds
// nothing (a busy machine stretches the wall-clock time of a call, not this). Each request runs once
// to warm up, then as many rounds as it was given, in turn with the others, and keeps its fastest
// call: noise only ever adds time. It prints one line of JSON: per request, that time in
// microseconds and what the call answered.
import { pathToFileURL } from "node:url";

type Resolve = (workspace: string, requested: string) => Promise<string>;

interface Cost {
  micros: number;
  answer: string;
}

const [moduleFile, workspace, ...pairs] = process.argv.slice(2);
const requests = new Map<string, number>();
for (let index = 0; index + 1 < pairs.length; index += 2) requests.set(pairs[index + 1] as string, Number(pairs[index]));
if (moduleFile === undefined || workspace === undefined || pairs.length % 2 !== 0 || requests.size === 0) {
  process.stderr.write("usage: walk-cost.mjs <module file> <workspace> <rounds> <request> [<rounds> <request>]...\n");
  process.exit(2);
}
const { resolveWorkspacePath } = (await import(pathToFileURL(moduleFile).href)) as { resolveWorkspacePath: Resolve };

async function timed(requested: string): Promise<Cost> {
  const start = process.cpuUsage();
  let answer: string;
  try {
    answer = `resolved to ${await resolveWorkspacePath(workspace as string, requested)}`;
  } catch (error) {
    answer = `error: ${error instanceof Error ? error.message : String(error)}`;
  }
  const used = process.cpuUsage(start);
  return { micros: used.user + used.system, answer };
}

const costs = new Map<string, Cost>();
const mostRounds = Math.max(...requests.values());
// Round 0 warms the compiler up and is not counted.
for (let round = 0; round <= mostRounds; round += 1) {
  for (const [requested, rounds] of requests) {
    if (round > rounds) continue;
    const cost = await timed(requested);
    const best = costs.get(requested);
    if (best === undefined) costs.set(requested, { micros: Infinity, answer: cost.answer });
    else if (cost.micros < best.micros) costs.set(requested, cost);
  }
}
process.stdout.write(`${JSON.stringify(Object.fromEntries(costs))}\n`);
