// Test support shared by the stage tests and the lab's own tests: temporary folders that are removed
// when the test ends, and a quick way to fill them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inject, onTestFinished } from "vitest";
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
