// The class report read from 30 generated learners: every cell is the self-check's verdict, CI runs are
// marked, and what a hostile class sends (zip-slip names, damaged and oversized zips, a zip bomb, a huge
// file, links, names that are markup, formulas or __proto__) is skipped or escaped, never followed.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildClassReport, classCsv, label, type ClassReport } from "../../lab/evidence/class-report.js";
import { classHtml } from "../class.js";
import type { CourseData } from "../../lab/evidence/course-data.js";
import { courseData, loadCourse } from "../content.js";
import { generateClass, LEARNERS, type Expected } from "./support/class.js";

const course: CourseData = courseData(loadCourse());
let folder = "";
let expected: Expected;
let report: ClassReport;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "forge-class-"));
  expected = generateClass(course, folder);
  report = buildClassReport(folder, course, new Date("2026-05-02T08:00:00.000Z"));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

it("gives every one of 30 learners the self-check's verdict on each stage, CI runs marked", () => {
  expect(report.learners.length, "learners in the report").toBe(LEARNERS);
  const cells = new Map(
    report.learners.map((learner) => [
      learner.name,
      Object.fromEntries(
        course.stages.map((stage) => [
          stage.nn,
          label(learner.cells.get(stage.id) ?? { state: "none", ci: null, message: "", file: null }),
        ]),
      ),
    ]),
  );
  expect(cells, "each learner's cells").toEqual(expected);
  const copy = report.learners.find((learner) => learner.name === "learner-03")?.cells.get(course.stages[0]?.id ?? "");
  expect(copy?.message, "why a reference copy is not counted").toMatch(/^Reference copy — not counted: /);
  const ci = report.learners.find((learner) => learner.name === "learner-02")?.cells.get(course.stages[0]?.id ?? "");
  expect(ci?.ci?.url, "the run a CI cell links to").toBe("https://github.com/class/learner-02/actions/runs/77");
  expect(ci?.file, "where the CI cell's file came from").toBe(
    "learner-02.zip:tools-sandbox-side-effects/01-capability-registry/verification.json",
  );
});

it("skips what is not evidence and says why, without following links or extracting zip entries", () => {
  expect(report.notes, "what the report says it skipped").toEqual(
    expect.arrayContaining([
      expect.stringMatching(
        /^zip-slip\.zip: the entry "\.\.\/\.\.\/outside\/tools-sandbox-side-effects\/01-capability-registry\/verification\.json" names a path outside the archive; it was not read$/,
      ),
      expect.stringMatching(/^zip-slip\.zip: the entry "\/etc\/.*" names a path outside the archive/),
      expect.stringMatching(/^damaged\.zip: no end of central directory: not a zip file$/),
      "linked-repository: a symbolic link, not followed; skipped",
      "notes.txt: not a learner's folder or artifact .zip; skipped",
    ]),
  );
  const bomb = report.learners.find((learner) => learner.name === "bomb")?.cells.get(course.stages[0]?.id ?? "");
  expect(bomb?.message, "a 20 MB entry").toMatch(/is 20971520 bytes, more than the 1048576 read\.$/);
  const huge = report.learners.find((learner) => learner.name.startsWith("<img"))?.cells.get(course.stages[0]?.id ?? "");
  expect(huge?.message, "a 2 MB file").toMatch(/is 2\.0 MB; a verification file is a few kilobytes, so it was not read\.$/);
  expect(existsSync(join(folder, "..", "outside")), "a folder the zip-slip entry names").toBe(false);
  expect(({} as Record<string, unknown>).state, "Object.prototype after a learner named __proto__").toBeUndefined();
});

it("writes a CSV a spreadsheet reads as text, and a page whose names are escaped and whose script the CSP allows", () => {
  const csv = classCsv(report);
  const lines = csv.trimEnd().split("\r\n");
  expect(lines.length, "CSV lines: a header and one per learner").toBe(LEARNERS + 1);
  expect(lines[0], "the CSV header").toBe(`"learner",${course.stages.map((stage) => `"${stage.id}"`).join(",")},"passed","passed on CI"`);
  expect(lines, "the formula learner's row").toContainEqual(
    expect.stringMatching(/^"'=HYPERLINK\(""evil\.example"",""click""\)","passed",/),
  );
  expect(lines, "learner-02's row").toContainEqual(expect.stringMatching(/^"learner-02","passed \(CI\)","not passed",.*,"1","1"$/));
  const html = classHtml(report, "spring class");
  expect(html, "a learner name that is markup").not.toContain("<img src=x");
  expect(html, "the escaped name").toContain("&#60;img src=x onerror=alert(1)&#62; &#38; &#34;quotes&#34;");
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
  expect(csp, "the page's Content-Security-Policy").toMatch(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:$/,
  );
});
