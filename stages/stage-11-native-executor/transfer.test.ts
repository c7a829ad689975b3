import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import {
  NativeExecutor,
  NativeRequestError,
  parseNativeRequest,
  translateMsysPath,
  type NativeExecutorOptions,
} from "forge/tools/executor";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// Transfer: the same executor in an office-research team. The research assistant turns the Q3 draft
// into a PDF with DocConv, a Windows converter that reads Windows-style switches (/c, /all) and writes
// its log in the system's code page, GBK. On this machine the converter is a small script run by node,
// which behaves as docconv.exe does: it refuses any switch it does not know.
interface Scenario {
  readonly switches: readonly string[];
  readonly input: string;
  readonly output: string;
  readonly log: { readonly file: string; readonly encoding: string; readonly lines: readonly string[] };
  readonly windows: {
    readonly executable: string;
    readonly wrapper: string;
    readonly workspace: string;
    readonly msysInput: string;
    readonly mounts: Readonly<Record<string, string>>;
  };
}

const folder = new URL("../../fixtures/scenarios/office-research/", import.meta.url);
const scenario = JSON.parse(readFileSync(new URL("docconv.json", folder), "utf8")) as Scenario;
const research = JSON.parse(readFileSync(new URL("research-folder.json", folder), "utf8")) as { files: Record<string, string> };
const logFile = new URL(scenario.log.file, folder);

/** The research folder with the draft, and the converter: exact switches, or exit 2 naming what it got. */
function researchFolder(): string {
  const workspace = temporaryFolder();
  const converter = [
    'const { readFileSync, writeFileSync } = require("node:fs");',
    "const args = process.argv.slice(2);",
    `const switches = ${JSON.stringify(scenario.switches)};`,
    "if (args.length !== switches.length + 2 || switches.some((expected, index) => args[index] !== expected)) {",
    "  process.stderr.write(`docconv: unknown switches ${JSON.stringify(args)}\\n`);",
    "  process.exit(2);",
    "}",
    "const [input, output] = args.slice(switches.length);",
    "writeFileSync(output, `%PDF-1.7\\n% from: ${readFileSync(input, 'utf8').split('\\n')[0]}\\n`);",
    `process.stdout.write(readFileSync(${JSON.stringify(fileURLToPath(logFile))}));`,
  ].join("\n");
  writeTree(workspace, { [scenario.input]: research.files[scenario.input] ?? "", "tools/docconv.cjs": converter });
  return workspace;
}

function linuxExecutor(workspace: string): NativeExecutor {
  return new NativeExecutor({ platform: "linux", policy: () => "danger-full-access", nativeEnabled: () => true, workspace });
}

/**
 * The conversion as a typed request: the converter, its switches as literals, the two files as paths.
 * Here node runs the converter's script, so the request names the interpreter gate; docconv.exe would not need it.
 */
function conversion(workspace: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: "convert the Q3 draft to PDF",
    executable: { kind: "path", value: process.execPath },
    entrypoint: "interpreter",
    argv: [
      { kind: "path", value: join(workspace, "tools", "docconv.cjs") },
      ...scenario.switches.map((value) => ({ kind: "literal", value })),
      { kind: "path", value: join(workspace, scenario.input) },
      { kind: "path", value: join(workspace, scenario.output) },
    ],
    ...fields,
  };
}

it("converts the Q3 draft with its switches passed exactly and reads its GBK log", { timeout: 60_000 }, async () => {
  const workspace = researchFolder();
  const executor = linuxExecutor(workspace);
  const result = await executor.execute(await executor.prepare(conversion(workspace, { stdoutEncoding: "gbk" })));
  expect(
    {
      exitCode: result.exitCode,
      stderr: result.stderr,
      logLines: result.stdout.split("\r\n"),
      complete: result.stdoutFacts.complete,
      lossy: result.stdoutFacts.lossy,
      pdf: readFileSync(join(workspace, scenario.output), "utf8"),
    },
    "the conversion: its exit, its log read as GBK, and the PDF it wrote",
  ).toEqual({
    exitCode: 0,
    stderr: "",
    logLines: [...scenario.log.lines, ""],
    complete: true,
    lossy: false,
    pdf: "%PDF-1.7\n% from: # Q3 market study (draft)\n",
  });
});

it("reports the log read as utf8 as lossy, not the conversion as failed", { timeout: 60_000 }, async () => {
  const workspace = researchFolder();
  const executor = linuxExecutor(workspace);
  const result = await executor.execute(await executor.prepare(conversion(workspace)));
  const lines = result.stdout.split("\r\n");
  expect(
    {
      exitCode: result.exitCode,
      aborted: result.aborted,
      pdfWritten: existsSync(join(workspace, scenario.output)),
      asciiStillReadable: lines.filter((line) => line.includes("/c /all --to pdf")).length,
      chineseReadable: lines.filter((line) => scenario.log.lines.includes(line)).length,
      replaced: result.stdout.includes("\uFFFD"),
      complete: result.stdoutFacts.complete,
      lossy: result.stdoutFacts.lossy,
    },
    "the same conversion, its GBK log read as utf8",
  ).toEqual({
    exitCode: 0,
    aborted: false,
    pdfWritten: true,
    asciiStillReadable: 1,
    chineseReadable: 0,
    replaced: true,
    complete: true,
    lossy: true,
  });
});

it("refuses the converter's .cmd wrapper and an untranslated MSYS path on win32, before anything runs", async () => {
  const { windows } = scenario;
  let started = 0;
  const options: NativeExecutorOptions = {
    platform: "win32",
    policy: () => "danger-full-access",
    nativeEnabled: () => true,
    workspace: windows.workspace,
    spawn: (() => {
      started += 1;
      throw new Error("nothing may start in this test");
    }) as unknown as NativeExecutorOptions["spawn"],
  };
  const executor = new NativeExecutor(options);
  const request = (executable: string, input: string) => ({
    description: "convert the Q3 draft to PDF",
    executable: { kind: "path", value: executable },
    argv: [...scenario.switches.map((value) => ({ kind: "literal", value })), { kind: "path", value: input }],
    stdoutEncoding: "gbk",
  });
  const problems = (promise: Promise<unknown>) =>
    promise.then(
      () => ["prepared"],
      (error: unknown) => (error instanceof NativeRequestError ? [...error.problems] : [String(error)]),
    );
  const translated = translateMsysPath(windows.msysInput, windows.mounts);
  expect(
    {
      wrapper: await problems(executor.prepare(request(windows.wrapper, windows.msysInput))),
      msys: await problems(executor.prepare(request(windows.executable, windows.msysInput))),
      translated,
      argv: parseNativeRequest(request(windows.executable, translated)).argv.map((item) => `${item.kind} ${item.value}`),
      started,
    },
    "the wrapper, the MSYS path, and the request once the path is translated",
  ).toEqual({
    wrapper: [
      `executable.value: ${JSON.stringify(windows.wrapper)} is a batch file: Windows runs .bat and .cmd through cmd.exe, which parses the arguments again (BatBadBut, CVE-2024-27980)`,
    ],
    msys: [
      `argv[4].value: ${JSON.stringify(windows.msysInput)} is not a Windows path: give C:\\… (translateMsysPath turns an MSYS path into one)`,
    ],
    translated: "C:\\Users\\ana\\Q3 study\\reports\\q3-draft.md",
    argv: ["literal /c", "literal /all", "literal --to", "literal pdf", "path C:\\Users\\ana\\Q3 study\\reports\\q3-draft.md"],
    started: 0,
  });
});
