// The repository's own hygiene, checked by verify beside the type-check: Biome's formatter (every file
// formatted as `npm run format` would) and knip (no unused file, export or dependency).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../core/layout.js";

/** A package's command-line script, from this checkout's node_modules. */
function bin(pkg: string, path: string): string {
  return join(ROOT, "node_modules", pkg, path);
}

function run(script: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** What keeps the repository from passing `npm run lint`, one line per file or finding. */
export async function lintProblems(): Promise<string[]> {
  const [format, knip] = await Promise.all([
    run(bin("@biomejs/biome", "bin/biome"), ["format", "--colors=off", "."]),
    run(bin("knip", "bin/knip.js"), ["--no-progress", "--no-exit-code"]),
  ]);
  const problems: string[] = [];
  if (format.code !== 0) {
    const files = [...format.output.matchAll(/^(\S+) format ━/gm)].map((match) => match[1]);
    problems.push(
      ...(files.length > 0
        ? files.map((file) => `${file} is not formatted: run npm run format`)
        : [`biome format failed: ${format.output.trim().split("\n").slice(-3).join(" ")}`]),
    );
  }
  const findings = knip.output
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "");
  if (findings.length > 0) problems.push(...findings.map((line) => `knip: ${line}`));
  return problems;
}
