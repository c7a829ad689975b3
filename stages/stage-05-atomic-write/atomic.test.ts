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
  utimesSync,
  writeFileSync,
} from "node:fs";
import * as fsp from "node:fs/promises";
import { basename, dirname, join, parse, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, it, onTestFinished } from "vitest";
import {
  atomicWrite,
  sweepStaleTemporaryFiles,
  type AtomicFileHandle,
  type AtomicFileSystem,
  type SweepFileSystem,
} from "forge/tools/atomic";
import { otherThan, refused, settled } from "../../lab/outcome.js";
import { moduleFile, symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent changes the configuration of a front-end repository.
const OLD = '{ "theme": "light" }\n';
const NEW = '{ "theme": "dark", "analytics": false }\n';
const bytes = (text: string) => new TextEncoder().encode(text);

/** Any temporary file of atomicWrite: `.<name>.<16 hex digits>.tmp`. */
const TEMPORARY = /^\..+\.[0-9a-f]{16}\.tmp$/;

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
  /** How many of the `length` bytes it asks for the `call`-th write through a handle takes (default: all). */
  readonly takes?: (call: number, length: number) => number;
  /** Runs before the real lstat: throw to fail it. */
  readonly lstat?: (path: string) => void;
  /** Replaces what mkdir answers (the first folder it created, or undefined when all existed). */
  readonly mkdirAnswer?: (created: string | undefined) => string | undefined;
}

