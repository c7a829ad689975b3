import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { buildVerification } from "../../lab/evidence/build.js";
import { loadCatalog } from "../../lab/catalog/load.js";
import { ROOT } from "../../lab/core/layout.js";
import { faultyModule } from "../../lab/trees/faults.js";
import type { TestResult, Verification } from "../../lab/evidence/schema.js";
import type { CourseData, StageSummary } from "../../lab/evidence/course-data.js";
import {
  CHALLENGE_KEY,
  createChallengePreference,
  createStore,
  challengeMarked,
  stateOf,
  STATES,
  STORAGE_KEY,
  withResults,
  withReveal,
} from "../client/progress.js";
import { checkVerification } from "../../lab/evidence/selfcheck.js";
import { VERDICTS } from "../../lab/evidence/words/en.js";
import { TEXT } from "../client/text.js";
import { LOCALES, type Locale } from "../../lab/core/locale.js";
import { courseData, loadCourse } from "../content.js";

// The course data the built site embeds: the real stages, with their real suites and module hashes.
const course: CourseData = courseData(loadCourse());
const found = course.stages.find((candidate) => candidate.id === "stage-01-capability-registry");
if (!found) throw new Error("stage 01 must be in the course data");
const stage: StageSummary = found;
const reference = readFileSync(join(ROOT, "solutions", stage.id, "forge", "tools", "registry.ts"));
const catalogStage = loadCatalog().stages.find((candidate) => candidate.id === stage.id);
const defaultFault = catalogStage?.faults[0];
if (!catalogStage || !defaultFault) throw new Error("stage 01 must be in the catalog, with its default fault");
/** The faulty module, as the fault lab makes it from the default fault's patch. */
const faulty = Buffer.from(faultyModule(catalogStage, defaultFault).text);
/** A learner's own module: different bytes from anything the course ships. */
const learners = Buffer.from(`// my registry\n${reference.toString("utf8")}`);
const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

// Stage 01's mastery tests are in registry.test.ts, its transfer tests in transfer.test.ts.
const fileOf = (name: string) => `stages/${stage.id}/${stage.mastery.includes(name) ? "registry" : "transfer"}.test.ts`;
const passing = (name: string): TestResult => ({ name, file: fileOf(name), status: "passed", durationMs: 1, failure: null });
const failing = (name: string): TestResult => ({
  name,
  file: fileOf(name),
  status: "failed",
  durationMs: 1,
  failure: { kind: "assertion", message: "expected [Function] to throw an error" },
});

interface Options {
  readonly target?: Verification["target"];
  readonly tests?: readonly TestResult[];
  readonly module?: { readonly path: string; readonly bytes: Uint8Array } | null;
  readonly missingModules?: readonly string[];
  readonly run?: Verification["run"];
  readonly git?: Verification["git"];
}

/** A verification file as the reporter writes it: by default, a passing run of the learner's own module. */
function evidence(options: Options = {}): Verification {
  const module = options.module === undefined ? { path: "workspace/forge/tools/registry.ts", bytes: learners } : options.module;
  return buildVerification({
    stage: { id: stage.id, nn: "01", slug: "capability-registry" },
    target: options.target ?? "workspace",
    generatedAt: new Date("2026-03-04T05:06:07.000Z"),
    tools: { node: "v20", vitest: "4", forgeLab: "0.1.0" },
    git: options.git ?? null,
    run: options.run ?? null,
    sources: [
      ...stage.testFiles.map((file) => ({ path: file, sha256: sha(file) })),
      ...(module ? [{ path: module.path, sha256: sha(module.bytes) }] : []),
    ],
    tests: options.tests ?? stage.tests.map(passing),
    loadErrors: [],
    complete: true,
    missingModules: options.missingModules ?? [],
    contract: null,
  });
}
const text = (value: unknown) => JSON.stringify(value);
const verdictOf = (value: unknown) => checkVerification(typeof value === "string" ? value : text(value), course, VERDICTS);
/** The verdict in one line a failing assertion can show whole. */
const summary = (value: unknown) => {
  const verdict = verdictOf(value);
  return verdict.kind === "read"
    ? `${verdict.passed ? "passed" : "not passed"}: ${verdict.message}`
    : `${verdict.kind}: ${verdict.message}`;
};

