// `lab start <stage>` and `lab restore [<backup>]`: put workspace/ at a stage's starting point, and undo
// it. Both print a plan with content hashes first, ask before replacing anything a learner wrote, hold the
// lab's lock, and change files only through transaction.ts: backup first, every write atomic, every
// replaced file checked right before it is replaced, and a rollback of what changed if a step fails.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { readFileState, sha256 } from "../core/files.js";
import { MODULE_DIR, backupFiles, dirs, moduleFile, modulePath, repoPath, workspaceFile } from "../core/layout.js";
import { padDisplay } from "../core/style.js";
import { lessonIn } from "../i18n/content.js";
import type { CliWords } from "./words/index.js";
import { reference } from "../trees/reference.js";
import { acquireLock, LockRefused, type AcquireResult, type Lock, type LockHolder, type LockRefusal } from "../core/lock.js";
import { CommandError, short, type Output } from "./shared.js";
import { applyChanges, listBackups, markRestored, readManifest, type Change } from "./transaction.js";

export type Action = "create" | "overwrite" | "leave" | "keep";

export interface PlanEntry {
  /** Relative to workspace/, with forward slashes. */
  readonly path: string;
  readonly action: Action;
  readonly before: string | null;
  readonly after: string | null;
  /** The reference file the entry copies, for create and overwrite. */
  readonly source: string | null;
  readonly note: string;
}

/** The hash of a learner's file, or null when there is none; anything but a regular file is refused. */
function currentHash(workspace: string, path: string, text: CliWords): string | null {
  const state = readFileState(join(workspace, path));
  if (state.kind === "other") throw new CommandError(text.start.notAFile(`workspace/${path}`, state.what));
  return state.kind === "file" ? sha256(state.bytes) : null;
}

/** Which files `start` would create, overwrite or leave, from the files' current hashes. */
export function planStart(catalog: Catalog, stage: Stage, text: CliWords, workspace: string = dirs.workspace): PlanEntry[] {
  const entries: PlanEntry[] = [];
  for (const owner of catalog.stages) {
    for (const name of owner.spec?.modules ?? []) {
      const path = modulePath(name);
      const before = currentHash(workspace, path, text);
      if (owner.number >= stage.number) {
        // The learner's own work for this stage or a later one: never touched by start.
        if (before) entries.push({ path, action: "keep", before, after: before, source: null, note: text.start.yourWork(owner.id) });
        continue;
      }
      const source = moduleFile(owner.solutionDir, name);
      const after = sha256(readFileSync(source));
      const action: Action = before === null ? "create" : before === after ? "leave" : "overwrite";
      const note = action === "overwrite" ? text.start.differs(owner.id) : text.start.reference(owner.id);
      entries.push({ path, action, before, after, source, note });
    }
  }
  return entries;
}

export function printPlan(output: Output, entries: readonly PlanEntry[], text: CliWords): void {
  const width = Math.max(...entries.map((entry) => entry.path.length), 4);
  for (const entry of entries) {
    const hashes = entry.action === "overwrite" ? `${short(entry.before)} → ${short(entry.after)}` : short(entry.after);
    output.out(
      `  ${padDisplay(text.start.actions[entry.action], 9)} workspace/${entry.path.padEnd(width)}  ${hashes.padEnd(27)}  ${entry.note}`,
    );
  }
}

export interface StartOptions {
  readonly yes: boolean;
  readonly interactive: boolean;
  readonly ask: (question: string) => Promise<boolean>;
  readonly output: Output;
  readonly text: CliWords;
  readonly now?: Date;
}

/** Runs `body` holding the lab's lock, after tidying what an interrupted command may have left. */
async function locked<T>(command: string, output: Output, text: CliWords, body: (lock: Lock) => Promise<T>): Promise<T> {
  const { lock, interrupted } = lockFor(command, text);
  try {
    if (interrupted) reportInterrupted(interrupted, output, text);
    await sweepTemporaryFiles(output, text);
    return await body(lock);
  } finally {
    lock.release();
  }
}

function reportInterrupted(holder: LockHolder, output: Output, text: CliWords): void {
  output.out(text.start.interrupted(holder.command, holder.pid, holder.startedAt, holder.backup ?? null));
}

/** A killed atomic write leaves a temporary file beside its target; under the lock none is in use. */
async function sweepTemporaryFiles(output: Output, text: CliWords): Promise<void> {
  const { atomic } = await reference();
  const folder = join(dirs.workspace, MODULE_DIR);
  const removed = await atomic.sweepStaleTemporaryFiles(folder, { olderThanMs: 0 }).catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  });
  if (removed.length > 0) output.out(text.start.swept(removed.length, text.list(removed)));
}

async function confirmOrRefuse(options: StartOptions, paths: readonly string[], question: string, refusal: string): Promise<void> {
  if (paths.length === 0 || options.yes) return;
  if (!options.interactive) throw new CommandError(refusal);
  if (!(await options.ask(question))) throw new CommandError(options.text.start.nothingChanged);
}

