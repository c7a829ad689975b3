// The built course site in a real headless Chromium (the one lab/core/browser.ts finds, driven by playwright-core): opened
// from disk and from `npm start`. Checks the learner's path through a stage, the self-check verdicts,
// that no request leaves the origin and no page error is thrown, and the size and speed budgets.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { type Stage } from "../../lab/catalog/catalog.js";
import { loadCatalog } from "../../lab/catalog/load.js";
import type { StageSpec } from "../../lab/catalog/stage-schema.js";
import { buildVerification, evidenceName } from "../../lab/evidence/build.js";
import { findBrowser, launchOptions } from "../../lab/core/browser.js";
import { faultyModule } from "../../lab/trees/faults.js";
import { COURSE_ID, dirs, localized, ROOT } from "../../lab/core/layout.js";
import { specIn } from "../../lab/i18n/content.js";
import { term } from "../../lab/i18n/glossary.js";
import type { TestResult, Verification } from "../../lab/evidence/schema.js";
import type { Target } from "../../lab/trees/targets.js";
import { buildSite, siteSources, type BuildResult } from "../build.js";
import { main } from "../../lab/cli/commands.js";
import { EDITION_DIRS, GLOSSARY_PAGE, MAP_PAGE } from "../client/course.js";
import { CHALLENGE_KEY } from "../client/progress.js";
import { courseData, loadCourse, stagePage } from "../content.js";
import { axeViolations } from "./support/axe.js";
import { challengeSources, FOLDS } from "./support/challenge.js";
import { generateClass, LEARNERS } from "./support/class.js";
import { computedForm, stackOf } from "./support/fonts.js";

const SCREENSHOTS = join(dirs.testResults, "screenshots");
const PAGE_BUDGET_BYTES = 200 * 1024;
/** The self-check script a page loads on first use: the evidence schema, the checks, the course data. */
const SELF_CHECK_BUDGET_BYTES = 100 * 1024;
const INTERACTIVE_BUDGET_MS = 1000;

const catalog = loadCatalog();
const found = catalog.stages.find((candidate) => candidate.id === "stage-01-capability-registry");
if (!found?.spec) throw new Error("stage 01 must load");
const stage: Stage = found;
const spec: StageSpec = found.spec;
const mastery = spec.mastery;

let scratch = "";
let dist = "";
/** The site built with stage 01's lesson folded (support/challenge.ts): the challenge path's tests. */
let challengeDist = "";
let built: BuildResult;
let browser: Browser;
let server: ChildProcess | null = null;
let serverUrl = "";
const files: Record<"passing" | "reference" | "corrupt" | "incomplete", string> = {
  passing: "",
  reference: "",
  corrupt: "",
  incomplete: "",
};

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const referenceModule = readFileSync(join(stage.solutionDir, "forge", "tools", "registry.ts"));
/** The learner's own registry: not byte for byte the course's. */
const learnersModule = Buffer.from(`// my registry\n${referenceModule.toString("utf8")}`);

function evidenceText(
  target: Target,
  tests: readonly TestResult[],
  module: Uint8Array = learnersModule,
  edit: (record: Verification) => object = (record) => record,
): string {
  const record = buildVerification({
    stage,
    target,
    generatedAt: new Date("2026-05-06T07:08:09.000Z"),
    tools: { node: process.version, vitest: "4", forgeLab: "0.1.0" },
    git: null,
    run: null,
    sources: [
      {
        path:
          target === "workspace"
            ? "workspace/forge/tools/registry.ts"
            : `${target === "faulty" ? "faulty" : "solutions"}/${stage.id}/forge/tools/registry.ts`,
        sha256: sha256(module),
      },
    ],
    tests,
    loadErrors: [],
    complete: true,
    missingModules: [],
    contract: null,
  });
  return `${JSON.stringify(edit(record), null, 2)}\n`;
}
const suite = [...new Set([...mastery, ...spec.transfer.tests])];

/** The stages whose own runs the learner has made; every stage has its reference runs. */
const OWN_RUNS = ["01", "03"];
const REFERENCE_TARGETS = ["solution", "faulty", "start"] as const;
const specified = catalog.stages.filter((candidate) => candidate.spec);
const referenceRuns = specified.length * REFERENCE_TARGETS.length;
const evidenceKey = (candidate: Stage, target: Target) => `${candidate.nn}-${candidate.slug}/${evidenceName(target)}`;

/** A run of a stage in which every test of its suite passed, against `target`'s tree. */
function runOf(candidate: Stage, target: Target): string {
  const candidateSpec = candidate.spec;
  if (!candidateSpec) throw new Error(`${candidate.id} has no stage.json`);
  const tree = target === "workspace" ? "workspace" : `${target === "faulty" ? "faulty" : "solutions"}/${candidate.id}`;
  const file = relative(ROOT, candidate.testFiles[0] ?? candidate.dir)
    .split(sep)
    .join("/");
  const record = buildVerification({
    stage: candidate,
    target,
    generatedAt: new Date("2026-05-06T07:08:09.000Z"),
    tools: { node: process.version, vitest: "4", forgeLab: "0.1.0" },
    git: null,
    run: null,
    sources: candidateSpec.modules.map((module) => ({ path: `${tree}/forge/tools/${module}.ts`, sha256: sha256(`${tree} ${module}`) })),
    tests: [...new Set([...candidateSpec.mastery, ...candidateSpec.transfer.tests])].map((name) => ({
      name,
      file,
      status: "passed",
      durationMs: 1,
      failure: null,
    })),
    loadErrors: [],
    complete: true,
    missingModules: [],
    contract: null,
  });
  return `${JSON.stringify(record, null, 2)}\n`;
}

function fillEvidence(root: string): void {
  for (const candidate of specified) {
    const folder = join(root, COURSE_ID, `${candidate.nn}-${candidate.slug}`);
    mkdirSync(folder, { recursive: true });
    for (const target of REFERENCE_TARGETS) writeFileSync(join(folder, evidenceName(target)), runOf(candidate, target));
    if (candidate.nn === "01") writeFileSync(join(folder, evidenceName("workspace")), evidenceText("workspace", passedTests));
    else if (OWN_RUNS.includes(candidate.nn)) writeFileSync(join(folder, evidenceName("workspace")), runOf(candidate, "workspace"));
  }
}
const fileOf = (name: string) => `stages/${stage.id}/${mastery.includes(name) ? "registry" : "transfer"}.test.ts`;
const passedTests = suite.map((name): TestResult => ({ name, file: fileOf(name), status: "passed", durationMs: 1, failure: null }));

