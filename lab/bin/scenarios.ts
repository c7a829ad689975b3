// `npm run lab:scenarios`: the adversarial run of `lab start` and `lab restore`. In throwaway copies of
// the repository it kills each command at every file-system call it makes that changes something (each
// rename, unlink and open, before and after the call), lets an editor save a file at each of those
// moments, and runs two commands at once. After each scenario it checks that no learner byte is lost
// (every original is in workspace/ or in a backup) and that `restore` brings back the state before the
// command. It prints the counts and exits 1 if any byte was lost or any state could not be restored.
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "zx";
import { ROOT } from "../core/layout.js";
import { copyRepositoryTo } from "../test/support/repository.js";

interface Rule {
  readonly call: string;
  readonly from: number;
  readonly do: string;
}

const INJECT = join(ROOT, "lab", "test", "support", "inject.mjs");
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Runs the lab CLI in a copy; `fired` tells whether an injected rule was reached. */
async function lab(copy: string, args: readonly string[], rules: readonly Rule[] = []) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("FORGE_")));
  const log = join(copy, ".inject.log");
  rmSync(log, { force: true });
  const env = { ...inherited, NO_COLOR: "1", CI: "true", FORGE_INJECT: JSON.stringify(rules), FORGE_INJECT_LOG: log };
  const result = await $({
    cwd: copy,
    env,
    nothrow: true,
    quiet: true,
  })`${process.execPath} --import ${INJECT} --import tsx ${join(copy, "lab", "cli", "main.ts")} ${args}`;
  return { signal: result.signal, stdout: result.stdout, stderr: result.stderr, fired: existsSync(log) };
}

/** Every regular file under a folder: relative path → "mode sha256". */
function files(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  if (!existsSync(folder)) return found;
  for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort()) {
    const stat = statSync(join(folder, name));
    if (stat.isFile()) found[name] = `${(stat.mode & 0o777).toString(8)} ${sha(readFileSync(join(folder, name)))}`;
  }
  return found;
}

/** Every content hash kept anywhere a learner's bytes may be: workspace/ and every backup. */
function keptHashes(copy: string): Set<string> {
  const all = [...Object.values(files(join(copy, "workspace"))), ...Object.values(files(join(copy, ".lab", "backups")))];
  return new Set(all.map((entry) => entry.split(" ")[1] ?? ""));
}

const tools = (copy: string) => join(copy, "workspace", "forge", "tools");

// One copy of the repository as it is now, so that edits made while the run goes on do not mix in.
const TEMPLATE = mkdtempSync(join(tmpdir(), "forge-lab-scenarios-"));
copyRepositoryTo(TEMPLATE);
rmSync(join(TEMPLATE, "node_modules"));

function freshCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "forge-lab-scenario-"));
  cpSync(TEMPLATE, copy, { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), process.platform === "win32" ? "junction" : "dir");
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), "// my registry, in progress\n");
  chmodSync(join(tools(copy), "registry.ts"), 0o600);
  writeFileSync(join(tools(copy), "paths.ts"), "// my path policy, in progress\n");
  return copy;
}

const counts = { scenarios: 0, killed: 0, savesDuring: 0, lost: 0, notRestored: 0 };
const problems: string[] = [];

function check(
  label: string,
  copy: string,
  mustKeep: Iterable<string>,
  expected: Record<string, string>,
  restoredTo: Record<string, string>,
): void {
  counts.scenarios += 1;
  console.log(`  ${label}`);
  const kept = keptHashes(copy);
  const lost = [...mustKeep].filter((hash) => !kept.has(hash));
  if (lost.length > 0) {
    counts.lost += lost.length;
    problems.push(`${label}: ${lost.length} learner file version(s) lost`);
  }
  if (JSON.stringify(restoredTo) !== JSON.stringify(expected)) {
    counts.notRestored += 1;
    problems.push(
      `${label}: restore did not bring back the state before the command:\n    expected ${JSON.stringify(expected)}\n    got      ${JSON.stringify(restoredTo)}`,
    );
  }
}

const CALLS = ["renameSync", "rename", "open", "unlinkSync"] as const;

/**
 * Kills `command` at the n-th call of each kind, before and after it, until a run is no longer killed.
 * `prepare` sets the copy up and returns the state that `recover` must bring back.
 */