/** node:fs/promises behind the AtomicFileSystem interface, recording every call and injecting faults. */
function instrumentedFs(faults: Faults = {}) {
  const calls: Call[] = [];
  /** Every handle opened, named by what it opened, with how often it was closed. */
  const handles: { name: string; closes: number }[] = [];
  let renames = 0;
  const fs: AtomicFileSystem = {
    async mkdir(path, options) {
      calls.push({ op: "mkdir", path });
      const created = await fsp.mkdir(path, options);
      return faults.mkdirAnswer ? faults.mkdirAnswer(created) : created;
    },
    async lstat(path) {
      calls.push({ op: "lstat", path });
      faults.lstat?.(path);
      return fsp.lstat(path);
    },
    async open(path, flags, mode) {
      calls.push({ op: `open ${flags}`, path });
      faults.open?.(path, flags);
      const handle = await fsp.open(path, flags, mode);
      const opened = { name: `${basename(path)} (opened "${flags}")`, closes: 0 };
      handles.push(opened);
      let writes = 0;
      const wrapped: AtomicFileHandle = {
        async write(buffer, offset, length, position) {
          writes += 1;
          calls.push({ op: "write", path });
          faults.write?.(path, writes);
          const taken = Math.min(length, faults.maxBytesPerWrite ?? length, faults.takes?.(writes, length) ?? length);
          return handle.write(buffer, offset, taken, position);
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
          opened.closes += 1;
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
  /** The handles not closed exactly once: `src (opened "r") left open`. A test expects none. */
  const unclosed = () =>
    handles
      .filter(({ closes }) => closes !== 1)
      .map(({ name, closes }) => (closes === 0 ? `${name} left open` : `${name} closed ${closes} times`));
  return { fs, calls, unclosed };
}

/** The temporary files a run opened for writing, in order. */
const temporaryFiles = (calls: readonly Call[], target: string) =>
  calls.filter((call) => call.op.startsWith("open") && temporaryNameOf(target).test(basename(call.path))).map((call) => call.path);

/** The message for a listing of src/: a temporary file left over shows in it. */
const folderAfter = (what: string) => `files in src/ after ${what} (a temporary file left behind is debris)`;

it("replaces the whole file and leaves no temporary file", async () => {
  const { folder, target } = repository();
  await atomicWrite(target, bytes(NEW));
  expect(readFileSync(target, "utf8"), "app.config.json after atomicWrite of the new configuration").toBe(NEW);
  expect(listing(folder), folderAfter("the write")).toEqual(["app.config.json"]);
});

it("keeps the original and removes the temporary file when the rename fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("EXDEV", "rename");
  const { fs, unclosed } = instrumentedFs({
    rename: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs }), "atomicWrite must reject with the rename's own error").rejects.toBe(failure);
  expect(readFileSync(target, "utf8"), "app.config.json after a failed rename (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("a failed rename")).toEqual(["app.config.json"]);
  expect(unclosed(), "handles not closed exactly once after a failed rename").toEqual([]);
});

it("creates missing parent folders", async () => {
  const { root } = repository();
  const target = join(root, "src", "components", "generated", "Banner.tsx");
  const component = "export const Banner = () => <p>Dark mode is here</p>;\n";
  await atomicWrite(target, bytes(component));
  expect(readFileSync(target, "utf8"), "src/components/generated/Banner.tsx, written where neither folder existed").toBe(component);
  expect(listing(dirname(target)), "files in src/components/generated/ after the write").toEqual(["Banner.tsx"]);
});

it("keeps the original and removes the temporary file when a write fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("ENOSPC", "write");
  const { fs, unclosed } = instrumentedFs({
    write: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs }), "atomicWrite must reject with the write's own error").rejects.toBe(failure);
  expect(readFileSync(target, "utf8"), "app.config.json after a failed write (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("a failed write")).toEqual(["app.config.json"]);
  expect(unclosed(), "handles not closed exactly once after a failed write").toEqual([]);
});

it("keeps the original and removes the temporary file when fsync fails", async () => {
  const { folder, target } = repository();
  const failure = fsError("EIO", "fsync");
  const { fs, calls, unclosed } = instrumentedFs({
    sync: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs }), "atomicWrite must reject with the fsync's own error").rejects.toBe(failure);
  expect(readFileSync(target, "utf8"), "app.config.json after a failed fsync (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("a failed fsync")).toEqual(["app.config.json"]);
  expect(unclosed(), "handles not closed exactly once after a failed fsync").toEqual([]);
  // An fsync that failed proves nothing was made durable: the rename must not happen.
  expect(
    calls.map((call) => call.op),
    "file-system calls of a write whose fsync failed (a rename after it would publish bytes that may not be on disk)",
  ).not.toContain("rename");
  // Nor is the fsync tried again: after a failure the kernel may have dropped the unwritten pages and
  // the error with them, so a second fsync can report success for bytes that never reached the disk.
  const temporary = temporaryFiles(calls, target)[0];
  expect(
    calls.filter((call) => call.op === "sync" && call.path === temporary).length,
    "fsyncs of the temporary file, whose first fsync failed (a retry may report success for lost bytes)",
  ).toBe(1);
});

it("keeps the original when closing the temporary file fails, and closes it only once", async () => {
  const { folder, target } = repository();
  const failure = fsError("EIO", "close");
  const { fs, calls } = instrumentedFs({
    close: () => {
      throw failure;
    },
  });
  await expect(atomicWrite(target, bytes(NEW), { fs }), "atomicWrite must reject with the close's own error").rejects.toBe(failure);
  expect(readFileSync(target, "utf8"), "app.config.json after a failed close (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("a failed close")).toEqual(["app.config.json"]);
  expect(
    calls.filter((call) => call.op === "close").map((call) => basename(call.path)),
    "files closed after the close of the temporary file failed (each at most once: a second close may close another file's descriptor)",
  ).toHaveLength(1);
});

it("writes every byte when the file system accepts one byte per call", async () => {
  const { folder, target } = repository();
  const { fs, calls } = instrumentedFs({ maxBytesPerWrite: 1 });
  await atomicWrite(target, bytes(NEW), { fs });
  expect(
    readFileSync(target, "utf8"),
    `app.config.json after atomicWrite of ${bytes(NEW).byteLength} bytes through a file system that takes one byte per write call`,
  ).toBe(NEW);
  expect(calls.filter((call) => call.op === "write").length, `write calls for ${bytes(NEW).byteLength} bytes, one byte per call`).toBe(
    bytes(NEW).byteLength,
  );
  expect(listing(folder), folderAfter("the write")).toEqual(["app.config.json"]);
});

/** Which of `versions` a file holds, whole, or how it differs from all of them. */
function whichVersion(content: Buffer, versions: readonly { label: string; bytes: Buffer }[]): string {
  const whole = versions.find((version) => content.equals(version.bytes));
  if (whole) return `the whole ${whole.label}`;
  const starts = versions.find((version) => content.subarray(0, 8).equals(version.bytes.subarray(0, 8)));
  return `none of them: ${content.byteLength} bytes that begin as ${starts?.label ?? "no version"} and differ from it at byte ${firstDifference(content, starts?.bytes ?? Buffer.alloc(0))}`;
}

function firstDifference(a: Buffer, b: Buffer): number {
  const length = Math.min(a.byteLength, b.byteLength);
  for (let index = 0; index < length; index += 1) if (a[index] !== b[index]) return index;
  return length;
}

/** The first few entries of a long list, and how many more there are: a failure stays readable. */
const firstFew = (list: readonly string[]) => (list.length > 6 ? [...list.slice(0, 5), `… and ${list.length - 5} more`] : list);

/** How a target that is neither whole version looks: empty, cut short, or new bytes over old ones. */
function damage(content: Buffer, oldPayload: Buffer, newPayload: Buffer): string {
  if (content.byteLength === 0) return "empty (0 bytes)";
  const size = `${content.byteLength} bytes (a whole version has ${newPayload.byteLength})`;
  const asNew = firstDifference(content, newPayload);
  const asOld = firstDifference(content, oldPayload);
  if (asNew === content.byteLength) return `${size}, the start of the new file: cut short`;
  if (asOld === content.byteLength) return `${size}, the start of the old file: cut short`;
  const end = content.byteLength;
  if (asNew > 0 && end >= 64 && content.subarray(end - 64).equals(oldPayload.subarray(end - 64, end))) {
    return `${size}, new bytes up to byte ${asNew} and old bytes at the end: torn`;
  }
  return `${size}, like the ${asNew >= asOld ? "new" : "old"} file up to byte ${Math.max(asNew, asOld)} and other bytes after it`;
}

it("ends with one whole version when several writers race for one target", async () => {
  const { folder, target } = repository();
  // Large enough that the writes overlap; every version has its own bytes, so a mix is visible.
  const versions = ["build A ", "build B ", "build C "].map((fill) => ({
    label: `"${fill.trim()}" version`,
    bytes: Buffer.alloc(1024 * 1024, fill),
  }));
  await Promise.all(versions.map((version) => atomicWrite(target, version.bytes)));
  expect(whichVersion(readFileSync(target), versions), "what app.config.json holds after three writers raced for it").toMatch(
    /^the whole /,
  );
  expect(listing(folder), folderAfter("three racing writes")).toEqual(["app.config.json"]);
});

it("leaves a reader that opened the old file with the whole old file", async () => {
  const { target } = repository();
  const reader = openSync(target, "r");
  onTestFinished(() => closeSync(reader));
  await atomicWrite(target, bytes(NEW));
  // The rename replaced the name; the file the reader holds was never written to.
  const seen = Buffer.alloc(fstatSync(reader).size);
  readSync(reader, seen, 0, seen.length, 0);
  expect(seen.toString("utf8"), "what a reader that opened app.config.json before the write reads afterwards").toBe(OLD);
  expect(readFileSync(target, "utf8"), "app.config.json after the write").toBe(NEW);
});

it("refuses a symlinked target and leaves the file it points to untouched", async () => {
  const { folder, target } = repository();
  const outside = join(temporaryFolder(), "credentials.env");
  writeFileSync(outside, "TOKEN=keep-me\n");
  const linked = join(folder, "deploy.env");
  symlink(outside, linked);
  expect(
    await settled(atomicWrite(linked, bytes("TOKEN=stolen\n")), "symlink"),
    "atomicWrite to src/deploy.env, a symlink to a file outside",
  ).toBe(refused("symlink"));
  expect(readFileSync(outside, "utf8"), "the file outside that deploy.env links to").toBe("TOKEN=keep-me\n");
  expect(lstatSync(linked).isSymbolicLink(), "src/deploy.env is still a symlink").toBe(true);
  expect(listing(folder), folderAfter("the refused write")).toEqual(["app.config.json", "deploy.env"]);
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
        symlink(outside, path);
      }
    },
  });
  await atomicWrite(target, bytes(NEW), { fs });
  expect(readFileSync(outside, "utf8"), "the file outside that the planted link points to").toBe("TOKEN=keep-me\n");
  expect(readFileSync(target, "utf8"), "app.config.json after the write").toBe(NEW);
  // The write moved on to a fresh name, and left the planted link (not its own file) alone.
  const tried = temporaryFiles(calls, target).map((path) => basename(path));
  expect(tried, "temporary names opened: the planted one, then a fresh one").toHaveLength(2);
  expect(tried[1], "the second temporary name (it must differ from the planted first one)").not.toBe(tried[0]);
  expect(planted && lstatSync(planted).isSymbolicLink(), "the planted link is still a symlink, left alone").toBe(true);
  expect(listing(folder), folderAfter("the write (only the planted link may stay)")).toEqual(
    ["app.config.json", basename(planted ?? "")].sort(),
  );
});

it("creates the temporary file exclusively, with a random name, in the target's folder", async () => {
  const { folder, target } = repository();
  const { fs, calls } = instrumentedFs();
  await atomicWrite(target, bytes(NEW), { fs });
  await atomicWrite(target, bytes(OLD), { fs });
  const opens = calls.filter((call) => call.op.startsWith("open") && call.path !== folder);
  expect(
    opens.map((open) => `${open.op} ${basename(open.path)}`),
    "files opened by two writes to app.config.json (one temporary file each)",
  ).toHaveLength(2);
  const problems: string[] = [];
  for (const open of opens) {
    const name = basename(open.path);
    if (!open.op.includes("x")) problems.push(`${name} was opened with "${open.op.slice(5)}", without x (exclusive create)`);
    if (dirname(open.path) !== folder) problems.push(`${name} was created in ${dirname(open.path)}, not in the target's folder`);
    if (!temporaryNameOf(target).test(name)) problems.push(`${name} does not fit the pattern .app.config.json.<16 hex digits>.tmp`);
  }
  expect(problems, "how the temporary files were created").toEqual([]);
  expect(opens[1]?.path, "the second write's temporary name (it must differ from the first)").not.toBe(opens[0]?.path);
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
  const missing = Object.entries(steps)
    .filter(([, index]) => index < 0)
    .map(([name]) => name);
  expect(missing, "steps of the write that never happened").toEqual([]);
  expect(
    Object.entries(steps)
      .sort(([, a], [, b]) => a - b)
      .map(([name]) => name),
    "the steps in the order they happened",
  ).toEqual(Object.keys(steps));
  expect(calls.find((call) => call.op === "renamed to")?.path, "where the temporary file was renamed to").toBe(target);
});

