import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, it, onTestFinished } from "vitest";
import { atomicWrite, sweepStaleTemporaryFiles, type AtomicFileHandle, type AtomicFileSystem } from "forge/tools/atomic";
import { moduleFile, temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent changes the configuration of a front-end repository.
const OLD = '{ "theme": "light" }\n';
const NEW = '{ "theme": "dark", "analytics": false }\n';
const bytes = (text: string) => new TextEncoder().encode(text);

/** The temporary file's name: hidden, next to its target, 16 random hex digits. */
const temporaryNameOf = (target: string) => new RegExp(`^\\.${basename(target).replaceAll(".", "\\.")}\\.[0-9a-f]{16}\\.tmp$`);

function repository(): { root: string; folder: string; target: string } {
  const root = temporaryFolder();
  writeTree(root, { "src/app.config.json": OLD });
  const folder = join(root, "src");
  return { root, folder, target: join(folder, "app.config.json") };
}

const listing = (folder: string) => readdirSync(folder).sort();

/** An error as Node reports a failed system call, with its `code`. */
function fsError(code: string, syscall: string): Error {
  return Object.assign(new Error(`${code}: injected failure, ${syscall}`), { code, syscall });
}

interface Call {
  readonly op: string;
  readonly path: string;
}

interface Faults {
  /** Runs before the real open: throw to fail it, or prepare the file system. */
  readonly open?: (path: string, flags: string) => void;
  /** `call` counts the writes made through this handle, from 1. */
  readonly write?: (path: string, call: number) => void;
  readonly sync?: (path: string) => void;
  /** Runs after the real close, so the descriptor is released either way. */
  readonly close?: (path: string) => void;
  /** `call` counts renames, from 1. */
  readonly rename?: (call: number) => void;
  /** A file system that accepts at most this many bytes per write call. */
  readonly maxBytesPerWrite?: number;
}

/** node:fs/promises behind the AtomicFileSystem interface, recording every call and injecting faults. */
function instrumentedFs(faults: Faults = {}) {
  const calls: Call[] = [];
  let openHandles = 0;
  let renames = 0;
  const fs: AtomicFileSystem = {
    async mkdir(path, options) {
      calls.push({ op: "mkdir", path });
      return fsp.mkdir(path, options);
    },
    async lstat(path) {
      calls.push({ op: "lstat", path });
      return fsp.lstat(path);
    },
    async open(path, flags, mode) {
      calls.push({ op: `open ${flags}`, path });
      faults.open?.(path, flags);
      const handle = await fsp.open(path, flags, mode);
      openHandles += 1;
      let writes = 0;
      const wrapped: AtomicFileHandle = {
        async write(buffer, offset, length, position) {
          writes += 1;
          calls.push({ op: "write", path });
          faults.write?.(path, writes);
          return handle.write(buffer, offset, Math.min(length, faults.maxBytesPerWrite ?? length), position);
        },
        async chmod(newMode) {
          calls.push({ op: "chmod", path });
          return handle.chmod(newMode);
        },
        async sync() {
          calls.push({ op: "sync", path });
          faults.sync?.(path);
          return handle.sync();
        },
        async close() {
          calls.push({ op: "close", path });
          openHandles -= 1;
          await handle.close();
          faults.close?.(path);
        },
      };
      return wrapped;
    },
    async rename(from, to) {
      renames += 1;
      calls.push({ op: "rename", path: from }, { op: "renamed to", path: to });
      faults.rename?.(renames);
      return fsp.rename(from, to);
    },
    async unlink(path) {
      calls.push({ op: "unlink", path });
      return fsp.unlink(path);
    },
  };
  return { fs, calls, openHandles: () => openHandles };
}

/** The temporary files a run opened for writing, in order. */
const temporaryFiles = (calls: readonly Call[], target: string) =>
  calls.filter((call) => call.op.startsWith("open") && temporaryNameOf(target).test(basename(call.path))).map((call) => call.path);

it("replaces the whole file and leaves no temporary file", async () => {
  const { folder, target } = repository();
  await atomicWrite(target, bytes(NEW));
  expect(readFileSync(target, "utf8")).toBe(NEW);
  expect(listing(folder)).toEqual(["app.config.json"]);
});

it("keeps the original and removes the temporary file when the rename fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("EXDEV", "rename");
  const { fs, openHandles } = instrumentedFs({
    rename: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs })).rejects.toBe(failure);
  expect(readFileSync(target, "utf8")).toBe(OLD);
  expect(listing(folder)).toEqual(["app.config.json"]);
  expect(openHandles()).toBe(0);
});

