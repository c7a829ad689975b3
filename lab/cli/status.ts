// `lab status`: where a learner stands in every stage, from the files on disk alone.
import { copyKind } from "../evidence/copies.js";
import { join } from "node:path";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { evidenceFile } from "../evidence/build.js";
import { MODULE_DIR, dirs, repoPath } from "../core/layout.js";
import { readVerification, type Verification } from "../evidence/schema.js";
import { readFileState, sha256, type NotAFile } from "../core/files.js";
import { padDisplay, displayWidth } from "../core/style.js";
import { lessonIn } from "../i18n/content.js";
import type { CliWords } from "./words/index.js";
import type { WorkspaceState } from "./vocabulary.js";
import type { Output } from "./shared.js";

export interface ModuleStatus {
  readonly name: string;
  /** A regular file is there: the learner's module (or a copy of the course's). */
  readonly present: boolean;
  /** Something that is not a regular file is there (a folder, a FIFO, a link): never read. */
  readonly blocked: NotAFile | null;
  readonly bytes: Buffer | null;
}

export interface StageStatus {
  readonly stage: Stage;
  /** Each module of the stage and what workspace/ has for it. */
  readonly modules: readonly ModuleStatus[];
  readonly evidence: "none" | "unreadable" | Verification["acceptance"];
  readonly evidenceAt: string | null;
  readonly state: WorkspaceState;
  /** The next step, in the edition's words. */
  readonly next: string;
}

function readEvidence(stage: Stage): Verification | "none" | "unreadable" {
  const file = evidenceFile(stage, "workspace");
  const state = readFileState(file);
  if (state.kind === "missing") return "none";
  if (state.kind === "other") return "unreadable";
  try {
    const read = readVerification(JSON.parse(state.bytes.toString("utf8")));
    return read.ok ? read.verification : "unreadable";
  } catch {
    return "unreadable";
  }
}

/** Each module of the stage and what workspace/ has for it. */
function moduleStatuses(stage: Stage): ModuleStatus[] {
  return (stage.spec?.modules ?? []).map((name): ModuleStatus => {
    const state = readFileState(join(dirs.workspace, MODULE_DIR, `${name}.ts`));
    return {
      name,
      present: state.kind === "file",
      blocked: state.kind === "other" ? state.what : null,
      bytes: state.kind === "file" ? state.bytes : null,
    };
  });
}

export function stageStatus(stage: Stage, text: CliWords): StageStatus {
  const modules = moduleStatuses(stage);
  const learnerFile = (name: string) => `workspace/forge/tools/${name}.ts`;
  const evidence = readEvidence(stage);
  const run = `npm test -- stage-${stage.nn}`;
  const firstMissing = modules.find((module) => !module.present);
  const base = {
    stage,
    modules,
    evidence: typeof evidence === "string" ? evidence : evidence.acceptance,
    evidenceAt: typeof evidence === "string" ? null : evidence.generatedAt,
  };
  const blocked = modules.find((module) => module.blocked !== null);
  if (blocked?.blocked) {
    return {
      ...base,
      state: "in progress",
      next: text.status.blocked(learnerFile(blocked.name), blocked.blocked),
    };
  }
  if (modules.every((module) => !module.present)) {
    return {
      ...base,
      state: "not started",
      next: text.status.notStarted(repoPath(lessonIn(stage, text.locale).file, stage.root), learnerFile(firstMissing?.name ?? "…")),
    };
  }
  // A module that is the course's own code is not the learner's work, whatever a run of it says.
  const copied = modules.find((module) => module.bytes !== null && copyKind(stage, module.name, module.bytes) !== null);
  if (copied) {
    return {
      ...base,
      state: "copied by start",
      next: text.status.copied(learnerFile(copied.name)),
    };
  }
  if (typeof evidence === "string") {
    return {
      ...base,
      state: "in progress",
      next: evidence === "unreadable" ? text.status.rerunUnreadable(run) : text.status.run(run),
    };
  }
  // Evidence counts only for the files it hashed: a module changed since the run needs a new run.
  const hashed = new Map(evidence.sources.map((source) => [source.path, source.sha256]));
  const changed = modules.some((module) => {
    const file = join(dirs.workspace, MODULE_DIR, `${module.name}.ts`);
    return module.bytes === null || hashed.get(repoPath(file)) !== sha256(module.bytes);
  });
  if (evidence.acceptance === "passed" && !changed) {
    return { ...base, state: "passed", next: text.status.passed };
  }
  if (evidence.acceptance === "passed") return { ...base, state: "changed since passing", next: text.status.changed(run) };
  if (firstMissing) return { ...base, state: "in progress", next: text.status.create(learnerFile(firstMissing.name), run) };
  if (evidence.acceptance === "pending") return { ...base, state: "in progress", next: text.status.unfinished(run) };
  const failed = evidence.summary.failed + evidence.summary.loadErrors;
  return { ...base, state: "failing", next: text.status.failing(failed, run, stage.nn) };
}

