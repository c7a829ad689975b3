// A copy of the repository's sources for a test or a scripted scenario to run the lab in: the real
// node_modules linked in, an evidence/ with only its committed files, and a workspace/ that holds only
// its committed files (README.md, tsconfig.json).
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ROOT } from "../../core/layout.js";

// Top-level paths a copy leaves out: generated, local or learner state.
const LEFT_OUT = new Set([
  "node_modules",
  ".git",
  join("evidence", "tools-sandbox-side-effects"),
  "test-results",
  ".lab",
  "faultlab",
  join("site", "dist"),
  join("workspace", "forge"),
]);

export function copyRepositoryTo(copy: string): void {
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (source) => {
      const inside = relative(ROOT, source);
      return ![...LEFT_OUT].some((left) => inside === left || inside.startsWith(`${left}${sep}`));
    },
  });
  // A junction on Windows: it needs no privilege, where a symbolic link to a folder does.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), process.platform === "win32" ? "junction" : "dir");
  mkdirSync(join(copy, "evidence"), { recursive: true });
}