beforeAll(async () => {
  const lookup = findBrowser();
  if (!lookup.found) throw new Error(`The site's browser tests need Chromium: ${lookup.reason}.`);
  console.info(`browser: ${lookup.found.description}`);
  scratch = mkdtempSync(join(tmpdir(), "forge-site-"));
  dist = join(scratch, "dist");
  built = await buildSite(dist);
  challengeDist = join(scratch, "challenge");
  await buildSite(challengeDist, challengeSources(siteSources()));
  files.passing = join(scratch, "verification.json");
  files.reference = join(scratch, "verification.solution.json");
  files.corrupt = join(scratch, "corrupt.json");
  writeFileSync(files.passing, evidenceText("workspace", passedTests));
  writeFileSync(files.reference, evidenceText("solution", passedTests));
  writeFileSync(files.corrupt, evidenceText("workspace", passedTests).slice(0, 120));
  // The learner's run with the first mastery test failing and the last one missing.
  files.incomplete = join(scratch, "incomplete.json");
  const failedFirst = (test: TestResult): TestResult =>
    test.name === mastery[0]
      ? { ...test, status: "failed", failure: { kind: "assertion", message: "expected [Function] to throw an error" } }
      : test;
  writeFileSync(files.incomplete, evidenceText("workspace", passedTests.filter((test) => test.name !== mastery.at(-1)).map(failedFirst)));
  // The local server's evidence folder, as a checkout has it after verify and a few stages: every
  // stage's reference runs, and the learner's own runs of stages 01 and 03 among them.
  const evidence = join(scratch, "evidence");
  fillEvidence(evidence);
  browser = await chromium.launch(launchOptions(lookup.found));
  server = spawn(process.execPath, ["--import", "tsx", join(ROOT, "site", "bin", "serve.ts")], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", FORGE_EVIDENCE: evidence, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  serverUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/localhost:\d+\//.exec(output)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    server?.stdout?.on("data", read);
    server?.stderr?.on("data", read);
    server?.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGINT");
    await exited;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Watched {
  readonly page: Page;
  readonly foreign: string[];
  readonly errors: string[];
}

const contexts: BrowserContext[] = [];
// Each test's pages go when it ends: no tab keeps a connection to the server open for the next test.
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/**
 * A fresh page (its own storage) that records every request to another origin and every page error;
 * `time` fixes the page's clock (Date), for what the page records with a time.
 */
async function open(url: string, viewport = { width: 1280, height: 900 }, time?: Date): Promise<Watched> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  if (time) await page.clock.setFixedTime(time);
  const origin = new URL(url).protocol === "file:" ? "file:" : new URL(url).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    const target = new URL(request.url());
    const same = origin === "file:" ? target.protocol === "file:" || target.protocol === "data:" : target.origin === origin;
    if (!same) foreign.push(request.url());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(url);
  await page.waitForSelector("html[data-ready='true']");
  return { page, foreign, errors };
}

const fileUrl = (path: string) => pathToFileURL(join(dist, path)).href;
const state = (page: Page, id: string) => page.locator(`[data-stage-row="${id}"] [data-state]`).innerText();

it("keeps every page within 200 KB of HTML, JS and CSS, code listings excluded, and the self-check it loads on first use within 100 KB", () => {
  expect(built.pages).toContain("index.html");
  expect(built.pages).toContain(`stages/${stage.id}.html`);
  for (const size of built.sizes) expect(size.bytes, size.page).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  console.info(built.sizes.map((size) => `${size.page}: ${(size.bytes / 1024).toFixed(1)} KB`).join("\n"));
  expect(built.selfCheckSizes.map(({ script }) => script).sort(), "the self-check scripts").toEqual([
    "assets/selfcheck.en.js",
    "assets/selfcheck.zh-CN.js",
  ]);
  for (const { script, bytes } of built.selfCheckSizes) expect(bytes, script).toBeLessThanOrEqual(SELF_CHECK_BUDGET_BYTES);
});

it("makes a stage page interactive within 1 s of navigation", async () => {
  // The best of three loads: the budget is about the page, not about whatever else the machine runs.
  const { page, errors } = await open(fileUrl(`stages/${stage.id}.html`));
  const times: number[] = [];
  for (let load = 0; load < 3; load += 1) {
    if (load > 0) {
      await page.reload();
      await page.waitForSelector("html[data-ready='true']");
    }
    times.push(Number(await page.evaluate(() => document.documentElement.dataset.readyAt)));
  }
  console.info(`stage page interactive after ${times.join(" ms, ")} ms (best ${Math.min(...times)} ms)`);
  expect(Math.min(...times)).toBeLessThanOrEqual(INTERACTIVE_BUDGET_MS);
  expect(errors).toEqual([]);
});

it("walks a learner through a stage from disk: quiz, hints one by one, a passing self-check", async () => {
  const home = await open(fileUrl("index.html"));
  for (const row of catalog.stages.filter((candidate) => candidate.spec)) expect(await state(home.page, row.id)).toBe("Not started");
  mkdirSync(SCREENSHOTS, { recursive: true });
  await home.page.screenshot({ path: join(SCREENSHOTS, "home.png"), fullPage: true });

  await home.page.getByRole("link", { name: spec.title }).first().click();
  await home.page.waitForSelector("html[data-ready='true']");
  const page = home.page;

  // The quiz gives feedback at once; a wrong choice shows the right answer and why.
  const answer = spec.prediction.answer;
  const wrong = (answer + 1) % 4;
  await page.locator(`[data-option="${wrong}"]`).click();
  await expect.poll(() => page.locator(".quiz-verdict").innerText()).toMatch(/^Not quite/);
  expect(await page.locator(".quiz-why").isVisible()).toBe(true);
  await page.locator(`[data-option="${answer}"]`).click();
  await expect.poll(() => page.locator(".quiz-verdict").innerText()).toMatch(/^Right/);

  // Hints appear one at a time.
  const hints = page.locator("[data-hint]");
  const total = await hints.count();
  expect(total).toBeGreaterThanOrEqual(2);
  expect(await page.locator("[data-hint]:visible").count()).toBe(0);
  for (let shown = 1; shown <= total; shown += 1) {
    await page.locator("[data-next-hint]").click();
    expect(await page.locator("[data-hint]:visible").count()).toBe(shown);
  }
  expect(await page.locator("[data-next-hint]").isVisible()).toBe(false);

  // The reference solution stays hidden until revealed.
  expect(await page.locator(".listing").first().isVisible()).toBe(false);
  await page.getByRole("button", { name: "Reveal the reference solution" }).click();
  expect(await page.locator(".listing").first().isVisible()).toBe(true);

  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect.poll(() => page.locator("[data-live-status]").innerText()).toMatch(/Self-check passed/);
  expect(await page.locator("[data-live-alert]").innerText()).toBe("");
  expect(await page.locator('[data-mastery] .badge[data-status="passed"]').count()).toBe(mastery.length);
  await page.screenshot({ path: join(SCREENSHOTS, "stage-01.png"), fullPage: true });

  await page.getByRole("link", { name: "Progress and self-check" }).click();
  await page.waitForSelector("html[data-ready='true']");
  expect(await state(page, stage.id)).toBe("Self-check passed");
  expect(home.foreign).toEqual([]);
  expect(home.errors).toEqual([]);
});

it("loads the self-check only when a file is first checked, from disk, and once", async () => {
  const { page, foreign, errors } = await open(fileUrl(`stages/${stage.id}.html`));
  const selfCheckScripts = () => page.locator('script[src*="selfcheck."]').count();
  expect(await selfCheckScripts(), "self-check scripts on a page nobody has checked a file on").toBe(0);
  expect(await page.evaluate(() => typeof (window as { forgeSelfCheck?: unknown }).forgeSelfCheck), "the self-check before any file").toBe(
    "undefined",
  );
  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect.poll(() => page.locator("[data-live-status]").innerText()).toMatch(/Self-check passed/);
  await page.locator("[data-file]").setInputFiles(files.corrupt);
  await expect.poll(() => page.locator("[role='alert']").innerText()).toMatch(/corrupt\.json: This file is not JSON/);
  expect(await selfCheckScripts(), "self-check scripts after two files were checked").toBe(1);
  expect(foreign, "requests outside the page's own files").toEqual([]);
  expect(errors, "errors in the page").toEqual([]);
});

it("does not count a reference-solution run, says why, and keeps working after a corrupted file", async () => {
  const { page, foreign, errors } = await open(fileUrl("index.html"));
  await page.locator("[data-file]").setInputFiles(files.reference);
  await expect.poll(() => page.locator("[role='alert']").innerText()).toMatch(/target "solution".*does not count/);
  expect(await state(page, stage.id)).toBe("Not started");

  await page.locator("[data-file]").setInputFiles(files.corrupt);
  await expect.poll(() => page.locator("[role='alert']").innerText()).toMatch(/corrupt\.json: This file is not JSON/);

  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect.poll(() => page.locator("[role='status']").innerText()).toMatch(/Self-check passed/);
  expect(await page.locator("[role='alert']").innerText()).toBe("");
  expect(await state(page, stage.id)).toBe("Self-check passed");

  // A file dropped on the drop zone is read like a picked one.
  await page.evaluate(
    async (text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], "verification.json", { type: "application/json" }));
      const zone = document.querySelector("[data-dropzone]");
      zone?.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone?.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    readFileSync(files.incomplete, "utf8"),
  );
  await expect
    .poll(() => page.locator("[role='status']").innerText())
    .toMatch(/not passed yet\. .*1 of the stage's \d+ tests are missing from the file: .*1 test\(s\) did not pass: /);
  expect(await state(page, stage.id)).toBe("Test results read");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator("[data-reset]").click();
  expect(await state(page, stage.id)).toBe("Not started");
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

it("gives each self-check verdict in the browser, passing only the learner's own complete run", async () => {
  const { page, foreign, errors } = await open(fileUrl("index.html"));
  const [first = "", second = ""] = suite;
  const transfer = suite.find((name) => !mastery.includes(name)) ?? "";
  const crlf = Buffer.from(referenceModule.toString("utf8").replace(/\n/g, "\r\n"));
  // The default fault's module, made from its patch: this suite needs no materialized fault tree.
  const [defaultFault] = stage.faults;
  if (!defaultFault) throw new Error(`${stage.id} has no fault`);
  const faulty = Buffer.from(faultyModule(stage, defaultFault).text);
  const cases: Record<string, { text: string; verdict: RegExp }> = {
    "failed-acceptance.json": {
      text: evidenceText(
        "workspace",
        passedTests.map((test) =>
          test.name === transfer ? { ...test, status: "failed", failure: { kind: "assertion", message: "x" } } : test,
        ),
      ),
      verdict: /not passed yet\. The run itself records its acceptance as "failed"/,
    },
    "edited-counts.json": {
      text: evidenceText("workspace", passedTests.slice(1), learnersModule, (record) => ({
        ...record,
        summary: { ...record.summary, total: suite.length, passed: suite.length },
      })),
      verdict: /The summary does not agree with the file's own lists \(total \d+ where the lists give \d+, passed/,
    },
    "renamed-test.json": {
      text: evidenceText(
        "workspace",
        passedTests.map((test) => (test.name === second ? { ...test, name: `${second} (renamed)` } : test)),
      ),
      verdict: /lists 1 test\(s\) that stage-01-capability-registry does not have: .*1 of the stage's \d+ tests are missing from the file/,
    },
    "duplicate.json": {
      text: evidenceText(
        "workspace",
        [
          ...passedTests.map((test) =>
            test.name === first ? { ...test, status: "failed" as const, failure: { kind: "assertion" as const, message: "x" } } : test,
          ),
          ...passedTests.slice(0, 1),
        ],
        learnersModule,
        (record) => ({ ...record, acceptance: "passed" }),
      ),
      verdict: /more than once; a run records each test once/,
    },
    "reference-copy.json": {
      text: evidenceText("workspace", passedTests, referenceModule),
      verdict: /Reference copy — not counted: .*reference solution.*npm run lab -- restore/,
    },
    "faulty-copy.json": {
      text: evidenceText("workspace", passedTests, faulty),
      verdict: /Reference copy — not counted: .*faulty module of the fault lab/,
    },
    "crlf-copy.json": { text: evidenceText("workspace", passedTests, crlf), verdict: /Reference copy — not counted: .*line endings aside/ },
    "solution-relabelled.json": {
      text: evidenceText("solution", passedTests, referenceModule, (record) => ({ ...record, target: "workspace" })),
      verdict: /This run tested solutions\/stage-01-capability-registry\/forge\/tools\/registry\.ts, the course's own code/,
    },
    "huge.json": {
      text: `"${"x".repeat(2 * 1024 * 1024)}"`,
      verdict: /^huge\.json: This file is 2\.0 MB; a verification file is a few kilobytes, so it was not read\.$/,
    },
    "own-work.json": { text: evidenceText("workspace", passedTests), verdict: /^own-work\.json: Self-check passed: all \d+ tests/ },
  };
  const seen: Record<string, string> = {};
  for (const [name, { text }] of Object.entries(cases)) {
    await page.locator("[data-file]").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
    await expect
      .poll(async () => `${await page.locator("[role='alert']").innerText()}${await page.locator("[role='status']").innerText()}`)
      .toContain(name);
    seen[name] = `${await page.locator("[role='alert']").innerText()}${await page.locator("[role='status']").innerText()}`;
  }
  for (const [name, { verdict }] of Object.entries(cases)) expect(seen[name], `the verdict on ${name}`).toMatch(verdict);
  expect(await state(page, stage.id), "only the learner's own complete run passes").toBe("Self-check passed");
  expect(await page.locator(".privacy").allInnerTexts()).toContainEqual(
    expect.stringMatching(/cannot prove: that nobody edited the file by hand/),
  );
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

it("is served by npm start, which offers this checkout's evidence files", async () => {
  const { page, foreign, errors } = await open(serverUrl);
  const load = page.getByRole("button", { name: "Load 01-capability-registry/verification.json" });
  await load.waitFor();
  await load.click();
  await expect.poll(() => page.locator("[role='status']").innerText()).toMatch(/Self-check passed/);
  expect(await state(page, stage.id)).toBe("Self-check passed");
  const stagePage = await open(`${serverUrl}stages/${stage.id}.html`);
  expect(await stagePage.page.locator("h1").innerText()).toBe(spec.title);
  expect([...foreign, ...stagePage.foreign]).toEqual([]);
  expect([...errors, ...stagePage.errors]).toEqual([]);
  const missing = await fetch(`${serverUrl}__forge/evidence/..%2F..%2Fpackage.json`);
  expect(missing.status).toBe(404);
  // DNS rebinding: a page on another site that resolves its own name to 127.0.0.1 is not answered.
  const port = new URL(serverUrl).port;
  const statusFor = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, path: "/__forge/evidence", headers: { host } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once("error", reject);
      request.end();
    });
  const answers: Record<string, number> = {};
  for (const host of [
    "evil.example",
    `evil.example:${port}`,
    `localhost:${Number(port) + 1}`,
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `[::1]:${port}`,
  ])
    answers[host] = await statusFor(host);
  expect(answers, "HTTP status by Host header").toEqual({
    "evil.example": 403,
    [`evil.example:${port}`]: 403,
    [`localhost:${Number(port) + 1}`]: 403,
    [`localhost:${port}`]: 200,
    [`127.0.0.1:${port}`]: 200,
    [`[::1]:${port}`]: 200,
  });
});

it("lists the learner's own evidence first, folds the reference runs, and brings each verdict into view with focus, at 1280×900", async () => {
  const { page, foreign, errors } = await open(`${serverUrl}stages/${stage.id}.html`, { width: 1280, height: 900 });
  const box = page.locator("[data-local-evidence]");
  await box.waitFor();
  const ownFiles = specified
    .filter((candidate) => OWN_RUNS.includes(candidate.nn))
    .map((candidate) => `Load ${evidenceKey(candidate, "workspace")}`);
  expect(await box.locator("button:visible").allInnerTexts(), "the Load buttons a learner sees: this stage's own file first").toEqual(
    ownFiles,
  );
  const folded = box.locator("details");
  expect(await folded.locator("summary").innerText(), "the fold of the reference runs").toBe(`Reference runs (${referenceRuns})`);
  expect(await folded.evaluate((element) => (element as HTMLDetailsElement).open), "the fold, closed").toBe(false);
  expect(await folded.locator("button").count(), "reference runs in the fold").toBe(referenceRuns);

  const verdict = page.getByRole("region", { name: "Self-check verdict" });
  const seen = async () => {
    const shape = await verdict.boundingBox();
    const focused = await page.evaluate(() => document.activeElement?.closest("[data-verdict]") === document.activeElement);
    return {
      focused,
      inView: shape !== null && shape.y >= 0 && shape.y + shape.height <= 900 && shape.height > 0,
    };
  };
  await box.getByRole("button", { name: `Load ${evidenceKey(stage, "workspace")}` }).click();
  await expect.poll(() => verdict.innerText(), { message: "the verdict on the learner's own file" }).toMatch(/Self-check passed/);
  await expect.poll(seen, { message: "the verdict after Load: focused, and inside the 900 px viewport" }).toEqual({
    focused: true,
    inView: true,
  });
  // Focus is not trapped: Tab goes on to what follows.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-verdict")), "the verdict after Tab").toBe(false);

  // A reference run, from the opened fold: its verdict says why it does not count, in view and focused too.
  await folded.locator("summary").click();
  await folded.getByRole("button", { name: `Load ${evidenceKey(stage, "solution")}` }).click();
  await expect.poll(() => verdict.innerText(), { message: "the verdict on a reference run" }).toMatch(/target "solution".*does not count/);
  await expect.poll(seen, { message: "the verdict after a reference run's Load" }).toEqual({ focused: true, inView: true });
  expect(await axeViolations(page), "axe violations with the reference runs open and a verdict shown").toEqual([]);

  // Stage 03's page puts stage 03's own file first.
  const third = specified.find((candidate) => candidate.nn === "03");
  if (!third) throw new Error("the course has a stage 03");
  const other = await open(`${serverUrl}${stagePage(third)}`, { width: 1280, height: 900 });
  const otherBox = other.page.locator("[data-local-evidence]");
  await otherBox.waitFor();
  expect(await otherBox.locator("button:visible").allInnerTexts(), "the Load buttons on stage 03's page").toEqual([
    `Load ${evidenceKey(third, "workspace")}`,
    `Load ${evidenceKey(stage, "workspace")}`,
  ]);
  expect([...foreign, ...other.foreign], "requests that left the page").toEqual([]);
  expect([...errors, ...other.errors], "page errors").toEqual([]);
});

it("works from the keyboard, shows focus, and fits a phone's width", async () => {
  const { page, errors } = await open(fileUrl(`stages/${stage.id}.html`), { width: 375, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.locator(`[data-option="0"]`).focus();
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.locator(".quiz-verdict").innerText()).not.toBe("");
  await page.locator("[data-next-hint]").focus();
  await page.keyboard.press("Space");
  expect(await page.locator("[data-hint]:visible").count()).toBe(1);
  // The instructor view opens from the keyboard and shows each fault's fix as a diff, the default first.
  const instructor = page.getByRole("button", { name: /instructor view/ });
  const diffs = page.locator(".diff");
  expect(await diffs.first().isVisible(), "the default fault's diff before the instructor view is opened").toBe(false);
  await instructor.focus();
  await page.keyboard.press("Enter");
  expect(await instructor.getAttribute("aria-expanded")).toBe("true");
  expect(await diffs.count(), "diffs in stage 01's instructor view, one per fault").toBe(2);
  const patch = await diffs.first().innerText();
  expect(patch, "the default fault's patch: the reference's line it removes").toContain(
    "-  const unknown = unknownCapabilities(declared);",
  );
  expect(patch, "the default fault's patch: the line it puts in its place").toContain("+  const unknown: string[] = [];");
  expect(await diffs.nth(1).isVisible(), "the further fault's diff, shown with the default's").toBe(true);

  await page.locator("[data-file]").setInputFiles(files.incomplete);
  await expect.poll(() => page.locator('.badge[data-status="failed"]').count()).toBe(1);
  expect(await page.locator('.badge[data-status="missing"]').count()).toBe(1);
  expect(await page.locator('.badge[data-status="passed"]').count()).toBe(mastery.length - 2);

  // WCAG AA: normal text needs a contrast ratio of at least 4.5 against what is behind it.
  const ratios = await page.evaluate(() => {
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) =>
      [r, g, b]
        .map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * ([0.2126, 0.7152, 0.0722][i] ?? 0), 0);
    const background = (element: Element | null): number[] => {
      for (let node = element; node; node = node.parentElement) {
        const color = rgb(getComputedStyle(node).backgroundColor);
        if (color.length === 3 || (color[3] ?? 0) > 0) return color.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const selectors = [
      "main p",
      ".muted",
      ".reveal-button",
      ".option",
      ".badge[data-status='passed']",
      ".badge[data-status='failed']",
      ".site-footer p",
      ".side a",
    ];
    return selectors.map((selector) => {
      const element = document.querySelector(selector);
      if (!element) return { selector, ratio: 0 };
      const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(background(element))];
      return { selector, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
    });
  });
  for (const { selector, ratio } of ratios) expect(ratio, `contrast of ${selector}`).toBeGreaterThanOrEqual(4.5);

  for (const input of await page.locator("input").all()) {
    const id = await input.getAttribute("id");
    expect(id && (await page.locator(`label[for="${id}"]`).count()), `input #${id} has a label`).toBeTruthy();
  }
  expect(errors).toEqual([]);
});

it("shows the course map before stage 01, linked from the home page and every stage page, its path drawn inline", async () => {
  const { page, foreign, errors } = await open(fileUrl("index.html"));
  await page.getByRole("link", { name: "course map" }).click();
  await page.waitForSelector("html[data-ready='true']");
  expect(await page.locator("h1").innerText(), "the page reached from the home page").toBe("Course map");
  expect(await page.getByRole("img", { name: "The learning path" }).count(), "the diagram, by its accessible name").toBe(1);
  const stages = catalog.stages.filter((candidate) => candidate.spec);
  expect(await page.locator("table.path tbody tr").count(), "rows of the path's table").toBe(stages.length);
  expect(await page.locator(".stage-list a").first().innerText(), "the first entry of the navigation").toBe("Course map");
  expect(await page.locator('.stage-list a[aria-current="page"]').innerText(), "the current page in the navigation").toBe("Course map");
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, "course-map.png"), fullPage: true });
  for (const candidate of stages) {
    const html = readFileSync(join(dist, stagePage(candidate)), "utf8");
    expect(
      /<ol class="stage-list"><li><a href="([^"]+)">([^<]+)<\/a>/.exec(html)?.slice(1),
      `the first link of ${candidate.id}'s navigation`,
    ).toEqual([`../${MAP_PAGE}`, "Course map"]);
  }
  await page.getByRole("link", { name: "stage 01 · Capability registry" }).click();
  await page.waitForSelector("html[data-ready='true']");
  expect(await page.locator("h1").innerText(), "the stage the map starts with").toBe(spec.title);
  expect(foreign, "requests that left the page").toEqual([]);
  expect(errors, "page errors").toEqual([]);
});

