// The learner's loop end to end: `npm test -- stage-01` in a child process, against a temporary
// workspace and evidence folder, so no real learner's work is touched.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect, it, type TestContext } from "vitest";
import { dirs, ROOT } from "../../core/layout.js";
import { npmCommand } from "../../core/npm.js";
import { verificationSchema, type Verification } from "../../evidence/schema.js";
import { workspaceTsconfigPath } from "../../vitest/typecheck.js";
import { temporaryFolder } from "../../testing.js";
import { childEnvironment } from "../support/child.js";

interface Run {
  readonly status: number;
  readonly output: string;
  readonly evidence: (file?: string, folder?: string) => Verification;
  readonly workspace: string;
}

/** Runs `npm test -- stage-01` once, as a learner would in CI mode, in a fresh workspace. */
function npmTest(
  context: TestContext,
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; files?: Record<string, string>; prepare?: (tools: string) => void } = {},
): Promise<Run> {
  const folder = temporaryFolder({ insideRepository: true, onFinished: context.onTestFinished });
  const workspace = join(folder, "workspace");
  const evidence = join(folder, "evidence");
  mkdirSync(join(workspace, "forge", "tools"), { recursive: true });
  context.onTestFinished(() => rmSync(workspaceTsconfigPath(workspace), { force: true }));
  for (const [name, content] of Object.entries(options.files ?? {})) writeFileSync(join(workspace, "forge", "tools", name), content);
  options.prepare?.(join(workspace, "forge", "tools"));
  // The child is a vitest of its own: none of this worker's vitest variables may leak into it.
  // A variable the test sets to undefined is removed.
  const chosen = {
    ...childEnvironment(),
    CI: "true",
    NO_COLOR: "1",
    FORGE_LANG: "en",
    FORGE_WORKSPACE: workspace,
    FORGE_EVIDENCE: evidence,
    ...options.env,
  };
  const env = Object.fromEntries(Object.entries(chosen).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const [command, commandArgs] = npmCommand(["test", "--silent", "--", ...args]);
  return new Promise((resolve) => {
    execFile(
      command,
      commandArgs,
      {
        cwd: ROOT,
        // English and no colours unless a test asks otherwise: what a test reads must not depend on the
        // machine's locale or terminal.
        env,
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        const read = (file = "verification.json", folder = "01-capability-registry") =>
          verificationSchema.parse(JSON.parse(readFileSync(join(evidence, "tools-sandbox-side-effects", folder, file), "utf8")));
        resolve({ status, output: `${stdout}\n${stderr}`, evidence: read, workspace });
      },
    );
  });
}

const stackFrame = /^\s*❯ .+:\d+:\d+/m;
/** Each test starts one or two vitest processes; on a two-core machine they queue behind each other. */
const CHILD_TIMEOUT = 60_000;

it.concurrent("stops at an unwritten module with one line naming the file and the lesson section", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const run = await npmTest(context, ["stage-01"]);
  expect(run.status).toBe(1);
  expect(run.output).toMatch(
    /ModuleNotWritten: forge\/tools\/registry is not written yet: create \S*forge\/tools\/registry\.ts \(explained in stages\/stage-01-capability-registry\/README\.md, section "Concepts"\)\./,
  );
  expect(run.output).not.toMatch(stackFrame);
  const evidence = run.evidence();
  // Nobody started the stage: its evidence is pending, as the experiment card says, not failed.
  expect(evidence).toMatchObject({ target: "workspace", acceptance: "pending", summary: { total: 0, loadErrors: 2 } });
  expect(evidence.loadErrors.map((error) => error.missingModule)).toEqual(["registry", "registry"]);

  const schema: unknown = JSON.parse(readFileSync(join(ROOT, "evidence", "verification.schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: true });
  addFormats.default(ajv);
  expect(ajv.validate(schema as object, evidence), JSON.stringify(ajv.errors)).toBe(true);
});

it.concurrent("stops at a FIFO, a folder or a link where a module belongs with one line naming it, instead of waiting forever", {
  timeout: 3 * CHILD_TIMEOUT,
}, async (context) => {
  const fifo = await npmTest(context, ["stage-01"], { prepare: (tools) => execFileSync("mkfifo", [join(tools, "registry.ts")]) });
  expect(fifo.status, `exit status with a FIFO where the module belongs; output:\n${fifo.output}`).toBe(1);
  expect(fifo.output).toMatch(
    /ModuleNotAFile: \S*forge\/tools\/registry\.ts is a FIFO, not a file: move it away and write the module there\./,
  );
  expect(fifo.output).not.toMatch(stackFrame);
  const folder = await npmTest(context, ["stage-01"], {
    prepare: (tools) => mkdirSync(join(tools, "registry.ts")),
    env: { FORGE_LANG: "zh-CN" },
  });
  expect(folder.status, "exit status with a folder where the module belongs").toBe(1);
  expect(folder.output).toMatch(/ModuleNotAFile: \S*forge\/tools\/registry\.ts 是目录，不是文件：请把它移开，在那里写模块。/);
  // A link to a module kept elsewhere: the type-check, which reads the workspace's own files, would not
  // see it, so a type error there would pass unnoticed.
  const elsewhere = join(temporaryFolder({ onFinished: context.onTestFinished }), "registry.ts");
  writeFileSync(elsewhere, 'export const broken: number = "text";\n');
  const link = await npmTest(context, ["stage-01"], { prepare: (tools) => symlinkSync(elsewhere, join(tools, "registry.ts")) });
  expect(link.status, "exit status with a symbolic link where the module belongs").toBe(1);
  expect(link.output).toMatch(
    /ModuleNotAFile: \S*forge\/tools\/registry\.ts is a symbolic link, not a file: move it away and write the module there\./,
  );
});

it.concurrent("fails the run with one line, and no stack, when the evidence cannot be written", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const blocker = join(temporaryFolder({ onFinished: context.onTestFinished }), "a-file");
  writeFileSync(blocker, "a file where the evidence folder belongs\n");
  const run = await npmTest(context, ["stage-01"], { env: { FORGE_TARGET: "solution", FORGE_EVIDENCE: join(blocker, "evidence") } });
  expect(run.output, "the tests themselves").toMatch(/Tests {2}19 passed \(19\)/);
  expect(run.status, "exit status when the evidence is not written").toBe(1);
  expect(run.output).toMatch(
    /EvidenceNotWritten: the tests ran, but \S+\/verification\.solution\.json could not be written \(ENOTDIR[^)]*\): the self-check and lab status do not see this run\./,
  );
  expect(run.output).not.toMatch(stackFrame);
});

it.concurrent("shows control, bidi and separator characters in a failing run's log as escapes, never raw", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  // A learner module whose errors carry what a hostile input would: a right-to-left override, NEL, a line
  // separator, a bell, a zero-width space. The failure tables then hold them in keys and values alike.
  const hidden = String.raw`tool\u202eloot \u0085 \u2028 \u0007 \u200b`;
  const run = await npmTest(context, ["stage-01"], {
    files: {
      // Every name the tests import, so that each test runs and fails with the hostile message.
      "registry.ts": [
        "export function defineTool(name: string, capabilities: Iterable<string>): never {",
        `  throw new Error(\`${hidden} \${name} \${[...capabilities].join()}\`);`,
        "}",
        "export const parseToolDescriptor = defineTool;",
        "export const ALLOWED_CAPABILITIES: readonly string[] = [];",
        "export const toolDescriptorInput = {};",
        "export class ToolRegistry {}",
        "",
      ].join("\n"),
    },
  });
  expect(run.status, "exit status of a failing run").toBe(1);
  const raw = [...run.output.matchAll(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu)]
    .map((match) => match[0])
    .filter((char) => char !== "\n" && char !== "\t");
  expect(
    [...new Set(raw)].map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`),
    "raw invisible characters in the log",
  ).toEqual([]);
  expect(run.output, "the override shown as an escape").toContain(String.raw`tool\u202eloot \u0085 \u2028 \u0007 \u200b`);
  const failed = run.evidence().tests.filter((test) => test.status === "failed");
  expect(failed.length, "failed tests in the evidence").toBeGreaterThan(0);
  expect(
    failed
      .filter((test) => /[\p{Cc}\p{Cf}\u2028\u2029]/u.test((test.failure?.message ?? "").replace(/[\n\t]/g, "")))
      .map((test) => test.name),
    "tests whose recorded failure holds a raw invisible character",
  ).toEqual([]);
});

it.concurrent("stops a test file at a name the learner's module does not export, with one line naming each", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const reference = readFileSync(join(ROOT, "solutions", "stage-01-capability-registry", "forge", "tools", "registry.ts"), "utf8");
  const unexported = reference.replace("export function parseToolDescriptor", "function parseToolDescriptor");
  expect(unexported, "the learner's registry keeps parseToolDescriptor to itself").not.toBe(reference);
  const [empty, short] = await Promise.all([
    npmTest(context, ["stage-01"], { files: { "registry.ts": "" }, env: { FORGE_LANG: "zh-CN" } }),
    npmTest(context, ["stage-01"], { files: { "registry.ts": unexported } }),
  ]);
  // Each run's workspace is a folder of its own, named here as the learner's is.
  const lines = (run: Run) =>
    run.output
      .split("\n")
      .filter((line) => line.startsWith("ExportMissing: ") || / TypeError: /.test(line))
      .map((line) => line.replace(`${relative(ROOT, run.workspace)}/`, "workspace/"));
  expect({ status: empty.status, lines: lines(empty) }, "an empty registry, in Chinese").toEqual({
    status: 1,
    lines: [
      "ExportMissing: workspace/forge/tools/registry.ts 没有导出 ALLOWED_CAPABILITIES, defineTool, parseToolDescriptor, toolDescriptorInput, ToolRegistry，而 stages/stage-01-capability-registry/registry.test.ts 要导入它们。",
      "ExportMissing: workspace/forge/tools/registry.ts 没有导出 parseToolDescriptor, ToolRegistry，而 stages/stage-01-capability-registry/transfer.test.ts 要导入它们。",
    ],
  });
  expect({ status: short.status, lines: lines(short) }, "a registry one export short").toEqual({
    status: 1,
    lines: [
      "ExportMissing: workspace/forge/tools/registry.ts does not export parseToolDescriptor, which stages/stage-01-capability-registry/registry.test.ts imports.",
      "ExportMissing: workspace/forge/tools/registry.ts does not export parseToolDescriptor, which stages/stage-01-capability-registry/transfer.test.ts imports.",
    ],
  });
  expect(short.evidence().acceptance, "the evidence of a run whose files did not load").toBe("failed");
});

it.concurrent("records a run of some of a stage's test files as pending, not passed", { timeout: CHILD_TIMEOUT }, async (context) => {
  const run = await npmTest(context, ["stage-01-capability-registry/transfer"], { env: { FORGE_TARGET: "solution" } });
  expect(run.status, `exit status of a passing run of one file:\n${run.output}`).toBe(0);
  const evidence = run.evidence("verification.solution.json");
  expect(
    { files: [...new Set(evidence.tests.map((test) => test.file))], acceptance: evidence.acceptance },
    "what the evidence of a run of transfer.test.ts alone holds and says",
  ).toEqual({ files: ["stages/stage-01-capability-registry/transfer.test.ts"], acceptance: "pending" });
});

it.concurrent("answers a stage that does not exist, an option of the lab's and an option vitest does not know in one line, with exit status 2", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  // One past the course's last stage.
  const last = readdirSync(join(ROOT, "stages"))
    .filter((name) => /^stage-\d{2}-/.test(name))
    .sort()
    .at(-1)
    ?.slice(6, 8);
  const missing = String(Number(last) + 1).padStart(2, "0");
  const answers = await Promise.all(
    [[`stage-${missing}`], ["stage-01", "--target", "solution"], ["stage-01", "--bogus"]].map(async (args) => {
      const run = await npmTest(context, args);
      return { args: args.join(" "), status: run.status, lines: run.output.trim().split("\n") };
    }),
  );
  expect(answers, "each command's status and output").toEqual([
    {
      args: `stage-${missing}`,
      status: 2,
      lines: [`npm test: there is no stage ${missing}: the stages are 01 to ${last} (npm test -- stage-01).`],
    },
    {
      args: "stage-01 --target solution",
      status: 2,
      lines: ["npm test: --target is an option of the lab's test command, not of vitest: npm run lab -- test stage-01 --target solution"],
    },
    {
      args: "stage-01 --bogus",
      status: 2,
      lines: ["npm test: Unknown option `--bogus` (npm test passes its words to vitest; npx vitest --help lists its options)."],
    },
  ]);
});

it.concurrent("keeps vitest's colours in a failing diff on a colour terminal, and shows a value's own escape character as an escape", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  // The reference with two wrong messages: a plain one, and one that hides a word behind a value's own
  // colour codes (conceal, then reveal).
  const reference = readFileSync(join(ROOT, "solutions", "stage-01-capability-registry", "forge", "tools", "registry.ts"), "utf8");
  const learners = reference
    .replace("is already registered", "is registered")
    .replace("invalid capability requirement: unknown capability", String.raw`\u001b[8mhidden\u001b[28m unknown capability`);
  expect(learners.includes("is registered") && learners.includes("hidden"), "the learner's registry differs from the reference twice").toBe(
    true,
  );
  const run = await npmTest(context, ["stage-01"], { files: { "registry.ts": learners }, env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
  expect(run.status, "exit status of a failing run").toBe(1);
  // The diff's line of what the registry said, not the assertion's message above it (the reporter's own colours).
  const plain = run.output.split("\n").find((line) => line.includes("Received:") && line.includes("is registered"));
  expect(plain, `the diff's line of the plain wrong message, in:\n${run.output}`).toBeDefined();
  expect(plain, "vitest's colours in the plain diff, as colours").toMatch(/\u001b\[\d+m/);
  expect(plain, "vitest's colours in the plain diff, as escape text").not.toContain(String.raw`\u001b[`);
  expect(run.output, "the value's own conceal code, shown as an escape").toContain(String.raw`\u001b[8mhidden`);
  expect(run.output, "the value's own conceal code, raw").not.toContain("\u001b[8m");
});

it.concurrent("never serves a test compiled against the reference to a learner's run, with the module cache warm", {
  timeout: 2 * CHILD_TIMEOUT,
}, async (context) => {
  // The reference's run leaves stage 01's tests in vitest's module cache, compiled against its registry.
  const reference = await npmTest(context, ["stage-01"], { env: { FORGE_TARGET: "solution" } });
  expect(reference.status, `the reference's run:\n${reference.output}`).toBe(0);
  // A learner's registry that fails every test: a test served from that cache would pass instead.
  const learner = await npmTest(context, ["stage-01"], {
    files: { "registry.ts": 'throw new Error("the learner\'s registry, loaded");\nexport {};\n' },
  });
  expect(learner.status, `the learner's run:\n${learner.output}`).toBe(1);
  expect(learner.output).toContain("the learner's registry, loaded");
  expect(learner.evidence()).toMatchObject({ target: "workspace", acceptance: "failed" });
});

it.concurrent("refuses an unknown target with a message naming the four", { timeout: CHILD_TIMEOUT }, async (context) => {
  const run = await npmTest(context, ["stage-01"], { env: { FORGE_TARGET: "reference" } });
  expect(run.status).toBe(2);
  expect(run.output).toContain('FORGE_TARGET="reference" is not a target. Use one of: workspace, solution, faulty, start');
});

it.concurrent("reports a syntax error and a type error in a learner file with file and line", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const syntax = await npmTest(context, ["stage-01"], {
    files: { "registry.ts": "export function defineTool(name: string {\n  return name;\n}\n" },
  });
  expect(syntax.status).toBe(1);
  expect(syntax.output).toMatch(/TypeScriptError: \S*forge\/tools\/registry\.ts:1:\d+ syntax error TS1005: /);
  // The compiler reports a cascade; the learner reads the first error, with how many follow.
  expect(syntax.output).toMatch(/TypeScriptError: [^\n]* \(and \d+ more; fix this one first\)\n/);
  expect(syntax.output).not.toMatch(stackFrame);
  const typed = await npmTest(context, ["stage-01"], {
    files: { "registry.ts": "export function defineTool(name: string): number {\n  return name;\n}\n" },
  });
  expect(typed.output).toMatch(
    /TypeScriptError: \S*forge\/tools\/registry\.ts:2:3 type error TS2322: Type 'string' is not assignable to type 'number'\./,
  );
});

it.concurrent("passes a correct learner solution and records passed evidence with the learner's file hashed", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const run = await npmTest(context, ["stage-01"], {
    files: { "registry.ts": readFileSync(join(ROOT, "solutions/stage-01-capability-registry/forge/tools/registry.ts"), "utf8") },
  });
  expect(run.status, run.output).toBe(0);
  const evidence = run.evidence();
  expect(evidence.acceptance).toBe("passed");
  expect(evidence.sources.map((source) => source.path)).toContainEqual(expect.stringMatching(/workspace\/forge\/tools\/registry\.ts$/));
  expect(existsSync(join(run.workspace, "forge", "tools", "registry.ts"))).toBe(true);
});

it.concurrent("fails exactly the contract's target test and the tests it lists as also failing against the faulty tree, without touching the learner's evidence", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const run = await npmTest(context, ["stage-01"], { env: { FORGE_TARGET: "faulty" } });
  expect(run.status).toBe(1);
  const evidence = run.evidence("verification.faulty.json");
  // The contract is the one home of which tests the fault fails.
  const contract = JSON.parse(readFileSync(join(ROOT, "fixtures", "stage-01-capability-registry", "failure.json"), "utf8")) as {
    targetTest: string;
    alsoFailing: string[];
  };
  expect(
    evidence.tests
      .filter((test) => test.status === "failed")
      .map((test) => test.name)
      .sort(),
    "tests that failed against the faulty tree",
  ).toEqual([contract.targetTest, ...contract.alsoFailing].sort());
  expect(contract.alsoFailing.length, "stage 01's default fault fails more than its target test").toBeGreaterThan(0);
  expect(evidence.contract?.reproduced).toBe(true);
  expect(() => run.evidence()).toThrow(/ENOENT/);
});

it.concurrent("names an earlier stage's module that a learner file imports but has not written yet", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const reference = (stage: string, module: string) =>
    readFileSync(join(ROOT, "solutions", stage, "forge", "tools", `${module}.ts`), "utf8");
  const run = await npmTest(context, ["stage-06"], {
    // The journal imports ./atomic.js, which this learner has not written.
    files: { "rollback.ts": reference("stage-06-rollback-journal", "rollback") },
  });
  expect(run.status).toBe(1);
  expect(run.output).toMatch(
    /ModuleNotWritten: forge\/tools\/atomic is not written yet: create \S*forge\/tools\/atomic\.ts \(explained in stages\/stage-05-atomic-write\/README\.md, section "Concepts"\)\. It belongs to stage-05-atomic-write, an earlier stage\./,
  );
  expect(run.output).not.toContain("TypeScriptError");
});

