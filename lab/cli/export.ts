// `lab export <stage> --format ctrf|junit`: a stage's verification.json in a format CI dashboards read.
import { dirname, join, resolve } from "node:path";
import type { Stage } from "../catalog/catalog.js";
import { readFileState, writeFileAtomic } from "../core/files.js";
import { repoPath } from "../core/layout.js";
import { evidenceFile } from "../evidence/build.js";
import { ctrfProblems, EXPORT_FORMATS, toCtrf, toJunit, type ExportFormat } from "../evidence/export.js";
import { readVerification } from "../evidence/schema.js";
import type { CliWords } from "./words/index.js";
import { CommandError, targetOption, UsageError, type Output } from "./shared.js";

export interface ExportOptions {
  readonly format: string | undefined;
  readonly target: string | undefined;
  /** A file to write, `-` for standard output; beside the evidence when absent. */
  readonly out: string | undefined;
}

const FILE_NAMES: Readonly<Record<ExportFormat, string>> = { ctrf: "ctrf-report.json", junit: "junit.xml" };
const FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = { ctrf: "CTRF", junit: "JUnit XML" };

export function exportStage(stage: Stage, options: ExportOptions, output: Output, text: CliWords): number {
  const format = EXPORT_FORMATS.find((known) => known === options.format);
  if (!format) {
    throw new UsageError(
      options.format === undefined ? text.export.nameAFormat(EXPORT_FORMATS) : text.export.notAFormat(options.format, EXPORT_FORMATS),
    );
  }
  const target = targetOption(options.target, text);
  const source = evidenceFile(stage, target);
  const state = readFileState(source);
  if (state.kind === "missing")
    throw new CommandError(
      text.export.noEvidence(repoPath(source), `npm run lab -- test ${stage.nn}${target === "workspace" ? "" : ` --target ${target}`}`),
    );
  if (state.kind === "other") throw new CommandError(text.export.notAFile(repoPath(source), state.what));
  let data: unknown;
  try {
    data = JSON.parse(state.bytes.toString("utf8"));
  } catch (error) {
    throw new CommandError(text.export.notJson(repoPath(source), error instanceof Error ? error.message : String(error)));
  }
  const read = readVerification(data);
  if (!read.ok) {
    const issue = read.issues[0];
    throw new CommandError(
      text.export.notEvidence(repoPath(source), issue ? `${issue.path.map(String).join(".")}: ${issue.message}` : null),
    );
  }
  let body: string;
  if (format === "ctrf") {
    const report = toCtrf(read.verification);
    const problems = ctrfProblems(report);
    if (problems.length > 0) throw new CommandError(text.export.invalidCtrf(stage.id, problems.join("; ")));
    body = `${JSON.stringify(report, null, 2)}\n`;
  } else {
    body = toJunit(read.verification);
  }
  if (options.out === "-") {
    output.out(body.trimEnd());
    return 0;
  }
  const file = options.out ? resolve(options.out) : join(dirname(source), FILE_NAMES[format]);
  writeFileAtomic(file, body);
  output.out(text.export.wrote(repoPath(file), FORMAT_NAMES[format], read.verification.tests.length, repoPath(source)));
  return 0;
}