it("ignores a platform that cannot fsync a folder, but reports a real folder fsync error", async () => {
  const { folder, target } = repository();
  // What each platform is known to answer when it cannot fsync a folder: Windows opens a folder only
  // for reading, and its FlushFileBuffers needs a handle opened for writing (EPERM); a Linux or macOS
  // file system without fsync for folders answers EINVAL.
  const folderSync = (code: string): Faults => ({ sync: (path) => failIf(path === folder, fsError(code, "fsync")) });
  const unsupported: Record<string, { platform: NodeJS.Platform; faults: Faults }> = {
    "EPERM from the folder's fsync on win32": { platform: "win32", faults: folderSync("EPERM") },
    "EINVAL from the folder's fsync on linux": { platform: "linux", faults: folderSync("EINVAL") },
    "EINVAL from the folder's fsync on darwin": { platform: "darwin", faults: folderSync("EINVAL") },
  };
  const results: Record<string, string> = {};
  for (const [label, { platform, faults }] of Object.entries(unsupported)) {
    writeFileSync(target, OLD);
    const written = await settled(atomicWrite(target, bytes(NEW), { fs: instrumentedFs(faults).fs, platform }), null, () => "written");
    results[label] =
      written === "written"
        ? `written; app.config.json holds ${readFileSync(target, "utf8") === NEW ? "the new" : "not the new"} configuration`
        : written;
  }
  expect(
    otherThan(results, "written; app.config.json holds the new configuration"),
    "folder fsyncs the platform cannot do, not ignored",
  ).toEqual({});
  // A real I/O error is reported. The new file is in place by then, but it may not survive a power cut.
  const failure = fsError("EIO", "fsync");
  const broken = instrumentedFs({ sync: (path) => failIf(path === folder, failure) });
  await expect(
    atomicWrite(target, bytes(OLD), { fs: broken.fs, platform: "linux" }),
    "atomicWrite must reject with the folder fsync's EIO",
  ).rejects.toBe(failure);
  expect(broken.unclosed(), "handles not closed exactly once after the folder fsync failed").toEqual([]);
});

it("reports a folder fsync error its platform is not known to answer, such as EPERM on Linux", async () => {
  const { folder, target } = repository();
  // On Linux an EPERM is not "this file system cannot do it": it is a failure, and ignoring it would
  // silently skip the step that makes the rename durable. Likewise EINVAL on Windows, and EISDIR from
  // the open of a folder, which no platform answers for a folder opened for reading.
  const cases: Record<string, { platform: NodeJS.Platform; code: string; step: "open" | "sync" }> = {
    "EPERM from the folder's fsync on linux": { platform: "linux", code: "EPERM", step: "sync" },
    "EPERM from the folder's fsync on darwin": { platform: "darwin", code: "EPERM", step: "sync" },
    "EINVAL from the folder's fsync on win32": { platform: "win32", code: "EINVAL", step: "sync" },
    "EISDIR when the folder is opened on linux": { platform: "linux", code: "EISDIR", step: "open" },
  };
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, { platform, code, step }] of Object.entries(cases)) {
    writeFileSync(target, OLD);
    const failure = fsError(code, step === "open" ? "open" : "fsync");
    const faults: Faults =
      step === "open" ? { open: (path) => failIf(path === folder, failure) } : { sync: (path) => failIf(path === folder, failure) };
    const run = instrumentedFs(faults);
    const outcome = await atomicWrite(target, bytes(NEW), { fs: run.fs, platform }).then(
      () => "written without an error",
      (error: unknown) => (error === failure ? `rejected with the ${code}` : `rejected with another error: ${String(error)}`),
    );
    // The rename came before the folder fsync: the new file is in place either way.
    const holds = readFileSync(target, "utf8") === NEW ? "the new configuration" : "not the new configuration";
    results[label] = `${outcome}; app.config.json holds ${holds}; handles not closed exactly once: ${run.unclosed().length}`;
    expected[label] = `rejected with the ${code}; app.config.json holds the new configuration; handles not closed exactly once: 0`;
  }
  expect(otherThan(results, expected), "folder fsync errors the platform is not known to answer, not reported").toEqual({});
});

it("fsyncs every folder the write created and the parent of the topmost one", async () => {
  const { root, folder } = repository();
  // src/ exists; components/ and generated/ do not. mkdir -p creates both, and each new entry lives in
  // its parent: generated/ holds the file, components/ holds generated/, src/ holds components/. fsync(2)
  // makes only the entries of the folder it is given durable, so each of the three needs one.
  const target = join(folder, "components", "generated", "Banner.tsx");
  const folderSyncs = (calls: readonly Call[]) =>
    calls.filter((call) => call.op === "sync" && !TEMPORARY.test(basename(call.path))).map((call) => relative(root, call.path) || ".");
  const first = instrumentedFs();
  await atomicWrite(target, bytes("export const Banner = 1;\n"), { fs: first.fs });
  expect(folderSyncs(first.calls), "folders fsynced by a write that created src/components/generated/").toEqual([
    join("src", "components", "generated"),
    join("src", "components"),
    "src",
  ]);
  // Once they exist, a write changes one entry: the rename, in the target's own folder.
  const second = instrumentedFs();
  await atomicWrite(target, bytes("export const Banner = 2;\n"), { fs: second.fs });
  expect(folderSyncs(second.calls), "folders fsynced by a write into folders that all existed").toEqual([
    join("src", "components", "generated"),
  ]);
  expect(first.unclosed().concat(second.unclosed()), "handles not closed exactly once").toEqual([]);
});

