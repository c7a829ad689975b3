// verification.json as CTRF and JUnit XML: valid for their own checkers, and every name, status and
// message carried over whole, whatever characters a test name or a failure message holds.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect, it } from "vitest";
import { buildVerification } from "../../evidence/build.js";
import { ctrfProblems, loadErrorName, toCtrf, toJunit, xmlEscape } from "../../evidence/export.js";
import type { TestResult } from "../../evidence/schema.js";

const FILE = "stages/stage-04-approval-gate/approval.test.ts";
const test = (name: string, status: TestResult["status"], message?: string): TestResult => ({
  name,
  file: FILE,
  status,
  durationMs: 12.5,
  failure: message === undefined ? null : { kind: "assertion", message },
});
/** Names and messages a hand-rolled exporter gets wrong: markup, quotes, line breaks, control characters, emoji. */
const awkward = `a <plan> & "its" 'digest' ]]> 🎵`;
const multiline = `expected { a: 1 } to deeply equal { a: 2 }\n- expected\n+ received\n\u0001 and a lone \uD800 surrogate`;
const evidence = buildVerification({
  stage: { id: "stage-04-approval-gate", nn: "04", slug: "approval-gate" },
  target: "workspace",
  generatedAt: new Date("2026-04-05T06:07:08.000Z"),
  tools: { node: "v20.19.0", vitest: "4.1.12", forgeLab: "0.2.0" },
  git: { commit: "a".repeat(40), dirty: false },
  run: null,
  sources: [],
  tests: [test("passes a read without approval", "passed"), test(awkward, "failed", multiline), test("a skipped one", "skipped")],
  loadErrors: [
    {
      file: "stages/stage-04-approval-gate/transfer.test.ts",
      message: "ModuleNotWritten: forge/tools/approval is not written yet",
      missingModule: "approval",
    },
  ],
  complete: true,
  missingModules: [],
  contract: null,
});

it("writes CTRF that the ctrf package validates, with every test, the load error and the counts", () => {
  const report = toCtrf(evidence);
  expect(ctrfProblems(report), "the ctrf validator's findings").toEqual([]);
  expect(
    report.results.tests.map((entry) => [entry.name, entry.status, entry.message ?? null]),
    "CTRF tests as name, status, message",
  ).toEqual([
    ["passes a read without approval", "passed", null],
    [awkward, "failed", multiline],
    ["a skipped one", "skipped", null],
    [
      loadErrorName("stages/stage-04-approval-gate/transfer.test.ts"),
      "failed",
      "ModuleNotWritten: forge/tools/approval is not written yet",
    ],
  ]);
  expect(report.results.summary, "CTRF summary").toMatchObject({
    tests: 4,
    passed: 1,
    failed: 2,
    skipped: 1,
    stop: Date.parse("2026-04-05T06:07:08.000Z"),
  });
  expect(ctrfProblems({ ...report, reportFormat: "JUnit" }), "a report the validator must refuse").not.toEqual([]);
});

it("writes well-formed JUnit XML in which every name and message survives escaping", () => {
  const xml = toJunit(evidence);
  expect(XMLValidator.validate(xml), "XML well-formedness").toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase", "property"].includes(name),
  }).parse(xml);
  const suites = parsed.testsuites.testsuite as Array<{ name: string; errors: string; testcase: Array<Record<string, unknown>> }>;
  const cases = suites.flatMap((suite) => suite.testcase);
  const replaced = multiline.replace("\u0001", "\uFFFD").replace("\uD800", "\uFFFD");
  expect(
    cases.map((entry) => ({
      name: entry.name,
      failure: (entry.failure as { "#text"?: string } | undefined)?.["#text"] ?? null,
      error: (entry.error as { type?: string } | undefined)?.type ?? null,
      skipped: "skipped" in entry,
    })),
    "JUnit test cases as parsed back",
  ).toEqual([
    { name: "passes a read without approval", failure: null, error: null, skipped: false },
    { name: awkward, failure: replaced, error: null, skipped: false },
    { name: "a skipped one", failure: null, error: null, skipped: true },
    { name: loadErrorName("stages/stage-04-approval-gate/transfer.test.ts"), failure: null, error: "ModuleNotWritten", skipped: false },
  ]);
  expect(parsed.testsuites, "JUnit totals").toMatchObject({ tests: "4", failures: "1", errors: "1", skipped: "1" });
  expect(XMLValidator.validate(`<a b="${xmlEscape('x" onload="y')}"/>`), "an attribute that tries to close its quotes").toBe(true);
  expect(xmlEscape("line 1\nline 2\ttab"), "line breaks in an attribute").toBe("line 1&#10;line 2&#9;tab");
});