it("hides a folded lesson's challenge parts while the switch is on, remembers it, and marks a pass with only what this browser saw", async () => {
  // The page's clock is fixed after the evidence's run (2026-05-06): a reveal now comes after that run.
  const stageUrl = pathToFileURL(join(challengeDist, stagePage(stage))).href;
  const { page, foreign, errors } = await open(stageUrl, undefined, new Date("2026-06-01T00:00:00.000Z"));
  const parts = page.locator("[data-challenge-part]");
  const visibleLabels = () => parts.locator("[data-reveal] [data-label]:visible").allInnerTexts();
  const firstFold = page.locator(`#fold-01-1`);
  const verdict = () => page.locator("[data-live-status]").innerText();
  expect(await parts.count(), "challenge parts: the folds and the reference solution").toBe(FOLDS.length + 1);
  expect(await visibleLabels(), "the buttons with the switch off").toEqual([
    "Open when stuck: the four steps, with defineTool",
    "Open when stuck: why the reference is built this way",
    "Reveal the reference solution",
  ]);
  expect(await page.getByText(FOLDS[0].marker).isVisible(), "a fold's body before it is opened").toBe(false);
  expect(await page.locator("[data-challenge-note]:visible").count(), "notes with the switch off").toBe(0);

  // With the switch off, a pass is a pass and nothing more: the page saw no challenge path.
  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect.poll(verdict, { message: "the verdict with the switch off" }).toMatch(/^verification\.json: Self-check passed: [^]*\)\.$/);
  expect(await page.locator("[data-challenge-status]").innerText(), "the status after a pass with the switch off").toBe("");

  await page.getByRole("switch", { name: /Challenge path/ }).check();
  expect(await visibleLabels(), "the buttons with the switch on").toEqual([
    "Reveal a hidden part: the four steps, with defineTool",
    "Reveal a hidden part: why the reference is built this way",
    "Show the reference solution, hidden on the challenge path",
  ]);
  expect(await page.locator("[data-challenge-note]:visible").count(), "notes with the switch on").toBe(FOLDS.length + 1);
  expect(await page.locator("[data-challenge-note]").first().innerText(), "a hidden part's note").toBe(
    "Hidden on the challenge path. Opening it is noted in this browser: a pass from a run made after then is marked passed, and nothing more.",
  );
  expect(await page.locator("[data-challenge-status]").innerText(), "the stage's challenge status").toBe(
    `${FOLDS.length + 1} parts of this lesson are hidden. Nothing is revealed in this browser yet: a pass read now is marked "challenge path on, nothing revealed in this browser".`,
  );
  await page.reload();
  await page.waitForSelector("html[data-ready='true']");
  expect(await page.getByRole("switch", { name: /Challenge path/ }).isChecked(), "the switch after a reload").toBe(true);
  expect(await page.evaluate(() => document.documentElement.dataset.challenge), "the page's mode after a reload").toBe("on");

  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect
    .poll(verdict, { message: "the verdict with the switch on and nothing revealed" })
    .toMatch(/Self-check passed: .*\)\. Challenge path on, nothing revealed in this browser before this run\.$/);
  expect(await page.locator("[data-challenge-status]").innerText(), "the status after the pass").toBe(
    "Passed, read with the challenge path on, and nothing of this lesson was revealed in this browser before the run. What you read elsewhere this page cannot see.",
  );

  // Opening a part now does not undo a mark whose run was made before it.
  await parts.first().locator("[data-reveal]").click();
  expect(await firstFold.isVisible(), "the fold, opened").toBe(true);
  expect(await firstFold.innerText(), "the fold's body").toContain(FOLDS[0].marker);
  expect(await parts.first().locator("[data-label]:visible").innerText(), "the opened fold's button").toBe(
    "Hide: the four steps, with defineTool",
  );
  expect(await axeViolations(page), "axe violations with a fold open on the challenge path").toEqual([]);
  await page.goto(pathToFileURL(join(challengeDist, "index.html")).href);
  await page.waitForSelector("html[data-ready='true']");
  const mark = page.locator(`[data-stage-row="${stage.id}"] [data-challenge-mark]`);
  expect(await state(page, stage.id), "the board's state").toBe("Self-check passed");
  expect(await mark.isVisible(), "the board's mark").toBe(true);
  expect(await mark.innerText(), "the mark's words").toBe("challenge path on, nothing revealed in this browser");
  await page.screenshot({ path: join(SCREENSHOTS, "board-challenge.png"), fullPage: true });

  // Another learner reveals the reference solution before the run (the clock is before 2026-05-06).
  const other = await open(stageUrl, undefined, new Date("2026-05-01T00:00:00.000Z"));
  await other.page.getByRole("switch", { name: /Challenge path/ }).check();
  await other.page.getByRole("button", { name: "Show the reference solution, hidden on the challenge path" }).click();
  expect(await other.page.locator(".listing").first().isVisible(), "the reference solution, revealed").toBe(true);
  await other.page.locator("[data-file]").setInputFiles(files.passing);
  await expect
    .poll(() => other.page.locator("[data-live-status]").innerText(), { message: "the verdict after a reveal" })
    .toMatch(/Self-check passed: [^]*\)\.$/);
  expect(await other.page.locator("[data-challenge-status]").innerText(), "the status after a reveal").toMatch(
    /^You revealed a hidden part in this browser on .*: a pass from a run made after then is marked passed, and nothing more\.$/,
  );
  await other.page.getByRole("switch", { name: /Challenge path/ }).uncheck();
  expect(await other.page.locator("[data-challenge-note]:visible").count(), "notes with the switch off again").toBe(0);
  await other.page.goto(pathToFileURL(join(challengeDist, "index.html")).href);
  await other.page.waitForSelector("html[data-ready='true']");
  expect(await state(other.page, stage.id), "the other board's state").toBe("Self-check passed");
  expect(await other.page.locator(`[data-stage-row="${stage.id}"] [data-challenge-mark]`).isVisible(), "the other board's mark").toBe(
    false,
  );

  // The Chinese edition says the same, in its words.
  const chinese = await open(
    pathToFileURL(join(challengeDist, "zh-CN", stagePage(stage))).href,
    undefined,
    new Date("2026-06-01T00:00:00.000Z"),
  );
  await chinese.page.getByRole("switch", { name: /挑战路径/ }).check();
  await chinese.page.locator("[data-file]").setInputFiles(files.passing);
  await expect
    .poll(() => chinese.page.locator("[data-live-status]").innerText(), { message: "the Chinese verdict with the switch on" })
    .toMatch(/^verification\.json：自检通过：.*）。挑战路径已开启，这次运行之前，这个浏览器中没有展开任何部分。$/);
  expect(await chinese.page.locator("[data-challenge-status]").innerText(), "the Chinese status after the pass").toBe(
    "已通过：读取结果时挑战路径已开启，而且在那次运行之前，这个浏览器中没有展开本课的任何部分。你在别处读过什么，本页无从得知。",
  );
  await chinese.page.goto(pathToFileURL(join(challengeDist, "zh-CN", "index.html")).href);
  await chinese.page.waitForSelector("html[data-ready='true']");
  expect(await chinese.page.locator(`[data-stage-row="${stage.id}"] [data-challenge-mark]`).innerText(), "the Chinese mark").toBe(
    "挑战路径已开启，这个浏览器中未展开任何部分",
  );
  expect([...foreign, ...other.foreign, ...chinese.foreign], "requests that left the page").toEqual([]);
  expect([...errors, ...other.errors, ...chinese.errors], "page errors").toEqual([]);
});

