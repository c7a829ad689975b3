// `lab start <stage>` and `lab restore [<timestamp>]`: put workspace/ at a stage's starting point and
// undo it. Both follow the course's own pattern, through its reference modules: a plan with content
// hashes, consent before anything a learner wrote is replaced, a backup, atomic writes and a rollback
// of everything if any step fails.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { moduleFile, type Catalog, type Stage } from "../catalog.js";
import { writeFileAtomic } from "../files.js";
import { MODULE_DIR, dirs } from "../layout.js";
import { reference } from "../reference.js";
import { CommandError, LAB_STATE, fileHash, short, type Output } from "./shared.js";

export const BACKUPS = join(LAB_STATE, "backups");

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

/** Which files `start` would create, overwrite or leave. Pure over the files' current hashes. */
export function planStart(catalog: Catalog, stage: Stage, workspace: string = dirs.workspace): PlanEntry[] {
  const entries: PlanEntry[] = [];
  for (const owner of catalog.stages) {
    for (const name of owner.spec?.modules ?? []) {
      const path = `forge/tools/${name}.ts`;
      const before = fileHash(join(workspace, MODULE_DIR, `${name}.ts`));
      if (owner.number >= stage.number) {
        // The learner's own work for this stage or a later one: never touched by start.
        if (before) entries.push({ path, action: "keep", before, after: before, source: null, note: `your work for ${owner.id}` });
        continue;
      }
      const source = moduleFile(owner.solutionDir, name);
      const after = fileHash(source);
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

const manifestSchema = z.object({
  version: z.literal(1),
  stage: z.string(),
  operationId: z.string(),
  createdAt: z.string(),
  entries: z.array(
    z.object({
      path: z.string(),
      action: z.enum(["create", "overwrite"]),
      before: z.nullable(z.string()),
      after: z.string(),
    }),
  ),
});
type Manifest = z.infer<typeof manifestSchema>;

function timestamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, "-");
}

export interface StartOptions {
  readonly yes: boolean;
  readonly interactive: boolean;
  readonly ask: (question: string) => Promise<boolean>;
  readonly output: Output;
  readonly now?: Date;
}

export async function start(catalog: Catalog, stage: Stage, options: StartOptions): Promise<void> {
  const { output } = options;
  const entries = planStart(catalog, stage);
  output.out(`Plan: put workspace/ at the starting point of ${stage.id} (the reference modules of the stages before it).`);
  printPlan(output, entries);
  const changes = entries.filter((entry) => entry.action === "create" || entry.action === "overwrite");
  if (changes.length === 0) {
    output.out(`Nothing to do: workspace/ already holds the starting point of ${stage.id}.`);
    return;
  }
  const overwrites = changes.filter((entry) => entry.action === "overwrite");
  if (overwrites.length > 0 && !options.yes) {
    const question = `Replace ${overwrites.length} file(s) whose content differs from the reference? A backup is kept.`;
    if (!options.interactive) {
      throw new CommandError(`Refusing to overwrite ${overwrites.map((entry) => `workspace/${entry.path}`).join(", ")} without consent: rerun with --yes (a backup is kept).`);
    }
    if (!(await options.ask(question))) throw new CommandError("Nothing was changed.");
  }

  const { controller } = await reference();
  const writes: Record<string, Uint8Array> = {};
  for (const entry of changes) {
    if (entry.source) writes[entry.path] = readFileSync(entry.source);
  }
  const operationId = `lab-start-${stage.id}`;
  const digest = controller.previewDigest(writes);

  // The backup comes first: if it cannot be written, nothing else happens.
  const folder = join(BACKUPS, timestamp(options.now ?? new Date()));
  if (existsSync(folder)) throw new CommandError(`A backup named ${folder} already exists; try again in a moment.`);
  const manifest: Manifest = {
    version: 1,
    stage: stage.id,
    operationId,
    createdAt: (options.now ?? new Date()).toISOString(),
    entries: changes.map((entry) => ({ path: entry.path, action: entry.action === "overwrite" ? "overwrite" : "create", before: entry.before, after: entry.after ?? "" })),
  };
  try {
    for (const entry of overwrites) writeFileAtomic(join(folder, "files", entry.path), readFileSync(join(dirs.workspace, entry.path)));
    writeFileAtomic(join(folder, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }

  mkdirSync(dirs.workspace, { recursive: true });
  const transaction = new controller.SideEffectController(dirs.workspace);
  try {
    // The learner's consent above is the approval, bound to this exact plan's digest.
    await transaction.apply(operationId, writes, { operationId, planDigest: digest });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw new CommandError(`start failed and workspace/ was rolled back, unchanged: ${error instanceof Error ? error.message : String(error)}`);
  }
  const name = folder.slice(BACKUPS.length + 1);
  output.out(`Done: ${changes.length - overwrites.length} created, ${overwrites.length} overwritten (plan digest ${short(digest)}).`);
  output.out(`Backup: .lab/backups/${name}/ — undo with: npm run lab -- restore ${name}`);
  output.out(`Next: read stages/${stage.id}/README.md and run npm test -- stage-${stage.nn}`);
}

function readManifest(name: string): Manifest {
  const file = join(BACKUPS, name, "manifest.json");
  if (!existsSync(file)) throw new CommandError(`No backup named "${name}" in .lab/backups/.`);
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new CommandError(`.lab/backups/${name}/manifest.json is not a backup manifest: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

export function listBackups(): Array<{ name: string; restored: boolean }> {
  if (!existsSync(BACKUPS)) return [];
  return readdirSync(BACKUPS)
    .filter((name) => existsSync(join(BACKUPS, name, "manifest.json")))
    .sort()
    .map((name) => ({ name, restored: existsSync(join(BACKUPS, name, "restored.json")) }));
}

export async function restore(name: string | undefined, options: StartOptions): Promise<void> {
  const { output } = options;
  const chosen = name ?? listBackups().filter((backup) => !backup.restored).at(-1)?.name;
  if (!chosen) throw new CommandError("There is no backup left to restore: start has not changed workspace/ (see .lab/backups/).");
  const manifest = readManifest(chosen);
  output.out(`Plan: undo "start ${manifest.stage}" from ${manifest.createdAt} (.lab/backups/${chosen}/).`);
  const changed: string[] = [];
  for (const entry of manifest.entries) {
    const now = fileHash(join(dirs.workspace, entry.path));
    if (now !== null && now !== entry.after) changed.push(entry.path);
    const verb = entry.action === "overwrite" ? "restore" : now === null ? "gone" : "remove";
    const detail = entry.action === "overwrite" ? `${short(now)} → ${short(entry.before)}` : short(now);
    output.out(`  ${verb.padEnd(9)} workspace/${entry.path}  ${detail}${changed.includes(entry.path) ? "  (changed since start)" : ""}`);
  }
  if (changed.length > 0 && !options.yes) {
    if (!options.interactive) {
      throw new CommandError(`Refusing to replace ${changed.map((path) => `workspace/${path}`).join(", ")}, changed since start, without consent: rerun with --yes.`);
    }
    if (!(await options.ask(`Replace ${changed.length} file(s) you changed since start?`))) throw new CommandError("Nothing was changed.");
  }

  const { atomic, paths, rollback } = await reference();
  const journal = new rollback.RollbackJournal();
  try {
    for (const entry of manifest.entries) {
      const target = await paths.resolveWorkspacePath(dirs.workspace, entry.path);
      await journal.capture(target);
      if (entry.action === "overwrite") {
        const bytes = readFileSync(join(BACKUPS, chosen, "files", entry.path));
        if (entry.before !== null && fileHash(join(BACKUPS, chosen, "files", entry.path)) !== entry.before) {
          throw new Error(`the backup of ${entry.path} does not match its recorded hash`);
        }
        await atomic.atomicWrite(target, bytes);
      } else {
        rmSync(target, { force: true });
      }
    }
  } catch (error) {
    await journal.rollback();
    throw new CommandError(`restore failed and workspace/ was rolled back, unchanged: ${error instanceof Error ? error.message : String(error)}`);
  }
  writeFileAtomic(join(BACKUPS, chosen, "restored.json"), `${JSON.stringify({ restoredAt: new Date().toISOString() })}\n`);
  output.out(`Restored: workspace/ is as it was before "start ${manifest.stage}".`);
}
