// The self-check: decide what a verification.json proves about a learner's stage. Pure: it gets the
// file's text and the course data embedded at build time, and returns a verdict whose message names the
// reason in words a learner understands. Nothing in the file is trusted that can be recomputed: counts
// are recounted, the test list is compared with the stage's current suite, and the stage's own module
// is compared with the course's reference and faulty modules.
// It validates with the lab's own zod schema, bundled into the site: one schema, not two.
import { READABLE_SCHEMA_VERSIONS, readVerification, TARGET_DESCRIPTIONS, type Run, type Verification } from "../../lab/evidence/schema.js";
import type { CourseData, StageSummary } from "./course.js";

/** A real verification file is a few kilobytes; anything this large is refused before it is parsed. */
export const MAX_FILE_BYTES = 1024 * 1024;

export type TestStatus = "passed" | "failed" | "missing";

/**
 * What a file says about the GitHub Actions run that wrote it. A claim, not a proof: the file names the
 * run where it can be checked (its URL and commit), and only a copy taken from that run's artifact is the
 * run's own output.
 */
export interface CiClaim {
  readonly url: string;
  readonly repository: string;
  readonly commit: string;
  readonly runner: Run["runner"]["environment"];
}

/** What a CI run's evidence proves and does not, in the self-check's words; the page and the class report say it. */
export const CI_EVIDENCE_NOTE =
  "Evidence from a CI run names the GitHub Actions run that wrote it: its URL, repository and commit. That is a claim the file makes, not a proof — anyone can type it into a file. It proves the result when the file is the one that run uploaded: take it from the run's artifact yourself (the run page, or gh run download), and the result is what GitHub's own runner computed for that commit. It does not prove that the code is the learner's own work beyond what the self-check checks, and a self-hosted runner is a machine its owner controls, so its run proves no more than a local one.";

export type Verdict =
  /** Not a usable verification file: the page keeps working and says why. */
  | { readonly kind: "invalid"; readonly message: string }
  /** A valid file that does not count as the learner's work: a reference tree, or a copy of the course's module. */
  | { readonly kind: "not-counted"; readonly stage: StageSummary; readonly message: string }
  /** The learner's own results, read: passed only when every check holds. */
  | {
      readonly kind: "read";
      readonly stage: StageSummary;
      readonly passed: boolean;
      readonly mastery: ReadonlyArray<{ readonly name: string; readonly status: TestStatus }>;
      readonly generatedAt: string;
      /** The GitHub Actions run the file says wrote it; null for a local run. */
      readonly ci: CiClaim | null;
      /** Why it did not pass, one sentence each; empty when it passed. */
      readonly problems: readonly string[];
      readonly message: string;
    };

const COPY_WORDS = { reference: "reference solution", faulty: "faulty module of the fault lab" } as const;

function describeIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join(".") || "(file)"}: ${issue.message}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}`;
}

const quoteList = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

/** Parses and validates the file; a string is the reason it is not a verification file. */
function readEvidence(text: string): Verification | string {
  if (text.length > MAX_FILE_BYTES) {
    return `This file is ${(text.length / 1024 / 1024).toFixed(1)} MB; a verification file is a few kilobytes, so it was not read.`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `This file is not JSON (${reason}). Pick the verification.json a test run wrote.`;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return "This file is JSON but not a verification file: it holds no object.";
  }
  const version = Object.hasOwn(data, "schemaVersion") ? (data as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (!READABLE_SCHEMA_VERSIONS.some((known) => known === version)) {
    return version === undefined
      ? "This file has no schemaVersion: it is not a Forge Lab verification file."
      : `This file has schema version ${JSON.stringify(version)}; this site reads versions ${READABLE_SCHEMA_VERSIONS.join(" and ")}. Rerun the tests with this version of the lab.`;
  }
  const read = readVerification(data);
  if (!read.ok) return `This file does not match the verification schema: ${describeIssues(read.issues)}.`;
  return read.verification;
}

/**
 * Why the run does not count as the learner's own work, or null when it does: a run against a reference
 * tree, or a stage module that came from solutions/ or faulty/ or is a copy of one of them.
 */
function notTheLearners(evidence: Verification, stage: StageSummary): string | null {
  const run = `npm test -- stage-${stage.nn}`;
  if (evidence.target !== "workspace") {
    return `This file comes from a run against ${TARGET_DESCRIPTIONS[evidence.target]} (target "${evidence.target}"), not your workspace, so it does not count. Run ${run} on your own code and load the verification.json it writes.`;
  }
  for (const module of stage.modules) {
    for (const source of evidence.sources.filter((candidate) => candidate.path.endsWith(`forge/tools/${module}.ts`))) {
      if (/^(?:solutions|faulty)\//.test(source.path)) {
        return `This run tested ${source.path}, the course's own code, not your workspace, so it does not count. Run ${run} on your own code.`;
      }
      const copy = stage.copies.find((known) => known.module === module && known.sha256 === source.sha256);
      if (copy) {
        return `Reference copy — not counted: ${source.path} is the course's ${COPY_WORDS[copy.kind]} byte for byte (line endings aside), as npm run lab -- start copies it, so passing it proves nothing about your work. Bring your own file back with npm run lab -- restore, or write your own, then run ${run} again.`;
      }
    }
  }
  return null;
}