it("writes a file whose name has 255 bytes, with a temporary name cut to fit", async () => {
  const { folder } = repository();
  // 255 bytes is the longest name Linux and macOS accept, and a path policy accepts it. The temporary
  // name adds 22 bytes (".", ".", 16 hex digits, ".tmp"), so it must take fewer of the target's. A cut
  // inside a two-byte "é" would leave a broken character, which becomes a three-byte U+FFFD.
  const names = { "250 × a, then .json": `${"a".repeat(250)}.json`, "124 × é, then xy.json": `${"é".repeat(124)}xy.json` };
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, name] of Object.entries(names)) {
    expect(Buffer.byteLength(name), `the premise: the name ${label} has 255 bytes`).toBe(255);
    const target = join(folder, name);
    const { fs, calls } = instrumentedFs();
    const written = await atomicWrite(target, bytes(NEW), { fs }).then(
      () => "written",
      (error: unknown) => `failed: ${error instanceof Error ? error.message.replace(folder, "src") : String(error)}`,
    );
    const opened = calls.filter((call) => call.op.startsWith("open") && call.path !== folder).map((call) => basename(call.path));
    const problems = opened.flatMap((temporary) => {
      const found: string[] = [];
      const length = Buffer.byteLength(temporary);
      if (length > 255) found.push(`${length} bytes`);
      const start = /^\.(.+)\.[0-9a-f]{16}\.tmp$/.exec(temporary)?.[1];
      if (start === undefined) found.push("not of the form .<name>.<16 hex digits>.tmp");
      else if (!name.startsWith(start)) found.push("its name part is not a start of the target's name");
      return found.length === 0 ? [] : [`${temporary.slice(0, 24)}…: ${found.join(", ")}`];
    });
    const holds = existsSync(target) && readFileSync(target, "utf8") === NEW ? "holds the new configuration" : "does not hold it";
    results[label] =
      `${written}; the target ${holds}; temporary names with a problem: ${problems.length === 0 ? "none" : problems.join("; ")}`;
    expected[label] = "written; the target holds the new configuration; temporary names with a problem: none";
    // The sweep still knows a temporary file of this target as its own: one left by a killed write goes.
    const left = opened[0];
    if (written === "written" && left !== undefined && Buffer.byteLength(left) <= 255) {
      writeFileSync(join(folder, left), "half");
      const swept = await sweepStaleTemporaryFiles(folder, { olderThanMs: 0 });
      results[`${label}: swept`] = swept.includes(left)
        ? "its temporary name is swept"
        : `not swept; the sweep removed ${JSON.stringify(swept)}`;
      expected[`${label}: swept`] = "its temporary name is swept";
    }
  }
  expect(otherThan(results, expected), "writes to targets with names of 255 bytes").toEqual({});
  expect(listing(folder), folderAfter("the writes and the sweep")).toEqual(["app.config.json", ...Object.values(names)].sort());
});

it("cuts a long target's name to its longest start of at most 233 bytes, between characters", async () => {
  const { folder } = repository();
  // The temporary name adds 22 bytes to the name part, and a name may have 255: the name part keeps as
  // much of the target's name as fits in 233 bytes of UTF-8. A name that fits is kept whole.
  const names: Record<string, { name: string; kept: string }> = {
    "app.config.json": { name: "app.config.json", kept: "app.config.json" },
    "228 × a, then .json (233 bytes)": { name: `${"a".repeat(228)}.json`, kept: `${"a".repeat(228)}.json` },
    "250 × a, then .json (255 bytes)": { name: `${"a".repeat(250)}.json`, kept: "a".repeat(233) },
    // A 117th "é" would take bytes 233 and 234: the cut comes before it.
    "124 × é, then xy.json (255 bytes)": { name: `${"é".repeat(124)}xy.json`, kept: "é".repeat(116) },
  };
  const describe = (part: string | undefined, name: string) =>
    part === undefined
      ? "no temporary name of the form .<name>.<16 hex digits>.tmp"
      : `${[...part].length} characters, ${Buffer.byteLength(part)} bytes, ${name.startsWith(part) ? "a start of the target's name" : "not a start of the target's name"}`;
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, { name, kept }] of Object.entries(names)) {
    const { fs, calls } = instrumentedFs();
    await atomicWrite(join(folder, name), bytes(NEW), { fs });
    const [temporary] = calls.filter((call) => call.op.startsWith("open w")).map((call) => basename(call.path));
    const part = temporary === undefined ? undefined : /^\.(.+)\.[0-9a-f]{16}\.tmp$/.exec(temporary)?.[1];
    results[label] = `name part of the temporary file: ${describe(part, name)}`;
    expected[label] = `name part of the temporary file: ${describe(kept, name)}`;
  }
  expect(otherThan(results, expected), "temporary names of targets with long names, not cut to the longest start that fits").toEqual({});
});

function failIf(condition: boolean, error: Error): void {
  if (condition) throw error;
}

it("keeps the permission mode of an existing target, and gives a new file the default mode", async () => {
  const { folder, target } = repository();
  // 0600 for a secret, 0755 for a script, 0664 for a shared file: the usual umask 022 would cut
  // 0664 to 0644 on a freshly created file, so the mode has to be set explicitly.
  const modes: Record<string, string> = {};
  for (const mode of [0o600, 0o755, 0o664]) {
    chmodSync(target, mode);
    await atomicWrite(target, bytes(NEW));
    modes[mode.toString(8)] = (statSync(target).mode & 0o777).toString(8);
  }
  expect(modes, "the mode of app.config.json after a rewrite, by its mode before").toEqual({ "600": "600", "755": "755", "664": "664" });
  const reference = join(folder, "written-by-node.json");
  writeFileSync(reference, NEW);
  const created = join(folder, "created.json");
  await atomicWrite(created, bytes(NEW));
  expect((statSync(created).mode & 0o777).toString(8), "the mode of a new file, which must be the one writeFileSync gives").toBe(
    (statSync(reference).mode & 0o777).toString(8),
  );
});

it("retries a busy rename a bounded number of times and never copies instead", async () => {
  const { folder, target } = repository();
  const renames = (calls: readonly Call[]) => calls.filter((call) => call.op === "rename").length;
  // Windows: an editor or a virus scanner holds the target for a moment.
  const briefly = instrumentedFs({
    rename: (call) => {
      if (call < 3) throw fsError("EBUSY", "rename");
    },
  });
  await atomicWrite(target, bytes(NEW), { fs: briefly.fs, renameAttempts: 3 });
  expect(readFileSync(target, "utf8"), "app.config.json after two busy renames and a third that worked").toBe(NEW);
  expect(renames(briefly.calls), "rename attempts: two EBUSY, then success").toBe(3);
  // The target itself is never opened: no copy-and-delete fallback.
  expect(
    briefly.calls.filter((call) => call.op.startsWith("open") && call.path === target).map((call) => call.op),
    "opens of the target itself (a copy into it would not be atomic)",
  ).toEqual([]);

  const busy = fsError("EBUSY", "rename");
  const held = instrumentedFs({
    rename: () => {
      throw busy;
    },
  });
  await expect(
    atomicWrite(target, bytes(OLD), { fs: held.fs, renameAttempts: 3 }),
    "atomicWrite must reject with the last EBUSY",
  ).rejects.toBe(busy);
  expect(renames(held.calls), "rename attempts with renameAttempts 3, every one EBUSY").toBe(3);
  expect(readFileSync(target, "utf8"), "app.config.json after every rename was busy (must still be the previous version)").toBe(NEW);
  expect(listing(folder), folderAfter("the busy renames")).toEqual(["app.config.json"]);

  // Another file system is not busy: waiting cannot help, so there is no retry.
  const crossDevice = fsError("EXDEV", "rename");
  const elsewhere = instrumentedFs({
    rename: () => {
      throw crossDevice;
    },
  });
  await expect(atomicWrite(target, bytes(OLD), { fs: elsewhere.fs, renameAttempts: 3 }), "atomicWrite must reject with EXDEV").rejects.toBe(
    crossDevice,
  );
  expect(renames(elsewhere.calls), "rename attempts after EXDEV, which waiting cannot cure").toBe(1);
});