it("creates missing parent folders", async () => {
  const { root } = repository();
  const target = join(root, "src", "components", "generated", "Banner.tsx");
  const component = "export const Banner = () => <p>Dark mode is here</p>;\n";
  await atomicWrite(target, bytes(component));
  expect(readFileSync(target, "utf8")).toBe(component);
  expect(listing(dirname(target))).toEqual(["Banner.tsx"]);
});

it("keeps the original and removes the temporary file when a write fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("ENOSPC", "write");
  const { fs, openHandles } = instrumentedFs({
    write: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs })).rejects.toBe(failure);
  expect(readFileSync(target, "utf8")).toBe(OLD);
  expect(listing(folder)).toEqual(["app.config.json"]);
  expect(openHandles()).toBe(0);
});

it("keeps the original and removes the temporary file when fsync fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("EIO", "fsync");
  const { fs, calls, openHandles } = instrumentedFs({
    sync: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs })).rejects.toBe(failure);
  expect(readFileSync(target, "utf8")).toBe(OLD);
  expect(listing(folder)).toEqual(["app.config.json"]);
  expect(openHandles()).toBe(0);
  // An fsync that failed proves nothing was made durable: the rename must not happen.
  expect(calls.map((call) => call.op)).not.toContain("rename");
});

it("keeps the original when closing the temporary file fails, and closes it only once", async () => {
  const { folder, target } = repository();
  const failure = fsError("EIO", "close");
  const { fs, calls } = instrumentedFs({
    close: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs })).rejects.toBe(failure);
  expect(readFileSync(target, "utf8")).toBe(OLD);
  expect(listing(folder)).toEqual(["app.config.json"]);
  expect(calls.filter((call) => call.op === "close")).toHaveLength(1);
});

it("writes every byte when the file system accepts one byte per call", async () => {
  const { folder, target } = repository();
  const { fs, calls } = instrumentedFs({ maxBytesPerWrite: 1 });
  await atomicWrite(target, bytes(NEW), { fs });
  expect(readFileSync(target, "utf8")).toBe(NEW);
  expect(calls.filter((call) => call.op === "write")).toHaveLength(bytes(NEW).byteLength);
  expect(listing(folder)).toEqual(["app.config.json"]);
});

it("ends with one whole version when several writers race for one target", async () => {
  const { folder, target } = repository();
  // Large enough that the writes overlap; every version has its own bytes, so a mix is visible.
  const versions = ["build A ", "build B ", "build C "].map((fill) => Buffer.alloc(1024 * 1024, fill));
  await Promise.all(versions.map((version) => atomicWrite(target, version)));
  const result = readFileSync(target);
  expect(versions.some((version) => result.equals(version))).toBe(true);
  expect(listing(folder)).toEqual(["app.config.json"]);
});

it("leaves a reader that opened the old file with the whole old file", async () => {
  const { target } = repository();
  const reader = openSync(target, "r");
  onTestFinished(() => closeSync(reader));
  await atomicWrite(target, bytes(NEW));
  // The rename replaced the name; the file the reader holds was never written to.
  const seen = Buffer.alloc(fstatSync(reader).size);
  readSync(reader, seen, 0, seen.length, 0);
  expect(seen.toString("utf8")).toBe(OLD);
  expect(readFileSync(target, "utf8")).toBe(NEW);
});