export async function start(catalog: Catalog, stage: Stage, options: StartOptions): Promise<void> {
  const { output, text } = options;
  await locked(`start ${stage.id}`, output, text, async (lock) => {
    const entries = planStart(catalog, stage, text);
    output.out(text.start.plan(stage.id));
    printPlan(output, entries, text);
    const changes = entries.filter((entry) => entry.action === "create" || entry.action === "overwrite");
    if (changes.length === 0) {
      output.out(text.start.nothingToDo(stage.id));
      return;
    }
    const overwrites = changes.filter((entry) => entry.action === "overwrite").map((entry) => `workspace/${entry.path}`);
    await confirmOrRefuse(options, overwrites, text.start.ask(overwrites.length), text.start.refuse(text.list(overwrites)));
    const writes: Change[] = changes.map((entry) => ({ path: entry.path, before: entry.before, after: readFileSync(entry.source ?? "") }));
    const { controller } = await reference();
    const digest = controller.previewDigest(Object.fromEntries(writes.map((write) => [write.path, write.after ?? new Uint8Array()])));
    const name = await applyChanges({
      command: `start ${stage.id}`,
      stage: stage.id,
      changes: writes,
      now: options.now,
      onBackup: (backup) => lock.noteBackup(backup),
      text,
    });
    output.out(text.start.done(changes.length - overwrites.length, overwrites.length, short(digest)));
    output.out(text.start.backup(name));
    output.out(text.start.next(repoPath(lessonIn(stage, text.locale).file, stage.root), stage.nn));
  });
}

export async function restore(name: string | undefined, options: StartOptions): Promise<void> {
  const { output, text } = options;
  await locked(`restore${name ? ` ${name}` : ""}`, output, text, async (lock) => {
    const backups = listBackups();
    // Only a backup the lab made can be named: the name is looked up, never joined onto a path.
    const chosen =
      name === undefined
        ? backups.filter((backup) => !backup.restored && readCommand(backup.name, text).startsWith("start ")).at(-1)
        : backups.find((backup) => backup.name === name);
    if (!chosen) {
      if (name !== undefined) {
        const known = backups.map((backup) => backup.name);
        throw new CommandError(text.restore.noSuchBackup(name, known.length > 0 ? text.list(known) : null));
      }
      throw new CommandError(text.restore.nothingLeft);
    }
    const manifest = readManifest(chosen.name, text);
    if (typeof manifest === "string") throw new CommandError(text.restore.cannotRestore(chosen.name, manifest));
    output.out(text.restore.plan(manifest.command, manifest.createdAt, chosen.name));

    const changes: Change[] = [];
    const changedSince: string[] = [];
    for (const entry of manifest.entries) {
      const now = currentHash(dirs.workspace, entry.path, text);
      if (now === entry.before) {
        output.out(`  ${padDisplay(text.restore.actions["as before"], 9)} workspace/${entry.path}  ${short(now)}`);
        continue;
      }
      let bytes: Uint8Array | null = null;
      if (entry.before !== null) {
        const copy = readFileState(backupFiles(chosen.name).copy(entry.path));
        if (copy.kind !== "file" || sha256(copy.bytes) !== entry.before) {
          throw new CommandError(text.restore.badCopy(`workspace/${entry.path}`, chosen.name));
        }
        bytes = copy.bytes;
      }
      const changed = now !== entry.after;
      if (changed) changedSince.push(`workspace/${entry.path}`);
      const verb = entry.before === null ? "remove" : now === null ? "recreate" : "restore";
      output.out(
        `  ${padDisplay(text.restore.actions[verb], 9)} workspace/${entry.path}  ${short(now)} → ${short(entry.before)}${changed ? text.restore.changedSince : ""}`,
      );
      changes.push({ path: entry.path, before: now, after: bytes, mode: entry.mode });
    }
    if (changes.length === 0) {
      markRestored(chosen, "nothing to do");
      output.out(text.restore.nothingToDo(manifest.command));
      return;
    }
    await confirmOrRefuse(
      options,
      changedSince,
      text.restore.ask(changedSince.length),
      text.restore.refuse(text.list(changedSince), manifest.command),
    );
    const undo = await applyChanges({
      command: `restore ${chosen.name}`,
      stage: manifest.stage,
      changes,
      now: options.now,
      onBackup: (backup) => lock.noteBackup(backup),
      text,
    });
    markRestored(chosen, undo);
    output.out(text.restore.restored(manifest.command));
    output.out(text.restore.undo(undo));
  });
}

function readCommand(name: string, text: CliWords): string {
  const manifest = readManifest(name, text);
  return typeof manifest === "string" ? "" : manifest.command;
}

/** The lab's lock for `command`, or a CommandError worded for the learner. */
function lockFor(command: string, text: CliWords): AcquireResult {
  try {
    return acquireLock(dirs.lock, command);
  } catch (error) {
    if (error instanceof LockRefused) throw new CommandError(refusalText(error.refusal, text));
    throw error;
  }
}

function refusalText(refusal: LockRefusal, text: CliWords): string {
  return refusal.kind === "busy" ? text.lock.busy(refusal.command, refusal.pid, refusal.startedAt) : text.lock.contended;
}
