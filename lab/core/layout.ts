// Where things live in the repository. Every other module asks here instead of building paths itself.
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locale } from "../core/locale.js";
import { isInside } from "./inside.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

export const COURSE_ID = "tools-sandbox-side-effects";

/** The folders and well-known files of a Forge Lab checkout. */
export function layoutOf(root: string) {
  const labState = join(root, ".lab");
  return {
    root,
    stages: join(root, "stages"),
    /** The course map: read before stage 01, on the code host and (rendered) on the site. */
    courseMap: join(root, "stages", "README.md"),
    /** The repository's front page, and the workspace's: each has a Chinese twin beside it (see `localized`). */
    readme: join(root, "README.md"),
    workspaceReadme: join(root, "workspace", "README.md"),
    /** Every term in both editions, written by `npm run generate` from lab/i18n/glossary.ts. */
    glossary: join(root, "docs", "glossary.md"),
    /** The prerequisite's tool loop, type-checked with the repository; the course map shows it. */
    agentLoop: join(root, "stages", "agent-loop.ts"),
    /** The same loop with the stage 12 server in the middle; the course map shows it beside the first. */
    checkedAgentLoop: join(root, "stages", "agent-loop-checked.ts"),
    solutions: join(root, "solutions"),
    faulty: join(root, "faulty"),
    fixtures: join(root, "fixtures"),
    scenarios: join(root, "fixtures", "scenarios"),
    evidence: join(root, "evidence"),
    workspace: join(root, "workspace"),
    site: join(root, "site"),
    siteDist: join(root, "site", "dist"),
    testResults: join(root, "test-results"),
    /** The learner's local lab state: backups, the lock, remembered hints (git-ignored). */
    labState,
    backups: join(labState, "backups"),
    lock: join(labState, "lock"),
    hints: join(labState, "hints.json"),
    /** Each fault's tree, made from its patch when a run needs a real file (lab/trees/faults.ts). */
    faultTrees: join(labState, "faults"),
    /** `npm run mutate`'s generated configurations and StrykerJS's sandboxes (git-ignored). */
    mutationState: join(labState, "mutation"),
    /** StrykerJS's HTML reports, one per stage (git-ignored). */
    mutationReports: join(root, "reports", "mutation"),
    /** Where `lab fault --open` puts a faulty module for the learner to repair (git-ignored). */
    faultlab: join(root, "faultlab"),
    cache: join(root, "node_modules", ".cache", "forge-lab"),
    /** Every stage.json and fault contract, validated by `npm run generate`, for `npm test` to read without a schema library. */
    compiledCatalog: join(root, "lab", "catalog", "compiled.json"),
    tsconfig: join(root, "tsconfig.json"),
    siteTsconfig: join(root, "site", "client", "tsconfig.json"),
    packageJson: join(root, "package.json"),
    /** The package's `forge-lab` command (`node lab/bin/forge-lab.mjs serve <root>` for an MCP client). */
    labCommand: join(root, "lab", "bin", "forge-lab.mjs"),
    /** `npm test`'s command: vitest, with Node's cache of compiled code on from its first module. */
    testCommand: join(root, "lab", "bin", "test.mjs"),
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

/**
 * A page in one edition: the English file itself, or its twin beside it with the locale before the
 * extension (`README.md` → `README.zh-CN.md`). Works on paths and on relative links alike.
 */
export function localized(file: string, locale: Locale): string {
  if (locale === "en") return file;
  const dot = file.lastIndexOf(".");
  const slash = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  return dot > slash + 1 ? `${file.slice(0, dot)}.${locale}${file.slice(dot)}` : `${file}.${locale}`;
}

/** A module's file in a layer (a solution, faulty or workspace folder). */
export function moduleFile(layer: string, name: string): string {
  return join(layer, MODULE_DIR, `${name}.ts`);
}

/** A module's path as the lessons and messages write it, relative to a layer: `forge/tools/paths.ts`. */
export function modulePath(name: string): string {
  return `forge/tools/${name}.ts`;
}

/** The files that belong to a stage, from its folder name. */
export function stageFiles(layout: Layout, id: string) {
  const dir = join(layout.stages, id);
  return {
    dir,
    readme: join(dir, "README.md"),
    spec: join(dir, "stage.json"),
    contract: join(layout.fixtures, id, "failure.json"),
    /** The contracts of the stage's further faults, one `<fault-id>.json` each. */
    faultContracts: join(layout.fixtures, id, "faults"),
    /** The committed summary of `npm run mutate` for the stage. */
    mutation: join(layout.fixtures, id, "mutation.json"),
    solution: join(layout.solutions, id),
    /** The stage's faults, one `<fault-id>.patch` each: a one-hunk change of the reference module. */
    faulty: join(layout.faulty, id),
    patchOf: (faultId: string) => join(layout.faulty, id, `${faultId}.patch`),
    /** The tree a fault's runs use, made from its patch on demand (git-ignored). */
    faultTreeOf: (faultId: string) => join(layout.faultTrees, id, faultId),
    /** A test file of the stage, by its name without `.test.ts`. */
    test: (name: string) => join(dir, `${name}.test.ts`),
  } as const;
}

/** A stage's evidence folder, relative to the repository, as the lessons name it. */
export function evidenceFolder(stage: { readonly nn: string; readonly slug: string }): string {
  return `evidence/${COURSE_ID}/${stage.nn}-${stage.slug}`;
}

/** The folder of this course's evidence, one subfolder per stage (`NN-slug`). */
export function evidenceRoot(evidence: string = dirs.evidence): string {
  return join(evidence, COURSE_ID);
}

/** A stage's evidence folder on disk; FORGE_EVIDENCE may move the evidence root. */
export function evidenceDir(stage: { readonly nn: string; readonly slug: string }, evidence: string = dirs.evidence): string {
  return join(evidenceRoot(evidence), `${stage.nn}-${stage.slug}`);
}

/** A backup of `lab start` or `lab restore`: its manifest, its marks and its copies of learner files. */
export function backupFiles(name: string) {
  const folder = join(dirs.backups, name);
  return {
    folder,
    manifest: join(folder, "manifest.json"),
    restored: join(folder, "restored.json"),
    /** The copy of a learner file, by its path relative to workspace/. */
    copy: (path: string) => join(folder, "files", path),
  } as const;
}

/** A learner file by its path relative to workspace/ (`forge/tools/paths.ts`). */
export function workspaceFile(path: string): string {
  return join(dirs.workspace, path);
}

/** A path in the form we print and record: relative to the repository, with forward slashes. */
export function repoPath(absolute: string, root: string = ROOT): string {
  return relative(root, absolute).split(sep).join("/");
}

/** A path as a message shows it: from the checkout when it lies inside, whole when it does not. */
export function shownPath(absolute: string, root: string = ROOT): string {
  return isInside(root, absolute) ? repoPath(absolute, root) : absolute;
}
