// The lab CLI, run as a learner or instructor runs it, in a temporary copy of the repository, so no
// real workspace, evidence or backup is touched.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { expect, it, type TestContext } from "vitest";
import { main } from "../cli/commands.js";
import { ROOT } from "../layout.js";
import { temporaryFolder } from "../testing.js";

const SLOW = { timeout: 120_000 };
const LEFT_OUT = new Set(["node_modules", ".git", "evidence", "test-results", ".lab", "faultlab", "dist"]);

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A copy of the repository's sources with the real node_modules linked in; workspace/ holds only its README. */
function copyRepository(context: TestContext): string {
  const copy = temporaryFolder({ onFinished: context.onTestFinished });
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (source) => {
      const inside = relative(ROOT, source);
      if (inside === "") return true;
      const parts = inside.split(sep);
      return !parts.some((part) => LEFT_OUT.has(part)) && !inside.startsWith(join("workspace", "forge"));
    },
  });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  mkdirSync(join(copy, "evidence"));
  return copy;
}

function lab(copy: string, args: readonly string[], preload: readonly string[] = []): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && !key.startsWith("FORGE_")));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...preload.flatMap((file) => ["--import", file]), "--import", "tsx", join(copy, "lab", "cli", "main.ts"), ...args],
      { cwd: copy, env: { ...env, NO_COLOR: "1", CI: "true" }, timeout: 100_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const tools = (copy: string) => join(copy, "workspace", "forge", "tools");
const reference = (copy: string, stage: string, module: string) => readFileSync(join(copy, "solutions", stage, "forge", "tools", `${module}.ts`));

/** Every file under workspace/ with its bytes, to compare a tree before and after. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
    const file = join(folder, name);
    try {
      files[name] = readFileSync(file).toString("base64");
    } catch {
      files[name] = "(folder)";
    }
  }
  return files;
}

it.concurrent("start refuses to overwrite a modified learner file without --yes, and changes nothing", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), "// my own registry, not finished\n");
  const before = snapshot(join(copy, "workspace"));
  const run = await lab(copy, ["start", "3"]);
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).toMatch(/overwrite +workspace\/forge\/tools\/registry\.ts/);
  expect(run.stdout).toMatch(/create +workspace\/forge\/tools\/paths\.ts/);
  expect(run.stderr).toContain("Refusing to overwrite workspace/forge/tools/registry.ts without consent: rerun with --yes");
  expect(snapshot(join(copy, "workspace"))).toEqual(before);
  expect(existsSync(join(copy, ".lab", "backups"))).toBe(false);
});

it.concurrent("start --yes keeps a backup of the original bytes, and restore brings them back and removes what start created", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  const mine = "// my own registry, not finished\n";
  writeFileSync(join(tools(copy), "registry.ts"), mine);
  const started = await lab(copy, ["start", "stage-03", "--yes"]);
  expect(started.status, started.stderr).toBe(0);
  expect(readFileSync(join(tools(copy), "registry.ts"))).toEqual(reference(copy, "stage-01-capability-registry", "registry"));
  expect(readFileSync(join(tools(copy), "paths.ts"))).toEqual(reference(copy, "stage-02-workspace-path-policy", "paths"));
  expect(existsSync(join(tools(copy), "plans.ts")), "start 3 stops before stage 03's own module").toBe(false);
  const [backup] = readdirSync(join(copy, ".lab", "backups"));
  expect(backup).toBeDefined();
  expect(readFileSync(join(copy, ".lab", "backups", backup ?? "", "files", "forge", "tools", "registry.ts"), "utf8")).toBe(mine);
  expect(started.stdout).toContain(`npm run lab -- restore ${backup}`);

  const restored = await lab(copy, ["restore"]);
  expect(restored.status, restored.stderr).toBe(0);
  expect(readFileSync(join(tools(copy), "registry.ts"), "utf8")).toBe(mine);
  expect(existsSync(join(tools(copy), "paths.ts"))).toBe(false);
  const again = await lab(copy, ["restore"]);
  expect(again.status).toBe(1);
  expect(again.stderr).toMatch(/no backup left to restore/);
});

it.concurrent("start leaves the workspace exactly as before when a write fails in the middle", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), "// my own registry\n");
  const before = snapshot(join(copy, "workspace"));
  const run = await lab(copy, ["start", "4", "--yes"], [join(ROOT, "lab", "test", "support", "fail-second-rename.mjs")]);
  expect(run.status, run.stdout).toBe(1);
  expect(run.stderr).toMatch(/start failed and workspace\/ was rolled back, unchanged: injected failure/);
  expect(snapshot(join(copy, "workspace"))).toEqual(before);
  expect(readdirSync(join(copy, ".lab", "backups"))).toEqual([]);
});

it.concurrent("fault reproduces the contract, names the target test and exits 0", SLOW, async (context) => {
  const copy = copyRepository(context);
  const run = await lab(copy, ["fault", "1"]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("target test       rejects a tool that declares an unknown capability");
  expect(run.stdout).toMatch(/✘ rejects a tool that declares an unknown capability\n +defineTool\("shell", capabilities\) with a capability outside the vocabulary, not refused with an error containing "invalid": expected \{ '\["root"\]': 'no error; returned tool "shell" with capabilities \[root\]'/);
  expect(run.stdout).toContain("+  const unknown = unknownCapabilities(declared);");
  expect(run.stdout).toContain("fault reproduced — this is not a fix");
});

it.concurrent("fault --check says not fixed for the copied faulty module and fixed once it is repaired", SLOW, async (context) => {
  const copy = copyRepository(context);
  const opened = await lab(copy, ["fault", "04", "--open"]);
  expect(opened.status, opened.stderr).toBe(0);
  const repair = join(copy, "faultlab", "stage-04-approval-gate", "forge", "tools", "approval.ts");
  expect(readFileSync(repair)).toEqual(readFileSync(join(copy, "faulty", "stage-04-approval-gate", "forge", "tools", "approval.ts")));
  const unrepaired = await lab(copy, ["fault", "04", "--check"]);
  expect(unrepaired.status).toBe(1);
  expect(unrepaired.stdout).toMatch(/^not fixed: /m);
  writeFileSync(repair, reference(copy, "stage-04-approval-gate", "approval"));
  const repaired = await lab(copy, ["fault", "04", "--check"]);
  expect(repaired.status, repaired.stdout).toBe(0);
  expect(repaired.stdout).toMatch(/^fixed: all \d+ tests of stage-04-approval-gate pass/m);
  const reopened = await lab(copy, ["fault", "04", "--open"]);
  expect(reopened.status, "a repair in progress is not overwritten without --yes").toBe(1);
});

/** The CLI in this process, its output captured: for commands that only read. */
async function labHere(args: readonly string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(args, { out: (line = "") => out.push(line), err: (line = "") => err.push(line) });
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

it("exits 2 for an unknown stage, command or target, naming the valid ones", async () => {
  const stage = await labHere(["hint", "stage-99"]);
  expect(stage.status).toBe(2);
  expect(stage.stderr).toContain('"stage-99" is not a stage. Stages: stage-01-capability-registry, stage-02-workspace-path-policy');
  const command = await labHere(["teleport"]);
  expect(command.status).toBe(2);
  expect(command.stderr).toContain('"teleport" is not a command. Commands: status, start, restore, fault, hint, test, verify, doctor');
  const target = await labHere(["test", "1", "--target", "reference"]);
  expect(target.status).toBe(2);
  expect(target.stderr).toContain('--target="reference" is not a target. Use one of: workspace, solution, faulty, start');
  const option = await labHere(["start", "1", "--force"]);
  expect(option.status).toBe(2);
  expect(option.stderr).toMatch(/Unknown option '--force'.*See: npm run lab -- start --help/);
});

it("answers --help for every command with its usage and an example where it takes a stage", async () => {
  const overview = await labHere(["--help"]);
  expect(overview.status).toBe(0);
  for (const command of ["status", "start", "restore", "fault", "hint", "test", "verify", "doctor"]) {
    expect(overview.stdout, command).toContain(`  ${command}`);
    const help = await labHere([command, "--help"]);
    expect(help.status, command).toBe(0);
    expect(help.stdout, command).toMatch(new RegExp(`^Usage: npm run lab -- ${command}`));
  }
  expect((await labHere(["start", "--help"])).stdout).toContain("Example: npm run lab -- start 4");
});

it.concurrent("hint shows the next graded hint and remembers it between runs", SLOW, async (context) => {
  const copy = copyRepository(context);
  const hints = (JSON.parse(readFileSync(join(copy, "stages", "stage-02-workspace-path-policy", "stage.json"), "utf8")) as { hints: string[] }).hints;
  const first = await lab(copy, ["hint", "2"]);
  expect(first.stdout.trim()).toBe(`Hint 1 of ${hints.length}: ${hints[0]}`);
  const second = await lab(copy, ["hint", "02"]);
  expect(second.stdout.trim()).toBe(`Hint 2 of ${hints.length}: ${hints[1]}`);
  const other = await lab(copy, ["hint", "1"]);
  expect(other.stdout).toMatch(/^Hint 1 of /);
});

it.concurrent("status shows each stage's module, evidence, state and next step", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), reference(copy, "stage-01-capability-registry", "registry"));
  const status = await lab(copy, ["status"]);
  expect(status.status).toBe(0);
  expect(status.stdout).toMatch(/01 capability-registry +registry\.ts ✔ +none +in progress +run npm test -- stage-01/);
  expect(status.stdout).toMatch(/02 workspace-path-policy +paths\.ts · +none +not started +read stages\/stage-02-workspace-path-policy\/README\.md/);
});