it("refuses a target, content or renameAttempts it cannot use, naming it, before any file-system call", async () => {
  const { folder, target } = repository();
  // The types say string and Uint8Array, but a JavaScript caller or an agent's tool call parsed from
  // JSON can pass anything. An empty target would become the current folder, a string would be
  // written as nothing, and a renameAttempts of NaN would retry a busy rename forever.
  const cases: Record<string, { target: unknown; content: unknown; renameAttempts?: number; names: string }> = {
    'target ""': { target: "", content: bytes(NEW), names: "target" },
    "target undefined": { target: undefined, content: bytes(NEW), names: "target" },
    "content given as a string": { target, content: NEW, names: "Uint8Array" },
    "renameAttempts 0": { target, content: bytes(NEW), renameAttempts: 0, names: "renameAttempts" },
    "renameAttempts -1": { target, content: bytes(NEW), renameAttempts: -1, names: "renameAttempts" },
    "renameAttempts 1.5": { target, content: bytes(NEW), renameAttempts: 1.5, names: "renameAttempts" },
    "renameAttempts NaN": { target, content: bytes(NEW), renameAttempts: Number.NaN, names: "renameAttempts" },
    "renameAttempts Infinity": { target, content: bytes(NEW), renameAttempts: Number.POSITIVE_INFINITY, names: "renameAttempts" },
  };
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, { target: given, content, renameAttempts, names }] of Object.entries(cases)) {
    const run = instrumentedFs();
    const options = renameAttempts === undefined ? { fs: run.fs } : { fs: run.fs, renameAttempts };
    const result = await settled(atomicWrite(given as string, content as Uint8Array, options), names);
    results[label] = `${result}; file-system calls: ${run.calls.length}`;
    expected[label] = `${refused(names)}; file-system calls: 0`;
  }
  expect(otherThan(results, expected), "calls of atomicWrite with an argument it cannot use, not refused up front").toEqual({});
  expect(readFileSync(target, "utf8"), "app.config.json after the refused calls (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("the refused calls")).toEqual(["app.config.json"]);
});

