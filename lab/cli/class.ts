// `lab class <folder>`: the class report, as a static page and a CSV, from many learners' evidence.
import { existsSync, lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../core/files.js";
import { CommandError, type Output } from "./shared.js";

export async function classReport(folder: string, out: string | undefined, output: Output): Promise<number> {
  const input = resolve(folder);
  if (!existsSync(input) || !lstatSync(input).isDirectory())
    throw new CommandError(`${folder} is not a folder: give the folder that holds one folder or artifact .zip per learner.`);
  const target = resolve(out ?? input);
  // The site's modules: the report judges with the self-check and the course data the site embeds.
  const [{ buildClassReport, classCsv, classHtml, REPORT_FILES }, { courseData, loadCourse }] = await Promise.all([
    import("../../site/class.js"),
    import("../../site/content.js"),
  ]);
  const report = buildClassReport(input, courseData(loadCourse()));
  const html = join(target, REPORT_FILES.html);
  const csv = join(target, REPORT_FILES.csv);
  writeFileAtomic(html, classHtml(report, folder));
  writeFileAtomic(csv, classCsv(report));
  const passed = report.learners.reduce((sum, learner) => sum + learner.passed, 0);
  output.out(
    `${report.learners.length} learners, ${passed} stage(s) passed in all; ${report.notes.length} thing(s) skipped (listed in the page).`,
  );
  output.out(`wrote ${html}`);
  output.out(`wrote ${csv}`);
  return 0;
}