it.concurrent("says a module is not written yet in Chinese with FORGE_LANG=zh-CN, pointing to the Chinese lesson and section", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const run = await npmTest(context, ["stage-06"], {
    env: { FORGE_LANG: "zh-CN" },
    files: { "rollback.ts": readFileSync(join(ROOT, "solutions", "stage-06-rollback-journal", "forge", "tools", "rollback.ts"), "utf8") },
  });
  expect(run.status, "exit status of a stage whose earlier module is missing").toBe(1);
  expect(run.output, "the missing-module line in Chinese").toMatch(
    /ModuleNotWritten: forge\/tools\/atomic 尚未编写：请创建 \S*forge\/tools\/atomic\.ts（说明见 stages\/stage-05-atomic-write\/README\.zh-CN\.md 的“概念”一节）。它属于更早的阶段 stage-05-atomic-write。/,
  );
  expect(run.output, "npm test's output in Chinese").not.toContain("is not written yet");
});

it.concurrent("keeps writing the evidence when --reporter=junit and github-actions replace vitest's reporters", {
  timeout: CHILD_TIMEOUT,
}, async (context) => {
  const junit = join(temporaryFolder({ onFinished: context.onTestFinished }), "junit.xml");
  const run = await npmTest(context, ["stage-04", "--run", "--reporter=junit", `--outputFile=${junit}`, "--reporter=github-actions"], {
    env: { FORGE_TARGET: "faulty" },
  });
  expect(run.status, "exit status of a faulty run").toBe(1);
  const evidence = run.evidence("verification.faulty.json", "04-approval-gate");
  expect(evidence.contract?.reproduced, "the fault contract, as the evidence written beside junit records it").toBe(true);
  const xml = readFileSync(junit, "utf8");
  const junitCases = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((match) => match[1]);
  expect(junitCases.length, "test cases in the JUnit file").toBe(evidence.summary.total);
  const failed = evidence.tests.filter((test) => test.status === "failed").map((test) => test.name);
  expect(failed, "failed tests in the evidence").toContain(evidence.contract?.targetTest);
  for (const name of failed) expect(run.output, "the github-actions reporter's annotation for a failed test").toContain(`> ${name},line=`);
});

