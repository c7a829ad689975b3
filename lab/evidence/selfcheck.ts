// The self-check: decide what a verification.json proves about a learner's stage. Pure: it gets the
// file's text and the course data embedded at build time, and returns a verdict whose message names the
// reason in words a learner understands, in the edition it is given the words of (lab/evidence/words/). Nothing in the
// file is trusted that can be recomputed: counts are recounted, the test list is compared with the
// stage's current suite, and the stage's own module is compared with the course's reference and faulty
// modules.
// It validates with the lab's own zod schema, bundled into the site: one schema, not two.
import type { CourseData, StageSummary } from "./course-data.js";
import { MAX_FILE_BYTES, megabytes } from "./file-size.js";
import { readVerification, type Run, type Verification } from "./schema.js";
import { READABLE_SCHEMA_VERSIONS } from "./version.js";
import type { VerdictWords } from "./words/en.js";

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

type Words = VerdictWords;

function describeIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>, words: Words): string {
  // zod's own message stays in English: it names the field and the rule, which is data to the learner.
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join(".") || words.wholeFile}: ${issue.message}`);
  return words.issues(shown, Math.max(0, issues.length - 3));
}

/** Parses and validates the file; a string is the reason it is not a verification file. */
function readEvidence(text: string, words: Words): Verification | string {
  if (text.length > MAX_FILE_BYTES) return words.tooLarge(megabytes(text.length));
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return words.notJson(error instanceof Error ? error.message : String(error));
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return words.notObject;
  const version = Object.hasOwn(data, "schemaVersion") ? (data as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (!READABLE_SCHEMA_VERSIONS.some((known) => known === version)) {
    return version === undefined ? words.noSchemaVersion : words.otherVersion(JSON.stringify(version), READABLE_SCHEMA_VERSIONS);
  }
  const read = readVerification(data);
  if (!read.ok) return words.schemaMismatch(describeIssues(read.issues, words));
  return read.verification;
}

/**
 * Why the run does not count as the learner's own work, or null when it does: a run against a reference
 * tree, or a stage module that came from solutions/ or faulty/ or is a copy of one of them.
 */
function notTheLearners(evidence: Verification, stage: StageSummary, words: Words): string | null {
  const run = `npm test -- stage-${stage.nn}`;
  if (evidence.target !== "workspace") return words.notWorkspace(words.targets[evidence.target], evidence.target, run);
  for (const module of stage.modules) {
    for (const source of evidence.sources.filter((candidate) => candidate.path.endsWith(`forge/tools/${module}.ts`))) {
      if (/^(?:solutions|faulty)\//.test(source.path)) return words.courseCode(source.path, run);
      const copy = stage.copies.find((known) => known.module === module && known.sha256 === source.sha256);
      if (copy) return words.referenceCopy(source.path, words.copyKinds[copy.kind], run);
    }
  }
  return null;
}

/** Everything that keeps the learner's own run from passing, one sentence each. */
function problemsWith(evidence: Verification, stage: StageSummary, words: Words): string[] {
  const problems: string[] = [];
  const missingModules = stage.modules.filter(
    (module) => !evidence.sources.some((source) => source.path.endsWith(`forge/tools/${module}.ts`)),
  );
  if (missingModules.length > 0) problems.push(words.missingModules(missingModules.map((module) => `workspace/forge/tools/${module}.ts`)));
  if (evidence.acceptance !== "passed") problems.push(words.acceptance(evidence.acceptance));

  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const test of evidence.tests) (seen.has(test.name) ? duplicates : seen).add(test.name);
  if (duplicates.size > 0) problems.push(words.duplicates([...duplicates]));

  const count = (status: Verification["tests"][number]["status"]) => evidence.tests.filter((test) => test.status === status).length;
  const recount = {
    total: evidence.tests.length,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    loadErrors: evidence.loadErrors.length,
  };
  const wrong = (Object.keys(recount) as Array<keyof typeof recount>).filter((key) => evidence.summary[key] !== recount[key]);
  if (wrong.length > 0)
    problems.push(words.countsDiffer(wrong.map((key) => ({ key, claimed: evidence.summary[key], actual: recount[key] }))));

  const suite = new Set(stage.tests);
  const unknown = [...seen].filter((name) => !suite.has(name));
  if (unknown.length > 0) problems.push(words.unknownTests(unknown, stage.id, stage.nn));
  const files = new Set(stage.testFiles);
  const strayFiles = [...new Set(evidence.tests.map((test) => test.file).filter((file) => !files.has(file)))];
  if (strayFiles.length > 0) problems.push(words.strayFiles(stage.id, strayFiles));
  const missing = stage.tests.filter((name) => !seen.has(name));
  if (missing.length > 0) problems.push(words.missingTests(missing, stage.tests.length));
  const notPassed = evidence.tests.filter((test) => test.status !== "passed" && suite.has(test.name));
  if (notPassed.length > 0) problems.push(words.notPassedTests(notPassed));
  if (evidence.loadErrors.length > 0) problems.push(words.loadErrors(evidence.loadErrors.length, evidence.loadErrors[0]?.message ?? ""));
  problems.push(...runProblems(evidence, words));
  return problems;
}

/** A CI run's record must agree with itself and with the checkout it names: a record that does not was assembled by hand. */
function runProblems(evidence: Verification, words: Words): string[] {
  const { run, git } = evidence;
  if (!run) return [];
  const problems: string[] = [];
  if (!run.url.endsWith(`/${run.repository}/actions/runs/${run.runId}`)) problems.push(words.ciUrl(run.url, run.runId, run.repository));
  if (git && git.commit !== run.commit) problems.push(words.ciCommit(run.commit.slice(0, 12), git.commit.slice(0, 12)));
  return problems;
}

function ciClaim(evidence: Verification): CiClaim | null {
  const { run } = evidence;
  return run ? { url: run.url, repository: run.repository, commit: run.commit, runner: run.runner.environment } : null;
}

/** The sentence a verdict adds for a file that records a CI run. */
function ciSentence(claim: CiClaim, words: Words): string {
  return words.ciClaim(claim.url, claim.commit.slice(0, 12), words.runners[claim.runner]);
}

export function checkVerification(text: string, course: CourseData, words: Words): Verdict {
  const evidence = readEvidence(text, words);
  if (typeof evidence === "string") return { kind: "invalid", message: evidence };
  const stage = course.stages.find((known) => known.id === evidence.stage);
  if (!stage) return { kind: "invalid", message: words.unknownStage(evidence.stage) };
  if (evidence.experimentId !== stage.experimentId) {
    return { kind: "invalid", message: words.otherExperiment(evidence.experimentId, stage.id, stage.experimentId) };
  }
  const notCounted = notTheLearners(evidence, stage, words);
  if (notCounted) return { kind: "not-counted", stage, message: notCounted };

  const problems = problemsWith(evidence, stage, words);
  const statuses = new Map<string, TestStatus>();
  for (const test of evidence.tests) {
    // A duplicate never turns a failure into a pass: the worst status of a name wins.
    if (statuses.get(test.name) !== "failed") statuses.set(test.name, test.status === "passed" ? "passed" : "failed");
  }
  const mastery = stage.mastery.map((name) => ({ name, status: statuses.get(name) ?? "missing" }));
  const passed = problems.length === 0;
  const ci = ciClaim(evidence);
  const message = passed ? words.passed(stage.tests.length, stage.id, evidence.generatedAt) : words.notPassed(stage.id, problems);
  return {
    kind: "read",
    stage,
    passed,
    mastery,
    generatedAt: evidence.generatedAt,
    ci,
    problems,
    message: ci ? `${message}${ciSentence(ci, words)}` : message,
  };
}
