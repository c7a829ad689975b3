// The class report's data: from many learners' evidence, one self-check verdict per learner and stage. The folder holds one entry per
// learner — a folder (their evidence/, or an artifact unpacked) or a downloaded artifact .zip — and the
// report is a table of learners × stages in which each cell is the self-check's own verdict
// (lab/evidence/selfcheck.ts, with the course data the site embeds): no second judgement. Nothing a
// learner sent is trusted: a folder is walked without following links, every file and zip entry is
// size-checked before it is read, zip entry names are compared and never become paths, and every name
// that reaches the page or the CSV is escaped for it.
import { lstatSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readFileState } from "../core/files.js";
import { isUnsafeEntryName, readZip, ZipError } from "../core/zip.js";
import type { CourseData, StageSummary } from "./course-data.js";
import { MAX_FILE_BYTES } from "./file-size.js";
import { checkVerification, type CiClaim } from "./selfcheck.js";
import { VERDICTS } from "./words/en.js";

/** The report's own files, written into the class folder by default and skipped when it is read again. */
export const REPORT_FILES = { html: "class-report.html", csv: "class-report.csv" } as const;

const MAX_DEPTH = 8;
const MAX_ENTRIES_PER_LEARNER = 5_000;
/** A stage's evidence folder name: `04-approval-gate`. */
const STAGE_FOLDER = /^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** One verification.json found for a learner: its text, or why it was not read. */
interface Found {
  readonly where: string;
  /** The stage its folder names (`stage-04-approval-gate`). */
  readonly stage: string;
  readonly text: string | null;
  readonly problem: string | null;
}

export type CellState = "passed" | "not passed" | "not counted" | "invalid" | "none";

export interface Cell {
  readonly state: CellState;
  /** The GitHub Actions run the file claims, when it passed the self-check's reading. */
  readonly ci: CiClaim | null;
  /** The self-check's verdict, or why there is none. */
  readonly message: string;
  readonly file: string | null;
}

export interface LearnerRow {
  readonly name: string;
  /** A folder or a zip file, as found in the class folder. */
  readonly source: string;
  /** By stage id, in the course's order. */
  readonly cells: ReadonlyMap<string, Cell>;
  readonly passed: number;
}

export interface ClassReport {
  readonly learners: readonly LearnerRow[];
  readonly stages: readonly StageSummary[];
  /** What was skipped and why: entries that are not learners, unsafe zip names, unknown stages. */
  readonly notes: readonly string[];
  readonly generatedAt: string;
}

/** Where a cell sorts: the best evidence first when a column is sorted from the top. */
export function rank(cell: Cell): number {
  if (cell.state === "passed") return cell.ci?.runner === "github-hosted" ? 5 : 4;
  return { "not passed": 3, "not counted": 2, invalid: 1, none: 0 }[cell.state];
}

/** The cell in words: the page shows it, the CSV holds it. */
export function label(cell: Cell): string {
  if (cell.state === "passed" && cell.ci) return cell.ci.runner === "github-hosted" ? "passed (CI)" : "passed (self-hosted CI)";
  return cell.state;
}

function walkFolder(root: string, learner: string, found: Found[], notes: string[]): void {
  let seen = 0;
  const visit = (folder: string, shown: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch (error) {
      notes.push(`${learner}: ${shown || "."} cannot be read (${(error as Error).message})`);
      return;
    }
    for (const name of names) {
      seen += 1;
      if (seen > MAX_ENTRIES_PER_LEARNER) {
        notes.push(`${learner}: more than ${MAX_ENTRIES_PER_LEARNER} files; the rest were not read`);
        return;
      }
      const path = join(folder, name);
      const where = shown ? `${shown}/${name}` : name;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        notes.push(`${learner}: ${where} is a symbolic link, not followed`);
      } else if (stat.isDirectory()) {
        if (depth < MAX_DEPTH) visit(path, where, depth + 1);
        else notes.push(`${learner}: ${where} is nested too deep, not read`);
      } else if (stat.isFile() && name.toLowerCase().endsWith(".zip")) {
        readArtifact(path, `${learner}/${where}`, found, notes);
      } else if (stat.isFile() && name === "verification.json") {
        const stage = stageOf(basename(folder));
        if (!stage) continue;
        if (stat.size > MAX_FILE_BYTES) {
          found.push({
            where,
            stage,
            text: null,
            problem: `${where} is ${(stat.size / 1024 / 1024).toFixed(1)} MB; a verification file is a few kilobytes, so it was not read.`,
          });
          continue;
        }
        const state = readFileState(path);
        found.push(
          state.kind === "file"
            ? { where, stage, text: state.bytes.toString("utf8"), problem: null }
            : { where, stage, text: null, problem: `${where} could not be read as a file.` },
        );
      }
    }
  };
  visit(root, "", 0);
}

