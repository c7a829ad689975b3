// The self-check: decide what a verification.json proves about a learner's stage. Pure: it gets the
// file's text and the course data, and returns a verdict with a message for each way a file can fail.
// It validates with the lab's own zod schema, bundled into the site: one schema, not two.
import { config } from "zod/mini";
import { en } from "zod/locales";
import { VERIFICATION_SCHEMA_VERSION, verificationSchema, type Verification } from "../../lab/schemas/verification.js";
import type { CourseData, StageSummary } from "./course.js";

// zod/mini ships without messages; English ones name what is wrong in a file.
config(en());

export type TestStatus = "passed" | "failed" | "missing";

export type Verdict =
  /** Not a usable verification file: the page keeps working and says why. */
  | { readonly kind: "invalid"; readonly message: string }
  /** A valid file that does not count for the learner: a run against a reference tree. */
  | { readonly kind: "not-counted"; readonly stage: StageSummary; readonly message: string }
  /** The learner's own results, read: passed only when every mastery test is present and passed. */
  | {
      readonly kind: "read";
      readonly stage: StageSummary;
      readonly passed: boolean;
      readonly mastery: ReadonlyArray<{ readonly name: string; readonly status: TestStatus }>;
      readonly generatedAt: string;
      readonly message: string;
    };

const TARGET_WORDS: Readonly<Record<Exclude<Verification["target"], "workspace">, string>> = {
  solution: "the reference solution",
  faulty: "the faulty tree of the fault lab",
  start: "the stage's starting point",
};

function describeIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join(".") || "(file)"}: ${issue.message}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}`;
}

export function checkVerification(text: string, course: CourseData): Verdict {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "invalid", message: `This file is not JSON (${reason}). Pick the verification.json a test run wrote.` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { kind: "invalid", message: "This file is JSON but not a verification file: it holds no object." };
  }
  const version = "schemaVersion" in data ? data.schemaVersion : undefined;
  if (version !== VERIFICATION_SCHEMA_VERSION) {
    return {
      kind: "invalid",
      message:
        version === undefined
          ? "This file has no schemaVersion: it is not a Forge Lab verification file."
          : `This file has schema version ${JSON.stringify(version)}; this site reads version ${VERIFICATION_SCHEMA_VERSION}. Rerun the tests with this version of the lab.`,
    };
  }
  const parsed = verificationSchema.safeParse(data);
  if (!parsed.success) {
    return { kind: "invalid", message: `This file does not match the verification schema: ${describeIssues(parsed.error.issues)}.` };
  }
  const evidence = parsed.data;
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
  if (evidence.target !== "workspace") {
    return {
      kind: "not-counted",
      stage,
      message: `This file comes from a run against ${TARGET_WORDS[evidence.target]} (target "${evidence.target}"), not your workspace, so it does not count. Run npm test -- stage-${stage.nn} on your own code and load the verification.json it writes.`,
    };
  }

  const byName = new Map(evidence.tests.map((test) => [test.name, test.status]));
  const mastery = stage.mastery.map((name) => {
    const status = byName.get(name);
    return { name, status: status === "passed" ? "passed" : status === undefined ? "missing" : "failed" } as const;
  });
  const missing = mastery.filter((test) => test.status === "missing").map((test) => test.name);
  const failed = mastery.filter((test) => test.status === "failed").map((test) => test.name);
  const problems = [
    ...(failed.length > 0 ? [`${failed.length} mastery test(s) did not pass: ${failed.join("; ")}`] : []),
    ...(missing.length > 0 ? [`${missing.length} mastery test(s) are missing from the file: ${missing.join("; ")}`] : []),
    ...(evidence.loadErrors.length > 0 ? [`${evidence.loadErrors.length} test file(s) did not load: ${evidence.loadErrors[0]?.message ?? ""}`] : []),
  ];
  const passed = problems.length === 0;
  return {
    kind: "read",
    stage,
    passed,
    mastery,
    generatedAt: evidence.generatedAt,
    message: passed
      ? `Self-check passed: every mastery test of ${stage.id} passed in your workspace run of ${evidence.generatedAt}.`
      : `Results read for ${stage.id}, not passed yet: ${problems.join(". ")}.`,
  };
}
