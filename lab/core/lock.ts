// One lab command at a time may change workspace/: two `start`/`restore` commands interleaving their
// plans, backups and writes could each replace what the other saved. The lock is a file created
// exclusively (O_EXCL); it names the process that holds it, so a refusal can say who is busy, and a
// lock left by a killed process is recognised (its process is gone) and taken over.
import { randomBytes } from "node:crypto";
import { closeSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { readFileState, writeFileAtomic } from "./files.js";

const holderSchema = z.object({ pid: z.int(), command: z.string(), startedAt: z.string(), backup: z.optional(z.string()) });
export type LockHolder = z.infer<typeof holderSchema>;

export interface Lock {
  /** Records the backup this command writes, so that a later command can point to it if this one is killed. */
  noteBackup(name: string): void;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

/** The holder a lock file names; null when it is gone, half written, or no regular file (never read then). */
function readHolder(file: string): LockHolder | null {
  try {
    const state = readFileState(file);
    if (state.kind !== "file") return null;
    const parsed = holderSchema.safeParse(JSON.parse(state.bytes.toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // gone, or half written by a process killed at that moment
  }
}

function create(file: string, holder: LockHolder): boolean {
  let handle: number;
  try {
    handle = openSync(file, "wx", 0o644);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(handle, JSON.stringify(holder));
  } finally {
    closeSync(handle);
  }
  return true;
}

/** Why a lock was not taken: a live process holds it, or other commands kept taking it first. */
export type LockRefusal =
  | { readonly kind: "busy"; readonly command: string; readonly pid: number; readonly startedAt: string | null }
  | { readonly kind: "contended" };

/** A lock that could not be taken; the caller words the refusal in its own language. */
export class LockRefused extends Error {
  override readonly name = "LockRefused";
  constructor(readonly refusal: LockRefusal) {
    super(
      refusal.kind === "busy" ? `the lock is held by "${refusal.command}" (process ${refusal.pid})` : "the lock was taken again and again",
    );
  }
}

export interface AcquireResult {
  readonly lock: Lock;
  /** The command a killed process left unfinished, if its lock was taken over. */
  readonly interrupted: LockHolder | null;
}

/** Takes the lock at `file` for `command`, or throws LockRefused naming the process that holds it. */
export function acquireLock(file: string, command: string): AcquireResult {
  mkdirSync(dirname(file), { recursive: true });
  const holder: LockHolder = { pid: process.pid, command, startedAt: new Date().toISOString() };
  let interrupted: LockHolder | null = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (create(file, holder)) return { lock: handle(file, holder), interrupted };
    const other = readHolder(file);
    if (other && alive(other.pid)) {
      throw new LockRefused({ kind: "busy", command: other.command, pid: other.pid, startedAt: other.startedAt });
    }
    // The holder is gone. Move its lock aside under a name only we use, then check that what we moved
    // is still the dead one: another command may have taken it over and locked again in between.
    const aside = join(dirname(file), `lock.stale-${process.pid}-${randomBytes(4).toString("hex")}`);
    try {
      renameSync(file, aside);
    } catch {
      continue; // someone else moved it first: try again
    }
    const moved = readHolder(aside);
    if (moved && alive(moved.pid)) {
      // A live lock: put it back (link fails if yet another lock appeared) and refuse.
      try {
        linkSync(aside, file);
      } catch {
        // the newer lock stays
      }
      rmSync(aside, { force: true });
      throw new LockRefused({ kind: "busy", command: moved.command, pid: moved.pid, startedAt: null });
    }
    rmSync(aside, { force: true });
    interrupted = moved ?? other;
  }
  throw new LockRefused({ kind: "contended" });
}

function handle(file: string, holder: LockHolder): Lock {
  let current = holder;
  return {
    noteBackup(name) {
      current = { ...current, backup: name };
      // Replaced by a rename, so a reader sees the old holder or the new one, never half of one.
      writeFileAtomic(file, JSON.stringify(current));
    },
    release() {
      const now = readHolder(file);
      if (now?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}
