// How `lab start` and `lab restore` change a learner's files without ever losing one. The pattern is the
// course's own (a plan, consent, a backup, atomic writes, a rollback), with a durable journal: the backup
// on disk is written and checked before the first change, so a command killed at any moment leaves every
// original byte either in workspace/ or in .lab/backups/, and `restore` can finish the job.
//
// Stage 06's journal keeps its snapshots in memory and restores every captured path; the lab needs more:
// snapshots that survive a kill, a check right before each replacement that the file still holds what
// was backed up (an editor may save meanwhile), and a rollback that touches only what this command
// changed and only while it still holds what this command wrote.
import { chmodSync, existsSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import * as fsPromises from "node:fs/promises";
import * as z from "zod/mini";
import type { AtomicFileSystem } from "forge/tools/atomic";
import { writeFileAtomic, readFileState, sha256, type FileState } from "../core/files.js";
import { backupFiles, dirs, workspaceFile } from "../core/layout.js";
import type { CliWords } from "./words/index.js";
import { reference } from "../trees/reference.js";
import { CommandError } from "./shared.js";

/** One file a command changes. Paths are relative to workspace/, with forward slashes. */
export interface Change {
  readonly path: string;
  /** The hash the file must have until the moment it is replaced; null: there must be no file. */
  readonly before: string | null;
  /** The bytes to put there; null: remove the file. */
  readonly after: Uint8Array | null;
  /** Permission bits for a file that does not exist yet (restoring a removed 0600 file keeps it 0600). */
  readonly mode?: number | null;
}

const entrySchema = z.object({
  path: z.string(),
  before: z.nullable(z.string()),
  /** Permission bits of the original, when there was one. */
  mode: z.nullable(z.int()),
  after: z.nullable(z.string()),
});
const manifestV2 = z.object({
  version: z.literal(2),
  command: z.string(),
  stage: z.nullable(z.string()),
  createdAt: z.string(),
  entries: z.array(entrySchema),
});
// Backups written by earlier versions of the lab: start only, so every entry is a create or an overwrite.
const manifestV1 = z.object({
  version: z.literal(1),
  stage: z.string(),
  createdAt: z.string(),
  entries: z.array(
    z.object({ path: z.string(), action: z.enum(["create", "overwrite"]), before: z.nullable(z.string()), after: z.string() }),
  ),
});

export type BackupEntry = z.infer<typeof entrySchema>;
export type Manifest = z.infer<typeof manifestV2>;

/** Reads a backup's manifest in the current form, whichever version wrote it; or says why it cannot. */
export function readManifest(name: string, text: CliWords): Manifest | string {
  const state = readFileState(backupFiles(name).manifest);
  if (state.kind !== "file") return text.transaction.noManifest;
  let data: unknown;
  try {
    data = JSON.parse(state.bytes.toString("utf8"));
  } catch {
    return text.transaction.manifestNotJson;
  }
  const v2 = manifestV2.safeParse(data);
  if (v2.success) return v2.data;
  const v1 = manifestV1.safeParse(data);
  if (!v1.success) return text.transaction.notAManifest(v2.error.issues[0]?.message ?? "");
  return {
    version: 2,
    command: `start ${v1.data.stage}`,
    stage: v1.data.stage,
    createdAt: v1.data.createdAt,
    entries: v1.data.entries.map((entry) => ({ path: entry.path, before: entry.before, mode: null, after: entry.after })),
  };
}

export interface Backup {
  readonly name: string;
  readonly restored: boolean;
}

/** Every backup under .lab/backups/, oldest first. Only these names are ever accepted by `restore`. */
export function listBackups(): Backup[] {
  if (!existsSync(dirs.backups)) return [];
  return readdirSync(dirs.backups, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(backupFiles(entry.name).manifest))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, restored: existsSync(backupFiles(name).restored) }));
}

function backupName(now: Date): string {
  const base = now.toISOString().replace(/[:.]/g, "-");
  for (let suffix = 1; ; suffix += 1) {
    const name = suffix === 1 ? base : `${base}-${suffix}`;
    if (!existsSync(backupFiles(name).folder)) return name;
  }
}

function describe(error: unknown, text: CliWords): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  const known: Readonly<Record<string, string>> = text.transaction.errors;
  const message = error instanceof Error ? error.message : String(error);
  return Object.hasOwn(known, code) ? text.transaction.explained(known[code] ?? "", message) : message;
}

const stateHash = (state: FileState): string | null | "other" =>
  state.kind === "file" ? sha256(state.bytes) : state.kind === "missing" ? null : "other";
const show = (hash: string | null | "other", text: CliWords) =>
  hash === null ? text.transaction.noFile : hash === "other" ? text.transaction.notRegular : hash.slice(0, 12);

/** Thrown when a file is not what the plan says, right before it would be replaced. */
export class ChangedMeanwhile extends Error {}

export interface ApplyOptions {
  /** `start stage-04-approval-gate`, `restore 2026-…`: names the backup and the messages. */
  readonly command: string;
  readonly stage: string | null;
  readonly changes: readonly Change[];
  readonly now?: Date;
  /** Told the backup's name as soon as its manifest is on disk. */
  readonly onBackup?: (name: string) => void;
  readonly text: CliWords;
}

/**
 * Backs up, then applies `changes` in order; on any failure, undoes what it changed. Returns the name
 * of the backup that undoes the command. Throws a CommandError that says what happened to workspace/.
 */
