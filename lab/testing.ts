// Test support shared by the stage tests and the lab's own tests: temporary folders that are removed
// when the test ends, and a quick way to fill them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { inject, onTestFinished } from "vitest";
import { TestRunner } from "vitest";
import { dirs } from "./core/layout.js";
import { findModule } from "./trees/trees.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The layers of the tree this test run targets, lowest first (set by lab/vitest/projects.ts). */
    forgeLayers: string[];
  }
}

/**
 * The file that answers `forge/tools/<name>` in this run's tree. A test that runs the module in a
 * child process (which has no vitest resolver) passes this path to the child to import.
 */
export function moduleFile(name: string): string {
  const file = findModule(inject("forgeLayers"), name);
  if (!file) throw new Error(`forge/tools/${name} does not exist in this run's tree`);
  return file;
}

export interface TemporaryFolderOptions {
  /** Under node_modules/.cache, where imports (zod, node types) resolve as they do from workspace/. */
  readonly insideRepository?: boolean;
  /** Concurrent tests must pass their own context's hook: the global one cannot tell them apart. */
  readonly onFinished?: typeof onTestFinished;
}

/** A fresh, empty folder with its real path (no symlinked /tmp), removed when the test ends. */
export function temporaryFolder(options: TemporaryFolderOptions = {}): string {
  const base = options.insideRepository ? dirs.cache : tmpdir();
  mkdirSync(base, { recursive: true });
  const folder = realpathSync(mkdtempSync(join(base, "forge-lab-test-")));
  (options.onFinished ?? onTestFinished)(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Writes files given as { "relative/path": content } under a folder, creating parents. */
export function writeTree(root: string, files: Readonly<Record<string, string | Uint8Array>>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Why a test that needs a link to a file is skipped on a Windows account that may not create one. */
export const WINDOWS_SYMLINK_REASON =
  "this test needs a symbolic link to a file, which Windows lets an account create only with Developer Mode on (Settings, System, For developers) or as an administrator; the course's CI on Linux runs it";

/**
 * Makes a symbolic link, as `ln -s target path` does (a relative target is relative to the link's
 * folder). On Windows a link to a folder is made as a junction, which needs no privilege (and takes an
 * absolute target); a link to a file needs Developer Mode or an administrator, and without either the
 * test is skipped with that reason, instead of failing for a cause that is not in the code under test.
 */
export function symlink(target: string, path: string, kind: "file" | "dir" = "file"): void {
  if (process.platform !== "win32") {
    symlinkSync(target, path);
    return;
  }
  if (kind === "dir") {
    symlinkSync(resolve(dirname(path), target), path, "junction");
    return;
  }
  try {
    symlinkSync(target, path, "file");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
    TestRunner.getCurrentTest()?.context.skip(WINDOWS_SYMLINK_REASON);
    throw new Error(WINDOWS_SYMLINK_REASON);
  }
}
