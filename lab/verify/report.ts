// The table `verify` prints: one row per stage, then the repository-wide checks, then every breach.
import type { Check } from "./check.js";
import type { VerifyReport } from "./run.js";
import { paint } from "../core/style.js";

const COLUMNS = ["stage", "solution", "fault contract", "start fails", "spec complete", "mutation score", "zh-CN twin"] as const;

export function formatReport(report: VerifyReport, colours = paint()): string {
  const mark = (check: Check) => `${check.ok ? "✔" : "✘"} ${check.summary}`;
  const rows = report.rows.map((row) => [
    `${row.stage.nn} ${row.stage.slug}`,
    mark(row.solution),
    mark(row.fault),
    mark(row.start),
    mark(row.spec),
    mark(row.mutation),
    mark(row.twin),
  ]);
  const widths = COLUMNS.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: readonly string[], colour = (cell: string, _index: number) => cell) =>
    cells
      .map((cell, index) => colour(cell.padEnd(widths[index] ?? 0), index))
      .join("  ")
      .trimEnd();
  const tint = (cell: string, index: number) => (index === 0 ? cell : cell.startsWith("✔") ? colours.green(cell) : colours.red(cell));

  const out: string[] = [colours.bold("Forge Lab · verify"), "", colours.dim(line(COLUMNS)), ...rows.map((row) => line(row, tint)), ""];
  const others: Array<readonly [string, Check]> = [
    ["generated files (npm run generate)", report.generated],
    ["zh-CN pages (map, workspace, README)", report.editions],
    [`typecheck (tsc --noEmit, ${report.seconds.typecheck.toFixed(1)} s)`, report.typecheck],
    ["lint (biome format, knip)", report.lint],
    ...report.suites.map((suite) => [suite.label, suite.check] as const),
  ];
  const wide = Math.max(...others.map(([label]) => label.length));
  out.push(
    ...others.map(([label, check]) => `${label.padEnd(wide)}  ${check.ok ? colours.green(mark(check)) : colours.red(mark(check))}`),
    "",
  );

  const breaches: string[] = [];
  for (const row of report.rows) {
    for (const [label, check] of [
      ["solution", row.solution],
      ["fault contract", row.fault],
      ["start fails", row.start],
      ["spec complete", row.spec],
      ["mutation score", row.mutation],
      ["zh-CN twin", row.twin],
    ] as const) {
      for (const problem of check.problems) breaches.push(`${row.stage.id} · ${label}: ${problem}`);
    }
  }
  for (const problem of report.catalogProblems) breaches.push(`${problem.file}: ${problem.message}`);
  for (const problem of report.generated.problems) breaches.push(`generated files: ${problem}`);
  for (const problem of report.editions.problems) breaches.push(`zh-CN pages: ${problem}`);
  for (const problem of report.typecheck.problems) breaches.push(`typecheck: ${problem}`);
  for (const problem of report.lint.problems) breaches.push(`lint: ${problem}`);
  for (const suite of report.suites) for (const problem of suite.check.problems) breaches.push(`${suite.label}: ${problem}`);
  if (report.rows.length === 0) breaches.push("no stage was found under stages/");

  if (breaches.length > 0) {
    out.push(colours.red(colours.bold(`${breaches.length} breach(es):`)), ...breaches.map((breach) => colours.red(`  ✘ ${breach}`)), "");
  }
  out.push(
    report.ok
      ? colours.green(`All checks passed in ${report.seconds.total.toFixed(1)} s.`)
      : colours.red(`Verify failed in ${report.seconds.total.toFixed(1)} s.`),
  );
  return out.join("\n");
}
