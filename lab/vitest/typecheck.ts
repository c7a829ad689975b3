// Type-checks the learner's workspace with the compiler the repository pins. Vitest strips types
// without checking them, so without this a type error in a learner file would go unnoticed.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { readFileState, writeFileAtomic } from "../core/files.js";
import { layoutOf, MODULE_DIR, ROOT, dirs, repoPath } from "../core/layout.js";

export interface Diagnostic {
  /** Absolute path of the file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
}

const LINE = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;

/** Parses `tsc --pretty false` output; continuation lines belong to the diagnostic above them. */
export function parseTscOutput(output: string, cwd: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const match = LINE.exec(raw);
    if (match) {
      const [, file = "", line = "0", column = "0", code = "", message = ""] = match;
      diagnostics.push({ file: resolve(cwd, file), line: Number(line), column: Number(column), code, message });
    } else if (raw.trim() !== "" && diagnostics.length > 0) {
      const last = diagnostics.pop();
      if (last) diagnostics.push({ ...last, message: `${last.message} ${raw.trim()}` });
    }
  }
  return diagnostics;
}

/** TS1xxx codes are the parser's: the file is not even syntactically TypeScript. */
export function isSyntaxError(diagnostic: Diagnostic): boolean {
  return /^TS1\d{3}$/.test(diagnostic.code);
}

/** The committed workspace/tsconfig.json: the one home of the settings the learner's code is checked with. */
export const WORKSPACE_TSCONFIG = join(layoutOf(ROOT).workspace, "tsconfig.json");

/** One file per moved workspace folder (FORGE_WORKSPACE), so two runs on different workspaces never share it. */
export function workspaceTsconfigPath(workspace: string): string {
  if (workspace === layoutOf(ROOT).workspace) return WORKSPACE_TSCONFIG;
  const id = createHash("sha256").update(workspace).digest("hex").slice(0, 12);
  return join(dirs.cache, `tsconfig.workspace-${id}.json`);
}

/**
 * The project the learner's code is type-checked with: workspace/tsconfig.json itself, exactly what the
 * learner's editor uses. A workspace moved elsewhere (FORGE_WORKSPACE, as the lab's own tests do) gets a
 * file that extends it and only points `include` at the moved folder.
 */
function workspaceTsconfig(workspace: string): string {
  if (!existsSync(WORKSPACE_TSCONFIG)) {
    throw new Error(
      `${repoPath(WORKSPACE_TSCONFIG)} is missing: the tests type-check your code with it. Bring it back with git checkout -- ${repoPath(WORKSPACE_TSCONFIG)}`,
    );
  }
  const file = workspaceTsconfigPath(workspace);
  if (file === WORKSPACE_TSCONFIG) return file;
  const config = {
    extends: WORKSPACE_TSCONFIG,
    compilerOptions: { typeRoots: [join(ROOT, "node_modules", "@types")] },
    include: [join(workspace, MODULE_DIR, "**", "*.ts")],
  };
  const text = `${JSON.stringify(config, null, 2)}\n`;
  // Written (with an fsync) only when it says something else: the check runs on every save in watch mode.
  const present = readFileState(file);
  if (present.kind !== "file" || present.bytes.toString("utf8") !== text) writeFileAtomic(file, text);
  return file;
}

