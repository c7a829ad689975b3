// The course in the tools learners and instructors already use: the two GitHub Actions workflows (valid
// for GitHub's schema, and the learner's steps run here as a runner would run them), evidence exported to
// CTRF and JUnit through the CLI, and the editor's view of the stage tests. One temporary copy of the
// repository serves them all, so the child processes are few.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, expect, it, onTestFinished } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadCatalog } from "../../catalog/load.js";
import { layoutOf, ROOT } from "../../core/layout.js";
import { enginesRange, supportedLines } from "../../core/node-lines.js";
import { ctrfProblems } from "../../evidence/export.js";
import { readVerification, type Verification } from "../../evidence/schema.js";
import { materializeFaults } from "../../trees/faults.js";
import { TARGETS } from "../../trees/targets.js";
import { childEnvironment } from "../support/child.js";
import { labInProcess, reference, SLOW, tools } from "../support/cli.js";
import { copyRepositoryTo } from "../support/repository.js";

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly jobs: Record<string, { "runs-on": string; strategy?: { matrix: Record<string, unknown> }; steps: Step[] }>;
}

const workflowText = (name: string) => readFileSync(join(ROOT, ".github", "workflows", name), "utf8");
const workflow = (name: string) => parseYaml(workflowText(name)) as Workflow;
const catalog = loadCatalog();

/** The variables a GitHub-hosted runner gives a job of the learner's workflow on a push. */
const RUNNER = {
  GITHUB_ACTIONS: "true",
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_REPOSITORY: "ada/forge-lab",
  GITHUB_RUN_ID: "1234567890",
  GITHUB_RUN_ATTEMPT: "1",
  GITHUB_WORKFLOW: "forge-lab",
  GITHUB_EVENT_NAME: "push",
  GITHUB_REF: "refs/heads/main",
  GITHUB_SHA: "e".repeat(40),
  RUNNER_OS: "Linux",
  RUNNER_ARCH: "X64",
  RUNNER_NAME: "GitHub Actions 7",
  RUNNER_ENVIRONMENT: "github-hosted",
};

let copy = "";
const summaryFile = () => join(copy, "step-summary.md");
const evidenceOf = (folder: string): Verification | string => {
  const file = join(copy, "evidence", "tools-sandbox-side-effects", folder, "verification.json");
  if (!existsSync(file)) return "no verification.json";
  const read = readVerification(JSON.parse(readFileSync(file, "utf8")));
  return read.ok ? read.verification : JSON.stringify(read.issues);
};

beforeAll(() => {
  copy = realpathSync(mkdtempSync(join(tmpdir(), "forge-lab-ecosystem-")));
  copyRepositoryTo(copy);
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** Runs one `run:` step as the runner does: through a shell, in the checkout, with the runner's variables. */
function runStep(command: string): Promise<{ status: number | null; output: string }> {
  const env = childEnvironment();
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      cwd: copy,
      shell: true,
      // FORGE_LANG: the test reads the English messages, whatever the machine's locale.
      env: { ...env, ...RUNNER, CI: "true", NO_COLOR: "1", FORGE_LANG: "en", GITHUB_STEP_SUMMARY: summaryFile() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, output }));
  });
}

it("has two workflows that pass GitHub's workflow schema: verify on every Node.js line engines names, the learner's on every push", () => {
  for (const name of ["verify.yml", "forge-lab.yml"]) {
    expect(validateWorkflow(workflowText(name)).errors, `schema errors in .github/workflows/${name}`).toEqual([]);
  }
  expect(
    validateWorkflow("on: push\njobs:\n  a:\n    runz-on: ubuntu-latest\n").errors.length,
    "errors in a broken workflow",
  ).toBeGreaterThan(0);
  const verify = workflow("verify.yml").jobs.verify;
  expect(verify?.["runs-on"], "verify runs on").toBe("ubuntu-latest");
  expect(verify?.strategy?.matrix.node, `verify's Node versions, against engines ${enginesRange()}`).toEqual(
    supportedLines(enginesRange()),
  );
  expect(
    verify?.steps.map((step) => step.run ?? step.uses?.replace(/@.*/, "")),
    "verify's steps",
  ).toEqual(["actions/checkout", "actions/setup-node", "npm ci", "npm run lab -- doctor", "npm run verify"]);
  expect(Object.keys(workflow("forge-lab.yml").on), "the learner workflow's triggers").toContain("push");
});