export async function applyChanges(options: ApplyOptions): Promise<string> {
  const { command, changes, text } = options;
  const verb = command.split(" ")[0] ?? command;
  const name = backupName(options.now ?? new Date());
  const backup = backupFiles(name);
  const entries: BackupEntry[] = [];

  // 1. The backup, before anything changes: each original is copied with its mode, read back and checked.
  try {
    for (const change of changes) {
      const state = readFileState(workspaceFile(change.path));
      const hash = stateHash(state);
      if (hash !== change.before) {
        throw new ChangedMeanwhile(
          text.transaction.changedSincePlan(`workspace/${change.path}`, show(change.before, text), show(hash, text)),
        );
      }
      let mode: number | null = null;
      if (state.kind === "file") {
        mode = state.mode;
        const copy = backup.copy(change.path);
        writeFileAtomic(copy, state.bytes, { mode: state.mode & 0o777 });
        const check = readFileState(copy);
        if (stateHash(check) !== hash) throw new Error(text.transaction.badReadBack(`workspace/${change.path}`));
      }
      entries.push({ path: change.path, before: hash, mode, after: change.after ? sha256(change.after) : null });
    }
    const manifest: Manifest = { version: 2, command, stage: options.stage, createdAt: (options.now ?? new Date()).toISOString(), entries };
    writeFileAtomic(backup.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    rmSync(backup.folder, { recursive: true, force: true });
    throw new CommandError(text.transaction.stoppedBefore(verb, describe(error, text)));
  }
  options.onBackup?.(name);

  // 2. The changes, each checked against its backup right before it is made.
  const { atomic, paths } = await reference();
  const done: number[] = [];
  try {
    for (const [index, change] of changes.entries()) {
      const target = await paths.resolveWorkspacePath(dirs.workspace, change.path);
      const unchanged = () => {
        const now = stateHash(readFileState(target));
        if (now !== change.before) {
          throw new ChangedMeanwhile(
            text.transaction.changedWhile(`workspace/${change.path}`, verb, show(change.before, text), show(now, text)),
          );
        }
      };
      unchanged();
      done.push(index);
      if (change.after === null) {
        unlinkSync(target);
      } else {
        // Checked once more inside the write, after the new bytes are on disk and right before the
        // rename that replaces the file: what is left between check and use is that one system call.
        const guarded: AtomicFileSystem = {
          ...fsPromises,
          rename: async (from, to) => {
            unchanged();
            await fsPromises.rename(from, to);
          },
        };
        await atomic.atomicWrite(target, change.after, { fs: guarded });
        // atomicWrite keeps the mode of a file it replaces; a file it creates gets the original's back.
        if (change.before === null && change.mode != null) chmodSync(target, change.mode);
      }
    }
  } catch (error) {
    const { left, restored } = await rollBack(name, changes, entries, done, text);
    if (left.length === 0) {
      // Certain now that workspace/ is as it was: only then does the backup go.
      rmSync(backup.folder, { recursive: true, force: true });
      throw new CommandError(
        restored > 0
          ? text.transaction.rolledBack(verb, describe(error, text))
          : text.transaction.failedBeforeAny(verb, describe(error, text)),
      );
    }
    throw new CommandError(
      [
        text.transaction.failed(verb, describe(error, text)),
        text.transaction.rollbackIncomplete(left.length),
        ...left.map((line) => `  ${line}`),
        text.transaction.originalsKept(name),
      ].join("\n"),
    );
  }
  return name;
}

/**
 * Puts back what this command changed, newest first, and only where the file still holds what the
 * command wrote: a file someone changed since is left alone and reported. Returns what is left wrong.
 */
async function rollBack(
  name: string,
  changes: readonly Change[],
  entries: readonly BackupEntry[],
  done: readonly number[],
  text: CliWords,
): Promise<{ left: string[]; restored: number }> {
  const { atomic } = await reference();
  const left: string[] = [];
  let restored = 0;
  for (const index of [...done].reverse()) {
    const change = changes[index];
    const entry = entries[index];
    if (!change || !entry) continue;
    const target = workspaceFile(change.path);
    const original = `.lab/backups/${name}/files/${change.path}`;
    try {
      const now = stateHash(readFileState(target));
      if (now === entry.before) continue; // never changed, or already back
      if (now !== entry.after) {
        left.push(text.transaction.changedByOthers(`workspace/${change.path}`, original));
        continue;
      }
      if (entry.before === null) {
        unlinkSync(target);
      } else {
        const copy = readFileState(backupFiles(name).copy(change.path));
        if (copy.kind !== "file" || sha256(copy.bytes) !== entry.before) throw new Error(text.transaction.damagedCopy);
        await atomic.atomicWrite(target, copy.bytes);
        if (entry.mode !== null) chmodSync(target, entry.mode);
      }
      const after = stateHash(readFileState(target));
      if (after !== entry.before) throw new Error(text.transaction.holdsInstead(show(after, text), show(entry.before, text)));
      restored += 1;
    } catch (error) {
      left.push(
        text.transaction.notPutBack(
          `workspace/${change.path}`,
          describe(error, text),
          entry.before === null ? text.transaction.noFile : original,
        ),
      );
    }
  }
  return { left, restored };
}

/** Marks a backup as undone, so a plain `restore` moves on to the one before it. */
export function markRestored(backup: Backup, by: string): void {
  writeFileAtomic(backupFiles(backup.name).restored, `${JSON.stringify({ restoredAt: new Date().toISOString(), by })}\n`);
}