it("refuses a symlinked target and leaves the file it points to untouched", async () => {
  const { folder, target } = repository();
  const outside = join(temporaryFolder(), "credentials.env");
  writeFileSync(outside, "TOKEN=keep-me\n");
  const linked = join(folder, "deploy.env");
  symlinkSync(outside, linked);
  await expect(atomicWrite(linked, bytes("TOKEN=stolen\n"))).rejects.toThrow(/symlink/);
  expect(readFileSync(outside, "utf8")).toBe("TOKEN=keep-me\n");
  expect(lstatSync(linked).isSymbolicLink()).toBe(true);
  expect(listing(folder)).toEqual(["app.config.json", "deploy.env"]);
});

it("is not redirected by a symlink planted at the temporary file's name", async () => {
  const { folder, target } = repository();
  const outside = join(temporaryFolder(), "credentials.env");
  writeFileSync(outside, "TOKEN=keep-me\n");
  let planted: string | undefined;
  const { fs, calls } = instrumentedFs({
    // An attacker who guessed the first name links it to a file outside, just before the open.
    open: (path, flags) => {
      if (planted === undefined && flags.includes("w")) {
        planted = path;
        symlinkSync(outside, path);
      }
    },
  });
  await atomicWrite(target, bytes(NEW), { fs });
  expect(readFileSync(outside, "utf8")).toBe("TOKEN=keep-me\n");
  expect(readFileSync(target, "utf8")).toBe(NEW);
  // The write moved on to a fresh name, and left the planted link (not its own file) alone.
  const tried = temporaryFiles(calls, target);
  expect(tried).toHaveLength(2);
  expect(tried[1]).not.toBe(tried[0]);
  expect(planted && lstatSync(planted).isSymbolicLink()).toBe(true);
  expect(listing(folder)).toEqual(["app.config.json", basename(planted ?? "")].sort());
});

it("creates the temporary file exclusively, with a random name, in the target's folder", async () => {
  const { folder, target } = repository();
  const { fs, calls } = instrumentedFs();
  await atomicWrite(target, bytes(NEW), { fs });
  await atomicWrite(target, bytes(OLD), { fs });
  const opens = calls.filter((call) => call.op.startsWith("open") && call.path !== folder);
  expect(opens).toHaveLength(2);
  for (const open of opens) {
    expect(open.op).toContain("x");
    expect(dirname(open.path)).toBe(folder);
    expect(basename(open.path)).toMatch(temporaryNameOf(target));
  }
  expect(opens[0]?.path).not.toBe(opens[1]?.path);
});

it("fsyncs the temporary file before the rename and the folder after it", async () => {
  const { folder, target } = repository();
  const { fs, calls } = instrumentedFs();
  await atomicWrite(target, bytes(NEW), { fs });
  const [temporary] = temporaryFiles(calls, target);
  const at = (op: string, path: string | undefined) => calls.findIndex((call) => call.op === op && call.path === path);
  const lastWrite = calls.findLastIndex((call) => call.op === "write" && call.path === temporary);
  const steps = {
    "last write": lastWrite,
    "fsync file": at("sync", temporary),
    "close file": at("close", temporary),
    rename: at("rename", temporary),
    "fsync folder": at("sync", folder),
  };
  expect(Object.values(steps).every((index) => index >= 0), JSON.stringify(steps)).toBe(true);
  expect(Object.entries(steps).sort(([, a], [, b]) => a - b).map(([name]) => name)).toEqual(Object.keys(steps));
  expect(calls.find((call) => call.op === "renamed to")?.path).toBe(target);
});

