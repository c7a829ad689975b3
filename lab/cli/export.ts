// `lab export <stage> --format ctrf|junit`: a stage's verification.json in a format CI dashboards read.
import { dirname, join, resolve } from "node:path";
import type { Stage } from "../catalog/catalog.js";
import { readFileState, writeFileAtomic } from "../core/files.js";
import { repoPath } from "../core/layout.js";
import { evidenceFile } from "../evidence/build.js";
import { ctrfProblems, EXPORT_FORMATS, toCtrf, toJunit, type ExportFormat } from "../evidence/export.js";
import { readVerification } from "../evidence/schema.js";
import { CommandError, targetOption, UsageError, type Output } from "./shared.js";

export interface ExportOptions {
  readonly format: string | undefined;
  readonly target: string | undefined;
  /** A file to write, `-` for standard output; beside the evidence when absent. */
  readonly out: string | undefined;
}

const FILE_NAMES: Readonly<Record<ExportFormat, string>> = { ctrf: "ctrf-report.json", junit: "junit.xml" };

export function exportStage(stage: Stage, options: ExportOptions, output: Output): number {
  const format = EXPORT_FORMATS.find((known) => known === options.format);
  if (!format) {
    throw new UsageError(
      options.format === undefined
        ? `name a format: --format ${EXPORT_FORMATS.join(" or --format ")}`
        : `"${options.format}" is not a format: use ${EXPORT_FORMATS.join(" or ")}`,
    );
  }
  const target = targetOption(options.target);
  const source = evidenceFile(stage, target);
  const state = readFileState(source);
  if (state.kind === "missing")
    throw new CommandError(
      `${repoPath(source)} does not exist yet: run npm run lab -- test ${stage.nn}${target === "workspace" ? "" : ` --target ${target}`} first.`,
    );
  if (state.kind === "other") throw new CommandError(`${repoPath(source)} is ${state.what}, not a file.`);
  let data: unknown;
  try {
    data = JSON.parse(state.bytes.toString("utf8"));
  } catch (error) {
    throw new CommandError(`${repoPath(source)} is not JSON (${error instanceof Error ? error.message : String(error)}): rerun the tests.`);
  }
  const read = readVerification(data);
  if (!read.ok) {
    const issue = read.issues[0];
    throw new CommandError(
      `${repoPath(source)} is not a verification file: ${issue ? `${issue.path.map(String).join(".")}: ${issue.message}` : "invalid"}.`,
    );
  }
  let text: string;
  if (format === "ctrf") {
    const report = toCtrf(read.verification);
    const problems = ctrfProblems(report);
    if (problems.length > 0)
      throw new CommandError(`the CTRF report of ${stage.id} does not pass the ctrf validator: ${problems.join("; ")}`);
    text = `${JSON.stringify(report, null, 2)}\n`;
  } else {
    text = toJunit(read.verification);
  }
  if (options.out === "-") {
    output.out(text.trimEnd());
    return 0;
  }
  const file = options.out ? resolve(options.out) : join(dirname(source), FILE_NAMES[format]);
  writeFileAtomic(file, text);
  output.out(
    `wrote ${repoPath(file)} (${format === "ctrf" ? "CTRF" : "JUnit XML"}, ${read.verification.tests.length} tests, from ${repoPath(source)})`,
  );
  return 0;
}
