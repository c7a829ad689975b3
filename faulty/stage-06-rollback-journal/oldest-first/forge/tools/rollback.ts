// Stage 06: before a change touches a file, the journal records what was there (the bytes and mode,
// or "nothing"). If the transaction fails, rollback puts every captured path back as it was before
// the whole transaction, newest capture first, and reports every path it could not restore.
import { constants, type Stats } from "node:fs";
import { chmod, lstat, open, realpath, unlink } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { atomicWrite } from "./atomic.js";

/** What a path held before the transaction changed it. */
type Snapshot =
  | { readonly path: string; readonly existed: false }
  | { readonly path: string; readonly existed: true; readonly content: Uint8Array; readonly mode: number };

/** One path that rollback could not put back; `cause` is the underlying error. */
export class RestoreError extends Error {
  readonly path: string;

  constructor(path: string, message: string, cause: unknown) {
    super(message, { cause });
    this.name = "RestoreError";
    this.path = path;
  }
}

// Only the last component is left alone by open(); these flags are 0 where the platform lacks them
// (Windows), and the lstat check before open still refuses links and special files there.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO opened for reading would wait for a writer; non-blocking open returns at once, then fstat refuses it.
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** ENOTDIR means a parent is a regular file, so nothing can exist at the path: that is "missing" too. */
function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One key per file, however it is spelt: `/ws/src/components/../App.tsx` and `/ws/src/App.tsx` are
 * the same file, and so are `/ws/ui/Button.tsx` and `/ws/src/components/Button.tsx` when `ui` links
 * to `src/components`. The deepest folder that exists is resolved by the kernel (realpath), so `..`
 * after a symlinked folder means what it means to a write: the parent of the link's target. The part
 * that does not exist yet is joined to it. The last component is not followed: capture refuses a link.
 */
async function canonicalPath(path: string): Promise<string> {
  if (typeof path !== "string" || !isAbsolute(path)) {
    throw new Error(
      `rollback journal refuses ${JSON.stringify(path)}: the path must be absolute (resolve it through the path policy first)`,
    );
  }
  const rest = [basename(path)];
  let folder = dirname(path);
  for (;;) {
    try {
      return join(await realpath(folder), ...rest);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    // This folder does not exist yet (the change may create it): resolve its parent instead.
    const parent = dirname(folder);
    if (parent === folder) return join(folder, ...rest);
    rest.unshift(basename(folder));
    folder = parent;
  }
}

function refuse(path: string, info: Stats): Error | null {
  const refused = (what: string, why: string) => new Error(`rollback journal refuses "${path}": it is ${what}; ${why}`);
  if (info.isSymbolicLink()) {
    return refused("a symlink", "restoring it would write through the link to wherever it points; capture the path the link resolves to");
  }
  if (info.isDirectory()) return refused("a folder", "the journal snapshots single regular files; capture each file inside it");
  if (!info.isFile()) return refused("neither a regular file nor missing", "sockets, pipes and devices cannot be snapshotted");
  return null;
}

/** Reads what the path holds now. Stat and bytes come from one open handle, so they describe one file. */
async function snapshotOf(path: string): Promise<Snapshot> {
  let info: Stats;
  try {
    info = await lstat(path);
  } catch (error) {
    if (isMissing(error)) return { path, existed: false };
    throw error;
  }
  const refusal = refuse(path, info);
  if (refusal) throw refusal;
  const handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
  try {
    const opened = await handle.stat();
    // Something swapped the file between lstat and open: refuse rather than record the wrong one.
    if (!opened.isFile() || opened.dev !== info.dev || opened.ino !== info.ino) {
      throw new Error(`rollback journal refuses "${path}": it was replaced while it was being captured`);
    }
    const content = await handle.readFile();
    return { path, existed: true, content, mode: opened.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

/** Removes what the change created at a path that was empty before. Already gone is fine. */
async function removeCreated(path: string): Promise<void> {
  let info: Stats;
  try {
    info = await lstat(path);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  // Removing a folder would delete files the journal never captured: leave it and report it.
  if (info.isDirectory()) throw new Error("it is now a folder, and the journal removes single files only");
  try {
    await unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

async function restore(snapshot: Snapshot): Promise<void> {
  if (!snapshot.existed) {
    await removeCreated(snapshot.path);
    return;
  }
  await atomicWrite(snapshot.path, snapshot.content);
  // The change may have deleted the file or changed its mode: a 0600 secret must come back as 0600.
  await chmod(snapshot.path, snapshot.mode);
}

function restoreError(snapshot: Snapshot, error: unknown): RestoreError {
  const what = snapshot.existed ? `restore "${snapshot.path}"` : `remove "${snapshot.path}", which did not exist before the change`;
  return new RestoreError(snapshot.path, `could not ${what}: ${reason(error)}`, error);
}

/**
 * Records what each path held before a transaction changed it, and puts it all back on rollback.
 *
 * The journal lives in memory: a crash of this process loses it, and with it the way back.
 */
export class RollbackJournal {
  /** By canonical path, in capture order (a Map keeps insertion order). */
  readonly #snapshots = new Map<string, Snapshot>();
  /** Captures and rollbacks run one at a time, in call order, even when a caller does not await. */
  #tail: Promise<unknown> = Promise.resolve();

  /** How many paths the journal would restore. */
  get size(): number {
    return this.#snapshots.size;
  }

  /** The canonical paths the journal holds, in capture order. */
  get paths(): readonly string[] {
    return Object.freeze([...this.#snapshots.keys()]);
  }

  /**
   * Records whether `path` exists and, if it does, its bytes and mode. Call it before the change.
   * The first capture of a file wins: a later capture of the same file (in any spelling) is ignored,
   * because by then the file may hold the transaction's own intermediate state.
   */
  capture(path: string): Promise<void> {
    return this.#serially(async () => {
      const key = await canonicalPath(path);
      if (this.#snapshots.has(key)) return;
      this.#snapshots.set(key, await snapshotOf(key));
    });
  }

  /**
   * Puts every captured path back, newest capture first: a file that existed is written back
   * atomically with its bytes and mode; a file that did not exist is removed. Every snapshot is
   * attempted even when one fails. Restored snapshots leave the journal; failed ones stay, so a
   * second rollback retries exactly those. Throws an AggregateError of RestoreErrors if any failed.
   */
  rollback(): Promise<void> {
    return this.#serially(async () => {
      const total = this.#snapshots.size;
      const failures: RestoreError[] = [];
      for (const snapshot of this.#snapshots.values()) {
        try {
          await restore(snapshot);
          this.#snapshots.delete(snapshot.path);
        } catch (error) {
          failures.push(restoreError(snapshot, error));
        }
      }
      if (failures.length > 0) {
        const list = failures.map((failure) => failure.message).join("; ");
        throw new AggregateError(failures, `rollback failed for ${failures.length} of ${total} paths: ${list}`);
      }
    });
  }

  /** Async methods interleave at every await; a queue keeps "first capture wins" about call order. */
  #serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}