/** Opens every widget of a stage page: the quiz answered, every hint, every reveal, the rubric ticked, a self-check read. */
async function openEveryWidget(page: Page): Promise<void> {
  const quiz = page.locator("[data-option]");
  if ((await quiz.count()) > 0) {
    await quiz.first().click();
    await quiz.last().click();
  }
  const next = page.locator("[data-next-hint]");
  while (await next.isVisible()) await next.click();
  for (const button of await page.locator("[data-reveal]").all())
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  for (const box of await page.locator("[data-rubric]").all()) await box.check();
  await page.locator("[data-file]").setInputFiles(files.incomplete);
  await expect.poll(() => page.locator("[data-live-status]").innerText(), { message: "the self-check's verdict" }).not.toBe("");
}

/** Stages whose Chinese page shows the English lesson, because its translation is not written yet. */
const untranslated = catalog.stages.filter(
  (candidate) => candidate.spec && !(candidate.spec["zh-CN"] && existsSync(localized(candidate.readmePath, "zh-CN"))),
);
const pagesToAudit = [
  "index.html",
  MAP_PAGE,
  ...catalog.stages.filter((candidate) => candidate.spec).map((candidate) => stagePage(candidate)),
  // The Chinese edition: each kind of page, and a stage page still in English, if there is one.
  GLOSSARY_PAGE,
  "zh-CN/index.html",
  `zh-CN/${MAP_PAGE}`,
  `zh-CN/${GLOSSARY_PAGE}`,
  `zh-CN/${stagePage(stage)}`,
  ...untranslated.slice(0, 1).map((candidate) => `zh-CN/${stagePage(candidate)}`),
];

