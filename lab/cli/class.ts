// `lab class <folder>`: the class report, as a static page and a CSV, from many learners' evidence.
import { existsSync, lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { classHtml } from "../../site/class.js";
import { courseData, loadCourse } from "../../site/content.js";
import { writeFileAtomic } from "../core/files.js";
import { buildClassReport, classCsv, REPORT_FILES } from "../evidence/class-report.js";
import type { CliWords } from "./words/index.js";
import { CommandError, type Output } from "./shared.js";

export async function classReport(folder: string, out: string | undefined, output: Output, text: CliWords): Promise<number> {
  const input = resolve(folder);
  if (!existsSync(input) || !lstatSync(input).isDirectory()) throw new CommandError(text.class.notAFolder(folder));
  const target = resolve(out ?? input);
  // The report judges with the self-check and the course data the site embeds.
  const report = buildClassReport(input, courseData(loadCourse()));
  const html = join(target, REPORT_FILES.html);
  const csv = join(target, REPORT_FILES.csv);
  writeFileAtomic(html, classHtml(report, folder));
  writeFileAtomic(csv, classCsv(report));
  const passed = report.learners.reduce((sum, learner) => sum + learner.passed, 0);
  output.out(text.class.summary(report.learners.length, passed, report.notes.length));
  output.out(text.class.wrote(html));
  output.out(text.class.wrote(csv));
  return 0;
}