it(
  "runs the learner workflow's steps as a runner would: tests of the started stages, a job summary, the evidence of the run",
  SLOW,
  async () => {
    const steps = workflow("forge-lab.yml").jobs.stages?.steps ?? [];
    const commands = steps.flatMap((step) => (step.run ? [step.run] : []));
    expect(commands, "the learner workflow's commands").toEqual([
      "npm ci",
      "npm run lab -- test --all",
      'npm run --silent lab -- status --markdown >> "$GITHUB_STEP_SUMMARY"',
    ]);
    const upload = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
    expect(upload, "the step that keeps the evidence").toMatchObject({
      if: "always()",
      with: { name: "forge-lab-evidence", path: "evidence/" },
    });
    expect(steps.find((step) => step.run?.includes("GITHUB_STEP_SUMMARY"))?.if, "the summary step runs after failing tests too").toBe(
      "always()",
    );

    // A learner who wrote stage 01 (their own registry) and started stage 02 (not working yet).
    mkdirSync(tools(copy), { recursive: true });
    writeFileSync(
      join(tools(copy), "registry.ts"),
      `// my registry\n${reference(copy, "stage-01-capability-registry", "registry").toString()}`,
    );
    writeFileSync(
      join(tools(copy), "paths.ts"),
      '// not written yet\nexport function resolveWorkspacePath(): never {\n  throw new Error("not written yet");\n}\n',
    );

    // npm ci is left out: the copy shares this checkout's installed node_modules.
    const results: Array<{ command: string; status: number | null; output: string }> = [];
    for (const command of commands.slice(1)) results.push({ command, ...(await runStep(command)) });
    const [tests, summary] = results;
    expect(tests?.status, `exit status of "${tests?.command}" with a failing stage 02:\n${tests?.output}`).toBe(1);
    expect(tests?.output, "what lab test --all runs").toContain(
      "Testing stage-01-capability-registry, stage-02-workspace-path-policy against workspace/.",
    );
    expect(summary?.status, `exit status of the summary step:\n${summary?.output}`).toBe(0);

    const expectedRun = {
      provider: "github-actions",
      url: "https://github.com/ada/forge-lab/actions/runs/1234567890",
      repository: "ada/forge-lab",
      runId: "1234567890",
      commit: "e".repeat(40),
      runner: { os: "Linux", arch: "X64", name: "GitHub Actions 7", environment: "github-hosted" },
    };
    const stage01 = evidenceOf("01-capability-registry");
    const stage02 = evidenceOf("02-workspace-path-policy");
    expect(
      typeof stage01 === "string" ? stage01 : { acceptance: stage01.acceptance, run: stage01.run },
      "stage 01's evidence",
    ).toMatchObject({
      acceptance: "passed",
      run: expectedRun,
    });
    expect(typeof stage02 === "string" ? stage02 : stage02.acceptance, "stage 02's acceptance").toBe("failed");
    expect(evidenceOf("03-dry-run-change-plan"), "evidence of a stage not started").toBe("no verification.json");
    expect(readdirSync(join(copy, "evidence", "tools-sandbox-side-effects")).sort(), "the stage folders the artifact keeps").toEqual([
      "01-capability-registry",
      "02-workspace-path-policy",
    ]);

    const table = readFileSync(summaryFile(), "utf8");
    const states = Object.fromEntries(
      [...table.matchAll(/^\| (\d\d) \S+ \|.*\| \*\*([a-z ]+)\*\* \|/gm)].map((match) => [match[1], match[2]]),
    );
    expect(states, `the job summary's states:\n${table}`).toEqual(
      Object.fromEntries(catalog.stages.map((stage) => [stage.nn, { "01": "passed", "02": "failing" }[stage.nn] ?? "not started"])),
    );
    expect(table, "the job summary's count").toContain(`\n## Forge Lab\n\n1 of ${catalog.stages.length} stages passed.\n`);

    // The same evidence, exported through the CLI for a CI dashboard.
    const ctrf = await labInProcess(copy, ["export", "1", "--format", "ctrf", "--out", "-"]);
    expect(ctrf.status, ctrf.stderr).toBe(0);
    const report = JSON.parse(ctrf.stdout) as { results: { summary: { tests: number }; environment: { buildUrl?: string } } };
    expect(ctrfProblems(report), "the ctrf validator's findings on lab export's CTRF").toEqual([]);
    expect(report.results.environment.buildUrl, "the run in the CTRF report").toBe(expectedRun.url);
    const junit = await labInProcess(copy, ["export", "2", "--format", "junit"]);
    expect(junit.status, junit.stderr).toBe(0);
    expect(junit.stdout, "what lab export says it wrote").toMatch(
      /^wrote evidence\/tools-sandbox-side-effects\/02-workspace-path-policy\/junit\.xml \(JUnit XML, \d+ tests, from /,
    );
    const xml = readFileSync(join(copy, "evidence", "tools-sandbox-side-effects", "02-workspace-path-policy", "junit.xml"), "utf8");
    expect(XMLValidator.validate(xml), "JUnit XML well-formedness").toBe(true);
    expect(xml.match(/<failure /g)?.length ?? 0, "failures in the JUnit file of the failing stage").toBeGreaterThan(0);
    const none = await labInProcess(copy, ["export", "3", "--format", "junit"]);
    expect(`${none.status} ${none.stderr.trim()}`, "export of a stage with no evidence").toBe(
      "1 evidence/tools-sandbox-side-effects/03-dry-run-change-plan/verification.json does not exist yet: run npm run lab -- test 03 first.",
    );
  },
);

it("lets the editor open the learner's module from a stage test, while the type-check keeps the reference", SLOW, async () => {
  // The learner's registry exists in the copy's workspace (written above, or now).
  mkdirSync(tools(copy), { recursive: true });
  const own = join(tools(copy), "registry.ts");
  if (!existsSync(own)) writeFileSync(own, `// my registry\n${reference(copy, "stage-01-capability-registry", "registry").toString()}`);
  // And the learner's server, whose reference would otherwise bring in the reference registry it imports.
  const server = join(tools(copy), "server.ts");
  writeFileSync(server, `// my server\n${reference(copy, "stage-12-mcp-server", "server").toString()}`);
  onTestFinished(() => rmSync(server, { force: true }));
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const listed = async (project: string) => {
    return new Promise<string[]>((resolve, reject) =>
      execFile(process.execPath, [tsc, "--listFilesOnly", "-p", project], { cwd: copy, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout.split(/\r?\n/).map((line) => line.replaceAll("\\", "/"))),
      ),
    );
  };
  const moduleOf = (files: readonly string[], name: string) =>
    files.filter((file) => file.endsWith(`/forge/tools/${name}.ts`)).map((file) => file.slice(copy.length + 1));
  const registryOf = (files: readonly string[]) => moduleOf(files, "registry");
  const editor = await listed("stages/tsconfig.json");
  expect(moduleOf(editor, "server"), "where the editor's view of the stage tests finds forge/tools/server").toEqual([
    "workspace/forge/tools/server.ts",
  ]);
  expect(registryOf(editor), "where the editor's view of the stage tests finds forge/tools/registry").toEqual([
    "workspace/forge/tools/registry.ts",
  ]);
  expect(
    editor.some((file) => file.endsWith("solutions/stage-02-workspace-path-policy/forge/tools/paths.ts")),
    "a module the learner has not written falls back to the reference in the editor",
  ).toBe(true);
  // npm run typecheck makes the fault trees from their patches first, as here.
  expect(materializeFaults(loadCatalog(layoutOf(copy)).stages), "faults whose patch does not apply").toEqual([]);
  const typecheck = await listed("tsconfig.json");
  expect(registryOf(typecheck).sort(), "where npm run typecheck finds forge/tools/registry").toEqual([
    ".lab/faults/stage-01-capability-registry/capability-validation-dropped/forge/tools/registry.ts",
    ".lab/faults/stage-01-capability-registry/frozen-set/forge/tools/registry.ts",
    "solutions/stage-01-capability-registry/forge/tools/registry.ts",
  ]);
  const settings = JSON.parse(readFileSync(join(ROOT, ".vscode", "settings.json"), "utf8")) as Record<string, unknown>;
  const extensions = JSON.parse(readFileSync(join(ROOT, ".vscode", "extensions.json"), "utf8")) as { recommendations: string[] };
  expect(extensions.recommendations, "recommended editor extensions").toContain("vitest.explorer");
  expect(
    existsSync(join(ROOT, String(settings["vitest.rootConfig"]))),
    `vitest.rootConfig ${String(settings["vitest.rootConfig"])} exists`,
  ).toBe(true);
  expect(TARGETS, "the target the test explorer runs against").toContain(
    (settings["vitest.nodeEnv"] as { FORGE_TARGET: string }).FORGE_TARGET,
  );
});