for (const path of pagesToAudit) {
  it(`has no axe-core violation (WCAG 2.2 A and AA, best practices) on ${path}, with every widget opened`, async () => {
    const { page, errors } = await open(fileUrl(path));
    const found: Record<string, string[]> = {};
    const locale = path.startsWith("zh-CN/") ? "zh-CN" : "en";
    const inEdition = path.slice(EDITION_DIRS[locale].length);
    if (inEdition.startsWith("stages/")) {
      // The switch on shows every challenge part's note and label; opening the parts hides them again.
      await page.getByRole("switch", { name: new RegExp(term("Challenge path", locale)) }).check();
      found["the challenge switch on, every part closed"] = await axeViolations(page);
      await openEveryWidget(page);
      found["every widget opened"] = await axeViolations(page);
      await page.setViewportSize({ width: 375, height: 740 });
      found["every widget opened, at a phone's width"] = await axeViolations(page, { layoutOnly: true });
    } else if (inEdition === "index.html") {
      found["as loaded"] = await axeViolations(page);
      await page.locator("[data-file]").setInputFiles(files.corrupt);
      await expect.poll(() => page.locator("[data-live-alert]").innerText(), { message: "the alert" }).not.toBe("");
      found["an alert shown"] = await axeViolations(page);
      // The Challenge switch on (it is set on a stage page; the home page reads it), so the pass is marked.
      await page.evaluate((key) => localStorage.setItem(key, "on"), CHALLENGE_KEY);
      await page.reload();
      await page.waitForSelector("html[data-ready='true']");
      await page.locator("[data-file]").setInputFiles(files.passing);
      await expect.poll(() => state(page, stage.id), { message: "the board after a pass" }).toBe(term("Self-check passed", locale));
      expect(await page.locator(`[data-stage-row="${stage.id}"] [data-challenge-mark]`).isVisible(), "the board's mark").toBe(true);
      found["a stage passed, marked as read with the challenge path on"] = await axeViolations(page);
    } else {
      found["as loaded"] = await axeViolations(page);
      await page.setViewportSize({ width: 375, height: 740 });
      found["at a phone's width"] = await axeViolations(page, { layoutOnly: true });
    }
    expect(found, "axe-core violations, by the state of the page").toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
    if (inEdition.startsWith("stages/"))
      expect(
        await page.locator("pre.code[tabindex='0'][role='group']").count(),
        "code blocks that scroll at a phone's width, reachable by keyboard",
      ).toBeGreaterThan(0);
    expect(errors, "page errors").toEqual([]);
  });
}

