// `lab status`: where a learner stands in every stage, from the files on disk alone.
import { copyKind } from "../evidence/copies.js";
import { join } from "node:path";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { evidenceFile } from "../evidence/build.js";
import { MODULE_DIR, dirs, repoPath } from "../core/layout.js";
import { readVerification, type Verification } from "../evidence/schema.js";
import { readFileState, sha256 } from "../core/files.js";
import type { Output } from "./shared.js";

export interface ModuleStatus {
  readonly name: string;
  /** A regular file is there: the learner's module (or a copy of the course's). */
  readonly present: boolean;
  /** Something that is not a regular file is there (a folder, a FIFO, a link): never read. */
  readonly blocked: string | null;
  readonly bytes: Buffer | null;
}

export interface StageStatus {
  readonly stage: Stage;
  /** Each module of the stage and what workspace/ has for it. */
  readonly modules: readonly ModuleStatus[];
  readonly evidence: "none" | "unreadable" | Verification["acceptance"];
  readonly evidenceAt: string | null;
  readonly state: "not started" | "copied by start" | "in progress" | "failing" | "passed" | "changed since passing";
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

export function stageStatus(stage: Stage): StageStatus {
  const modules = (stage.spec?.modules ?? []).map((name): ModuleStatus => {
    const state = readFileState(join(dirs.workspace, MODULE_DIR, `${name}.ts`));
    return {
      name,
      present: state.kind === "file",
      blocked: state.kind === "other" ? state.what : null,
      bytes: state.kind === "file" ? state.bytes : null,
    };
  });
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
  if (blocked) {
    return {
      ...base,
      state: "in progress",
      next: `workspace/forge/tools/${blocked.name}.ts is ${blocked.blocked}, not a file: move it away and write the module there`,
    };
  }
  if (modules.every((module) => !module.present)) {
    return {
      ...base,
      state: "not started",
      next: `read stages/${stage.id}/README.md, then create workspace/forge/tools/${firstMissing?.name ?? "…"}.ts`,
    };
  }
  // A module that is the course's own code is not the learner's work, whatever a run of it says.
  const copied = modules.find((module) => module.bytes !== null && copyKind(stage, module.name, module.bytes) !== null);
  if (copied) {
    return {
      ...base,
      state: "copied by start",
      next: `workspace/forge/tools/${copied.name}.ts is the course's reference, not your work: write your own (npm run lab -- restore brings back a file start replaced)`,
    };
  }
  if (typeof evidence === "string") {
    return {
      ...base,
      state: "in progress",
      next: evidence === "unreadable" ? `rerun ${run}: the last evidence file cannot be read` : `run ${run}`,
    };
  }
  // Evidence counts only for the files it hashed: a module changed since the run needs a new run.
  const hashed = new Map(evidence.sources.map((source) => [source.path, source.sha256]));
  const changed = modules.some((module) => {
    const file = join(dirs.workspace, MODULE_DIR, `${module.name}.ts`);
    return module.bytes === null || hashed.get(repoPath(file)) !== sha256(module.bytes);
  });
  if (evidence.acceptance === "passed" && !changed) {
    return { ...base, state: "passed", next: "load its verification.json in the course site's self-check (npm start), then go on" };
  }
  if (evidence.acceptance === "passed")
    return { ...base, state: "changed since passing", next: `rerun ${run}: your code changed since it passed` };
  if (firstMissing) return { ...base, state: "in progress", next: `create workspace/forge/tools/${firstMissing.name}.ts, then run ${run}` };
  if (evidence.acceptance === "pending")
    return { ...base, state: "in progress", next: `run ${run}: the last run did not finish every test` };
  const failed = evidence.summary.failed + evidence.summary.loadErrors;
  return {
    ...base,
    state: "failing",
    next: `fix the ${failed} failing test(s) or test file(s), then rerun ${run} (hints: npm run lab -- hint ${stage.nn})`,
  };
}

/** The stages whose module (any of them) is in workspace/: what `lab test --all` runs. */
export function startedStages(catalog: Catalog): Stage[] {
  return catalog.stages.filter((stage) => stageStatus(stage).modules.some((module) => module.present));
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
export function statusMarkdown(catalog: Catalog): string {
  const statuses = catalog.stages.map(stageStatus);
  const rows = statuses.map((status) => {
    const { stage } = status;
    const modules = status.modules.map((module) => `\`${module.name}.ts\` ${module.present ? "✔" : "·"}`).join(" ");
    const evidence =
      status.evidence === "none"
        ? "none"
        : `${status.evidence}${status.evidenceAt ? ` (${status.evidenceAt.slice(0, 16).replace("T", " ")})` : ""}`;
    return `| ${cell(`${stage.nn} ${stage.slug}`)} | ${modules} | ${cell(evidence)} | **${cell(status.state)}** | ${cell(status.next)} |`;
  });
  const passed = statuses.filter((status) => status.state === "passed").length;
  return [
    // A blank line first: on GitHub the summary follows whatever vitest's own reporter wrote there.
    "",
    "## Forge Lab",
    "",
    `${passed} of ${catalog.stages.length} stages passed.`,
    "",
    "| stage | workspace module | last evidence | state | next step |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "The evidence of this run is the artifact `forge-lab-evidence`: each stage's `verification.json` records this run's URL and commit.",
    "",
  ].join("\n");
}

export function printStatus(catalog: Catalog, output: Output): void {
  const rows = catalog.stages.map((stage) => {
    const status = stageStatus(stage);
    const modules = status.modules.map((module) => `${module.name}.ts ${module.present ? "✔" : "·"}`).join(" ");
    const evidence =
      status.evidence === "none"
        ? "none"
        : `${status.evidence}${status.evidenceAt ? ` (${status.evidenceAt.slice(0, 16).replace("T", " ")})` : ""}`;
    return [`${stage.nn} ${stage.slug}`, modules, evidence, status.state, status.next];
  });
  const header = ["stage", "workspace module", "last evidence", "state", "next step"];
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join("  ");
  output.out(line(header));
  for (const row of rows) output.out(line(row));
}
