// The repository's own hygiene, checked by verify beside the type-check and by `npm run lint`: Biome's
// formatter (every file formatted as `npm run format` would) and knip (no unused file, export or
// dependency). Both judge the files git tracks, the course's own: a learner's module or a stray folder
// of theirs beside them is not the course's to judge (knip.config.ts says the same for knip).
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../core/layout.js";

/** A package's command-line script, from this checkout's node_modules. */
function bin(pkg: string, path: string): string {
  return join(ROOT, "node_modules", pkg, path);
}

function run(root: string, script: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: root, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** The tracked files Biome formats, or `.` (every file) outside a git checkout. */
function formatted(root: string): string[] {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.mts", "*.mjs", "*.js"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 16 * 1024 * 1024,
    });
    return listed.split("\0").filter((file) => file !== "" && existsSync(join(root, file)));
  } catch {
    return ["."];
  }
}

/** What keeps the repository from passing `npm run lint`, one line per file or finding. */
export async function lintProblems(root: string = ROOT): Promise<string[]> {
  const [format, knip] = await Promise.all([
    run(root, bin("@biomejs/biome", "bin/biome"), ["format", "--colors=off", "--no-errors-on-unmatched", ...formatted(root)]),
    // The repository's tsconfig.json, whose paths map forge/tools/* to the references alone.
    run(root, bin("knip", "bin/knip.js"), ["--no-progress", "--no-exit-code", "--no-config-hints", "--tsConfig", "tsconfig.json"]),
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
