// `npm run verify:node [-- 22 24 26]`: the stage suites (against the reference solutions) and the lab
// engine's own tests, run by each supported Node.js line other than the one running this script. The
// lines come from package.json's `engines`; each line's official binary is installed from the npm
// registry once (lab/bench/node-binary.ts). The full `npm run verify` stays on the machine's own Node.js: this run proves that learners'
// and maintainers' commands work on the other lines, in a few minutes.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { $ } from "zx";
import { dirs, ROOT } from "../core/layout.js";
import { enginesRange, supportedLines } from "../core/node-lines.js";
import { nodeOf } from "../bench/node-binary.js";

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