/** The stages whose module (any of them) is in workspace/: what `lab test --all` runs. */
export function startedStages(catalog: Catalog): Stage[] {
  return catalog.stages.filter((stage) => moduleStatuses(stage).some((module) => module.present));
}

/** The "last evidence" cell: the run's acceptance (a value of verification.json) and when it ran. */
function evidenceCell(status: StageStatus, text: CliWords): string {
  if (status.evidence === "none") return text.status.noEvidence;
  if (status.evidence === "unreadable") return text.status.unreadableEvidence;
  return `${status.evidence}${status.evidenceAt ? ` (${status.evidenceAt.slice(0, 16).replace("T", " ")})` : ""}`;
}

/** A table cell of Markdown: a pipe or a line break in a value must not break the table. */
function cell(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/[\r\n]+/g, " ")
    .replace(/[<>]/g, (char) => (char === "<" ? "&lt;" : "&gt;"));
}

/**
 * The same states as `lab status`, as a Markdown table: the job summary of the learner's workflow on
 * GitHub Actions (`npm run --silent lab -- status --markdown >> "$GITHUB_STEP_SUMMARY"`).
 */
export function statusMarkdown(catalog: Catalog, text: CliWords): string {
  const statuses = catalog.stages.map((stage) => stageStatus(stage, text));
  const rows = statuses.map((status) => {
    const { stage } = status;
    const modules = status.modules.map((module) => `\`${module.name}.ts\` ${module.present ? "✔" : "·"}`).join(" ");
    const state = text.status.states[status.state];
    return `| ${cell(`${stage.nn} ${stage.slug}`)} | ${modules} | ${cell(evidenceCell(status, text))} | **${cell(state)}** | ${cell(status.next)} |`;
  });
  const passed = statuses.filter((status) => status.state === "passed").length;
  return [
    // A blank line first: on GitHub the summary follows whatever vitest's own reporter wrote there.
    "",
    "## Forge Lab",
    "",
    text.status.passedCount(passed, catalog.stages.length),
    "",
    `| ${text.status.header.join(" | ")} |`,
    "|---|---|---|---|---|",
    ...rows,
    "",
    text.status.artifact,
    "",
  ].join("\n");
}

export function printStatus(catalog: Catalog, output: Output, text: CliWords): void {
  const rows = catalog.stages.map((stage) => {
    const status = stageStatus(stage, text);
    const modules = status.modules.map((module) => `${module.name}.ts ${module.present ? "✔" : "·"}`).join(" ");
    return [`${stage.nn} ${stage.slug}`, modules, evidenceCell(status, text), text.status.states[status.state], status.next];
  });
  const header = text.status.header;
  // Columns line up by what a terminal shows: a Chinese character takes two columns.
  const widths = header.map((title, index) => Math.max(displayWidth(title), ...rows.map((row) => displayWidth(row[index] ?? ""))));
  const line = (cells: readonly string[]) =>
    cells.map((cell, index) => (index === cells.length - 1 ? cell : padDisplay(cell, widths[index] ?? 0))).join("  ");
  output.out(line(header));
  for (const row of rows) output.out(line(row));
}