function stageOf(folder: string): string | null {
  const match = STAGE_FOLDER.exec(folder);
  return match ? `stage-${match[1]}-${match[2]}` : null;
}

/** The verification.json entries of an artifact zip, read in memory only. */
function readArtifact(file: string, shown: string, found: Found[], notes: string[]): void {
  let entries;
  try {
    entries = readZip(file);
  } catch (error) {
    notes.push(`${shown}: ${error instanceof ZipError ? error.message : `cannot be read (${(error as Error).message})`}`);
    return;
  }
  for (const entry of entries) {
    if (isUnsafeEntryName(entry.name)) {
      notes.push(`${shown}: the entry ${JSON.stringify(entry.name)} names a path outside the archive; it was not read`);
      continue;
    }
    const parts = entry.name.split("/");
    if (parts.at(-1) !== "verification.json") continue;
    const stage = stageOf(parts.at(-2) ?? "");
    if (!stage) continue;
    const where = `${basename(file)}:${entry.name}`;
    try {
      found.push({ where, stage, text: entry.read(MAX_FILE_BYTES).toString("utf8"), problem: null });
    } catch (error) {
      found.push({
        where,
        stage,
        text: null,
        problem: `${where}: ${error instanceof ZipError ? error.message : (error as Error).message}.`,
      });
    }
  }
}

function cellFor(files: readonly Found[], stage: StageSummary, course: CourseData): Cell {
  if (files.length === 0) return { state: "none", ci: null, message: "No verification.json for this stage.", file: null };
  if (files.length > 1) {
    const list = files.map((file) => file.where).join(", ");
    return {
      state: "invalid",
      ci: null,
      message: `${files.length} evidence files for this stage (${list}): keep one per learner.`,
      file: null,
    };
  }
  const [file] = files as [Found];
  if (file.text === null) return { state: "invalid", ci: null, message: file.problem ?? "not read", file: file.where };
  // The report is the instructor's, in English, as its page is.
  const verdict = checkVerification(file.text, course, VERDICTS);
  if (verdict.kind === "invalid") return { state: "invalid", ci: null, message: verdict.message, file: file.where };
  if (verdict.stage.id !== stage.id) {
    return { state: "invalid", ci: null, message: `The file in the folder of ${stage.id} is for ${verdict.stage.id}.`, file: file.where };
  }
  if (verdict.kind === "not-counted") return { state: "not counted", ci: null, message: verdict.message, file: file.where };
  return { state: verdict.passed ? "passed" : "not passed", ci: verdict.ci, message: verdict.message, file: file.where };
}

/** Reads a class folder and judges every learner's evidence with the self-check. */
export function buildClassReport(folder: string, course: CourseData, now: Date = new Date()): ClassReport {
  const notes: string[] = [];
  const learners: LearnerRow[] = [];
  const stageIds = new Set(course.stages.map((stage) => stage.id));
  for (const name of readdirSync(folder).sort((a, b) => a.localeCompare(b))) {
    if (name === REPORT_FILES.html || name === REPORT_FILES.csv || name.startsWith(".")) continue;
    const path = join(folder, name);
    const stat = lstatSync(path);
    const found: Found[] = [];
    let learner: string;
    if (stat.isDirectory()) {
      learner = name;
      walkFolder(path, name, found, notes);
    } else if (stat.isFile() && name.toLowerCase().endsWith(".zip")) {
      learner = name.slice(0, -4);
      readArtifact(path, name, found, notes);
    } else {
      notes.push(
        `${name}: ${stat.isSymbolicLink() ? "a symbolic link, not followed" : "not a learner's folder or artifact .zip"}; skipped`,
      );
      continue;
    }
    for (const file of found) {
      if (!stageIds.has(file.stage)) notes.push(`${learner}: ${file.where} is for ${file.stage}, which is not a stage of this course`);
    }
    // A Map, not an object: a learner or a stage named __proto__ is data, not a prototype.
    const cells = new Map<string, Cell>();
    for (const stage of course.stages)
      cells.set(
        stage.id,
        cellFor(
          found.filter((file) => file.stage === stage.id),
          stage,
          course,
        ),
      );
    learners.push({ name: learner, source: name, cells, passed: [...cells.values()].filter((cell) => cell.state === "passed").length });
  }
  return { learners, stages: course.stages, notes, generatedAt: now.toISOString() };
}

/** A CSV field that a spreadsheet shows as text: quoted, and never read as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function classCsv(report: ClassReport): string {
  const header = ["learner", ...report.stages.map((stage) => stage.id), "passed", "passed on CI"];
  const rows = report.learners.map((learner) => {
    const cells = report.stages.map((stage) => learner.cells.get(stage.id));
    const onCi = cells.filter((cell) => cell?.state === "passed" && cell.ci?.runner === "github-hosted").length;
    return [learner.name, ...cells.map((cell) => (cell ? label(cell) : "none")), String(learner.passed), String(onCi)];
  });
  return `${[header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
}