it("passes a run of the learner's own module in which every test of the stage's suite passed", () => {
  const verdict = verdictOf(evidence());
  expect(summary(evidence())).toBe(
    `passed: Self-check passed: all ${stage.tests.length} tests of ${stage.id} passed in a run of your own workspace code (2026-03-04T05:06:07.000Z).`,
  );
  expect(verdict.kind === "read" && verdict.mastery.every((test) => test.status === "passed"), "every mastery mark is passed").toBe(true);
});

it("does not pass a run whose own acceptance is failed, even when every mastery test passed", () => {
  const transfer = stage.tests.find((name) => !stage.mastery.includes(name)) ?? "";
  const tests = stage.tests.map((name) => (name === transfer ? failing(name) : passing(name)));
  expect(evidence({ tests }).acceptance).toBe("failed");
  expect(summary(evidence({ tests }))).toBe(
    `not passed: Results read for ${stage.id}, not passed yet. The run itself records its acceptance as "failed", not "passed". 1 test(s) did not pass: "${transfer}" (failed).`,
  );
});

it("recomputes the counts instead of trusting the summary", () => {
  const tests = stage.tests.map((name, index) => (index === 0 ? failing(name) : passing(name)));
  const edited = {
    ...evidence({ tests }),
    acceptance: "passed",
    summary: { total: tests.length, passed: tests.length, failed: 0, skipped: 0, loadErrors: 0 },
  };
  expect(summary(edited)).toBe(
    `not passed: Results read for ${stage.id}, not passed yet. The summary does not agree with the file's own lists (passed ${tests.length} where the lists give ${tests.length - 1}, failed 0 where the lists give 1), so the file was edited. 1 test(s) did not pass: "${stage.tests[0]}" (failed).`,
  );
});

it("requires every test of the current suite, and refuses unknown and renamed tests", () => {
  const [first = "", second = ""] = stage.tests;
  const missing = evidence({ tests: stage.tests.filter((name) => name !== second).map(passing) });
  expect(summary({ ...missing, acceptance: "passed" })).toBe(
    `not passed: Results read for ${stage.id}, not passed yet. 1 of the stage's ${stage.tests.length} tests are missing from the file: "${second}".`,
  );
  const renamed = evidence({ tests: stage.tests.map((name) => passing(name === first ? `${first} (old name)` : name)) });
  expect(summary(renamed)).toBe(
    `not passed: Results read for ${stage.id}, not passed yet. The file lists 1 test(s) that ${stage.id} does not have: "${first} (old name)". A renamed test or an older course version does not count: rerun npm test -- stage-01. 1 of the stage's ${stage.tests.length} tests are missing from the file: "${first}".`,
  );
  const strayFile = evidence({
    tests: stage.tests.map((name) => ({ ...passing(name), file: "stages/stage-01-capability-registry/other.test.ts" })),
  });
  expect(summary(strayFile)).toMatch(
    /names test files that stage-01-capability-registry does not have: "stages\/stage-01-capability-registry\/other\.test\.ts"\.$/,
  );
});

it("never lets a later duplicate of a test name override an earlier failure", () => {
  const [first = ""] = stage.tests;
  const tests = [failing(first), ...stage.tests.map(passing)];
  const edited = {
    ...evidence({ tests }),
    acceptance: "passed",
    summary: { total: tests.length, passed: tests.length - 1, failed: 1, skipped: 0, loadErrors: 0 },
  };
  const verdict = verdictOf(edited);
  expect(summary(edited)).toMatch(
    new RegExp(`^not passed: .*The file lists "${first}" more than once; a run records each test once, so the file was edited\\.`),
  );
  expect(verdict.kind === "read" && verdict.mastery.find((test) => test.name === first)?.status, "the mark of a duplicated name").toBe(
    "failed",
  );
});

it("does not count a copy of the reference or of the faulty module, with LF or CRLF endings, and names the command that restores the learner's file", () => {
  const copies = {
    reference,
    faulty,
    "reference with CRLF": Buffer.from(reference.toString("utf8").replace(/\n/g, "\r\n")),
  };
  const verdicts = Object.fromEntries(
    Object.entries(copies).map(([name, bytes]) => [
      name,
      summary(evidence({ module: { path: "workspace/forge/tools/registry.ts", bytes } })),
    ]),
  );
  const expected = (kind: string) =>
    `not-counted: Reference copy — not counted: workspace/forge/tools/registry.ts is the course's ${kind} byte for byte (line endings aside), as npm run lab -- start copies it, so passing it proves nothing about your work. Bring your own file back with npm run lab -- restore, or write your own, then run npm test -- stage-01 again.`;
  expect(verdicts).toEqual({
    reference: expected("reference solution"),
    faulty: expected("faulty module of the fault lab"),
    "reference with CRLF": expected("reference solution"),
  });
});

