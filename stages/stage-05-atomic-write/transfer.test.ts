import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { atomicWrite } from "forge/tools/atomic";
import { temporaryFolder } from "../../lab/testing.js";

// Transfer: an office-research team's assistant files its quarterly decision brief. The folder for
// reports does not exist yet, and the brief is confidential.
const encode = (text: string) => new TextEncoder().encode(text);

it("files the quarterly brief in a new reports folder and leaves no debris", async () => {
  const project = temporaryFolder();
  const brief = join(project, "reports", "summary.txt");
  await atomicWrite(brief, encode("Q3 summary"));
  expect(readFileSync(brief, "utf8"), "reports/summary.txt, written where reports/ did not exist").toBe("Q3 summary");
  expect(readdirSync(join(project, "reports")), "files in reports/ after the write (a temporary file left behind is debris)").toEqual([
    "summary.txt",
  ]);
  expect(readdirSync(project), "files in the project folder after the write").toEqual(["reports"]);
});

it("keeps a confidential brief readable by its owner only when it is revised", async () => {
  const project = temporaryFolder();
  const brief = join(project, "reports", "summary.txt");
  await atomicWrite(brief, encode("Q3 summary"));
  chmodSync(brief, 0o600);
  await atomicWrite(brief, encode("Q3 summary, revised after the board meeting"));
  expect(readFileSync(brief, "utf8"), "reports/summary.txt after the revision").toBe("Q3 summary, revised after the board meeting");
  expect((statSync(brief).mode & 0o777).toString(8), "the mode of reports/summary.txt after the revision (it was 600)").toBe("600");
  expect(readdirSync(join(project, "reports")), "files in reports/ after the revision (a temporary file left behind is debris)").toEqual([
    "summary.txt",
  ]);
});
