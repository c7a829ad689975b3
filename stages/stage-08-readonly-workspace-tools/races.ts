// Stage 08's two races, measured on a real disk (Linux or macOS):
//
//   npx tsx stages/stage-08-readonly-workspace-tools/races.ts [module] [calls]
//
// `module` is the readonly module to try (default: workspace/forge/tools/readonly.ts; the reference is
// solutions/stage-08-readonly-workspace-tools/forge/tools/readonly.ts), `calls` the calls per race
// (default 10000). Another process swaps entries of a temporary workspace as fast as it can while
// this one calls the tools, and the script counts what came back:
//
// 1. The ancestor swap: `src`, a folder, is swapped with a symlink to a folder outside, which holds
//    its own `app.ts`. A read of `src/app.ts` that returns the outside file's text, or a listing of
//    `src` that shows the outside folder's names, is a leak.
// 2. The last component: `src/app.ts` is swapped with a special file (a character device when the
//    script runs as root and `mknod` exists, a FIFO otherwise). Every open goes through a file system
//    that fstat()s what it opened, so the script counts the opens that reached the special file, and
//    the reads from it.
//
// The numbers differ from run to run and from machine to machine: they are a race.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ReadOnlyFileSystem, ReadOnlyWorkspace as Workspace } from "forge/tools/readonly";

const [moduleArgument = "workspace/forge/tools/readonly.ts", callsArgument = "10000"] = process.argv.slice(2);
const calls = Number(callsArgument);
if (!Number.isSafeInteger(calls) || calls < 1) {
  process.stderr.write("usage: races.ts [module] [calls]\n");
  process.exit(2);
}
const loaded = (await import(pathToFileURL(resolve(moduleArgument)).href)) as {
  ReadOnlyWorkspace: new (root: string, options?: { fs?: ReadOnlyFileSystem }) => Workspace;
};

/** Renames the pairs it is given, in turn, until it is killed: the other process of a race. */
const SWAPPER = `
const { renameSync } = require("node:fs");
const steps = JSON.parse(process.argv[1]);
process.send("ready");
for (;;) for (const [from, to] of steps) { try { renameSync(from, to); } catch {} }
`;

/**
 * Runs `run` while another process swaps `entry` with `other` by four renames in turn (`entry` is
 * moved aside to `entry.keep`, `other` takes its name, and back), then ends that process and puts both
 * back, whichever rename it stopped after.
 */
async function whileSwapping<T>(entry: string, other: string, run: () => Promise<T>): Promise<T> {
  const kept = `${entry}.keep`;
  const steps = [
    [entry, kept],
    [other, entry],
    [entry, other],
    [kept, entry],
  ];
  const child = spawn(process.execPath, ["-e", SWAPPER, JSON.stringify(steps)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    await new Promise<void>((ready, failed) => {
      child.once("message", () => ready());
      child.once("error", failed);
      child.once("exit", (code) => failed(new Error(`the swapping process ended early (exit ${code})`)));
    });
    return await run();
  } finally {
    const ended = new Promise((done) => child.once("exit", done));
    child.kill("SIGKILL");
    await ended;
    if (existsSync(kept)) {
      if (existsSync(entry)) renameSync(entry, other);
      renameSync(kept, entry);
    }
  }
}

/** What a call came to: `ok`, or the refusal's code, or the error's message. */
async function tally(counts: Map<string, number>, call: () => Promise<string>): Promise<void> {
  let seen: string;
  try {
    seen = await call();
  } catch (error) {
    seen = typeof error === "object" && error !== null && "code" in error ? String(error.code) : String(error);
  }
  counts.set(seen, (counts.get(seen) ?? 0) + 1);
}

const shown = (counts: Map<string, number>) =>
  [...counts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([what, count]) => `${what} ${count}`)
    .join(", ");

const base = realpathSync(mkdtempSync(join(tmpdir(), "races-")));
try {
  const ws = join(base, "ws");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(base, "outside"));
  writeFileSync(join(ws, "src", "app.ts"), "inside\n");
  writeFileSync(join(base, "outside", "app.ts"), "OUTSIDE\n");
  writeFileSync(join(base, "outside", "secret-plans.md"), "OUTSIDE\n");

  // 1. src ⇄ a symlink to ../outside, by four renames in turn.
  symlinkSync(join(base, "outside"), join(ws, "src.link"));
  const tools = new loaded.ReadOnlyWorkspace(ws);
  const reads = new Map<string, number>();
  const lists = new Map<string, number>();
  await whileSwapping(join(ws, "src"), join(ws, "src.link"), async () => {
    for (let call = 0; call < calls; call += 1) {
      await tally(reads, async () => ((await tools.read("src/app.ts")).lines[0] === "OUTSIDE" ? "LEAK: the outside file" : "inside"));
      await tally(lists, async () =>
        (await tools.list("src")).entries.some((entry) => entry.name === "secret-plans.md") ? "LEAK: the outside folder" : "inside",
      );
    }
  });
  console.log(`ancestor swap (src and a symlink to a folder outside), ${calls} calls each:`);
  console.log(`  read src/app.ts: ${shown(reads)}`);
  console.log(`  list src:        ${shown(lists)}`);

  // 2. src/app.ts ⇄ a special file, by four renames in turn.
  rmSync(join(ws, "src.link"));
  let special = "a FIFO";
  try {
    if (process.getuid?.() !== 0) throw new Error("not root");
    execFileSync("mknod", [join(ws, "src", "special"), "c", "1", "3"], { stdio: "ignore" });
    special = "a character device (1, 3: the null device)";
  } catch {
    execFileSync("mkfifo", [join(ws, "src", "special")]);
  }
  let specialOpens = 0;
  let specialReads = 0;
  const counting: ReadOnlyFileSystem = {
    lstat: (path) => fsp.lstat(path),
    readdir: (path) => fsp.readdir(path),
    async open(path, flags) {
      const handle = await fsp.open(path, flags);
      const opened = await handle.stat();
      const isSpecial = !opened.isFile();
      if (isSpecial) specialOpens += 1;
      return {
        stat: () => handle.stat(),
        read: (buffer, offset, length, position) => {
          if (isSpecial) specialReads += 1;
          return handle.read(buffer, offset, length, position);
        },
        close: () => handle.close(),
      };
    },
  };
  const lastComponent = new Map<string, number>();
  const counted = new loaded.ReadOnlyWorkspace(ws, { fs: counting });
  await whileSwapping(join(ws, "src", "app.ts"), join(ws, "src", "special"), async () => {
    for (let call = 0; call < calls; call += 1) await tally(lastComponent, async () => (await counted.read("src/app.ts"), "ok"));
  });
  console.log(`last component (src/app.ts and ${special}), ${calls} reads:`);
  console.log(`  outcomes: ${shown(lastComponent)}`);
  console.log(`  opens that reached the special file: ${specialOpens}; reads from it: ${specialReads}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