it("stops with lstat's own error when it cannot look at the target, and creates nothing", async () => {
  const { folder, target } = repository();
  // Only ENOENT means "no file yet". After any other error nobody knows whether the target is a
  // symlink, so writing on would risk exactly what the lstat is there to prevent.
  const failure = fsError("EIO", "lstat");
  const { fs, calls } = instrumentedFs({ lstat: (path) => failIf(path === target, failure) });
  const outcome = await atomicWrite(target, bytes(NEW), { fs }).then(
    () => "written",
    (error: unknown) => (error === failure ? "rejected with the lstat's EIO" : `rejected with another error: ${String(error)}`),
  );
  expect(outcome, "atomicWrite when the lstat of app.config.json fails with EIO").toBe("rejected with the lstat's EIO");
  expect(
    calls.filter((call) => call.op.startsWith("open")).map((call) => basename(call.path)),
    "files opened after the lstat of the target failed with EIO",
  ).toEqual([]);
  expect(readFileSync(target, "utf8"), "app.config.json after the failed lstat (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("the failed lstat")).toEqual(["app.config.json"]);
});

it("gives up after at most four taken temporary names, and reports another error of that open at once", async () => {
  const { folder, target } = repository();
  // A name that is taken is someone else's: try another, a few times. A folder where no file may be
  // created (EACCES) will not allow one under another name either.
  const LIMIT = 10;
  const codes = { "every temporary name is taken (EEXIST)": "EEXIST", "no file may be created in src/ (EACCES)": "EACCES" };
  const results: Record<string, string> = {};
  for (const [label, code] of Object.entries(codes)) {
    const failure = fsError(code, "open");
    let names = 0;
    const { fs } = instrumentedFs({
      // Past the limit the open goes through, so a write that never gives up ends, and shows as written.
      open: (_path, flags) => {
        if (!flags.includes("w")) return;
        names += 1;
        if (names <= LIMIT) throw failure;
      },
    });
    const outcome = await atomicWrite(target, bytes(NEW), { fs }).then(
      () => "written",
      (error: unknown) => (error === failure ? `rejected with the ${code}` : `rejected with another error: ${String(error)}`),
    );
    const tried = code === "EEXIST" && names >= 2 && names <= 4 ? "2 to 4" : String(names);
    results[label] = `${outcome}; temporary names tried: ${tried}`;
  }
  expect(results, "what atomicWrite does when creating its temporary file keeps failing").toEqual({
    "every temporary name is taken (EEXIST)": "rejected with the EEXIST; temporary names tried: 2 to 4",
    "no file may be created in src/ (EACCES)": "rejected with the EACCES; temporary names tried: 1",
  });
  expect(readFileSync(target, "utf8"), "app.config.json after the failed creates (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("the failed creates")).toEqual(["app.config.json"]);
});

it("continues an interrupted write with exactly the bytes that remain", async () => {
  const { folder, target } = repository();
  // A signal interrupts the first write call after 16 of the 40 bytes; the next call goes through.
  const asked: number[] = [];
  const { fs } = instrumentedFs({
    takes: (call, length) => {
      asked.push(length);
      return call === 1 ? 16 : length;
    },
  });
  const outcome = await settled(atomicWrite(target, bytes(NEW), { fs }), null, () => "written");
  expect(
    `${outcome}; bytes asked for by each write call: ${asked.join(", ")}`,
    `atomicWrite of ${bytes(NEW).byteLength} bytes whose first write call took only 16`,
  ).toBe(`written; bytes asked for by each write call: ${bytes(NEW).byteLength}, ${bytes(NEW).byteLength - 16}`);
  expect(readFileSync(target, "utf8"), "app.config.json after the interrupted write was continued").toBe(NEW);
  expect(listing(folder), folderAfter("the write")).toEqual(["app.config.json"]);
});

it("reports a write call that takes no bytes, saying how many of them were written, instead of calling again forever", async () => {
  const { folder, target } = repository();
  // The first call takes 16 of the 40 bytes; every later one takes none and reports no error. A call
  // that took nothing will take nothing the next time either.
  const LIMIT = 10;
  const endless = new Error(`atomicWrite was still calling write after ${LIMIT} calls that took no bytes`);
  const { fs, unclosed } = instrumentedFs({
    takes: (call) => {
      if (call > LIMIT) throw endless;
      return call === 1 ? 16 : 0;
    },
  });
  const total = bytes(NEW).byteLength;
  const outcome = await atomicWrite(target, bytes(NEW), { fs }).then(
    () => "written",
    (error: unknown) => {
      if (error === endless || !(error instanceof Error)) return `rejected with: ${String(error)}`;
      const says = /\b16\b/.test(error.message) && new RegExp(`\\b${total}\\b`).test(error.message);
      return says ? `rejected, naming 16 of ${total} bytes` : `rejected without naming 16 of ${total} bytes: ${error.message}`;
    },
  );
  expect(outcome, `atomicWrite of ${total} bytes whose write calls take 16 bytes, then none`).toBe(`rejected, naming 16 of ${total} bytes`);
  expect(readFileSync(target, "utf8"), "app.config.json after the stalled write (must still be the old configuration)").toBe(OLD);
  expect(listing(folder), folderAfter("the stalled write")).toEqual(["app.config.json"]);
  expect(unclosed(), "handles not closed exactly once after the stalled write").toEqual([]);
});

// Eight attempts wait seven times: about 0.7 s in all with the reference's delays, longer with a slower schedule.
it("retries a rename that failed with EPERM, EBUSY or EACCES, 8 times in all by default on Windows and once elsewhere", {
  timeout: 20_000,
}, async () => {
  const { target } = repository();
  const renames = (calls: readonly Call[]) => calls.filter((call) => call.op === "rename").length;
  // Each of the three errors a held file gives on Windows is waited out, once, with renameAttempts 2.
  const once: Record<string, string> = {};
  for (const code of ["EPERM", "EBUSY", "EACCES"]) {
    const run = instrumentedFs({ rename: (call) => failIf(call === 1, fsError(code, "rename")) });
    const outcome = await settled(atomicWrite(target, bytes(NEW), { fs: run.fs, renameAttempts: 2 }), null, () => "written");
    once[`${code} once, renameAttempts 2`] = `${outcome}; renames: ${renames(run.calls)}`;
  }
  expect(once, "a rename that failed once with an error of a held file, then worked").toEqual({
    "EPERM once, renameAttempts 2": "written; renames: 2",
    "EBUSY once, renameAttempts 2": "written; renames: 2",
    "EACCES once, renameAttempts 2": "written; renames: 2",
  });
  // Without renameAttempts the platform decides: Windows waits for the holder, elsewhere nobody lets go.
  const byPlatform: Record<string, string> = {};
  for (const platform of ["win32", "linux", "darwin"] as const) {
    const busy = fsError("EBUSY", "rename");
    const run = instrumentedFs({
      rename: () => {
        throw busy;
      },
    });
    const outcome = await atomicWrite(target, bytes(OLD), { fs: run.fs, platform }).then(
      () => "written",
      (error: unknown) => (error === busy ? "rejected with the EBUSY" : `rejected with another error: ${String(error)}`),
    );
    byPlatform[platform] = `${outcome}; renames: ${renames(run.calls)}`;
  }
  expect(byPlatform, "rename attempts by default on each platform, every rename EBUSY").toEqual({
    win32: "rejected with the EBUSY; renames: 8",
    linux: "rejected with the EBUSY; renames: 1",
    darwin: "rejected with the EBUSY; renames: 1",
  });
});

// The waits grow: 10 ms, then twice as long each time, never more than 200 ms. Eight tries span about
// 0.7 s, long enough for a scanner that looks at a new file for a moment.
it("waits out a target held for 0.4 s with the 8 tries Windows gets by default", { timeout: 20_000 }, async () => {
  const { folder, target } = repository();
  // Every rename in the first 0.4 s after the first one is EBUSY; a machine slower than usual only
  // spreads the tries further, so a load cannot make this fail.
  const HELD_MS = 400;
  const tries: number[] = [];
  const { fs } = instrumentedFs({
    rename: () => {
      tries.push(performance.now());
      failIf(performance.now() - (tries[0] as number) < HELD_MS, fsError("EBUSY", "rename"));
    },
  });
  const outcome = await settled(atomicWrite(target, bytes(NEW), { fs, platform: "win32" }), null, () => "written");
  const schedule = tries.map((time) => Math.round(time - (tries[0] as number))).join(", ");
  expect(outcome, `atomicWrite with platform "win32" while the target is held for ${HELD_MS} ms; renames tried at ${schedule} ms`).toBe(
    "written",
  );
  expect(readFileSync(target, "utf8"), "app.config.json after the holder let go").toBe(NEW);
  expect(listing(folder), folderAfter("the write")).toEqual(["app.config.json"]);
});

it("keeps each wait between two tries of a busy rename short, however many tries it is given", { timeout: 20_000 }, async () => {
  const { target } = repository();
  // The waits stop growing at 200 ms; 2 s leaves room for a loaded machine. A wait that kept doubling
  // would reach 2.56 s before the tenth try, and hours a dozen tries later.
  const TOO_LONG_MS = 2000;
  const tries: number[] = [];
  const busy = fsError("EBUSY", "rename");
  // Not a busy error, so atomicWrite stops at once instead of waiting even longer.
  const tooLong = new Error(`the wait before this rename was ${TOO_LONG_MS} ms or more`);
  const { fs } = instrumentedFs({
    rename: () => {
      tries.push(performance.now());
      const waited = tries.length > 1 ? (tries.at(-1) as number) - (tries.at(-2) as number) : 0;
      failIf(waited >= TOO_LONG_MS, tooLong);
      throw busy;
    },
  });
  const outcome = await atomicWrite(target, bytes(NEW), { fs, renameAttempts: 10 }).then(
    () => "written",
    (error: unknown) =>
      error === busy
        ? "rejected with the EBUSY"
        : error === tooLong
          ? `stopped: a wait of ${TOO_LONG_MS} ms or more`
          : `rejected with another error: ${String(error)}`,
  );
  const waits = tries.slice(1).map((time, index) => Math.round(time - (tries[index] as number)));
  expect(
    `${outcome}; renames: ${tries.length}`,
    `atomicWrite with renameAttempts 10 and every rename EBUSY; waits between the renames: ${waits.join(", ")} ms`,
  ).toBe("rejected with the EBUSY; renames: 10");
});

it("fsyncs each folder once, and only the target's folder when mkdir answers a folder that is not above it", async () => {
  const { root, folder, target } = repository();
  // An adapter's mkdir may answer something else than the first folder it created. A folder that is
  // not the target's or above it says nothing about what changed: only the rename is certain. The
  // root of the file system, which nothing can create, has no parent to fsync.
  const ancestors: string[] = [];
  for (let current = folder; ; current = dirname(current)) {
    ancestors.push(current);
    if (dirname(current) === current) break;
  }
  const answers: Record<string, { answer: string; expected: string[] }> = {
    "a folder beside src/": { answer: join(root, "elsewhere"), expected: [folder] },
    "the root of the file system": { answer: parse(folder).root, expected: ancestors },
  };
  const shown = (paths: readonly string[]) => paths.map((path) => relative(root, path) || ".").join(", ");
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, { answer, expected: folders }] of Object.entries(answers)) {
    const { fs, calls } = instrumentedFs({ mkdirAnswer: () => answer });
    await atomicWrite(target, bytes(NEW), { fs });
    const synced = calls.filter((call) => call.op === "sync" && !TEMPORARY.test(basename(call.path))).map((call) => call.path);
    results[`mkdir answers ${label}`] = `folders fsynced: ${shown(synced)}`;
    expected[`mkdir answers ${label}`] = `folders fsynced: ${shown(folders)}`;
  }
  expect(otherThan(results, expected), "folders fsynced when mkdir answers a folder it cannot have created").toEqual({});
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
  symlink(join(folder, "app.config.json"), join(folder, ".link.0123456789abcdef.tmp"));
  for (const name of [stale, ".env.tmp", "notes.0123456789abcdef.tmp", ".cache.0123456789abcdef.tmp", "app.config.json"]) {
    utimesSync(join(folder, name), twoHoursAgo, twoHoursAgo);
  }
  const before = listing(folder);

  expect(await sweepStaleTemporaryFiles(folder), "names the sweep reports removed (default age: one hour)").toEqual([stale]);
  expect(listing(folder), "the folder after the sweep: everything but the stale temporary file").toEqual(
    before.filter((name) => name !== stale),
  );
  expect(readFileSync(join(folder, "app.config.json"), "utf8"), "app.config.json after the sweep").toBe(OLD);
  // With no age limit the fresh one goes too, even one whose time is ahead of this process's clock (the
  // file system keeps its own; a file written this instant may be a fraction of a millisecond "newer"
  // than Date.now()). The link and the folder still stay.
  const ahead = new Date(Date.now() + 60 * 1000);
  utimesSync(join(folder, fresh), ahead, ahead);
  expect(await sweepStaleTemporaryFiles(folder, { olderThanMs: 0 }), "names the sweep reports removed with olderThanMs 0").toEqual([fresh]);
  expect(existsSync(join(folder, ".cache.0123456789abcdef.tmp")), "the folder .cache.0123456789abcdef.tmp still exists").toBe(true);
  expect(
    lstatSync(join(folder, ".link.0123456789abcdef.tmp")).isSymbolicLink(),
    "the symlink .link.0123456789abcdef.tmp still exists",
  ).toBe(true);
});