it("has no axe-core violation on a lesson with folds, closed and opened, on the challenge path", async () => {
  const { page, errors } = await open(pathToFileURL(join(challengeDist, stagePage(stage))).href);
  await page.getByRole("switch", { name: /Challenge path/ }).check();
  const found: Record<string, string[]> = { "folds closed": await axeViolations(page) };
  await openEveryWidget(page);
  found["folds opened"] = await axeViolations(page);
  await page.setViewportSize({ width: 375, height: 740 });
  found["folds opened, at a phone's width"] = await axeViolations(page, { layoutOnly: true });
  const fold = page.locator("#fold-01-1 pre.code");
  expect(await fold.getAttribute("tabindex"), "the fold's long code line, reachable by keyboard").toBe("0");
  expect(await fold.getAttribute("aria-label"), "its name").toBe("Code (ts), scrolls sideways");
  await fold.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => fold.evaluate((element) => element.scrollLeft), { message: "the block scrolled by a key" }).toBeGreaterThan(0);
  expect(found, "axe-core violations, by the state of the page").toEqual({
    "folds closed": [],
    "folds opened": [],
    "folds opened, at a phone's width": [],
  });
  expect(errors, "page errors").toEqual([]);
});

it("shows a class report of 30 learners from disk, sortable, with each cell the self-check's verdict", async () => {
  const folder = join(scratch, "class");
  mkdirSync(folder);
  const expected = generateClass(courseData(loadCourse()), folder);
  const said: string[] = [];
  const status = await main(["class", folder], { out: (line = "") => said.push(line), err: (line = "") => said.push(line) });
  expect(status, said.join("\n")).toBe(0);
  expect(said[0], "what lab class says").toMatch(
    new RegExp(`^${LEARNERS} learners, \\d+ stage\\(s\\) passed in all; \\d+ thing\\(s\\) skipped`),
  );
  const { page, foreign, errors } = await open(pathToFileURL(join(folder, "class-report.html")).href);
  const learners = () => page.locator("tbody th[scope=row]").allInnerTexts();
  expect((await learners()).length, "rows in the class report").toBe(LEARNERS);
  const stage01 = (name: string) =>
    page
      .locator("tbody tr", { has: page.locator(`th:text-is(${JSON.stringify(name)})`) })
      .locator("td")
      .first();
  expect(await stage01("learner-02").innerText(), "learner-02's stage 01 cell").toBe("✔ passed CI");
  expect(await stage01("learner-02").locator("a.ci").getAttribute("href"), "the run a CI cell links to").toBe(
    "https://github.com/class/learner-02/actions/runs/77",
  );
  expect(await stage01("learner-03").getAttribute("title"), "a reference copy's reason").toMatch(/Reference copy — not counted/);
  expect(await stage01('<img src=x onerror=alert(1)> & "quotes"').innerText(), "the learner whose name is markup").toBe("⚠ invalid");

  // Sorting by stage 01 puts CI passes first, then local passes, then the rest; again, the other way.
  const states = () =>
    page
      .locator("tbody td[data-stage='stage-01-capability-registry']")
      .evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).dataset.sort));
  await page.getByRole("button", { name: /^01 / }).click();
  const descending = await states();
  expect(descending, "stage 01 ranks, sorted best first").toEqual([...descending].sort((a, b) => Number(b) - Number(a)));
  expect(descending[0], "the top rank after sorting: passed on CI").toBe("5");
  await page.getByRole("button", { name: /^01 / }).click();
  expect(await states(), "stage 01 ranks after a second click").toEqual([...descending].reverse().sort((a, b) => Number(a) - Number(b)));
  await page.getByRole("button", { name: "Learner" }).click();
  const names = await learners();
  expect(names, "learners sorted by name").toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  const shown = new Map(
    await Promise.all([...expected.keys()].map(async (name) => [name, await stage01(name).getAttribute("data-state")] as const)),
  );
  expect(shown, "each learner's stage 01 state on the page").toEqual(
    new Map([...expected].map(([name, cells]) => [name, (cells["01"] ?? "none").replace(/ \((self-hosted )?CI\)$/, "")])),
  );
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.getByRole("button", { name: /^01 / }).click();
  await page.screenshot({ path: join(SCREENSHOTS, "class-report.png"), fullPage: true });
  expect(await axeViolations(page), "axe-core violations on the class report").toEqual([]);
  expect(foreign, "requests that left the page").toEqual([]);
  expect(errors, "page errors").toEqual([]);
});