function workspaceSources(workspace: string): string[] {
  const root = join(workspace, MODULE_DIR);
  if (!existsSync(root)) return [];
  // Regular files only: a FIFO named like a module would make the compiler wait forever.
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function contentKey(files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file).update("\0");
    try {
      const state = readFileState(file);
      hash.update(state.kind === "file" ? state.bytes : `(${state.kind})`);
    } catch {
      hash.update("(unreadable)");
    }
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * One compiler session per learner folder, kept open while vitest runs: the first check costs about what
 * a whole `tsc` run does, and each check after an edit only what changed (milliseconds), which is what
 * keeps a watch-mode rerun quick. It is TypeScript 7's API (`typescript/unstable/async`); should it fail,
 * the folder falls back to running `tsc` once per distinct content.
 */
class Session {
  #api: TypeScriptApi | null = null;
  #snapshot: Snapshot | null = null;
  #hashes = new Map<string, string>();

  constructor(private readonly project: string) {}

  async check(files: readonly string[]): Promise<Diagnostic[]> {
    const texts = new Map<string, string>();
    const hashes = new Map<string, string>();
    for (const file of files) {
      const state = readFileState(file);
      const text = state.kind === "file" ? state.bytes.toString("utf8") : "";
      texts.set(file, text);
      hashes.set(file, createHash("sha256").update(text).digest("hex"));
    }
    const previous = this.#snapshot;
    if (this.#api === null) {
      const { API } = await import("typescript/unstable/async");
      this.#api = new API({ cwd: ROOT });
      this.#snapshot = await this.#api.updateSnapshot({ openProjects: [this.project] });
    } else {
      const changed = files.filter((file) => this.#hashes.has(file) && this.#hashes.get(file) !== hashes.get(file));
      const created = files.filter((file) => !this.#hashes.has(file));
      const deleted = [...this.#hashes.keys()].filter((file) => !hashes.has(file));
      this.#snapshot = await this.#api.updateSnapshot({ fileChanges: { changed, created, deleted } });
      previous?.dispose();
    }
    this.#hashes = hashes;
    const program = this.#snapshot.getProject(this.project)?.program ?? this.#snapshot.getProjects()[0]?.program;
    if (!program) throw new Error(`the compiler opened no project for ${this.project}`);
    const diagnostics: Diagnostic[] = [];
    for (const file of files) {
      // As tsc does: a file that does not parse gets its syntax errors only.
      const syntactic = await program.getSyntacticDiagnostics(file);
      const found = syntactic.length > 0 ? syntactic : await program.getSemanticDiagnostics(file);
      const text = texts.get(file) ?? "";
      for (const diagnostic of found) diagnostics.push(fromApi(file, text, diagnostic));
    }
    return diagnostics;
  }

  async close(): Promise<void> {
    const api = this.#api;
    this.#api = null;
    this.#snapshot = null;
    await api?.close().catch(() => undefined);
  }
}

type TypeScriptApi = import("typescript/unstable/async").API;
type Snapshot = Awaited<ReturnType<TypeScriptApi["updateSnapshot"]>>;
type ApiDiagnostic = Awaited<
  ReturnType<NonNullable<ReturnType<Snapshot["getProjects"]>[number]>["program"]["getSemanticDiagnostics"]>
>[number];

/** A diagnostic of the API in the form tsc prints it: line and column from 1, the message chain joined. */
function fromApi(file: string, text: string, diagnostic: ApiDiagnostic): Diagnostic {
  const before = text.slice(0, diagnostic.pos);
  const line = before.split("\n").length;
  const column = diagnostic.pos - (before.lastIndexOf("\n") + 1) + 1;
  const chain: string[] = [];
  const walk = (entry: ApiDiagnostic) => {
    chain.push(entry.text);
    for (const next of entry.messageChain ?? []) walk(next);
  };
  walk(diagnostic);
  return {
    file: diagnostic.fileName ? resolve(diagnostic.fileName) : file,
    line,
    column,
    code: `TS${diagnostic.code}`,
    message: chain.join(" "),
  };
}

const sessions = new Map<string, Session | "failed">();
const cached = new Map<string, { key: string; result: Promise<Diagnostic[]> }>();

/** Ends every compiler session: called when vitest closes, so no compiler process outlives it. */
export async function closeTypecheckers(): Promise<void> {
  const open = [...sessions.values()].filter((session) => session !== "failed");
  sessions.clear();
  await Promise.all(open.map((session) => session.close()));
}

/** Sessions pay off only when the same process checks again after an edit: in watch mode. */
let sessionsWanted = false;

/** Watch mode: keep a compiler session per learner folder from now on (and open it now, in the background). */
export function keepTypecheckersOpen(workspace: string): void {
  if (sessionsWanted) return;
  sessionsWanted = true;
  const files = workspaceSources(workspace);
  if (files.length > 0) void check(workspace, workspaceTsconfig(workspace), files).catch(() => undefined);
}

async function check(workspace: string, project: string, files: readonly string[]): Promise<Diagnostic[]> {
  if (!sessionsWanted) return runTsc(project, { singleThreaded: true });
  const session = sessions.get(workspace) ?? new Session(project);
  sessions.set(workspace, session);
  if (session !== "failed") {
    try {
      return await session.check(files);
    } catch {
      sessions.set(workspace, "failed");
      await session.close();
    }
  }
  return runTsc(project, { singleThreaded: true });
}

/**
 * Diagnostics for the learner's modules in a folder (workspace/, or a repair in faultlab/), under its
 * forge/tools/; computed once per distinct content of those files.
 */
export function typecheckWorkspace(workspace: string = dirs.workspace): Promise<Diagnostic[]> {
  const files = workspaceSources(workspace);
  if (files.length === 0) return Promise.resolve([]);
  const key = contentKey(files);
  const last = cached.get(workspace);
  if (last?.key === key) return last.result;
  let project: string;
  try {
    project = workspaceTsconfig(workspace);
  } catch (error) {
    return Promise.reject(error);
  }
  // Checks of one folder run one after another: the session answers for one state of the files at a time.
  const result = (last?.result ?? Promise.resolve([])).catch(() => []).then(() => check(workspace, project, files));
  cached.set(workspace, { key, result });
  return result;
}

let compiler: { readonly file: string; readonly prefix: readonly string[] } | undefined;

/**
 * The pinned compiler's native binary, from the platform package the typescript package depends on.
 * Its `bin/tsc` is a Node script that only starts that binary: on Node 20, which cannot exec in place,
 * going through it costs a second process, about 130 ms of a learner's test run. Should the platform
 * package not resolve, the script is run as before.
 */
function compilerCommand(): { readonly file: string; readonly prefix: readonly string[] } {
  if (compiler) return compiler;
  const typescript = dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
  const platformPackage = `@typescript/typescript-${process.platform}-${process.arch}/package.json`;
  try {
    const lib = join(dirname(createRequire(join(typescript, "package.json")).resolve(platformPackage)), "lib");
    const native = join(lib, process.platform === "win32" ? "tsc.exe" : "tsc");
    if (existsSync(native)) compiler = { file: native, prefix: [] };
  } catch {
    // Not installed for this platform: the script below reports what is missing.
  }
  compiler ??= { file: process.execPath, prefix: [join(typescript, "bin", "tsc")] };
  return compiler;
}

/**
 * Runs the pinned compiler on a project and returns its diagnostics. `singleThreaded` is for a project
 * checked beside other work that keeps the cores busy (a running vitest, verify): the compiler's
 * parallel parse and checkers then only take CPU from that work, for no sooner result.
 */
export function runTsc(project: string, { singleThreaded = false } = {}): Promise<Diagnostic[]> {
  const { file, prefix } = compilerCommand();
  return new Promise((done, fail) => {
    execFile(
      file,
      [...prefix, "--noEmit", "--pretty", "false", ...(singleThreaded ? ["--singleThreaded"] : []), "-p", project],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        const diagnostics = parseTscOutput(stdout, ROOT);
        // tsc exits with 1 or 2 when it reports diagnostics; anything else means it did not run.
        if (error && diagnostics.length === 0) fail(new Error(`the TypeScript compiler could not run: ${error.message}`));
        else done(diagnostics);
      },
    );
  });
}
