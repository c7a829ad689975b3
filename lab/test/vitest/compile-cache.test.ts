// `npm test` turns on Node's cache of compiled code for itself and the workers it starts, from its first
// module on; each case runs in a Node process of its own, since the cache can be turned on only once per
// process.
import { execFile } from "node:child_process";
import * as nodeModule from "node:module";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { dirs, ROOT } from "../../core/layout.js";
import { temporaryFolder } from "../../testing.js";
import { childEnvironment } from "../support/child.js";

const SLOW = { timeout: 60_000 };
/** Node.js 22.1 and later have the cache; Node 20 has not, and `keepCompiledCode` must then change nothing. */
const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";
const module = pathToFileURL(join(ROOT, "lab", "vitest", "compile-cache.mjs")).href;

interface Seen {
  /** NODE_COMPILE_CACHE in the process after `keepCompiledCode()`. */
  readonly variable: string;
  /** The folder the process's cache is in (Node's `getCompileCacheDir`), "" when it is off. */
  readonly folder: string;
  /** The same folder as a worker thread started after it sees it. */
  readonly workerFolder: string;
}

/** Node 20 has no getBuiltinModule and no cache: the expression is then "". */
const FOLDER_NOW = `(process.getBuiltinModule?.("node:module")?.getCompileCacheDir?.() ?? "")`;

function afterKeeping(extra: Record<string, string>): Promise<Seen> {
  const inWorker = `import { parentPort } from "node:worker_threads"; parentPort.postMessage(${FOLDER_NOW});`;
  const script = [
    `import { keepCompiledCode } from ${JSON.stringify(module)};`,
    `import { Worker } from "node:worker_threads";`,
    "keepCompiledCode();",
    `const worker = new Worker(new URL(${JSON.stringify(`data:text/javascript,${encodeURIComponent(inWorker)}`)}));`,
    `worker.once("message", (workerFolder) => { console.log(JSON.stringify({ variable: process.env.NODE_COMPILE_CACHE ?? "", folder: ${FOLDER_NOW}, workerFolder })); worker.terminate(); });`,
  ].join("\n");
  // Only what the case sets: a cache variable of the shell running the tests must not decide the case.
  const { NODE_COMPILE_CACHE: _folder, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = childEnvironment();
  const env = { ...inherited, ...extra };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: ROOT, env, timeout: 50_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`the child failed: ${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout.trim()) as Seen),
    );
  });
}

it("uses the folder NODE_COMPILE_CACHE names, and a worker started after it uses the same cache", SLOW, async () => {
  const given = temporaryFolder();
  const seen = await afterKeeping({ NODE_COMPILE_CACHE: given });
  if (!hasCache) {
    expect(seen, `Node ${process.version} has no compile cache: the variable stays as given`).toEqual({
      variable: given,
      folder: "",
      workerFolder: "",
    });
    return;
  }
  expect(seen.variable, "the variable stays as given").toBe(given);
  expect(dirname(seen.folder), "the process's cache is a version folder in the folder given").toBe(given);
  expect(seen.workerFolder, "the worker's cache is the process's, not a folder nested below it").toBe(seen.folder);
  expect(readdirSync(seen.folder).length, `compiled code written under ${seen.folder}`).toBeGreaterThan(0);
});

it("turns nothing on when NODE_DISABLE_COMPILE_CACHE=1, as Node itself does", SLOW, async () => {
  const seen = await afterKeeping({ NODE_DISABLE_COMPILE_CACHE: "1" });
  expect(seen, "no folder is named, and neither the process nor its worker keeps code").toEqual({
    variable: "",
    folder: "",
    workerFolder: "",
  });
});

it("uses Node's own folder when none is named, for its workers too, and none on a Node without the cache", SLOW, async () => {
  const seen = await afterKeeping({});
  if (!hasCache) {
    expect(seen, `Node ${process.version} has no compile cache`).toEqual({ variable: "", folder: "", workerFolder: "" });
    return;
  }
  expect(seen.folder, "the process keeps code").not.toBe("");
  expect(seen.variable, "the variable names the parent of the process's version folder").toBe(dirname(seen.folder));
  expect(seen.workerFolder, "and the worker keeps its code in the same folder").toBe(seen.folder);
});

/** Runs a command of vitest's with a temporary folder of its own, where Node's default cache folder then is. */
function versionIn(command: string, temporary: string): Promise<string> {
  const { NODE_COMPILE_CACHE: _folder, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = childEnvironment();
  const env = { ...inherited, TMPDIR: temporary, TMP: temporary, TEMP: temporary };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [command, "--version"], { cwd: ROOT, env, timeout: 50_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} --version failed: ${error.message}\n${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

it("runs npm test's vitest with the cache on before vitest's first module, which vitest's own command does not", SLOW, async () => {
  const scripts = (JSON.parse(readFileSync(dirs.packageJson, "utf8")) as { scripts: Record<string, string> }).scripts;
  expect(scripts.test, "npm test's script").toBe(`node ${relative(ROOT, dirs.testCommand).split(sep).join("/")}`);
  // `--version` reads no configuration: whatever is kept was turned on before vitest's modules loaded.
  const ours = temporaryFolder();
  const bare = temporaryFolder();
  const version = await versionIn(dirs.testCommand, ours);
  expect(version, "npm test's command is vitest").toMatch(/^vitest\/\d+\.\d+\.\d+ /);
  expect(await versionIn(join(ROOT, "node_modules", "vitest", "vitest.mjs"), bare), "vitest's own command").toBe(version);
  expect(existsSync(join(bare, "node-compile-cache")), "vitest's own command keeps no compiled code").toBe(false);
  const kept = join(ours, "node-compile-cache");
  if (!hasCache) {
    expect(existsSync(kept), `Node ${process.version} has no compile cache`).toBe(false);
    return;
  }
  const versions = readdirSync(kept);
  expect(versions.length, `one version folder under ${kept}`).toBe(1);
  expect(readdirSync(join(kept, versions[0] ?? "")).length, "vitest's modules compiled and kept").toBeGreaterThan(0);
});

it("says in one line that vitest is missing when npm test runs before npm ci, without a stack", SLOW, async () => {
  // The command and the modules it loads first, in a folder with no node_modules above it.
  const checkout = temporaryFolder();
  for (const file of [
    dirs.testCommand,
    ...["command-line.mjs", "compile-cache.mjs", "config-bundle.mjs"].map((name) => join(ROOT, "lab", "vitest", name)),
  ]) {
    const copy = join(checkout, relative(ROOT, file));
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(file, copy);
  }
  const { NODE_COMPILE_CACHE: _folder, ...env } = childEnvironment();
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(checkout, relative(ROOT, dirs.testCommand)), "run"],
      { cwd: checkout, env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
  expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }, "npm test's command without node_modules").toEqual({
    code: 1,
    stdout: "",
    stderr: "npm test: vitest is not installed in this checkout; run npm ci first.\n",
  });
});