it("never counts a run against a reference tree, even when its target is edited to workspace", () => {
  for (const target of ["solution", "faulty", "start"] as const) {
    expect(summary(evidence({ target })), `target ${target}`).toMatch(
      new RegExp(
        `^not-counted: This file comes from a run against .* \\(target "${target}"\\), not your workspace, so it does not count\\.`,
      ),
    );
  }
  const solutionRun = evidence({
    target: "solution",
    module: { path: "solutions/stage-01-capability-registry/forge/tools/registry.ts", bytes: reference },
  });
  expect(summary({ ...solutionRun, target: "workspace" })).toBe(
    "not-counted: This run tested solutions/stage-01-capability-registry/forge/tools/registry.ts, the course's own code, not your workspace, so it does not count. Run npm test -- stage-01 on your own code.",
  );
});

it("does not pass a run in which the stage's module was missing, and says so", () => {
  const notStarted = evidence({ tests: [], module: null, missingModules: ["registry"] });
  expect(notStarted.acceptance).toBe("pending");
  expect(summary(notStarted)).toMatch(
    /^not passed: Results read for stage-01-capability-registry, not passed yet\. The run found no workspace\/forge\/tools\/registry\.ts: the stage's module was not written when the tests ran\. The run itself records its acceptance as "pending", not "passed"\./,
  );
});

it("rejects a file that is not JSON, too large, has another schema version, breaks the schema or names an unknown stage", () => {
  expect(summary("{ not json")).toMatch(/^invalid: This file is not JSON/);
  expect(summary(`"${"x".repeat(2 * 1024 * 1024)}"`)).toBe(
    "invalid: This file is 2.0 MB; a verification file is a few kilobytes, so it was not read.",
  );
  expect(summary("[1, 2]")).toMatch(/holds no object/);
  expect(summary({ ...evidence(), schemaVersion: 3 })).toMatch(/schema version 3; this site reads versions 1 and 2\./);
  expect(summary({ hello: "world" })).toMatch(/no schemaVersion/);
  expect(summary({ ["__proto__"]: { schemaVersion: 1 } })).toMatch(/no schemaVersion/);
  expect(summary(`{"__proto__": {"schemaVersion": 1}}`)).toMatch(/no schemaVersion/);
  expect(summary({ ...evidence(), acceptance: "certified" })).toMatch(/does not match the verification schema: acceptance: /);
  expect(summary({ ...evidence(), stage: "stage-99-unknown" })).toBe(
    'invalid: This file is for "stage-99-unknown", which is not a stage of this course.',
  );
  expect(summary({ ...evidence(), experimentId: "other" })).toMatch(/names experiment "other"/);
});

it("moves a stage through the five states in order", () => {
  expect(STATES).toEqual(["Not started", "Reading", "Lab downloaded", "Test results read", "Self-check passed"]);
  expect(stateOf(undefined)).toBe("Not started");
  expect(stateOf({ reading: true })).toBe("Reading");
  expect(stateOf({ reading: true, downloaded: true })).toBe("Lab downloaded");
  expect(stateOf({ results: { passed: false, generatedAt: "", mastery: [] } })).toBe("Test results read");
  expect(stateOf({ results: { passed: true, generatedAt: "", mastery: [] } })).toBe("Self-check passed");
});

