import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect, it } from "vitest";
import { buildVerification, evidenceFile, type RunFacts } from "../../evidence/build.js";
import { writeFileAtomic } from "../../core/files.js";
import { dirs, ROOT } from "../../core/layout.js";
import { exportedSchemas } from "../../authoring/schemas.js";
import { readVerification, type TestResult } from "../../evidence/schema.js";
import { gitState, parseGitStatus } from "../../evidence/reporter.js";
import { ciRun } from "../../evidence/run.js";
import { temporaryFolder } from "../../testing.js";

const stage = { id: "stage-01-capability-registry", nn: "01", slug: "capability-registry" };
const test = (status: TestResult["status"]): TestResult => ({
  name: `a ${status} test`,
  file: "stages/stage-01-capability-registry/registry.test.ts",
  status,
  durationMs: 2.5,
  failure: status === "failed" ? { kind: "assertion", message: "expected 1 to be 2" } : null,
});
const facts = (overrides: Partial<RunFacts> = {}): RunFacts => ({
  stage,
  target: "workspace",
  generatedAt: new Date("2026-01-02T03:04:05.000Z"),
  tools: { node: "v20.0.0", vitest: "4.1.0", forgeLab: "0.1.0" },
  git: { commit: "a".repeat(40), dirty: false },
  run: null,
  sources: [{ path: "workspace/forge/tools/registry.ts", sha256: "b".repeat(64) }],
  tests: [test("passed")],
  loadErrors: [],
  complete: true,
  missingModules: [],
  contract: null,
  ...overrides,
});

it("accepts a stage only when every test ran and passed", () => {
  expect(buildVerification(facts()).acceptance).toBe("passed");
  expect(buildVerification(facts({ tests: [test("passed"), test("failed")] })).acceptance).toBe("failed");
  expect(buildVerification(facts({ tests: [], loadErrors: [{ file: "x", message: "y", missingModule: "registry" }] })).acceptance).toBe(
    "failed",
  );
  // Filtered with -t, interrupted, or nothing ran: not a verdict yet.
  expect(buildVerification(facts({ tests: [test("passed"), test("skipped")] })).acceptance).toBe("pending");
  expect(buildVerification(facts({ complete: false })).acceptance).toBe("pending");
  expect(buildVerification(facts({ tests: [] })).acceptance).toBe("pending");
});

it("records a stage whose own module is missing as pending, not failed: nobody started it", () => {
  const notStarted = facts({
    tests: [],
    loadErrors: [{ file: "x", message: "forge/tools/registry is not written yet", missingModule: "registry" }],
    missingModules: ["registry"],
  });
  expect(buildVerification(notStarted).acceptance, "acceptance of a run without the stage's module").toBe("pending");
});

it("records the counts, the experiment id and the schema version", () => {
  const record = buildVerification(facts({ tests: [test("passed"), test("failed"), test("skipped")] }));
  expect(record).toMatchObject({
    schemaVersion: 2,
    experimentId: "tools-sandbox-side-effects-01-capability-registry",
    summary: { total: 3, passed: 1, failed: 1, skipped: 1, loadErrors: 0 },
    contract: null,
  });
  // Building validates nothing (a run loads no schema library): what it builds must be what a reader accepts.
  const read = readVerification(JSON.parse(JSON.stringify(record)));
  expect(read.ok ? [] : read.issues, "the schema's issues with a built record").toEqual([]);
  const faulty = buildVerification(facts({ target: "faulty", contract: null, run: null, git: null }));
  const readFaulty = readVerification(JSON.parse(JSON.stringify(faulty)));
  expect(readFaulty.ok ? [] : readFaulty.issues, "the schema's issues with a built faulty record").toEqual([]);
});

it("keeps a learner's evidence apart from reference runs", () => {
  const folder = join(dirs.evidence, "tools-sandbox-side-effects", "01-capability-registry");
  expect(evidenceFile(stage, "workspace")).toBe(join(folder, "verification.json"));
  expect(evidenceFile(stage, "solution")).toBe(join(folder, "verification.solution.json"));
  expect(evidenceFile(stage, "faulty")).toBe(join(folder, "verification.faulty.json"));
});

it("writes a file atomically, leaving no temporary file behind", () => {
  const folder = temporaryFolder();
  const file = join(folder, "nested", "verification.json");
  writeFileAtomic(file, "one");
  writeFileAtomic(file, "two");
  expect(readFileSync(file, "utf8")).toBe("two");
  expect(readdirSync(join(folder, "nested"))).toEqual(["verification.json"]);
});

it("keeps the committed JSON Schema files in step with the zod schemas", () => {
  for (const { file, content } of exportedSchemas()) {
    expect(existsSync(file), `${file} is missing: run npm run generate`).toBe(true);
    expect(readFileSync(file, "utf8"), `${file} is stale: run npm run generate`).toBe(content);
  }
});