it("sets Lab downloaded from a page npm start serves, and keeps the checkbox for a page opened from disk", async () => {
  const fromDisk = await open(fileUrl(`stages/${stage.id}.html`));
  expect(await fromDisk.page.locator("[data-downloaded]").isVisible(), "the checkbox from disk").toBe(true);
  expect(await fromDisk.page.locator("[data-lab-present]").isVisible(), "the served note from disk").toBe(false);
  await fromDisk.page.goto(fileUrl("index.html"));
  await fromDisk.page.waitForSelector("html[data-ready='true']");
  expect(await state(fromDisk.page, stage.id), "a stage read from disk").toBe("Reading");

  const served = await open(`${serverUrl}stages/${stage.id}.html`);
  await served.page.locator("[data-lab-present]").waitFor();
  expect(await served.page.locator("[data-lab-present]").innerText(), "the served note").toBe(
    "The lab is on this machine: npm start serves this page.",
  );
  expect(await served.page.locator("[data-downloaded]").isVisible(), "the checkbox when served").toBe(false);
  expect(await axeViolations(served.page), "axe violations on the served stage page").toEqual([]);
  await served.page.goto(serverUrl);
  await served.page.waitForSelector("html[data-ready='true']");
  await expect.poll(() => state(served.page, stage.id), { message: "the stage read on the served page" }).toBe("Lab downloaded");
  expect(await state(served.page, "stage-02-workspace-path-policy"), "a stage never opened").toBe("Not started");
  expect(await axeViolations(served.page), "axe violations on the served home page").toEqual([]);
  expect([...fromDisk.errors, ...served.errors], "page errors").toEqual([]);
  expect([...fromDisk.foreign, ...served.foreign], "requests that left the page").toEqual([]);
});

const chineseSpec = specIn(spec, "zh-CN");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const zhUrl = (path: string) => fileUrl(`zh-CN/${path}`);
const readyAgain = (page: Page) => page.waitForSelector("html[data-ready='true']");

it("shows a Chinese stage page opened from disk in Chinese throughout, in a CJK font", async () => {
  if (!chineseSpec) throw new Error("stage 01 has its zh-CN text");
  const { page, foreign, errors } = await open(zhUrl(stagePage(stage)));
  expect(await page.evaluate(() => document.documentElement.lang), "the page's language").toBe("zh-CN");
  expect(await page.locator("h1").innerText(), "the title").toBe(chineseSpec.title);
  expect(await page.locator(".side .nav-title").first().innerText(), "the navigation's first heading").toBe("本页内容");
  expect(await page.locator("[data-next-hint]").innerText(), "the hints button").toBe(`显示提示 1（共 ${chineseSpec.hints.length} 条）`);
  await page.locator("[data-next-hint]").click();
  expect(await page.locator("[data-hint]:visible").innerText(), "the first hint, shown").toMatch(/^提示 1。\S/);
  expect(await page.locator("[data-next-hint]").innerText(), "the hints button after one hint").toBe(
    `显示提示 2（共 ${chineseSpec.hints.length} 条）`,
  );
  const wrong = (chineseSpec.prediction.answer + 1) % 4;
  await page.locator(`[data-option="${wrong}"]`).click();
  await expect
    .poll(() => page.locator(".quiz-verdict").innerText(), { message: "the quiz's verdict on a wrong answer" })
    .toMatch(/^不太对：你选了 [A-D]，答案是 [A-D]。$/);
  expect(await page.locator("[data-mastery] .badge").first().innerText(), "a mastery test's badge before any self-check").toBe("未检查");
  expect(await page.locator("[data-acceptance]").innerText(), "the acceptance before any self-check").toBe("待验收");
  await page.getByRole("switch", { name: /挑战路径/ }).check();
  await expect
    .poll(() => page.locator("[data-challenge-status]").innerText(), { message: "the challenge status with the switch on" })
    .toMatch(/^本课有 \d+ 个部分处于隐藏状态。/);
  const fonts = await page.evaluate(() => ({
    prose: getComputedStyle(document.querySelector("main p") ?? document.body).fontFamily,
    code: getComputedStyle(document.querySelector("main code") ?? document.body).fontFamily,
  }));
  expect(fonts.prose, "the font stack of the Chinese prose").toBe(computedForm(stackOf("--font-cjk")));
  expect(fonts.code, "the font stack of code on the Chinese page").toMatch(/monospace$/);
  await page.screenshot({ path: join(SCREENSHOTS, "stage-01.zh-CN.png"), fullPage: true });
  expect(foreign, "requests that left the page").toEqual([]);
  expect(errors, "page errors").toEqual([]);
});

