// `lab start <stage>` and `lab restore [<backup>]`: put workspace/ at a stage's starting point, and undo
// it. Both print a plan with content hashes first, ask before replacing anything a learner wrote, hold the
// lab's lock, and change files only through transaction.ts: backup first, every write atomic, every
// replaced file checked right before it is replaced, and a rollback of what changed if a step fails.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { readFileState, sha256 } from "../core/files.js";
import { MODULE_DIR, backupFiles, dirs, moduleFile, modulePath, workspaceFile } from "../core/layout.js";
import { reference } from "../trees/reference.js";
import { acquireLock, type Lock, type LockHolder } from "./lock.js";
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
function currentHash(workspace: string, path: string): string | null {
  const state = readFileState(join(workspace, path));
  if (state.kind === "other") {
    throw new CommandError(
      `workspace/${path} is ${state.what}, not a file: move it out of the way and run the command again. Nothing was changed.`,
    );
  }
  return state.kind === "file" ? sha256(state.bytes) : null;
}

/** Which files `start` would create, overwrite or leave, from the files' current hashes. */
export function planStart(catalog: Catalog, stage: Stage, workspace: string = dirs.workspace): PlanEntry[] {
  const entries: PlanEntry[] = [];
  for (const owner of catalog.stages) {
    for (const name of owner.spec?.modules ?? []) {
      const path = modulePath(name);
      const before = currentHash(workspace, path);
      if (owner.number >= stage.number) {
        // The learner's own work for this stage or a later one: never touched by start.
        if (before) entries.push({ path, action: "keep", before, after: before, source: null, note: `your work for ${owner.id}` });
        continue;
      }
      const source = moduleFile(owner.solutionDir, name);
      const after = sha256(readFileSync(source));
      const action: Action = before === null ? "create" : before === after ? "leave" : "overwrite";
      const note = action === "overwrite" ? `differs from the reference of ${owner.id}` : `reference of ${owner.id}`;
      entries.push({ path, action, before, after, source, note });
    }
  }
  return entries;
}

export function printPlan(output: Output, entries: readonly PlanEntry[]): void {
  const width = Math.max(...entries.map((entry) => entry.path.length), 4);
  for (const entry of entries) {
    const hashes = entry.action === "overwrite" ? `${short(entry.before)} → ${short(entry.after)}` : short(entry.after);
    output.out(`  ${entry.action.padEnd(9)} workspace/${entry.path.padEnd(width)}  ${hashes.padEnd(27)}  ${entry.note}`);
  }
}

export interface StartOptions {
  readonly yes: boolean;
  readonly interactive: boolean;
  readonly ask: (question: string) => Promise<boolean>;
  readonly output: Output;
  readonly now?: Date;
}

/** Runs `body` holding the lab's lock, after tidying what an interrupted command may have left. */
async function locked<T>(command: string, output: Output, body: (lock: Lock) => Promise<T>): Promise<T> {
  const { lock, interrupted } = acquireLock(dirs.lock, command);
  try {
    if (interrupted) reportInterrupted(interrupted, output);
    await sweepTemporaryFiles(output);
    return await body(lock);
  } finally {
    lock.release();
  }
}

function reportInterrupted(holder: LockHolder, output: Output): void {
  const backup = holder.backup
    ? ` Its backup is .lab/backups/${holder.backup}/: npm run lab -- restore ${holder.backup} undoes what it did.`
    : " It had not changed anything yet.";
  output.out(`Note: an earlier lab command did not finish ("${holder.command}", process ${holder.pid}, ${holder.startedAt}).${backup}`);
}

/** A killed atomic write leaves a temporary file beside its target; under the lock none is in use. */
async function sweepTemporaryFiles(output: Output): Promise<void> {
  const { atomic } = await reference();
  const folder = join(dirs.workspace, MODULE_DIR);
  const removed = await atomic.sweepStaleTemporaryFiles(folder, { olderThanMs: 0 }).catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  });
  if (removed.length > 0)
    output.out(`Removed ${removed.length} temporary file(s) an interrupted write left in workspace/forge/tools/: ${removed.join(", ")}`);
}

async function confirmOrRefuse(options: StartOptions, paths: readonly string[], question: string, refusal: string): Promise<void> {
  if (paths.length === 0 || options.yes) return;
  if (!options.interactive) throw new CommandError(refusal);
  if (!(await options.ask(question))) throw new CommandError("Nothing was changed.");
}