it("produces evidence that the committed JSON Schema accepts, and the schema rejects a broken file", () => {
  const schema: unknown = JSON.parse(readFileSync(join(dirs.root, "evidence", "verification.schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema as object);
  const record = buildVerification(facts({ tests: [test("passed"), test("failed")] }));
  expect(validate(JSON.parse(JSON.stringify(record))), JSON.stringify(validate.errors)).toBe(true);
  expect(validate({ ...record, schemaVersion: 1 }), "the exported schema is version 2's").toBe(false);
  expect(validate({ ...record, run: { ...GITHUB_RUN, url: "javascript:alert(1)" } }), "a run URL that is not a run's").toBe(false);
  expect(validate({ ...record, acceptance: "certified" })).toBe(false);
});

/** The variables a GitHub-hosted runner sets, as a job on a push sees them. */
const GITHUB_ENV = {
  GITHUB_ACTIONS: "true",
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_REPOSITORY: "ada/forge-lab",
  GITHUB_RUN_ID: "987654321",
  GITHUB_RUN_ATTEMPT: "2",
  GITHUB_WORKFLOW: "forge-lab",
  GITHUB_EVENT_NAME: "push",
  GITHUB_REF: "refs/heads/main",
  GITHUB_SHA: "c".repeat(40),
  RUNNER_OS: "Linux",
  RUNNER_ARCH: "X64",
  RUNNER_NAME: "GitHub Actions 12",
  RUNNER_ENVIRONMENT: "github-hosted",
};
const GITHUB_RUN = {
  provider: "github-actions",
  url: "https://github.com/ada/forge-lab/actions/runs/987654321",
  repository: "ada/forge-lab",
  runId: "987654321",
  runAttempt: 2,
  workflow: "forge-lab",
  event: "push",
  ref: "refs/heads/main",
  commit: "c".repeat(40),
  runner: { os: "Linux", arch: "X64", name: "GitHub Actions 12", environment: "github-hosted" },
} as const;

it("records the GitHub Actions run from the runner's variables, and nothing anywhere else", () => {
  expect(ciRun(GITHUB_ENV), "the run recorded on a GitHub-hosted runner").toEqual(GITHUB_RUN);
  expect(ciRun({}), "the run recorded on a machine that is not a runner").toBeNull();
  expect(ciRun({ ...GITHUB_ENV, GITHUB_ACTIONS: "1" }), "GITHUB_ACTIONS must be exactly true").toBeNull();
  const { GITHUB_RUN_ID: _id, ...withoutRunId } = GITHUB_ENV;
  expect(ciRun(withoutRunId), "a runner whose variables do not name a run").toBeNull();
  expect(ciRun({ ...GITHUB_ENV, RUNNER_ENVIRONMENT: "self-hosted" })?.runner.environment, "a self-hosted runner is named so").toBe(
    "self-hosted",
  );
  expect(ciRun({ ...GITHUB_ENV, RUNNER_ENVIRONMENT: "my laptop" })?.runner.environment, "an unknown runner kind").toBe("unknown");
  expect(buildVerification(facts({ run: ciRun(GITHUB_ENV) })).run, "the run as verification.json records it").toEqual(GITHUB_RUN);
});

it("reads a version 1 file as version 2 with no run, and refuses a version it does not know", () => {
  const { run: _run, ...current } = buildVerification(facts());
  const v1 = { ...current, schemaVersion: 1 };
  const read = readVerification(JSON.parse(JSON.stringify(v1)));
  expect(read.ok && read.version, "the version a version 1 file is read as").toBe(1);
  expect(read.ok && read.verification, "a version 1 file after migration").toEqual({ ...current, schemaVersion: 2, run: null });
  const withRun = readVerification({ ...v1, run: GITHUB_RUN });
  expect(withRun.ok ? "accepted" : withRun.issues.map((issue) => issue.message).join("; "), "a version 1 file cannot carry a run").toMatch(
    /run/,
  );
  expect(readVerification({ ...v1, schemaVersion: 3 }).ok, "schema version 3").toBe(false);
});

it("reads the commit and whether the checkout has changes from one git status", async () => {
  const commit = "c".repeat(40);
  const header = `# branch.oid ${commit}\n# branch.head main\n`;
  expect(
    {
      clean: parseGitStatus(header),
      "a changed file": parseGitStatus(`${header}1 .M N... 100644 100644 100644 ${"d".repeat(40)} ${"d".repeat(40)} lab/core/files.ts\n`),
      "an untracked file": parseGitStatus(`${header}? workspace/forge/tools/registry.ts\n`),
      "no commit yet": parseGitStatus("# branch.oid (initial)\n# branch.head main\n? README.md\n"),
      "not git's output": parseGitStatus("fatal: not a git repository\n"),
    },
    "the git state read from each status",
  ).toEqual({
    clean: { commit, dirty: false },
    "a changed file": { commit, dirty: true },
    "an untracked file": { commit, dirty: true },
    "no commit yet": null,
    "not git's output": null,
  });
  // And as git itself says of this checkout, with the two commands the one status stands for.
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  expect(await gitState(), "this checkout's git state").toEqual({
    commit: git("rev-parse", "HEAD"),
    dirty: git("status", "--porcelain") !== "",
  });
});