/** Everything that keeps the learner's own run from passing, one sentence each. */
function problemsWith(evidence: Verification, stage: StageSummary): string[] {
  const problems: string[] = [];
  const missingModules = stage.modules.filter(
    (module) => !evidence.sources.some((source) => source.path.endsWith(`forge/tools/${module}.ts`)),
  );
  if (missingModules.length > 0) {
    problems.push(
      `The run found no ${missingModules.map((module) => `workspace/forge/tools/${module}.ts`).join(" or ")}: the stage's module was not written when the tests ran.`,
    );
  }
  if (evidence.acceptance !== "passed") problems.push(`The run itself records its acceptance as "${evidence.acceptance}", not "passed".`);

  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const test of evidence.tests) (seen.has(test.name) ? duplicates : seen).add(test.name);
  if (duplicates.size > 0)
    problems.push(`The file lists ${quoteList([...duplicates])} more than once; a run records each test once, so the file was edited.`);

  const count = (status: Verification["tests"][number]["status"]) => evidence.tests.filter((test) => test.status === status).length;
  const recount = {
    total: evidence.tests.length,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    loadErrors: evidence.loadErrors.length,
  };
  const wrong = (Object.keys(recount) as Array<keyof typeof recount>).filter((key) => evidence.summary[key] !== recount[key]);
  if (wrong.length > 0) {
    const detail = wrong.map((key) => `${key} ${evidence.summary[key]} where the lists give ${recount[key]}`).join(", ");
    problems.push(`The summary does not agree with the file's own lists (${detail}), so the file was edited.`);
  }

  const suite = new Set(stage.tests);
  const unknown = [...seen].filter((name) => !suite.has(name));
  if (unknown.length > 0) {
    problems.push(
      `The file lists ${unknown.length} test(s) that ${stage.id} does not have: ${quoteList(unknown)}. A renamed test or an older course version does not count: rerun npm test -- stage-${stage.nn}.`,
    );
  }
  const files = new Set(stage.testFiles);
  const strayFiles = [...new Set(evidence.tests.map((test) => test.file).filter((file) => !files.has(file)))];
  if (strayFiles.length > 0) problems.push(`The file names test files that ${stage.id} does not have: ${quoteList(strayFiles)}.`);
  const missing = stage.tests.filter((name) => !seen.has(name));
  if (missing.length > 0)
    problems.push(`${missing.length} of the stage's ${stage.tests.length} tests are missing from the file: ${quoteList(missing)}.`);
  const notPassed = evidence.tests.filter((test) => test.status !== "passed" && suite.has(test.name));
  if (notPassed.length > 0) {
    problems.push(`${notPassed.length} test(s) did not pass: ${notPassed.map((test) => `"${test.name}" (${test.status})`).join(", ")}.`);
  }
  if (evidence.loadErrors.length > 0) {
    problems.push(`${evidence.loadErrors.length} test file(s) did not load: ${evidence.loadErrors[0]?.message ?? ""}`);
  }
  problems.push(...runProblems(evidence));
  return problems;
}

/** A CI run's record must agree with itself and with the checkout it names: a record that does not was assembled by hand. */
function runProblems(evidence: Verification): string[] {
  const { run, git } = evidence;
  if (!run) return [];
  const problems: string[] = [];
  if (!run.url.endsWith(`/${run.repository}/actions/runs/${run.runId}`)) {
    problems.push(`The CI run's URL ${run.url} is not the URL of run ${run.runId} of ${run.repository}, so the file was edited.`);
  }
  if (git && git.commit !== run.commit) {
    problems.push(
      `The CI run built commit ${run.commit.slice(0, 12)} but the file records the checkout at ${git.commit.slice(0, 12)}, so the file was edited.`,
    );
  }
  return problems;
}

function ciClaim(evidence: Verification): CiClaim | null {
  const { run } = evidence;
  return run ? { url: run.url, repository: run.repository, commit: run.commit, runner: run.runner.environment } : null;
}

/** The sentence a verdict adds for a file that records a CI run. */
function ciSentence(claim: CiClaim): string {
  const runner =
    claim.runner === "self-hosted"
      ? " on a self-hosted runner, which proves no more than a local run"
      : claim.runner === "github-hosted"
        ? " on a GitHub-hosted runner"
        : "";
  return ` The file says GitHub Actions run ${claim.url} wrote it, for commit ${claim.commit.slice(0, 12)}${runner}: a claim to check against that run's own artifact, not a proof by itself.`;
}

export function checkVerification(text: string, course: CourseData): Verdict {
  const evidence = readEvidence(text);
  if (typeof evidence === "string") return { kind: "invalid", message: evidence };
  const stage = course.stages.find((known) => known.id === evidence.stage);
  if (!stage) {
    return { kind: "invalid", message: `This file is for "${evidence.stage}", which is not a stage of this course.` };
  }
  if (evidence.experimentId !== stage.experimentId) {
    return {
      kind: "invalid",
      message: `This file names experiment "${evidence.experimentId}", but ${stage.id} is "${stage.experimentId}".`,
    };
  }
  const notCounted = notTheLearners(evidence, stage);
  if (notCounted) return { kind: "not-counted", stage, message: notCounted };

  const problems = problemsWith(evidence, stage);
  const statuses = new Map<string, TestStatus>();
  for (const test of evidence.tests) {
    // A duplicate never turns a failure into a pass: the worst status of a name wins.
    if (statuses.get(test.name) !== "failed") statuses.set(test.name, test.status === "passed" ? "passed" : "failed");
  }
  const mastery = stage.mastery.map((name) => ({ name, status: statuses.get(name) ?? "missing" }));
  const passed = problems.length === 0;
  const ci = ciClaim(evidence);
  const message = passed
    ? `Self-check passed: all ${stage.tests.length} tests of ${stage.id} passed in a run of your own workspace code (${evidence.generatedAt}).`
    : `Results read for ${stage.id}, not passed yet. ${problems.join(" ")}`;
  return {
    kind: "read",
    stage,
    passed,
    mastery,
    generatedAt: evidence.generatedAt,
    ci,
    problems,
    message: ci ? `${message}${ciSentence(ci)}` : message,
  };
}