it("ignores a platform that cannot fsync a folder, but reports a real folder fsync error", async () => {
  const { folder, target } = repository();
  // Windows refuses to open a folder as a file; some file systems refuse to fsync one.
  const unsupported: Faults[] = [
    { open: (path) => failIf(path === folder, fsError("EISDIR", "open")) },
    { sync: (path) => failIf(path === folder, fsError("EINVAL", "fsync")) },
    { sync: (path) => failIf(path === folder, fsError("EPERM", "fsync")) },
  ];
  for (const faults of unsupported) {
    writeFileSync(target, OLD);
    await atomicWrite(target, bytes(NEW), { fs: instrumentedFs(faults).fs });
    expect(readFileSync(target, "utf8")).toBe(NEW);
  }
  // A real I/O error is reported. The new file is in place by then, but it may not survive a power cut.
  const failure = fsError("EIO", "fsync");
  const broken = instrumentedFs({ sync: (path) => failIf(path === folder, failure) });
  await expect(atomicWrite(target, bytes(OLD), { fs: broken.fs })).rejects.toBe(failure);
  expect(broken.openHandles()).toBe(0);
});

function failIf(condition: boolean, error: Error): void {
  if (condition) throw error;
}

it("keeps the permission mode of an existing target, and gives a new file the default mode", async () => {
  const { folder, target } = repository();
  // 0600 for a secret, 0755 for a script, 0664 for a shared file: the usual umask 022 would cut
  // 0664 to 0644 on a freshly created file, so the mode has to be set explicitly.
  for (const mode of [0o600, 0o755, 0o664]) {
    chmodSync(target, mode);
    await atomicWrite(target, bytes(NEW));
    expect((statSync(target).mode & 0o777).toString(8)).toBe(mode.toString(8));
  }
  const reference = join(folder, "written-by-node.json");
  writeFileSync(reference, NEW);
  const created = join(folder, "created.json");
  await atomicWrite(created, bytes(NEW));
  expect((statSync(created).mode & 0o777).toString(8)).toBe((statSync(reference).mode & 0o777).toString(8));
});

it("retries a busy rename a bounded number of times and never copies instead", async () => {
  const { folder, target } = repository();
  // Windows: an editor or a virus scanner holds the target for a moment.
  const briefly = instrumentedFs({
    rename: (call) => {
      if (call < 3) throw fsError("EBUSY", "rename");
    },
  });
  await atomicWrite(target, bytes(NEW), { fs: briefly.fs, renameAttempts: 3 });
  expect(readFileSync(target, "utf8")).toBe(NEW);
  expect(briefly.calls.filter((call) => call.op === "rename")).toHaveLength(3);
  // The target itself is never opened: no copy-and-delete fallback.
  expect(briefly.calls.filter((call) => call.op.startsWith("open") && call.path === target)).toEqual([]);

  const busy = fsError("EBUSY", "rename");
  const held = instrumentedFs({
    rename: () => {
      throw busy;
    },
  });
  await expect(atomicWrite(target, bytes(OLD), { fs: held.fs, renameAttempts: 3 })).rejects.toBe(busy);
  expect(held.calls.filter((call) => call.op === "rename")).toHaveLength(3);
  expect(readFileSync(target, "utf8")).toBe(NEW);
  expect(listing(folder)).toEqual(["app.config.json"]);

  // Another file system is not busy: waiting cannot help, so there is no retry.
  const crossDevice = fsError("EXDEV", "rename");
  const elsewhere = instrumentedFs({
    rename: () => {
      throw crossDevice;
    },
  });
  await expect(atomicWrite(target, bytes(OLD), { fs: elsewhere.fs, renameAttempts: 3 })).rejects.toBe(crossDevice);
  expect(elsewhere.calls.filter((call) => call.op === "rename")).toHaveLength(1);
});

