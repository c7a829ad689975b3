// `lab class <folder>`: a class report from many learners' evidence. The folder holds one entry per
// learner — a folder (their evidence/, or an artifact unpacked) or a downloaded artifact .zip — and the
// report is a table of learners × stages in which each cell is the self-check's own verdict
// (site/client/selfcheck.ts, with the course data the site embeds): no second judgement. Nothing a
// learner sent is trusted: a folder is walked without following links, every file and zip entry is
// size-checked before it is read, zip entry names are compared and never become paths, and every name
// that reaches the page or the CSV is escaped for it.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readFileState } from "../lab/core/files.js";
import { isUnsafeEntryName, readZip, ZipError } from "../lab/core/zip.js";
import type { CourseData, StageSummary } from "./client/course.js";
import { checkVerification, MAX_FILE_BYTES, type CiClaim } from "./client/selfcheck.js";
import { TEXT } from "./client/text.js";
import { escapeHtml } from "./render.js";

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
  const verdict = checkVerification(file.text, course);
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

const SORT_SCRIPT = `(() => {
  const table = document.querySelector("table[data-class]");
  const body = table.tBodies[0];
  for (const button of table.querySelectorAll("thead button[data-column]")) {
    button.addEventListener("click", () => {
      const header = button.closest("th");
      const column = Number(button.dataset.column);
      const numeric = button.dataset.type === "number";
      // A stage or a count sorts best first on the first click; a name sorts A to Z.
      const first = numeric ? "descending" : "ascending";
      const order = header.getAttribute("aria-sort") === first ? (first === "ascending" ? "descending" : "ascending") : first;
      for (const other of table.querySelectorAll("thead th[aria-sort]")) other.removeAttribute("aria-sort");
      header.setAttribute("aria-sort", order);
      const key = (row) => row.cells[column].dataset.sort;
      const rows = Array.from(body.rows).sort((a, b) => {
        const compared = numeric ? Number(key(a)) - Number(key(b)) : key(a).localeCompare(key(b));
        return (order === "ascending" ? compared : -compared) || Number(a.dataset.index) - Number(b.dataset.index);
      });
      body.append(...rows);
    });
  }
  document.documentElement.dataset.ready = "true";
})();`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}main{padding:1.5rem;max-width:100%}
h1{margin:0 0 .25rem}p{max-width:70rem}.muted{color:#57606a}table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top;white-space:nowrap}
thead th{background:#f6f8fa;position:sticky;top:0}th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit;text-align:left}
th button:focus-visible{outline:2px solid #0969da;outline-offset:2px}th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td[data-state=passed]{background:#dafbe1}td[data-state="not passed"]{background:#fff8c5}td[data-state="not counted"]{background:#ffebe9}
td[data-state=invalid]{background:#ffebe9;color:#82071e}td[data-state=none]{color:#57606a}.ci{font-size:.8em;font-weight:600;color:#0550ae;margin-left:.3rem}
tfoot td{font-weight:600;background:#f6f8fa}ul.notes{max-width:70rem}`;

/** The class report as one static page: no request leaves it, and it works opened from disk. */
export function classHtml(report: ClassReport, source: string): string {
  const stageHeaders = report.stages
    .map(
      (stage, index) =>
        `<th scope="col"><button type="button" data-column="${index + 1}" data-type="number" title="${escapeHtml(stage.title)}">${escapeHtml(stage.nn)} ${escapeHtml(stage.title)}</button></th>`,
    )
    .join("");
  const rows = report.learners
    .map((learner, index) => {
      const cells = report.stages
        .map((stage) => {
          const cell = learner.cells.get(stage.id) ?? { state: "none" as const, ci: null, message: "", file: null };
          const ci =
            cell.state === "passed" && cell.ci
              ? ` <a class="ci" href="${escapeHtml(cell.ci.url)}" rel="noopener noreferrer" title="the run this file says wrote it">${cell.ci.runner === "github-hosted" ? "CI" : "self-hosted CI"}</a>`
              : "";
          const mark = { passed: "✔", "not passed": "✘", "not counted": "⚠", invalid: "⚠", none: "—" }[cell.state];
          const title = `${cell.file ? `${cell.file}: ` : ""}${cell.message}`;
          return `<td data-stage="${escapeHtml(stage.id)}" data-state="${cell.state}" data-sort="${rank(cell)}" title="${escapeHtml(title)}">${mark} ${escapeHtml(cell.state)}${ci}</td>`;
        })
        .join("");
      return `<tr data-index="${index}"><th scope="row" data-sort="${escapeHtml(learner.name.toLowerCase())}">${escapeHtml(learner.name)}</th>${cells}<td data-sort="${learner.passed}">${learner.passed}</td></tr>`;
    })
    .join("\n");
  const totals = report.stages
    .map((stage) => `<td>${report.learners.filter((learner) => learner.cells.get(stage.id)?.state === "passed").length}</td>`)
    .join("");
  const notes =
    report.notes.length === 0
      ? '<p class="muted">Nothing was skipped.</p>'
      : `<ul class="notes">${report.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>`;
  const digest = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${digest(STYLE)}; script-src ${digest(SORT_SCRIPT)}; img-src data:">
<title>Forge Lab · class report</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Forge Lab · class report</h1>
<p class="muted">${report.learners.length} learners from ${escapeHtml(source)}, read ${escapeHtml(report.generatedAt)}. Each cell is the course site's self-check verdict on that learner's verification.json; hover a cell for the reason. Click a column to sort it.</p>
<p>✔ passed: a complete run of the learner's own code passed every test of the stage. <strong>CI</strong>: the file says a GitHub Actions run on a GitHub-hosted runner wrote it (the link opens that run). ✘ not passed: read, with a reason. ⚠ not counted: a run of the course's own code (a reference copy, or a reference tree); ⚠ invalid: not a usable verification file. — none: no file for that stage.</p>
<p class="muted">${escapeHtml(TEXT.en.verdicts.ciEvidenceNote)}</p>
<table data-class>
<thead><tr><th scope="col" aria-sort="ascending"><button type="button" data-column="0" data-type="text">Learner</button></th>${stageHeaders}<th scope="col"><button type="button" data-column="${report.stages.length + 1}" data-type="number">Passed</button></th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row">Passed</th>${totals}<td></td></tr></tfoot>
</table>
<h2>Skipped while reading</h2>
${notes}
</main>
<script>${SORT_SCRIPT}</script>
</body>
</html>
`;
}
