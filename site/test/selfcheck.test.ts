import { expect, it } from "vitest";
import { buildVerification } from "../../lab/evidence.js";
import type { TestResult, Verification } from "../../lab/schemas/verification.js";
import type { CourseData } from "../client/course.js";
import { createStore, stateOf, STATES, STORAGE_KEY } from "../client/progress.js";
import { checkVerification } from "../client/selfcheck.js";

const course: CourseData = {
  stages: [
    {
      id: "stage-01-capability-registry",
      nn: "01",
      title: "Capability registry",
      summary: "…",
      experimentId: "tools-sandbox-side-effects-01-capability-registry",
      mastery: ["first test", "second test"],
      page: "stages/stage-01-capability-registry.html",
    },
  ],
};

function evidence(overrides: { target?: Verification["target"]; tests?: TestResult[] } = {}): Verification {
  const test = (name: string, status: TestResult["status"] = "passed"): TestResult => ({ name, file: "x.test.ts", status, durationMs: 1, failure: null });
  return buildVerification({
    stage: { id: "stage-01-capability-registry", nn: "01", slug: "capability-registry" },
    target: overrides.target ?? "workspace",
    generatedAt: new Date("2026-03-04T05:06:07.000Z"),
    tools: { node: "v20", vitest: "4", forgeLab: "0.1.0" },
    git: null,
    sources: [],
    tests: overrides.tests ?? [test("first test"), test("second test"), test("an extra test")],
    loadErrors: [],
    complete: true,
    contract: null,
  });
}
const text = (value: unknown) => JSON.stringify(value);

it("passes a workspace run in which every mastery test passed", () => {
  const verdict = checkVerification(text(evidence()), course);
  expect(verdict).toMatchObject({ kind: "read", passed: true });
  expect(verdict.kind === "read" && verdict.mastery.map((test) => test.status)).toEqual(["passed", "passed"]);
});

it("reads but does not pass a run with a failed or missing mastery test, and names them", () => {
  const failed = checkVerification(
    text(evidence({ tests: [{ name: "first test", file: "x", status: "failed", durationMs: 1, failure: { kind: "assertion", message: "no" } }] })),
    course,
  );
  expect(failed).toMatchObject({ kind: "read", passed: false });
  expect(failed.kind === "read" && failed.mastery).toEqual([
    { name: "first test", status: "failed" },
    { name: "second test", status: "missing" },
  ]);
  expect(failed.kind === "read" && failed.message).toMatch(/did not pass: first test.*missing from the file: second test/);
});

it("never counts a run against a reference tree, and says why", () => {
  for (const target of ["solution", "faulty", "start"] as const) {
    const verdict = checkVerification(text(evidence({ target })), course);
    expect(verdict.kind).toBe("not-counted");
    expect(verdict.kind !== "invalid" && verdict.message).toContain(`target "${target}"`);
  }
});

it("rejects a file that is not JSON, has another schema version, breaks the schema or names an unknown stage", () => {
  const message = (input: string) => {
    const verdict = checkVerification(input, course);
    return verdict.kind === "invalid" ? verdict.message : `unexpected ${verdict.kind}`;
  };
  expect(message("{ not json")).toMatch(/^This file is not JSON/);
  expect(message("[1, 2]")).toMatch(/holds no object/);
  expect(message(text({ ...evidence(), schemaVersion: 2 }))).toMatch(/schema version 2; this site reads version 1/);
  expect(message(text({ hello: "world" }))).toMatch(/no schemaVersion/);
  expect(message(text({ ...evidence(), acceptance: "certified" }))).toMatch(/does not match the verification schema: acceptance: /);
  expect(message(text({ ...evidence(), stage: "stage-09-unknown" }))).toBe('This file is for "stage-09-unknown", which is not a stage of this course.');
  expect(message(text({ ...evidence(), experimentId: "other" }))).toMatch(/names experiment "other"/);
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
  const storage = { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), removeItem: (key: string) => void data.delete(key) };
  const store = createStore(storage);
  store.update("stage-01-capability-registry", (stage) => ({ ...stage, reading: true }));
  expect(createStore(storage).read().stages["stage-01-capability-registry"]).toEqual({ reading: true });
  data.set(STORAGE_KEY, "{ broken");
  expect(createStore(storage).read()).toEqual({ version: 1, stages: {} });
  store.update("stage-01-capability-registry", (stage) => ({ ...stage, downloaded: true }));
  expect(store.reset()).toEqual({ version: 1, stages: {} });
  expect(data.has(STORAGE_KEY)).toBe(false);
  const refusing = createStore({ getItem: () => null, setItem: () => { throw new Error("quota"); }, removeItem: () => undefined });
  refusing.update("stage-01-capability-registry", (stage) => ({ ...stage, reading: true }));
  expect(refusing.persistent).toBe(false);
  expect(refusing.read().stages["stage-01-capability-registry"]).toEqual({ reading: true });
});