it("sweeps stale temporary files of its own pattern and nothing else", async () => {
  const folder = temporaryFolder();
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const stale = ".app.config.json.0123456789abcdef.tmp";
  const fresh = ".app.config.json.fedcba9876543210.tmp";
  writeTree(folder, {
    [stale]: "half",
    [fresh]: "a write in progress",
    ".env.tmp": "not our pattern",
    "notes.0123456789abcdef.tmp": "not hidden: not ours",
    "app.config.json": OLD,
  });
  mkdirSync(join(folder, ".cache.0123456789abcdef.tmp"));
  symlinkSync(join(folder, "app.config.json"), join(folder, ".link.0123456789abcdef.tmp"));
  for (const name of [stale, ".env.tmp", "notes.0123456789abcdef.tmp", ".cache.0123456789abcdef.tmp", "app.config.json"]) {
    utimesSync(join(folder, name), twoHoursAgo, twoHoursAgo);
  }
  const before = listing(folder);

  expect(await sweepStaleTemporaryFiles(folder)).toEqual([stale]);
  expect(listing(folder)).toEqual(before.filter((name) => name !== stale));
  expect(readFileSync(join(folder, "app.config.json"), "utf8")).toBe(OLD);
  // With no age limit the fresh one goes too; the link and the folder still stay.
  expect(await sweepStaleTemporaryFiles(folder, { olderThanMs: 0 })).toEqual([fresh]);
  expect(existsSync(join(folder, ".cache.0123456789abcdef.tmp"))).toBe(true);
  expect(lstatSync(join(folder, ".link.0123456789abcdef.tmp")).isSymbolicLink()).toBe(true);
});

// ---- Crash safety: a real process, really killed. ----

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CRASH_WRITER = fileURLToPath(new URL("./crash-writer.ts", import.meta.url));
const PAYLOAD_SIZE = 4 * 1024 * 1024;
const OLD_FILL = "old bundle manifest ";
const NEW_FILL = "new bundle manifest, rebuilt ";
const TARGETS_PER_CHILD = 2;
const STAGGER_MS = 3;
/**
 * When each of the 20 children dies: `waitMs` after it printed the line `after`. The kills spread from
 * "the first write has just started" to "the last write finished a moment ago"; the staggered starts
 * spread each kill further over the two writes of its child.
 */
const KILLS = [
  ...[0, 0, 1, 1, 2, 3, 4, 6].map((waitMs) => ({ after: "writing 0", waitMs })),
  ...[0, 1, 2, 3, 5].map((waitMs) => ({ after: "writing 1", waitMs })),
  ...[0, 1, 3].map((waitMs) => ({ after: "done 0", waitMs })),
  ...[0, 2, 5, 10].map((waitMs) => ({ after: "done 1", waitMs })),
] as const;

/**
 * The child runs as plain JavaScript: the writer and the module under test are bundled once, so each
 * of the many children starts as fast as Node itself instead of compiling TypeScript again.
 */
async function bundleWriter(modulePath: string): Promise<{ writer: string; module: string }> {
  // Inside the repository, so a bare import in a learner's module resolves from node_modules.
  const folder = temporaryFolder({ insideRepository: true });
  await build({
    entryPoints: { "crash-writer": CRASH_WRITER, "module-under-test": modulePath },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outdir: folder,
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
  });
  return { writer: join(folder, "crash-writer.mjs"), module: join(folder, "module-under-test.mjs") };
}

/** A crash-writer child: its stdout lines, a way to wait for one, and how it ended. */
function startWriter(bundle: { writer: string; module: string }, targets: readonly string[]) {
  const child = spawn(
    process.execPath,
    [bundle.writer, bundle.module, String(PAYLOAD_SIZE), NEW_FILL, String(STAGGER_MS), ...targets],
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  const lines: string[] = [];
  const waiting = new Map<string, () => void>();
  let pending = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (pending + chunk).split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      waiting.get(line)?.();
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // "close" comes after stdout is drained, so `lines` is complete by then.
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (line: string) =>
    lines.includes(line)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiting.set(line, resolve)),
          ended.then(({ code, signal }) => {
            throw new Error(`crash-writer ended (code ${code}, signal ${signal}) before printing "${line}": ${stderr}${lines.join(" | ")}`);
          }),
        ]);
  return { child, lines, ended, waitFor, stderr: () => stderr };
}

