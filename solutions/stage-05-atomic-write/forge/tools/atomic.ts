// Stage 05: replace a file so that a reader, a crash or a power cut finds the whole old file or the
// whole new one, never a mix. The bytes go to a fresh temporary file beside the target, are made
// durable there, and only then does one rename put the new file under the target's name.
import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

/** The few operations atomicWrite performs on an open file. Node's `FileHandle` has them all. */
export interface AtomicFileHandle {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  chmod(mode: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface AtomicFileStat {
  readonly mode: number;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The file-system operations atomicWrite uses, so a test can make any one of them fail. The default
 * is `node:fs/promises`, which already has this shape.
 */
export interface AtomicFileSystem {
  /** Resolves with the first folder it created, or undefined when all of them existed (as Node's does). */
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  lstat(path: string): Promise<AtomicFileStat>;
  open(path: string, flags: string, mode?: number): Promise<AtomicFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export interface AtomicWriteOptions {
  /** Defaults to `node:fs/promises`. */
  readonly fs?: AtomicFileSystem;
  /**
   * How many times to try the final rename when it fails with EPERM, EBUSY or EACCES. On Windows another
   * process (an antivirus, an indexer, an editor) may hold the target for a moment, so the default there
   * is 8 (about 0.7 s in all); elsewhere those errors do not go away by waiting, so the default is 1.
   */
  readonly renameAttempts?: number;
  /**
   * The platform whose rules apply: which error of a folder fsync it is known to answer (see
   * FOLDER_SYNC_UNSUPPORTED_ON_WINDOWS) and the default of renameAttempts. Defaults to `process.platform`; a test
   * passes another to check every platform's rules on one machine.
   */
  readonly platform?: NodeJS.Platform;
}

const nodeFileSystem: AtomicFileSystem = nodeFs;

/**
 * `.<target name>.<16 hex digits>.tmp`: hidden, next to its target, and recognisable by a sweep. The
 * target's name is cut short when the whole would be longer than a name may be (NAME_MAX_BYTES).
 */
export const TEMPORARY_NAME = /^\..+\.[0-9a-f]{16}\.tmp$/;

/** The longest name Linux and macOS accept, in bytes; Windows allows 255 UTF-16 units, never more than the bytes. */
const NAME_MAX_BYTES = 255;

/** How often a new random name is tried when the chosen one is already taken. */
const CREATE_ATTEMPTS = 4;
const BUSY_RENAME = new Set(["EPERM", "EBUSY", "EACCES"]);
/**
 * What a platform is known to answer when it cannot fsync a folder; anything else is a real failure.
 * Windows: the folder is opened for reading, and FlushFileBuffers, behind fsync, needs write access: EPERM.
 * Linux answers EINVAL for a file system that has no fsync for folders (fsync(2)), and the other POSIX
 * systems get the same rule. An EPERM on Linux is not that, and is reported.
 */
const FOLDER_SYNC_UNSUPPORTED_ON_WINDOWS: ReadonlySet<string> = new Set(["EPERM"]);
const FOLDER_SYNC_UNSUPPORTED_ELSEWHERE: ReadonlySet<string> = new Set(["EINVAL"]);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** The longest start of `name` that fits in `bytes` bytes of UTF-8, cut between characters, never inside one. */
function startWithin(name: string, bytes: number): string {
  if (Buffer.byteLength(name) <= bytes) return name;
  let used = 0;
  let end = 0;
  for (const character of name) {
    used += Buffer.byteLength(character);
    if (used > bytes) break;
    end += character.length;
  }
  return name.slice(0, end);
}

function temporaryPathFor(target: string): string {
  // Unpredictable, so nobody can plant a file or a link at the name before we create it.
  const random = randomBytes(8).toString("hex");
  // The dots, the random part and ".tmp" take 22 bytes; the target's name gets the rest, so that a
  // valid name of up to 255 bytes still gets a valid temporary name.
  const name = startWithin(basename(target), NAME_MAX_BYTES - `..${random}.tmp`.length);
  return join(dirname(target), `.${name}.${random}.tmp`);
}

async function lstatIfPresent(fs: AtomicFileSystem, path: string): Promise<AtomicFileStat | null> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Creates a new temporary file beside the target. `wx` (O_CREAT | O_EXCL) fails if anything already
 * has the name, a symlink included, so the bytes can only land in a file this call created.
 */
async function createTemporary(fs: AtomicFileSystem, target: string, mode: number): Promise<{ path: string; handle: AtomicFileHandle }> {
  for (let attempt = 1; ; attempt += 1) {
    const path = temporaryPathFor(target);
    try {
      return { path, handle: await fs.open(path, "wx", mode) };
    } catch (error) {
      // The name belongs to someone else: leave that file alone and draw another name.
      if (errorCode(error) !== "EEXIST" || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/** A write may accept fewer bytes than asked (a full disk, a signal, a network file system). */
async function writeAll(handle: AtomicFileHandle, content: Uint8Array): Promise<void> {
  let written = 0;
  while (written < content.byteLength) {
    const { bytesWritten } = await handle.write(content, written, content.byteLength - written, written);
    if (bytesWritten <= 0) throw new Error(`write made no progress after ${written} of ${content.byteLength} bytes`);
    written += bytesWritten;
  }
}

async function renameWithRetry(fs: AtomicFileSystem, from: string, to: string, attempts: number): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      // Bounded: wait and try the same rename again. Never fall back to copy-and-delete, which is
      // not atomic and would leave a half-copied target behind a crash.
      if (attempt >= attempts || !BUSY_RENAME.has(errorCode(error) ?? "")) throw error;
      await delay(Math.min(10 * 2 ** (attempt - 1), 200));
    }
  }
}

/**
 * Makes a change to a folder's entries durable: a new name lives in its folder, and a power cut before
 * the folder reaches the disk can take it back. A platform that cannot fsync a folder says so with an
 * error it is known for, which is ignored; any other error is reported.
 */
async function syncFolder(fs: AtomicFileSystem, folder: string, platform: NodeJS.Platform): Promise<void> {
  const unsupported = platform === "win32" ? FOLDER_SYNC_UNSUPPORTED_ON_WINDOWS : FOLDER_SYNC_UNSUPPORTED_ELSEWHERE;
  let handle: AtomicFileHandle | undefined;
  try {
    handle = await fs.open(folder, "r");
    await handle.sync();
  } catch (error) {
    if (!unsupported.has(errorCode(error) ?? "")) throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Every folder whose entries the write changed, innermost first: the target's folder (the rename),
 * each folder that mkdir created below it (a new entry each), and the parent of the topmost one
 * created (its entry). fsync(2) makes only the entries of the folder it is given durable.
 */
function changedFolders(folder: string, created: unknown): string[] {
  const folders = [resolve(folder)];
  if (typeof created !== "string") return folders;
  const topmost = resolve(created);
  for (let current = folders[0] as string; current !== topmost; ) {
    const parent = dirname(current);
    // Not an ancestor after all (an adapter that answered something else): the target's folder only.
    if (parent === current) return folders.slice(0, 1);
    folders.push(parent);
    current = parent;
  }
  const parent = dirname(topmost);
  if (parent !== topmost) folders.push(parent);
  return folders;
}

/**
 * Replaces `target` with `content` atomically: a reader or a crash sees the whole old file or the whole
 * new one. Creates missing parent folders, refuses a symlinked target, keeps an existing target's
 * permission mode, and on any failure removes its temporary file and rethrows the original error.
 */
export async function atomicWrite(target: string, content: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  if (typeof target !== "string" || target === "") throw new Error("invalid target: the path must not be empty");
  if (!(content instanceof Uint8Array)) throw new TypeError(`invalid content for ${target}: expected a Uint8Array`);
  const fs = options.fs ?? nodeFileSystem;
  const platform = options.platform ?? process.platform;
  const renameAttempts = options.renameAttempts ?? (platform === "win32" ? 8 : 1);
  if (!Number.isInteger(renameAttempts) || renameAttempts < 1) {
    throw new Error(`invalid renameAttempts ${String(renameAttempts)}: must be a whole number of at least 1`);
  }

  const folder = dirname(target);
  const created = await fs.mkdir(folder, { recursive: true });
  const existing = await lstatIfPresent(fs, target);
  if (existing?.isSymbolicLink()) {
    // Following the link would write wherever it points, possibly outside the workspace.
    throw new Error(`refusing to write ${target}: it is a symlink, and a write through it would land wherever it points`);
  }
  // An existing file keeps its permissions (a 0600 secret stays private); a new one gets the default.
  const keptMode = existing?.isFile() ? existing.mode & 0o7777 : undefined;

  // Created with the kept mode, so it is never more open than the target, even for a moment.
  const temporary = await createTemporary(fs, target, keptMode ?? 0o666);
  let open = true;
  try {
    // The umask may have removed bits from the mode given to open: set the exact mode.
    if (keptMode !== undefined) await temporary.handle.chmod(keptMode);
    await writeAll(temporary.handle, content);
    await temporary.handle.sync();
    open = false;
    await temporary.handle.close();
    await renameWithRetry(fs, temporary.path, target, renameAttempts);
  } catch (error) {
    // The first error is the one worth reporting; cleaning up must not replace it.
    if (open) await temporary.handle.close().catch(() => undefined);
    await fs.unlink(temporary.path).catch(() => undefined);
    throw error;
  }
  // Windows gives no way to fsync a folder: there the rename is done, and not promised to survive a power cut.
  for (const changed of changedFolders(folder, created)) await syncFolder(fs, changed, platform);
}

/**
 * The file-system operations the sweep uses, so a test can make any one of them fail. The default is
 * `node:fs/promises`, which already has this shape.
 */
export interface SweepFileSystem {
  readdir(path: string): Promise<string[]>;
  lstat(path: string): Promise<{ readonly mtimeMs: number; isFile(): boolean }>;
  unlink(path: string): Promise<void>;
}

export interface SweepOptions {
  /** Only temporary files last modified at least this long ago are removed. Default: one hour. */
  readonly olderThanMs?: number;
  /** Defaults to `node:fs/promises`. */
  readonly fs?: SweepFileSystem;
}

const nodeSweepFileSystem: SweepFileSystem = nodeFs;

/**
 * Removes the temporary files a killed atomicWrite left in `folder`: regular files whose name matches
 * TEMPORARY_NAME and that are older than `olderThanMs`. A younger one may belong to a write still in
 * progress. Anything else — other names, links, folders — is never touched. Returns the removed names.
 */
export async function sweepStaleTemporaryFiles(folder: string, options: SweepOptions = {}): Promise<string[]> {
  const olderThanMs = options.olderThanMs ?? 60 * 60 * 1000;
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw new Error(`invalid olderThanMs ${String(olderThanMs)}: must be a number of milliseconds, 0 or more`);
  }
  const fs = options.fs ?? nodeSweepFileSystem;
  const now = Date.now();
  const removed: string[] = [];
  for (const name of (await fs.readdir(folder)).sort()) {
    if (!TEMPORARY_NAME.test(name)) continue;
    const path = join(folder, name);
    const stat = await fs.lstat(path).catch((error: unknown) => {
      if (errorCode(error) === "ENOENT") return null; // removed meanwhile
      throw error;
    });
    // The file system's clock is not the process's: a file written a moment ago may carry a time a
    // fraction of a millisecond ahead of Date.now() (or further, on a network share). Such a file is of
    // age 0, not of a negative age that even `olderThanMs: 0` would wait for.
    if (!stat?.isFile() || Math.max(0, now - stat.mtimeMs) < olderThanMs) continue;
    try {
      await fs.unlink(path);
      removed.push(name);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
  }
  return removed;
}