it("sweeps only hidden names that end in .<16 hex digits>.tmp, older than one hour by default, and returns them sorted", async () => {
  const folder = temporaryFolder();
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);
  // Upper and lower case, a character from the end of the BMP and one beyond it: file systems list such
  // names in orders of their own (by bytes, or ignoring case), which sort() does not share.
  const stale = ["d", "B", "\u{1F600}", "a", "\uFF21"].map((start) => `.${start}.json.0123456789abcdef.tmp`);
  const ages: Record<string, number> = {
    ...Object.fromEntries(stale.map((name) => [name, 61])),
    ".app.config.json.fedcba9876543210.tmp": 59,
    "app.config.json.0123456789abcdef.tmp": 120,
    ".app.config.json.0123456789abcdef.tmp.orig": 120,
  };
  for (const [name, minutes] of Object.entries(ages)) {
    writeTree(folder, { [name]: "half" });
    utimesSync(join(folder, name), minutesAgo(minutes), minutesAgo(minutes));
  }
  const removed = await sweepStaleTemporaryFiles(folder);
  const left = new Set(listing(folder));
  const fate = (names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [`${name}, ${ages[name]} minutes old`, left.has(name) ? "kept" : "removed"]));
  expect(fate(Object.keys(ages)), "what the sweep with the default age did to each file").toEqual({
    ...Object.fromEntries(stale.map((name) => [`${name}, 61 minutes old`, "removed"])),
    ".app.config.json.fedcba9876543210.tmp, 59 minutes old": "kept",
    "app.config.json.0123456789abcdef.tmp, 120 minutes old": "kept",
    ".app.config.json.0123456789abcdef.tmp.orig, 120 minutes old": "kept",
  });
  expect(removed, "the names the sweep reports removed, which must be sorted").toEqual([...stale].sort());
});

it("refuses an olderThanMs that is negative, not a number or infinite, and removes nothing", async () => {
  const folder = temporaryFolder();
  const stale = ".app.config.json.0123456789abcdef.tmp";
  writeTree(folder, { [stale]: "half" });
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(join(folder, stale), twoHoursAgo, twoHoursAgo);
  // NaN would compare false with every age and sweep a write still in progress; a negative age means nothing.
  const results: Record<string, string> = {};
  for (const olderThanMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    results[`olderThanMs ${olderThanMs}`] = await settled(sweepStaleTemporaryFiles(folder, { olderThanMs }), "olderThanMs");
  }
  expect(otherThan(results, refused("olderThanMs")), "sweeps with an olderThanMs that is not 0 or more milliseconds, not refused").toEqual(
    {},
  );
  expect(listing(folder), "the folder after the refused sweeps (the stale file must still be there)").toEqual([stale]);
});

