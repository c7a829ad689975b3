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
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`);
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

const cached = new Map<string, { key: string; result: Promise<Diagnostic[]> }>();

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
  const result = runTsc(project);
  cached.set(workspace, { key, result });
  return result;
}

/** Runs the pinned compiler on a project and returns its diagnostics. */
export function runTsc(project: string): Promise<Diagnostic[]> {
  const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [tsc, "--noEmit", "--pretty", "false", "-p", project],
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