it(
  "survives SIGKILL at any moment: the target is always the whole old or the whole new file",
  { timeout: 30_000 },
  async () => {
    const bundle = await bundleWriter(moduleFile("atomic"));
    const oldPayload = Buffer.alloc(PAYLOAD_SIZE, OLD_FILL);
    const newPayload = Buffer.alloc(PAYLOAD_SIZE, NEW_FILL);
    const root = temporaryFolder();

    // Start every child first, so they load side by side.
    const runs = KILLS.map((kill, index) => {
      const folder = join(root, `run-${index}`);
      const targets = Array.from({ length: TARGETS_PER_CHILD }, (_, target) => join(folder, `bundle-${target}.js`));
      return { kill, folder, targets, writer: startWriter(bundle, targets) };
    });
    onTestFinished(() => {
      for (const { writer } of runs) writer.child.kill("SIGKILL");
    });
    // Every target starts as the old payload: one file, hard-linked under each name, so setting up
    // writes 4 MiB once. A rename replaces a name, not the file, so each target is still judged alone.
    const original = join(root, "original.js");
    writeFileSync(original, oldPayload);
    for (const { folder, targets } of runs) {
      mkdirSync(folder);
      for (const target of targets) linkSync(original, target);
    }
    await Promise.all(runs.map(({ writer }) => writer.waitFor("ready")));

    // One child at a time, so each kill lands when intended.
    for (const { kill, writer } of runs) {
      writer.child.stdin.write("go\n");
      await writer.waitFor(kill.after);
      if (kill.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, kill.waitMs));
      writer.child.kill("SIGKILL");
      await writer.ended;
    }

    const problems: string[] = [];
    const counts = { trials: 0, old: 0, new: 0, midWrite: 0, debris: 0 };
    for (const [index, { folder, targets, writer }] of runs.entries()) {
      const { signal } = await writer.ended;
      if (signal !== "SIGKILL") problems.push(`run-${index} was not killed but ended by itself: ${writer.stderr()}`);
      for (const [number, target] of targets.entries()) {
        counts.trials += 1;
        if (writer.lines.includes(`writing ${number}`) && !writer.lines.includes(`done ${number}`)) counts.midWrite += 1;
        const content = readFileSync(target);
        if (content.equals(oldPayload)) counts.old += 1;
        else if (content.equals(newPayload)) counts.new += 1;
        else problems.push(`run-${index}/${basename(target)} is neither the whole old nor the whole new payload`);
      }
      // A kill may leave temporary files behind, but only those, and never a damaged target.
      const names = new Set(targets.map((target) => basename(target)));
      for (const name of listing(folder)) {
        if (names.has(name)) continue;
        if (targets.some((target) => temporaryNameOf(target).test(name))) counts.debris += 1;
        else problems.push(`run-${index}/${name} is left over and is not a temporary file`);
      }
    }
    // The control: a writer that writes straight into its target, killed in the middle of it. The
    // same check must find its target damaged, or the check above could not fail.
    const controlTarget = join(root, "control", "bundle.js");
    mkdirSync(dirname(controlTarget));
    linkSync(original, controlTarget);
    const control = startWriter({ writer: bundle.writer, module: "--in-place-control" }, [controlTarget]);
    await control.waitFor("ready");
    control.child.stdin.write("go\n");
    await control.waitFor("piece 8 0");
    control.child.kill("SIGKILL");
    await control.ended;
    const damaged = readFileSync(controlTarget);
    expect(damaged.equals(oldPayload) || damaged.equals(newPayload), "the in-place control was not caught").toBe(false);

    const summary = JSON.stringify(counts);
    expect(problems, summary).toEqual([]);
    expect(runs.length, "children killed").toBeGreaterThanOrEqual(20);
    expect(counts.trials).toBe(runs.length * TARGETS_PER_CHILD);
    // Not vacuous: kills landed before, during and after writes.
    expect(counts.old, `no kill left an old file: ${summary}`).toBeGreaterThan(0);
    expect(counts.new, `no kill left a new file: ${summary}`).toBeGreaterThan(0);
    expect(counts.midWrite, `no kill caught a write in progress: ${summary}`).toBeGreaterThan(0);
  },
);