it("lets several sweeps of one folder run at once: all succeed, and each removed file is reported once", async () => {
  const folder = temporaryFolder();
  // Harnesses that start together sweep the same folder, some with the default age and some with
  // olderThanMs 0. The second kind also removes the 50 fresh files, which sort first, so the sweeps fall
  // out of step: each meets files that another removed between its listing and its lstat, or between
  // its lstat and its unlink. Such a file is gone, as the sweep wanted: that is no error.
  const name = (kind: string, index: number) => `.${kind}-${String(index).padStart(2, "0")}.js.0123456789abcdef.tmp`;
  const fresh = Array.from({ length: 50 }, (_, index) => name("a-fresh", index));
  const stale = Array.from({ length: 50 }, (_, index) => name("b-stale", index));
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  for (const file of fresh) writeTree(folder, { [file]: "a write in progress" });
  for (const file of stale) {
    writeTree(folder, { [file]: "half" });
    utimesSync(join(folder, file), twoHoursAgo, twoHoursAgo);
  }
  const runs: Record<string, { olderThanMs?: number }> = {
    "default age, first": {},
    "olderThanMs 0, first": { olderThanMs: 0 },
    "default age, second": {},
    "olderThanMs 0, second": { olderThanMs: 0 },
  };
  const outcomes = await Promise.all(
    Object.entries(runs).map(async ([label, options]) => {
      try {
        return { label, removed: await sweepStaleTemporaryFiles(folder, options), failure: "" };
      } catch (error) {
        return { label, removed: [], failure: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  expect(
    Object.fromEntries(outcomes.filter(({ failure }) => failure !== "").map(({ label, failure }) => [label, failure])),
    "sweeps that failed while three others swept the same folder (50 fresh and 50 stale temporary files)",
  ).toEqual({});
  const reported = outcomes.flatMap(({ removed }) => removed);
  const twice = reported.filter((file, index) => reported.indexOf(file) !== index);
  expect(firstFew(twice), "names reported removed by more than one of the four sweeps").toEqual([]);
  const missing = [...fresh, ...stale].filter((file) => !reported.includes(file));
  expect(firstFew(missing), "temporary files that none of the four sweeps reported removed").toEqual([]);
  expect(firstFew(listing(folder)), "files left in the folder after the four sweeps").toEqual([]);
});

it("stops a sweep with an lstat or unlink error other than ENOENT, instead of skipping the file", async () => {
  const folder = temporaryFolder();
  const stale = ".app.config.json.0123456789abcdef.tmp";
  writeTree(folder, { [stale]: "half" });
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(join(folder, stale), twoHoursAgo, twoHoursAgo);
  // Only ENOENT means "another sweep was faster". A disk that cannot read the entry or a folder that
  // may not be changed leaves the debris in place: the sweep must say so, not return as if it were done.
  const failures = { lstat: fsError("EIO", "lstat"), unlink: fsError("EACCES", "unlink") };
  const results: Record<string, string> = {};
  for (const [step, failure] of Object.entries(failures)) {
    const fails = (path: string, name: string) => failIf(step === name && basename(path) === stale, failure);
    const fs: SweepFileSystem = {
      readdir: (path) => fsp.readdir(path),
      lstat: async (path) => {
        fails(path, "lstat");
        return fsp.lstat(path);
      },
      unlink: async (path) => {
        fails(path, "unlink");
        return fsp.unlink(path);
      },
    };
    results[`${failure.message.split(":")[0]} from ${step}`] = await sweepStaleTemporaryFiles(folder, { fs }).then(
      (removed) => `returned ${JSON.stringify(removed)}`,
      (error: unknown) => (error === failure ? "rejected with that error" : `rejected with another error: ${String(error)}`),
    );
  }
  expect(results, `sweeps of a folder whose stale ${stale} cannot be looked at or removed`).toEqual({
    "EIO from lstat": "rejected with that error",
    "EACCES from unlink": "rejected with that error",
  });
  expect(listing(folder), "the folder after the failed sweeps (the stale file is still there)").toEqual([stale]);
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
  const child = spawn(process.execPath, [bundle.writer, bundle.module, String(PAYLOAD_SIZE), NEW_FILL, String(STAGGER_MS), ...targets], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
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

it("survives SIGKILL at any moment: the target is always the whole old or the whole new file", { timeout: 30_000 }, async () => {
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
  // A writer that writes into the target itself changes that one shared file under every name: the
  // check below sees it as new bytes in the original file (its inode), and reports a write in place.
  const original = join(root, "original.js");
  writeFileSync(original, oldPayload);
  const originalInode = statSync(original).ino;
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

  const torn: string[] = [];
  const inPlace: string[] = [];
  const stray: string[] = [];
  const ended: string[] = [];
  const counts = { trials: 0, old: 0, new: 0, midWrite: 0, debris: 0 };
  for (const [index, { kill, folder, targets, writer }] of runs.entries()) {
    const when = `killed ${kill.waitMs} ms after "${kill.after}"`;
    const { code, signal } = await writer.ended;
    if (signal !== "SIGKILL") {
      ended.push(
        `run-${index} ended by itself (code ${code}, signal ${signal}) before it was ${when}: ${writer.stderr()}${writer.lines.join(" | ")}`,
      );
    }
    for (const [number, target] of targets.entries()) {
      counts.trials += 1;
      if (writer.lines.includes(`writing ${number}`) && !writer.lines.includes(`done ${number}`)) counts.midWrite += 1;
      const content = readFileSync(target);
      if (content.equals(oldPayload)) counts.old += 1;
      else if (!content.equals(newPayload))
        torn.push(`run-${index}/${basename(target)}, ${when}: ${damage(content, oldPayload, newPayload)}`);
      else if (statSync(target).ino === originalInode) inPlace.push(`run-${index}/${basename(target)}, ${when}`);
      else counts.new += 1;
    }
    // A kill may leave temporary files behind, but only those, and never a damaged target.
    const names = new Set(targets.map((target) => basename(target)));
    for (const name of listing(folder)) {
      if (names.has(name)) continue;
      if (targets.some((target) => temporaryNameOf(target).test(name))) counts.debris += 1;
      else stray.push(`run-${index}/${name}, ${when}`);
    }
  }
  // The control: a writer that writes straight into its target, killed in the middle of it. The
  // same check must find its target damaged, or the check above could not fail.
  const controlTarget = join(root, "control", "bundle.js");
  mkdirSync(dirname(controlTarget));
  writeFileSync(controlTarget, oldPayload);
  const control = startWriter({ writer: bundle.writer, module: "--in-place-control" }, [controlTarget]);
  await control.waitFor("ready");
  control.child.stdin.write("go\n");
  await control.waitFor("piece 8 0");
  control.child.kill("SIGKILL");
  await control.ended;
  const damaged = readFileSync(controlTarget);
  expect(
    damaged.equals(oldPayload) || damaged.equals(newPayload),
    `the control, a writer killed in the middle of writing its target in place, left a whole file (${damaged.byteLength} bytes): this test's check cannot see a torn file`,
  ).toBe(false);

  const summary = `${counts.trials} targets: ${counts.old} old, ${counts.new} new, ${counts.midWrite} killed between "writing" and "done", ${counts.debris} temporary files left`;
  expect(
    firstFew(torn),
    `targets that are neither the whole old nor the whole new file after SIGKILL: a torn, short or empty target means the write is not atomic (the bytes must go to a temporary file that one rename puts in place) (${summary})`,
  ).toEqual([]);
  expect(
    firstFew(inPlace),
    `targets that hold the new bytes in the very file that held the old ones (the same inode): the write went into the target itself, not into a temporary file renamed over it, and a kill in the middle of such a write leaves the target torn (${summary})`,
  ).toEqual([]);
  expect(
    firstFew(stray),
    "files left in a killed child's folder that are neither its targets nor temporary files .<target>.<16 hex digits>.tmp",
  ).toEqual([]);
  expect(firstFew(ended), "children that ended on their own instead of by SIGKILL (atomicWrite failed inside them)").toEqual([]);
  expect(runs.length, "children started and killed").toBeGreaterThanOrEqual(20);
  expect(counts.trials, "targets judged").toBe(runs.length * TARGETS_PER_CHILD);
  // Not vacuous: kills landed before, during and after writes.
  expect(
    counts.old,
    `targets still old after their kill; there must be some, since kills land 0 ms after "writing 0". None means every write had replaced its target before the test could react to "writing": atomicWrite blocks the process while it writes (synchronous calls) or renames before the new bytes are fsynced, so no kill lands inside a write and this test cannot judge it. Write with the asynchronous calls of node:fs/promises, and fsync before the rename (${summary})`,
  ).toBeGreaterThan(0);
  expect(
    counts.new,
    `targets new after their kill; there must be some, since kills land up to 10 ms after "done 1". None means the new file was not in place when atomicWrite resolved (for example, a rename that is not awaited) (${summary})`,
  ).toBeGreaterThan(0);
  expect(
    counts.midWrite,
    `kills that landed between "writing <n>" and "done <n>"; there must be some. None means atomicWrite finished before the test could react to "writing": it blocks the process while it writes (synchronous calls), so no kill can interrupt it (${summary})`,
  ).toBeGreaterThan(0);
});