export async function start(catalog: Catalog, stage: Stage, options: StartOptions): Promise<void> {
  const { output } = options;
  await locked(`start ${stage.id}`, output, async (lock) => {
    const entries = planStart(catalog, stage);
    output.out(`Plan: put workspace/ at the starting point of ${stage.id} (the reference modules of the stages before it).`);
    printPlan(output, entries);
    const changes = entries.filter((entry) => entry.action === "create" || entry.action === "overwrite");
    if (changes.length === 0) {
      output.out(`Nothing to do: workspace/ already holds the starting point of ${stage.id}.`);
      return;
    }
    const overwrites = changes.filter((entry) => entry.action === "overwrite").map((entry) => `workspace/${entry.path}`);
    await confirmOrRefuse(
      options,
      overwrites,
      `Replace ${overwrites.length} file(s) whose content differs from the reference? A backup is kept.`,
      `Refusing to overwrite ${overwrites.join(", ")} without consent: rerun with --yes (a backup is kept).`,
    );
    const writes: Change[] = changes.map((entry) => ({ path: entry.path, before: entry.before, after: readFileSync(entry.source ?? "") }));
    const { controller } = await reference();
    const digest = controller.previewDigest(Object.fromEntries(writes.map((write) => [write.path, write.after ?? new Uint8Array()])));
    const name = await applyChanges({
      command: `start ${stage.id}`,
      stage: stage.id,
      changes: writes,
      now: options.now,
      onBackup: (backup) => lock.noteBackup(backup),
    });
    output.out(`Done: ${changes.length - overwrites.length} created, ${overwrites.length} overwritten (plan digest ${short(digest)}).`);
    output.out(`Backup: .lab/backups/${name}/ — undo with: npm run lab -- restore ${name}`);
    output.out(`Next: read stages/${stage.id}/README.md and run npm test -- stage-${stage.nn}`);
  });
}

export async function restore(name: string | undefined, options: StartOptions): Promise<void> {
  const { output } = options;
  await locked(`restore${name ? ` ${name}` : ""}`, output, async (lock) => {
    const backups = listBackups();
    // Only a backup the lab made can be named: the name is looked up, never joined onto a path.
    const chosen =
      name === undefined
        ? backups.filter((backup) => !backup.restored && readCommand(backup.name).startsWith("start ")).at(-1)
        : backups.find((backup) => backup.name === name);
    if (!chosen) {
      if (name !== undefined) {
        const known = backups.map((backup) => backup.name);
        throw new CommandError(`No backup named "${name}" in .lab/backups/.${known.length > 0 ? ` Backups: ${known.join(", ")}` : ""}`);
      }
      throw new CommandError("There is no backup left to restore: start has not changed workspace/ (see .lab/backups/).");
    }
    const manifest = readManifest(chosen.name);
    if (typeof manifest === "string") throw new CommandError(`.lab/backups/${chosen.name}/ cannot be restored: ${manifest}.`);
    output.out(`Plan: undo "${manifest.command}" from ${manifest.createdAt} (.lab/backups/${chosen.name}/).`);

    const changes: Change[] = [];
    const changedSince: string[] = [];
    for (const entry of manifest.entries) {
      const now = currentHash(dirs.workspace, entry.path);
      if (now === entry.before) {
        output.out(`  ${"as before".padEnd(9)} workspace/${entry.path}  ${short(now)}`);
        continue;
      }
      let bytes: Uint8Array | null = null;
      if (entry.before !== null) {
        const copy = readFileState(backupFiles(chosen.name).copy(entry.path));
        if (copy.kind !== "file" || sha256(copy.bytes) !== entry.before) {
          throw new CommandError(
            `The backup of workspace/${entry.path} in .lab/backups/${chosen.name}/ is missing or does not match its recorded hash; nothing was changed.`,
          );
        }
        bytes = copy.bytes;
      }
      const changed = now !== entry.after;
      if (changed) changedSince.push(`workspace/${entry.path}`);
      const verb = entry.before === null ? "remove" : now === null ? "recreate" : "restore";
      output.out(
        `  ${verb.padEnd(9)} workspace/${entry.path}  ${short(now)} → ${short(entry.before)}${changed ? "  (changed since, kept in the new backup)" : ""}`,
      );
      changes.push({ path: entry.path, before: now, after: bytes, mode: entry.mode });
    }
    if (changes.length === 0) {
      markRestored(chosen, "nothing to do");
      output.out(`Nothing to do: workspace/ is already as it was before "${manifest.command}".`);
      return;
    }
    await confirmOrRefuse(
      options,
      changedSince,
      `Replace ${changedSince.length} file(s) you changed since? They are kept in a new backup.`,
      `Refusing to replace ${changedSince.join(", ")}, changed since "${manifest.command}", without consent: rerun with --yes (they are kept in a new backup).`,
    );
    const undo = await applyChanges({
      command: `restore ${chosen.name}`,
      stage: manifest.stage,
      changes,
      now: options.now,
      onBackup: (backup) => lock.noteBackup(backup),
    });
    markRestored(chosen, undo);
    output.out(`Restored: workspace/ is as it was before "${manifest.command}".`);
    output.out(`What this replaced is kept in .lab/backups/${undo}/ — undo this restore with: npm run lab -- restore ${undo}`);
  });
}

function readCommand(name: string): string {
  const manifest = readManifest(name);
  return typeof manifest === "string" ? "" : manifest.command;
}
