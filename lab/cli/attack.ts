// `lab mcp-attack`: the attack suite (lab/attack/) against each server in turn, and its table: rows are
// the case classes, one column per server, each cell escapes / attempts.
import { attack, CASE_CLASSES, type ServerRun, totals, traversalPaths } from "../attack/suite.js";
import type { ServerName } from "../attack/servers.js";
import { shownPath } from "../core/layout.js";
import type { Output } from "./shared.js";
import type { CliWords } from "./words/index.js";

export interface AttackCommandOptions {
  readonly servers: readonly ServerName[];
  readonly payloads: "all" | "sample";
}

/** The table, as lines: a first column of labels, then one column per run. */
export function attackTable(runs: readonly ServerRun[], text: CliWords): string[] {
  const words = text.attack;
  const cell = (run: ServerRun, measured: (run: Extract<ServerRun, { kind: "measured" }>) => string) =>
    run.kind === "measured" ? measured(run) : run.kind === "not written" ? words.notWritten : words.failed;
  const rows: string[][] = [
    [words.caseClass, ...runs.map((run) => run.name)],
    [
      words.controls,
      ...runs.map((run) =>
        cell(run, (measured) => `${measured.controls.filter((control) => control.problem === null).length}/${measured.controls.length}`),
      ),
    ],
    ...CASE_CLASSES.map((caseClass) => [
      words.classes[caseClass],
      ...runs.map((run) =>
        cell(run, (measured) => {
          const tally = measured.classes[caseClass];
          return tally.pending !== null && tally.attempts === 0 ? words.pending : `${tally.escapes}/${tally.attempts}`;
        }),
      ),
    ]),
    [
      words.total,
      ...runs.map((run) =>
        cell(run, (measured) => {
          const { escapes, attempts } = totals(measured);
          return `${escapes}/${attempts}`;
        }),
      ),
    ],
    [words.calls, ...runs.map((run) => cell(run, (measured) => words.callsCell(measured.calls, measured.seconds)))],
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? "")].length))) ?? [];
  const pad = (value: string, width: number) => value + " ".repeat(Math.max(0, width - [...value].length));
  return rows.map((row) =>
    row
      .map((value, column) => pad(value, widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

/** Whether the command passes: the reference and a written learner let nothing escape, and every control of every run passed. */
export function attackPassed(runs: readonly ServerRun[]): boolean {
  return runs.every((run) => {
    if (run.kind === "not written") return true;
    if (run.kind === "failed") return false;
    const { escapes, controlsFailed } = totals(run);
    if (controlsFailed > 0) return false;
    return run.name === "learner" || run.name === "reference" ? escapes === 0 : true;
  });
}

/** Attacks each server in turn (never two at once: the seconds of one must not include another's load) and prints the table. */
export async function mcpAttack(options: AttackCommandOptions, output: Output, text: CliWords): Promise<number> {
  const runs: ServerRun[] = [];
  for (const name of options.servers) {
    output.err(text.attack.attacking(name));
    runs.push(await attack(name, { payloads: options.payloads }));
  }
  return printAttack(runs, options.payloads, output, text);
}

/** The table and what it rests on: the tools tried, pending rows, failed controls, the first escapes, the consent line; the exit status. */
export function printAttack(runs: readonly ServerRun[], mode: AttackCommandOptions["payloads"], output: Output, text: CliWords): number {
  const words = text.attack;
  const { lines, paths } = traversalPaths(mode);
  output.out(words.title(mode, lines, paths.length));
  output.out();
  for (const line of attackTable(runs, text)) output.out(line);
  output.out();
  // Loudly, right under the table: without its controls a server's zero escapes say nothing.
  for (const run of runs) {
    if (run.kind !== "measured") continue;
    for (const control of run.controls) {
      if (control.problem !== null) output.out(words.controlFailed(run.name, control.tool, control.args, control.problem));
    }
  }
  for (const run of runs) {
    if (run.kind === "not written") output.out(words.notWrittenLine(shownPath(run.module)));
    else if (run.kind === "failed") output.out(words.failedLine(run.name, run.error));
    else output.out(words.toolsLine(run.name, run.server, text.list(run.tried), text.list(run.untried), run.approvals));
  }
  const pending = new Set(
    runs.flatMap((run) => (run.kind === "measured" ? CASE_CLASSES.filter((name) => run.classes[name].pending !== null) : [])),
  );
  for (const caseClass of pending) {
    const reason = runs.flatMap((run) => (run.kind === "measured" ? [run.classes[caseClass].pending] : [])).find((found) => found !== null);
    if (reason !== undefined && reason !== null) output.out(words.pendingLine(words.classes[caseClass], words.pendingReasons[reason]));
  }
  const escapes = runs.flatMap((run) =>
    run.kind === "measured"
      ? CASE_CLASSES.flatMap((caseClass) => run.classes[caseClass].first.slice(0, 1).map((escape) => ({ run, escape })))
      : [],
  );
  if (escapes.length > 0) {
    output.out();
    output.out(words.firstEscapes);
    for (const { run, escape } of escapes)
      output.out(words.escapeLine(run.name, words.classes[escape.caseClass], escape.tool, escape.args, escape.what));
  }
  output.out();
  output.out(words.consent);
  const passed = attackPassed(runs);
  output.out(passed ? words.passed : words.notPassed);
  return passed ? 0 : 1;
}
