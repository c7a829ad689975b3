// verification.json in the formats CI dashboards read: CTRF (the Common Test Report Format, JSON) and
// JUnit XML. Pure conversions of a read file; `lab export` writes them. Every test keeps its name, status,
// duration and failure message; a test file that did not load becomes a failed entry named after its file,
// so no dashboard shows green where the evidence does not.
import { CURRENT_SPEC_VERSION, validate, type CTRFReport, type Test } from "ctrf";
import type { Verification } from "./schema.js";

export const EXPORT_FORMATS = ["ctrf", "junit"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The name a file that did not load is reported under, in both formats. */
export const loadErrorName = (file: string) => `${file} did not load`;

function totalMs(evidence: Verification): number {
  return evidence.tests.reduce((sum, test) => sum + test.durationMs, 0);
}

export function toCtrf(evidence: Verification): CTRFReport {
  const stop = Date.parse(evidence.generatedAt);
  const tests: Test[] = [
    ...evidence.tests.map(
      (test): Test => ({
        name: test.name,
        status: test.status,
        duration: Math.round(test.durationMs),
        suite: [evidence.stage, test.file],
        filePath: test.file,
        ...(test.failure
          ? { message: test.failure.message, rawStatus: test.failure.kind === "assertion" ? "assertion failed" : "error" }
          : {}),
      }),
    ),
    ...evidence.loadErrors.map(
      (error): Test => ({
        name: loadErrorName(error.file),
        status: "failed",
        duration: 0,
        suite: [evidence.stage, error.file],
        filePath: error.file,
        message: error.message,
        rawStatus: "load error",
      }),
    ),
  ];
  const count = (status: Test["status"]) => tests.filter((test) => test.status === status).length;
  const { run, git } = evidence;
  return {
    reportFormat: "CTRF",
    specVersion: CURRENT_SPEC_VERSION,
    timestamp: evidence.generatedAt,
    generatedBy: `forge-lab ${evidence.tools.forgeLab}`,
    results: {
      tool: { name: "vitest", version: evidence.tools.vitest },
      summary: {
        tests: tests.length,
        passed: count("passed"),
        failed: count("failed"),
        skipped: count("skipped"),
        pending: 0,
        other: 0,
        suites: new Set(tests.map((test) => test.filePath)).size,
        start: Math.round(stop - totalMs(evidence)),
        stop,
        duration: Math.round(totalMs(evidence)),
      },
      tests,
      environment: {
        reportName: evidence.stage,
        appName: "forge-lab",
        appVersion: evidence.tools.forgeLab,
        testEnvironment: evidence.target,
        ...(git ? { commit: git.commit } : {}),
        ...(run
          ? {
              buildUrl: run.url,
              buildId: run.runId,
              repositoryName: run.repository,
              branchName: run.ref.replace(/^refs\/heads\//, ""),
              osPlatform: run.runner.os,
            }
          : {}),
      },
      extra: { experimentId: evidence.experimentId, acceptance: evidence.acceptance, contract: evidence.contract },
    },
  };
}

/** Problems the ctrf package's own validator finds in a report, one line each (none for a valid one). */
export function ctrfProblems(report: unknown): string[] {
  return validate(report).errors.map((error) => `${error.path || "(report)"}: ${error.message}`);
}

// Characters XML 1.0 cannot hold at all, not even escaped: they are replaced, so the file stays well-formed.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text for a double-quoted attribute: markup and quotes as entities, line breaks and tabs as character references (a parser would fold them into spaces). */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"'\r\n\t]/g, (char) => ENTITIES[char] ?? `&#${char.charCodeAt(0)};`);
}

/** Element text keeps its line breaks (a failure message spans lines). */
function xmlText(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>]/g, (char) => ENTITIES[char] ?? char);
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function toJunit(evidence: Verification): string {
  const properties = [
    ["stage", evidence.stage],
    ["experimentId", evidence.experimentId],
    ["target", evidence.target],
    ["acceptance", evidence.acceptance],
    ...(evidence.git ? [["commit", evidence.git.commit]] : []),
    ...(evidence.run ? [["run", evidence.run.url]] : []),
  ]
    .map(([name = "", value = ""]) => `<property name="${xmlEscape(name)}" value="${xmlEscape(value)}"/>`)
    .join("");
  const files = [...new Set([...evidence.tests.map((test) => test.file), ...evidence.loadErrors.map((error) => error.file)])];
  const suites = files.map((file) => {
    const tests = evidence.tests.filter((test) => test.file === file);
    const loadErrors = evidence.loadErrors.filter((error) => error.file === file);
    const cases = [
      ...tests.map((test) => {
        const body =
          test.status === "skipped"
            ? "<skipped/>"
            : test.failure
              ? `<failure message="${xmlEscape(test.failure.message.split("\n")[0] ?? "")}" type="${test.failure.kind === "assertion" ? "AssertionError" : "Error"}">${xmlText(test.failure.message)}</failure>`
              : test.status === "failed"
                ? `<failure message="failed" type="Error"/>`
                : "";
        const open = `<testcase classname="${xmlEscape(file)}" name="${xmlEscape(test.name)}" time="${seconds(test.durationMs)}" file="${xmlEscape(file)}"`;
        return body === "" ? `    ${open}/>` : `    ${open}>${body}</testcase>`;
      }),
      ...loadErrors.map(
        (error) =>
          `    <testcase classname="${xmlEscape(file)}" name="${xmlEscape(loadErrorName(file))}" time="0.000" file="${xmlEscape(file)}"><error message="${xmlEscape(error.message.split("\n")[0] ?? "")}" type="${xmlEscape(error.missingModule ? "ModuleNotWritten" : "LoadError")}">${xmlText(error.message)}</error></testcase>`,
      ),
    ];
    const failures = tests.filter((test) => test.status === "failed").length;
    const skipped = tests.filter((test) => test.status === "skipped").length;
    const time = seconds(tests.reduce((sum, test) => sum + test.durationMs, 0));
    return `  <testsuite name="${xmlEscape(file)}" tests="${tests.length + loadErrors.length}" failures="${failures}" errors="${loadErrors.length}" skipped="${skipped}" time="${time}" timestamp="${xmlEscape(evidence.generatedAt)}">\n    <properties>${properties}</properties>\n${cases.join("\n")}\n  </testsuite>`;
  });
  // Counted from the lists, as the self-check does: the file's own summary is not trusted.
  const failed = evidence.tests.filter((test) => test.status === "failed").length;
  const skipped = evidence.tests.filter((test) => test.status === "skipped").length;
  const total = evidence.tests.length + evidence.loadErrors.length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlEscape(evidence.stage)}" tests="${total}" failures="${failed}" errors="${evidence.loadErrors.length}" skipped="${skipped}" time="${seconds(totalMs(evidence))}" timestamp="${xmlEscape(evidence.generatedAt)}">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}
