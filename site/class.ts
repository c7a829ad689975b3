// The class report as a page: one static HTML file, sortable, readable straight from disk. Its data
// (lab/evidence/class-report.ts) is the self-check's verdict on each learner's evidence.
import { createHash } from "node:crypto";
import { VERDICTS } from "../lab/evidence/words/en.js";
import { rank, type ClassReport } from "../lab/evidence/class-report.js";
import { escapeHtml } from "./client/widgets/shared.js";

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
<p class="muted">${escapeHtml(VERDICTS.ciEvidenceNote)}</p>
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
