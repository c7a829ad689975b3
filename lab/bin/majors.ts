// `npm run bench:majors [-- --line 22 --vitest 5.1.2 --stryker 10.1.1 --runs 5]`: what moving to newer
// majors of vitest and StrykerJS would change, measured before deciding. Two clones of the committed
// course are made under .lab/majors/: one as package-lock.json pins it, one with the candidate majors.
// Both run on the same Node.js line (the candidates need at least 22), interleaved, so a busy machine
// slows both alike, and each figure is the candidate's median over the pinned one's:
//   - the learner's loop: `vitest run stage-04` against the reference;
//   - a per-stage verify: `npm run verify -- stage-01`;
//   - a mutation run of stage 01;
// and whether the candidate clone type-checks as it is.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { $ } from "zx";
import { nodeOf } from "../bench/node-binary.js";
import { dirs, ROOT } from "../core/layout.js";

const { values } = parseArgs({
  options: {
    line: { type: "string", default: "22" },
    vitest: { type: "string", default: "5" },
    stryker: { type: "string", default: "10" },
    runs: { type: "string", default: "5" },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number of at least 1, got ${JSON.stringify(values.runs)}`);
  process.exit(2);
}
const node = await nodeOf(Number(values.line));
const version = (await $({ quiet: true })`${node} --version`).stdout.trim();
// The binary's folder first on PATH, so npm and every script it starts run on that line too.
const env = { ...process.env, PATH: `${join(node, "..")}:${process.env.PATH ?? ""}`, CI: "true", NO_COLOR: "1" };

const scratch = join(dirs.labState, "majors");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
const clones = { pinned: join(scratch, "pinned"), candidate: join(scratch, "candidate") } as const;
for (const [name, folder] of Object.entries(clones)) {
  await $({ quiet: true })`git clone --quiet --no-hardlinks ${ROOT} ${folder}`;
  await $({ cwd: folder, env, quiet: true })`npm ci --no-audit --no-fund`;
  console.log(`${name}: cloned and installed`);
}
// vitest 5 declares @types/node 22 or later as a peer.
const wanted = [
  `vitest@${values.vitest}`,
  `@types/node@${values.line}`,
  ...["core", "vitest-runner", "typescript-checker"].map((part) => `@stryker-mutator/${part}@${values.stryker}`),
];
await $({ cwd: clones.candidate, env, quiet: true })`npm install --save-dev --no-audit --no-fund ${wanted}`;
const installed = async (folder: string, name: string) =>
  (
    JSON.parse((await $({ cwd: folder, quiet: true })`npm ls ${name} --json --depth 0`).stdout) as {
      dependencies?: Record<string, { version?: string }>;
    }
  ).dependencies?.[name]?.version ?? "?";
for (const [name, folder] of Object.entries(clones))
  console.log(
    `${name}: vitest ${await installed(folder, "vitest")}, StrykerJS ${await installed(folder, "@stryker-mutator/core")}, on Node.js ${version}`,
  );

const typecheck = await $({ cwd: clones.candidate, env, nothrow: true, quiet: true })`npm run --silent typecheck`;
const errors = `${typecheck.stdout}\n${typecheck.stderr}`.split("\n").filter((line) => /error TS\d+/.test(line));
console.log(
  typecheck.exitCode === 0
    ? "candidate: type-checks as it is"
    : `candidate: ${errors.length} type error(s) to fix first, e.g. ${errors[0]?.trim() ?? "(see npm run typecheck)"}`,
);

/** Seconds one command takes in a clone; a failing command is reported, since its time means nothing. */
async function seconds(folder: string, command: readonly string[], extra: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const result = await $({ cwd: folder, env: { ...env, ...extra }, nothrow: true, quiet: true })`${command}`;
  const taken = (performance.now() - started) / 1000;
  if (result.exitCode !== 0)
    console.log(`  ✘ ${command.join(" ")} failed in ${folder === clones.pinned ? "pinned" : "candidate"} (exit ${result.exitCode})`);
  return taken;
}
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const measures = [
  {
    label: "learner loop: vitest run stage-04, reference",
    command: ["npx", "vitest", "run", "stage-04"],
    extra: { FORGE_TARGET: "solution" },
    runs,
  },
  {
    label: "per-stage verify: npm run verify -- stage-01",
    command: ["npm", "run", "--silent", "verify", "--", "stage-01"],
    extra: {},
    runs: Math.min(runs, 2),
  },
  { label: "mutation: npm run mutate -- stage-01", command: ["npm", "run", "--silent", "mutate", "--", "stage-01"], extra: {}, runs: 1 },
] as const;
for (const measure of measures) {
  const times = { pinned: [] as number[], candidate: [] as number[] };
  for (let run = 0; run < measure.runs; run++) {
    times.pinned.push(await seconds(clones.pinned, measure.command, measure.extra));
    times.candidate.push(await seconds(clones.candidate, measure.command, measure.extra));
  }
  const [pinned, candidate] = [median(times.pinned), median(times.candidate)];
  console.log(
    `${measure.label}: pinned ${pinned.toFixed(2)} s, candidate ${candidate.toFixed(2)} s, ratio ${(candidate / pinned).toFixed(2)}x (median of ${measure.runs})`,
  );
}
rmSync(scratch, { recursive: true, force: true });
