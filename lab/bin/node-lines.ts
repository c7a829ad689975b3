// `npm run verify:node [-- 22 24 26]`: the stage suites (against the reference solutions) and the lab
// engine's own tests, run by each supported Node.js line other than the one running this script. The
// lines come from package.json's `engines`; each line's official binary is installed from the npm
// registry (the `node-<platform>-<arch>` packages) into node_modules/.cache/forge-lab/node/<line>/,
// once. The full `npm run verify` stays on the machine's own Node.js: this run proves that learners'
// and maintainers' commands work on the other lines, in a few minutes.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { $ } from "zx";
import { dirs, ROOT } from "../core/layout.js";
import { enginesRange, supportedLines } from "../core/node-lines.js";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const running = Number(process.versions.node.split(".")[0]);
const supported = supportedLines(enginesRange());
const lines = positionals.length > 0 ? positionals.map(Number) : supported.filter((line) => line !== running);
const unknown = lines.filter((line) => !supported.includes(line));
if (unknown.length > 0) {
  console.error(
    `not a supported Node.js line: ${unknown.join(", ")} (package.json engines: ${enginesRange()}, lines ${supported.join(", ")})`,
  );
  process.exit(2);
}

/** The name of the npm package that ships this platform's official Node.js binary. */
function binaryPackage(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  return `node-${platform}-${process.arch}`;
}

/** The `node` of a line, installed on first use. */
async function nodeOf(line: number): Promise<string> {
  const folder = join(dirs.cache, "node", String(line));
  const bin = process.platform === "win32" ? join("bin", "node.exe") : join("bin", "node");
  const node = join(folder, "node_modules", binaryPackage(), bin);
  if (existsSync(node)) return node;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // A manifest of its own, so npm installs here and never walks up into the course's package.json.
  writeFileSync(join(folder, "package.json"), '{ "private": true }\n');
  await $({ cwd: folder, quiet: true })`npm install --no-audit --no-fund --no-save ${`${binaryPackage()}@${line}`}`;
  if (!existsSync(node)) throw new Error(`${binaryPackage()}@${line} installed no ${bin}`);
  return node;
}

const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const scratch = join(dirs.labState, "node-lines");
const suites = [
  { name: "stage suites, solution target", args: ["run"], env: { FORGE_TARGET: "solution" } },
  { name: "lab engine's tests", args: ["run", "--config", join("lab", "test", "vitest.config.ts")], env: {} },
] as const;

const failed: string[] = [];
for (const line of lines) {
  const node = await nodeOf(line);
  const version = (await $({ quiet: true })`${node} --version`).stdout.trim();
  for (const suite of suites) {
    const started = performance.now();
    rmSync(scratch, { recursive: true, force: true });
    const result = await $({
      cwd: ROOT,
      nothrow: true,
      quiet: true,
      // The reference runs' evidence goes to a scratch folder: this run must not replace the files a
      // verify run on the machine's own Node.js wrote.
      env: { ...process.env, ...suite.env, CI: "true", NO_COLOR: "1", FORGE_EVIDENCE: join(scratch, "evidence") },
    })`${node} ${vitest} ${suite.args}`;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const tests = /Tests\s+(.*)/.exec(result.stdout)?.[1]?.trim() ?? "no test summary";
    const ok = result.exitCode === 0;
    console.log(`${ok ? "✔" : "✘"} Node.js ${version}: ${suite.name}: ${tests} (${seconds} s)`);
    if (!ok) {
      failed.push(`Node.js ${version}: ${suite.name}`);
      console.log(`${result.stdout}\n${result.stderr}`.split("\n").slice(-60).join("\n"));
    }
  }
}
rmSync(scratch, { recursive: true, force: true });
if (failed.length > 0) {
  console.log(`\n${failed.length} failed: ${failed.join("; ")}`);
  process.exitCode = 1;
} else {
  console.log(`\nAll suites passed on Node.js ${lines.join(", ")}.`);
}