async function killEverywhere(
  name: string,
  prepare: (copy: string) => Promise<Record<string, string>>,
  command: readonly string[],
  recover: readonly string[],
): Promise<void> {
  for (const call of CALLS) {
    for (const when of ["kill", "kill-after"]) {
      for (let n = 1; ; n += 1) {
        const copy = freshCopy();
        try {
          const expected = await prepare(copy);
          const before = files(join(copy, "workspace"));
          const mustKeep = [...Object.values(before), ...Object.values(expected)].map((entry) => entry.split(" ")[1] ?? "");
          const run = await lab(copy, command, [{ call, from: n, do: when }]);
          if (!run.fired) break; // every call of this kind has been tried
          if (run.signal !== "SIGKILL")
            problems.push(`${name}: a kill ${when === "kill" ? "before" : "after"} ${call} #${n} did not kill it`);
          counts.killed += 1;
          await lab(copy, recover);
          const leftovers = readdirSync(tools(copy)).filter((file) => file.endsWith(".tmp"));
          if (leftovers.length > 0)
            problems.push(
              `${name} killed ${when === "kill" ? "before" : "after"} ${call} #${n}: temporary files left after recovery: ${leftovers.join(", ")}`,
            );
          check(
            `${name} killed ${when === "kill" ? "before" : "after"} ${call} #${n}`,
            copy,
            mustKeep,
            expected,
            files(join(copy, "workspace")),
          );
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      }
    }
  }
}

/** An editor saves registry.ts at the n-th call of each kind while start runs: the save is never lost. */
async function saveEverywhere(): Promise<void> {
  for (const call of ["renameSync", "open"] as const) {
    for (let n = 1; ; n += 1) {
      const copy = freshCopy();
      try {
        const saved = `// saved by the editor at ${call} #${n}\n`;
        const run = await lab(copy, ["start", "4", "--yes"], [{ call, from: n, do: `save:${join(tools(copy), "registry.ts")}=${saved}` }]);
        if (!run.fired) break;
        console.log(`  an editor saves at ${call} #${n} during start`);
        counts.savesDuring += 1;
        counts.scenarios += 1;
        if (!keptHashes(copy).has(sha(Buffer.from(saved)))) {
          counts.lost += 1;
          problems.push(`an editor's save at ${call} #${n} during start was lost`);
        }
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  }
}

async function concurrent(): Promise<void> {
  for (let round = 1; round <= 5; round += 1) {
    const copy = freshCopy();
    try {
      const before = files(join(copy, "workspace"));
      await Promise.all([lab(copy, ["start", "4", "--yes"]), lab(copy, ["start", "5", "--yes"])]);
      // Undo whatever ran, newest first, until nothing is left.
      for (let undo = 0; undo < 3; undo += 1) await lab(copy, ["restore", "--yes"]);
      check(
        `two starts at once, round ${round}`,
        copy,
        Object.values(before).map((entry) => entry.split(" ")[1] ?? ""),
        before,
        files(join(copy, "workspace")),
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
}

const started = performance.now();
await killEverywhere("start 4", async (copy) => files(join(copy, "workspace")), ["start", "4", "--yes"], ["restore", "--yes"]);
await killEverywhere(
  "restore after start 4 and an edit",
  async (copy) => {
    const original = files(join(copy, "workspace"));
    await lab(copy, ["start", "4", "--yes"]);
    writeFileSync(join(tools(copy), "paths.ts"), "// edited after start\n");
    return original;
  },
  ["restore", "--yes"],
  // The interrupted restore is finished by running it again; the edit it replaced is in its backup.
  ["restore", "--yes"],
);
await saveEverywhere();
await concurrent();

rmSync(TEMPLATE, { recursive: true, force: true });
for (const problem of problems) console.log(`✘ ${problem}`);
console.log(
  `${counts.scenarios} scenarios (${counts.killed} commands killed at a planned moment, ${counts.savesDuring} editor saves during start, 5 rounds of two commands at once) in ${((performance.now() - started) / 1000).toFixed(0)} s: ${counts.lost} learner file version(s) lost, ${counts.notRestored} state(s) not restored.`,
);
process.exitCode = counts.lost === 0 && counts.notRestored === 0 && problems.length === 0 ? 0 : 1;