it("keeps progress in storage, survives garbage in it, and resets", () => {
  const data = new Map<string, string>();
  const storage = {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
  const store = createStore(storage);
  store.update("stage-01-capability-registry", (stage) => ({ ...stage, reading: true }));
  expect(createStore(storage).read().stages["stage-01-capability-registry"]).toEqual({ reading: true });
  data.set(STORAGE_KEY, "{ broken");
  expect(createStore(storage).read()).toEqual({ version: 1, stages: {} });
  store.update("stage-01-capability-registry", (stage) => ({ ...stage, downloaded: true }));
  expect(store.reset()).toEqual({ version: 1, stages: {} });
  expect(data.has(STORAGE_KEY)).toBe(false);
  const refusing = createStore({
    getItem: () => null,
    setItem: () => {
      throw new Error("quota");
    },
    removeItem: () => undefined,
  });
  refusing.update("stage-01-capability-registry", (stage) => ({ ...stage, reading: true }));
  expect(refusing.persistent).toBe(false);
  expect(refusing.read().stages["stage-01-capability-registry"]).toEqual({ reading: true });
});

/** A version 1 file: what this lab wrote before runs were recorded. */
const asVersion1 = (record: Verification) => {
  const { run: _run, ...rest } = record;
  return { ...rest, schemaVersion: 1 };
};

it("gives a version 1 file the verdict it had before version 2 existed", () => {
  const [first = ""] = stage.tests;
  const cases = {
    "own passing run": evidence(),
    "a failing test": evidence({ tests: stage.tests.map((name) => (name === first ? failing(name) : passing(name))) }),
    "a reference copy": evidence({ module: { path: "workspace/forge/tools/registry.ts", bytes: reference } }),
    "a solution run": evidence({ target: "solution" }),
  };
  const verdicts = (version: (record: Verification) => unknown) =>
    Object.fromEntries(Object.entries(cases).map(([name, record]) => [name, summary(version(record))]));
  expect(verdicts(asVersion1), "verdicts on version 1 files").toEqual(verdicts((record) => record));
  expect(summary(asVersion1(evidence())), "a version 1 file claims no CI run").not.toContain("GitHub Actions");
});

const commit = "c".repeat(40);
const githubRun = (overrides: Partial<NonNullable<Verification["run"]>> = {}): NonNullable<Verification["run"]> => ({
  provider: "github-actions",
  url: "https://github.com/ada/forge-lab/actions/runs/42",
  repository: "ada/forge-lab",
  runId: "42",
  runAttempt: 1,
  workflow: "forge-lab",
  event: "push",
  ref: "refs/heads/main",
  commit,
  runner: { os: "Linux", arch: "X64", name: "GitHub Actions 3", environment: "github-hosted" },
  ...overrides,
});

it("marks evidence from a CI run as a claim to check against the run, and refuses a run record that contradicts itself", () => {
  const ci = verdictOf(evidence({ run: githubRun(), git: { commit, dirty: false } }));
  expect(ci.kind === "read" && ci.ci, "the CI claim of a GitHub-hosted run").toEqual({
    url: "https://github.com/ada/forge-lab/actions/runs/42",
    repository: "ada/forge-lab",
    commit,
    runner: "github-hosted",
  });
  expect(summary(evidence({ run: githubRun(), git: { commit, dirty: false } }))).toBe(
    `passed: Self-check passed: all ${stage.tests.length} tests of ${stage.id} passed in a run of your own workspace code (2026-03-04T05:06:07.000Z). The file says GitHub Actions run https://github.com/ada/forge-lab/actions/runs/42 wrote it, for commit cccccccccccc on a GitHub-hosted runner: a claim to check against that run's own artifact, not a proof by itself.`,
  );
  expect(summary(evidence({ run: githubRun({ runner: { ...githubRun().runner, environment: "self-hosted" } }) }))).toContain(
    "on a self-hosted runner, which proves no more than a local run",
  );
  expect(summary(evidence({ run: githubRun(), git: { commit: "d".repeat(40), dirty: false } }))).toMatch(
    /^not passed: .*The CI run built commit cccccccccccc but the file records the checkout at dddddddddddd, so the file was edited\./,
  );
  expect(summary(evidence({ run: githubRun({ runId: "43" }) }))).toMatch(
    /^not passed: .*The CI run's URL https:\/\/github\.com\/ada\/forge-lab\/actions\/runs\/42 is not the URL of run 43 of ada\/forge-lab, so the file was edited\./,
  );
  const local = verdictOf(evidence());
  expect(local.kind === "read" && local.ci, "a local run's claim").toBe(null);
});

it("marks a pass as made with the challenge path on and nothing revealed in this browser only when the page saw both, and keeps the mark", () => {
  const results = (passed: boolean, generatedAt: string) => ({ passed, generatedAt, mastery: [] });
  const reveal = new Date("2026-05-06T12:00:00.000Z");
  const never = withResults({ reading: true }, results(true, "2026-05-06T10:00:00.000Z"), true);
  expect(never, "a pass read with the switch on and nothing revealed").toEqual({
    reading: true,
    downloaded: true,
    results: results(true, "2026-05-06T10:00:00.000Z"),
    challengeOnPassAt: "2026-05-06T10:00:00.000Z",
  });
  expect(challengeMarked(never), "the mark after that pass").toBe(true);
  const switchOff = withResults({ reading: true }, results(true, "2026-05-06T10:00:00.000Z"), false);
  expect(
    { saved: switchOff.challengeOnPassAt, marked: challengeMarked(switchOff) },
    "a pass read with the switch off: passed, and nothing more",
  ).toEqual({ saved: undefined, marked: false });

  const revealed = withReveal(withReveal({ reading: true }, reveal), new Date("2026-05-07T00:00:00.000Z"));
  expect(revealed.revealedAt, "the first reveal is the one kept").toBe("2026-05-06T12:00:00.000Z");
  const before = withResults(revealed, results(true, "2026-05-06T11:59:59.000Z"), true);
  const after = withResults(revealed, results(true, "2026-05-06T12:00:01.000Z"), true);
  const failing = withResults(revealed, results(false, "2026-05-06T11:00:00.000Z"), true);
  expect(
    { before: challengeMarked(before), after: challengeMarked(after), failing: challengeMarked(failing) },
    "the mark for a run made before the reveal, after it, and a failing one",
  ).toEqual({ before: true, after: false, failing: false });

  // A mark that was earned stays: a later passing run, even after a reveal or with the switch off, does
  // not undo it, and a failing run hides the mark only while the stage is not passed.
  const later = withResults(withReveal(never, reveal), results(true, "2026-05-08T00:00:00.000Z"), false);
  expect(later.challengeOnPassAt, "the first marked pass, kept").toBe("2026-05-06T10:00:00.000Z");
  expect(challengeMarked(later), "the mark after a later pass").toBe(true);
  const broken = withResults(later, results(false, "2026-05-09T00:00:00.000Z"), true);
  expect(challengeMarked(broken), "the mark while the latest run fails").toBe(false);
  expect(challengeMarked(undefined), "a stage never opened").toBe(false);
});

it("reads a mark saved by an earlier version, which never saw the switch, as no mark", () => {
  const data = new Map<string, string>([
    [
      STORAGE_KEY,
      JSON.stringify({
        version: 1,
        stages: {
          [stage.id]: {
            reading: true,
            results: { passed: true, generatedAt: "2026-05-06T10:00:00.000Z", mastery: [] },
            challengePassedAt: "2026-05-06T10:00:00.000Z",
          },
        },
      }),
    ],
  ]);
  const store = createStore({
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  });
  const progress = store.read().stages[stage.id];
  expect({ state: stateOf(progress), marked: challengeMarked(progress) }, "an old record's state and mark").toEqual({
    state: "Self-check passed",
    marked: false,
  });
});

it("words the challenge mark as what this browser observed, in both editions, and never as a pass on the challenge path", () => {
  const claims: Record<Locale, RegExp> = { en: /passed on the challenge path/i, "zh-CN": /在挑战路径上通过/ };
  const observed: Record<Locale, RegExp> = { en: /in this browser/, "zh-CN": /这个浏览器/ };
  const found: Record<string, string[]> = {};
  for (const locale of LOCALES) {
    const words = TEXT[locale];
    const mark = words.home.challengeMark;
    const texts: Record<string, string> = {
      "the board's mark": mark,
      "the states note": words.home.statesNote(["A", "B"], mark),
      "a hidden part's note": words.reveals.challengeNote,
      "the status after a marked pass": words.client.challengePassed,
      "the status after a reveal": words.client.challengeRevealed("2026-05-06 12:00"),
      "the status before any reveal": words.client.challengeHidden(3),
      "the verdict's added sentence": words.client.challengeSeen,
    };
    found[locale] = Object.entries(texts)
      .filter(([, text]) => claims[locale].test(text) || !observed[locale].test(text))
      .map(([what, text]) => `${what}: ${text}`);
  }
  expect(found, "wordings that claim a pass on the challenge path or do not say they speak of this browser").toEqual({
    en: [],
    "zh-CN": [],
  });
});

it("remembers the Challenge switch apart from progress, and keeps a choice the storage refuses for the page", () => {
  const data = new Map<string, string>();
  const storage = { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
  expect(createChallengePreference(storage).read(), "the switch on a first visit").toBe(false);
  createChallengePreference(storage).write(true);
  expect(data.get(CHALLENGE_KEY), "what storage holds").toBe("on");
  expect(createChallengePreference(storage).read(), "the switch on the next page").toBe(true);
  const store = createStore({ ...storage, removeItem: (key: string) => void data.delete(key) });
  store.reset();
  expect(createChallengePreference(storage).read(), "the switch after a progress reset").toBe(true);
  const refusing = createChallengePreference({
    getItem: () => {
      throw new Error("denied");
    },
    setItem: () => {
      throw new Error("denied");
    },
  });
  refusing.write(true);
  expect(refusing.read(), "a refused choice, kept for this page").toBe(true);
});