it("switches to the other edition and back, landing on the twin, and opens the remembered edition's home page, from disk and from npm start", async () => {
  if (!chineseSpec) throw new Error("stage 01 has its zh-CN text");
  const { page, foreign, errors } = await open(fileUrl(stagePage(stage)));
  await page.getByRole("link", { name: "简体中文", exact: true }).click();
  await page.waitForURL(zhUrl(stagePage(stage)));
  await readyAgain(page);
  expect(await page.evaluate(() => document.documentElement.lang), "the twin's language").toBe("zh-CN");
  expect(await page.locator("h1").innerText(), "the twin's title").toBe(chineseSpec.title);
  // The site's entry, the English home page, now opens the Chinese one.
  await page.goto(fileUrl("index.html"));
  await page.waitForURL(zhUrl("index.html"));
  await readyAgain(page);
  expect(await page.locator("#board-title").innerText(), "the home page opened from the entry").toBe("你的进度");
  // A lesson opened by its address stays in its edition: the learner asked for that page.
  await page.goto(fileUrl(stagePage(stage)));
  await readyAgain(page);
  expect(page.url(), "an English lesson opened by its address").toBe(fileUrl(stagePage(stage)));
  await page.goto(zhUrl("index.html"));
  await readyAgain(page);
  await page.getByRole("link", { name: "English", exact: true }).click();
  await page.waitForURL(fileUrl("index.html"));
  await page.goto(zhUrl("index.html"));
  await page.waitForURL(fileUrl("index.html"));
  await readyAgain(page);
  expect(await page.locator("#board-title").innerText(), "the home page opened from the Chinese home page's address").toBe("Your progress");

  const served = await open(serverUrl);
  await served.page.getByRole("link", { name: "简体中文", exact: true }).click();
  await served.page.waitForURL(`${serverUrl}zh-CN/index.html`);
  await readyAgain(served.page);
  await served.page.goto(serverUrl);
  await served.page.waitForURL(`${serverUrl}zh-CN/index.html`);
  await readyAgain(served.page);
  expect(await served.page.locator("#board-title").innerText(), "the served entry, after the switch").toBe("你的进度");
  await served.page.getByRole("link", { name: "English", exact: true }).click();
  await served.page.waitForURL(`${serverUrl}index.html`);
  await served.page.goto(`${serverUrl}zh-CN/`);
  await served.page.waitForURL(`${serverUrl}index.html`);
  await readyAgain(served.page);
  expect(await served.page.locator("#board-title").innerText(), "the served Chinese home page, after switching back").toBe("Your progress");
  expect([...foreign, ...served.foreign], "requests that left the page").toEqual([]);
  expect([...errors, ...served.errors], "page errors").toEqual([]);
});

it("gives the self-check's verdicts and states in Chinese on Chinese pages, from disk and from npm start", async () => {
  const { page, foreign, errors } = await open(zhUrl(stagePage(stage)));
  const status = () => page.locator("[data-live-status]").innerText();
  const alert = () => page.locator("[data-live-alert]").innerText();
  await page.locator("[data-file]").setInputFiles(files.incomplete);
  await expect
    .poll(status, { message: "the verdict on a run with a failing and a missing test" })
    .toMatch(
      new RegExp(
        `^incomplete\\.json：已读取 ${stage.id} 的结果，尚未通过。.*本阶段的 \\d+ 个测试中，有 1 个没有出现在文件里：.*有 1 个测试没有通过：“${escapeRegExp(mastery[0] ?? "")}”（failed）。$`,
      ),
    );
  expect(await page.locator('.badge[data-status="failed"]').innerText(), "the failed mastery test's badge").toBe("失败");
  expect(await page.locator('.badge[data-status="missing"]').innerText(), "the missing mastery test's badge").toBe("缺失");
  expect(await page.locator("[data-acceptance]").innerText(), "the acceptance after a failing run").toBe("尚未通过");
  await page.getByRole("link", { name: "进度与本地自检" }).click();
  await page.waitForURL(zhUrl("index.html"));
  await readyAgain(page);
  expect(await state(page, stage.id), "the board's state after the failing run").toBe("已读取测试结果");

  await page.locator("[data-file]").setInputFiles(files.corrupt);
  await expect.poll(alert, { message: "the alert on a file that is not JSON" }).toMatch(/^corrupt\.json：这个文件不是 JSON（/);
  await page.locator("[data-file]").setInputFiles(files.reference);
  await expect
    .poll(alert, { message: "the alert on a run of the reference solution" })
    .toMatch(/^verification\.solution\.json：这个文件来自针对参考实现的运行（target "solution"），不是你的工作区，所以不计入。/);
  await page.locator("[data-file]").setInputFiles(files.passing);
  await expect
    .poll(status, { message: "the verdict on the learner's own passing run" })
    .toMatch(new RegExp(`^verification\\.json：自检通过：${stage.id} 的全部 ${suite.length} 个测试，在你自己工作区代码的一次运行中通过`));
  expect(await alert(), "the alert after a passing run").toBe("");
  expect(await state(page, stage.id), "the board's state after the passing run").toBe("自检通过");
  const row = page.locator(`[data-stage-row="${stage.id}"] [data-state]`);
  expect(await row.getAttribute("data-value"), "the state styles key on").toBe("Self-check passed");
  expect(await row.evaluate((element) => getComputedStyle(element).backgroundColor), "the passed state's background").toBe(
    "rgb(218, 251, 225)",
  );

  const served = await open(`${serverUrl}zh-CN/${stagePage(stage)}`);
  const load = served.page.getByRole("button", { name: "载入 01-capability-registry/verification.json" });
  await load.waitFor();
  await load.click();
  await expect
    .poll(() => served.page.locator("[data-live-status]").innerText(), { message: "the verdict on this checkout's evidence file" })
    .toMatch(/^01-capability-registry\/verification\.json：自检通过：/);
  await served.page.screenshot({ path: join(SCREENSHOTS, "stage-01.zh-CN.served.png"), fullPage: true });
  expect([...foreign, ...served.foreign], "requests that left the page").toEqual([]);
  expect([...errors, ...served.errors], "page errors").toEqual([]);
});

it("stops npm start cleanly on Ctrl-C", async () => {
  const child = server;
  if (!child) throw new Error("the server did not start");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  server = null;
});

it("keeps the screenshots as test artifacts", () => {
  for (const name of ["home.png", "stage-01.png", "class-report.png", "course-map.png", "board-challenge.png"])
    expect(readFileSync(join(SCREENSHOTS, name)).subarray(1, 4).toString()).toBe("PNG");
});