/**
 * `vitest watch stage-01` against a workspace inside the checkout (vitest watches its root, and not
 * node_modules/). `next()` resolves with what one run printed, up to its result line; a run is read only
 * once the output has been quiet for a moment, so a late second rerun of one save is never taken for the
 * result of the next.
 */
function watchStage01(context: TestContext, name: string, files: Readonly<Record<string, string>> = {}) {
  mkdirSync(dirs.labState, { recursive: true });
  const folder = realpathSync(mkdtempSync(join(dirs.labState, name)));
  context.onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const workspace = join(folder, "workspace");
  mkdirSync(join(workspace, "forge", "tools"), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(workspace, "forge", "tools", name), content);
  context.onTestFinished(() => rmSync(workspaceTsconfigPath(workspace), { force: true }));
  const env = childEnvironment();
  const child = spawn(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "watch", "stage-01"], {
    cwd: ROOT,
    env: {
      ...env,
      CI: "",
      NO_COLOR: "1",
      FORGE_LANG: "en",
      FORGE_TARGET: "workspace",
      FORGE_WORKSPACE: workspace,
      FORGE_EVIDENCE: join(folder, "evidence"),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  context.onTestFinished(() => {
    child.kill();
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const RESULT = /Test Files [^\n]*\n/;
  const next = async (): Promise<string> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`vitest watch printed no result line within 60 s; it printed:\n${output}`);
      if (child.exitCode !== null) throw new Error(`vitest watch exited with ${child.exitCode}:\n${output}`);
      const seen = output;
      await new Promise((resolve) => setTimeout(resolve, 400));
      if (RESULT.test(seen) && output === seen) {
        output = "";
        return seen;
      }
    }
  };
  return { file: join(workspace, "forge", "tools", "registry.ts"), next };
}

it.concurrent("reruns on every save in watch mode: a module written, a type error, its fix, the module deleted and written again", {
  timeout: 4 * CHILD_TIMEOUT,
}, async (context) => {
  // A folder whose name a pattern would read as syntax, inside one whose name starts with a dot (.lab/):
  // the learner's checkout may be "forge-lab (1)" under ~/.src/.
  const { file, next } = watchStage01(context, "watch test (1) [a]-");
  const reference = readFileSync(join(ROOT, "solutions", "stage-01-capability-registry", "forge", "tools", "registry.ts"), "utf8");
  const first = await next();
  expect(first, "the first run, before the module exists").toContain("ModuleNotWritten: forge/tools/registry is not written yet");
  expect(first, "its result line").toMatch(/Test Files {2}2 failed \(2\)/);

  writeFileSync(file, reference);
  expect(await next(), "the rerun after the module is written").toMatch(/Test Files {2}2 passed \(2\)/);

  const lines = reference.split("\n").length;
  writeFileSync(file, `${reference}export const broken: number = "text";\n`);
  const typed = await next();
  expect(typed, "the rerun after a type error is saved").toMatch(
    new RegExp(
      `TypeScriptError: [^\\n]*forge/tools/registry\\.ts:${lines}:14 type error TS2322: Type 'string' is not assignable to type 'number'\\.`,
    ),
  );
  expect(typed, "its result line").toMatch(/Test Files {2}2 failed \(2\)/);

  writeFileSync(file, `${reference}// fixed\n`);
  expect(await next(), "the rerun after the fix is saved").toMatch(/Test Files {2}2 passed \(2\)/);

  rmSync(file);
  const gone = await next();
  expect(gone, "the rerun after the module is deleted").toContain("ModuleNotWritten: forge/tools/registry is not written yet");
  expect(gone, "its result line").toMatch(/Test Files {2}2 failed \(2\)/);

  // Written again, with an error the compiler session must see in the new file, not the old one.
  writeFileSync(file, `${reference}export const again: boolean = 1;\n`);
  expect(await next(), "the rerun after it is written again with a type error").toContain(
    "type error TS2322: Type 'number' is not assignable to type 'boolean'.",
  );
  writeFileSync(file, reference);
  expect(await next(), "the rerun after it is fixed").toMatch(/Test Files {2}2 passed \(2\)/);
});

it.concurrent("reruns in watch mode when a module written before the start is saved with a type error", {
  timeout: 3 * CHILD_TIMEOUT,
}, async (context) => {
  const reference = readFileSync(join(ROOT, "solutions", "stage-01-capability-registry", "forge", "tools", "registry.ts"), "utf8");
  const { file, next } = watchStage01(context, "watch-test-", { "registry.ts": reference });
  expect(await next(), "the first run").toMatch(/Test Files {2}2 passed \(2\)/);
  writeFileSync(file, `${reference}export const broken: number = "text";\n`);
  const typed = await next();
  expect(typed, "the rerun after a type error is saved").toContain("type error TS2322: Type 'string' is not assignable to type 'number'.");
  expect(typed, "its result line").toMatch(/Test Files {2}2 failed \(2\)/);
});
