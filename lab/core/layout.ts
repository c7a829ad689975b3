// Where things live in the repository. Every other module asks here instead of building paths itself.
import { fileURLToPath } from "node:url";
import { join, relative, resolve, sep } from "node:path";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

export const COURSE_ID = "tools-sandbox-side-effects";

/** The top-level folders of a Forge Lab checkout. */
export function layoutOf(root: string) {
  return {
    root,
    stages: join(root, "stages"),
    solutions: join(root, "solutions"),
    faulty: join(root, "faulty"),
    fixtures: join(root, "fixtures"),
    evidence: join(root, "evidence"),
    workspace: join(root, "workspace"),
    cache: join(root, "node_modules", ".cache", "forge-lab"),
  } as const;
}

export type Layout = ReturnType<typeof layoutOf>;

/**
 * This checkout's folders. FORGE_WORKSPACE and FORGE_EVIDENCE move the learner's two folders, so the
 * lab's own tests can run learner scenarios without touching a real learner's work.
 */
export const dirs: Layout = {
  ...layoutOf(ROOT),
  ...(process.env.FORGE_WORKSPACE ? { workspace: resolve(process.env.FORGE_WORKSPACE) } : {}),
  ...(process.env.FORGE_EVIDENCE ? { evidence: resolve(process.env.FORGE_EVIDENCE) } : {}),
};

/** The folder inside every layer that holds the modules under test. */
export const MODULE_DIR = join("forge", "tools");

/** A path in the form we print and record: relative to the repository, with forward slashes. */
export function repoPath(absolute: string, root: string = ROOT): string {
  return relative(root, absolute).split(sep).join("/");
}
