// Shared by the lab engine's tests: temporary folders that are removed when the test ends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { onTestFinished } from "vitest";
import { dirs } from "../layout.js";

/**
 * A fresh folder, removed when the test ends. `insideRepository` puts it under node_modules/.cache,
 * where a learner's imports (zod, node types) resolve exactly as they do from workspace/.
 */
export function temporaryFolder(options: { insideRepository?: boolean; onFinished?: typeof onTestFinished } = {}): string {
  const base = options.insideRepository ? dirs.cache : tmpdir();
  mkdirSync(base, { recursive: true });
  const folder = mkdtempSync(join(base, "forge-lab-test-"));
  // Concurrent tests must pass their own context's hook: the global one cannot tell them apart.
  (options.onFinished ?? onTestFinished)(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Writes files given as { "relative/path": content } under a folder, creating parents. */
export function writeTree(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}
