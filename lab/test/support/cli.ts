// Running the lab CLI as a learner or instructor runs it, in a temporary copy of the repository, so no
// real workspace, evidence or backup is touched. Shared by the CLI's tests.
import { execFile } from "node:child_process";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TestContext } from "vitest";
import type * as Commands from "../../cli/commands.js";
import { ROOT } from "../../core/layout.js";
import type { Locale } from "../../core/locale.js";
import { temporaryFolder } from "../../testing.js";
import { childEnvironment } from "./child.js";
import { copyRepositoryTo } from "./repository.js";

export const SLOW = { timeout: 120_000 };

export interface Run {
  /** The exit status; null when the process was killed. */
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A copy of the repository's sources in a temporary folder removed when the test ends. */
export function copyRepository(context: TestContext): string {
  const copy = temporaryFolder({ onFinished: context.onTestFinished });
  copyRepositoryTo(copy);
  return copy;
}

/** A rule of lab/test/support/inject.mjs: a kill, a failure or an editor's save at a planned moment. */
export interface Injection {
  readonly call: "rename" | "renameSync" | "open" | "openSync" | "unlink" | "unlinkSync";
  readonly path?: string;
  readonly from?: number;
  readonly times?: number;
  readonly do: string;
}

export interface LabOptions {
  readonly inject?: readonly Injection[];
  /**
   * Variables set (a string) or removed (undefined) over the defaults. FORGE_LANG is "en" unless a test
   * says otherwise, so what a test reads does not depend on the machine's locale.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function lab(copy: string, args: readonly string[], options: LabOptions = {}): Promise<Run> {
  const inherited = Object.entries(childEnvironment());
  const chosen = { NO_COLOR: "1", CI: "true", FORGE_LANG: "en", FORGE_INJECT: JSON.stringify(options.inject ?? []), ...options.env };
  const env: Record<string, string> = {};
  for (const [key, value] of [...inherited, ...Object.entries(chosen)]) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const preload = options.inject ? ["--import", join(ROOT, "lab", "test", "support", "inject.mjs")] : [];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...preload, "--import", "tsx", join(copy, "lab", "cli", "main.ts"), ...args],
      { cwd: copy, env, timeout: 100_000 },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === "number" ? error.code : null) : 0,
          signal: error?.signal ?? null,
          stdout,
          stderr,
        }),
    );
  });
}

/**
 * A command run inside this test's process by the copy's own modules, so it reads and writes the copy
 * exactly as `lab` does. Starting a process costs about 1.7 s of CPU (Node, tsx's loader, the lab's
 * modules); this costs about 0.15 s. It is for commands that need no process of their own: `lab` stays
 * for a planned failure or kill, the locale chosen from the environment, two commands at once, a FIFO
 * (a blocked read would stop this worker, not one child), and the commands that start vitest or load the
 * reference modules through Node's module hooks (start, restore, test, fault's runs).
 */
export async function labInProcess(copy: string, args: readonly string[], locale: Locale = "en"): Promise<Run> {
  // As `lab` gives its child no FORGE_* variable of this process, the copy's modules see none either: a
  // FORGE_EVIDENCE set around the test run (as the Node.js line checks set it) would otherwise move the
  // copy's evidence folder elsewhere. A worker's environment is its own, so this touches no other test.
  const saved = Object.entries(process.env).filter(([key]) => key.startsWith("FORGE_"));
  for (const [key] of saved) delete process.env[key];
  try {
    const { main } = (await import(pathToFileURL(join(copy, "lab", "cli", "commands.ts")).href)) as typeof Commands;
    let stdout = "";
    let stderr = "";
    const status = await main(
      args,
      { out: (line = "") => void (stdout += `${line}\n`), err: (line = "") => void (stderr += `${line}\n`) },
      locale,
    );
    return { status, signal: null, stdout, stderr };
  } finally {
    for (const [key, value] of saved) process.env[key] = value;
  }
}

export const tools = (copy: string) => join(copy, "workspace", "forge", "tools");
export const reference = (copy: string, stage: string, module: string) =>
  readFileSync(join(copy, "solutions", stage, "forge", "tools", `${module}.ts`));

/** Every entry under a folder with its bytes (and mode), to compare a tree before and after. */
export function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort()) {
    const file = join(folder, name);
    const stat = lstatSync(file);
    const mode = (stat.mode & 0o777).toString(8);
    files[name] = stat.isFile() ? `${mode} ${readFileSync(file).toString("base64")}` : stat.isDirectory() ? "(folder)" : "(other)";
  }
  return files;
}
