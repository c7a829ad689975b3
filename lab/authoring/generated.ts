// Files the repository derives from its sources and commits: the JSON Schema exports of the zod schemas
// (editors check stage.json and failure.json as you type), and tsconfig.json's per-stage entries (the
// repository type-checks the stage tests against the reference, layered as the stages are). `npm run
// generate` writes them; verify fails when one is stale. The course map's generated blocks (the learning
// path and the prerequisite's tool loop) are kept fresh the same way, and so is the compiled catalog
// `npm test` reads (lab/catalog/compiled.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog } from "../catalog/catalog.js";
import { compileCatalog } from "../catalog/load.js";
import { withLf } from "../core/files.js";
import { layoutOf, repoPath, ROOT, type Layout } from "../core/layout.js";
import { syncCourseMap, type CourseMapSync } from "./map.js";
import { exportedSchemas } from "./schemas.js";
import { glossaryPage } from "../i18n/glossary.js";
import { LOCALES, type Locale } from "../core/locale.js";
import { localized } from "../core/layout.js";

export interface GeneratedFile {
  readonly file: string;
  readonly content: string;
}

/**
 * Every fault's tree as a repository path (.lab/faults/<stage>/<fault-id>, made from its patch): each
 * stage's default fault first, in stage order, then the further faults. A faulty module imports its
 * stage's other modules by relative path, so its folder is a root dir beside the references, which come
 * first and so answer those imports.
 */
function faultLayers(catalog: Catalog): string[] {
  const defaults = catalog.stages.map((stage) => repoPath(stage.faultyDir, stage.root));
  const further = catalog.stages.flatMap((stage) =>
    stage.faults.filter((fault) => !fault.isDefault).map((fault) => repoPath(fault.dir, stage.root)),
  );
  return [...defaults, ...further];
}

/**
 * stages/tsconfig.json, for the editor only: the stage tests with `forge/tools/*` answered from the
 * learner's workspace first, so "go to definition" opens their module; a module they have not written
 * falls back to the reference, layered as the stages are. An editor uses the tsconfig.json nearest a file;
 * `tsc -p tsconfig.json` (npm run typecheck, verify) never reads this one and keeps checking the tests
 * against the reference alone.
 */
export function stagesTsconfigFor(catalog: Catalog): string {
  const solutions = catalog.stages.map((stage) => `../${repoPath(stage.solutionDir, stage.root)}`);
  const faulty = faultLayers(catalog).map((dir) => `../${dir}`);
  const config = {
    extends: "../tsconfig.json",
    compilerOptions: {
      paths: { "forge/tools/*": ["../workspace/forge/tools/*", ...solutions.map((dir) => `${dir}/forge/tools/*`)] },
      rootDirs: [...solutions, ...faulty],
    },
    include: ["./**/*.ts"],
    exclude: [],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** tsconfig.json with `forge/tools/*` mapped to every stage's reference, in stage order, and rootDirs to match. */
export function tsconfigFor(catalog: Catalog, current: string): string {
  const config = JSON.parse(current) as { compilerOptions?: Record<string, unknown> };
  const solutions = catalog.stages.map((stage) => `./${repoPath(stage.solutionDir, stage.root)}`);
  const faulty = faultLayers(catalog).map((dir) => `./${dir}`);
  const compilerOptions = { ...config.compilerOptions };
  compilerOptions.paths = { "forge/tools/*": solutions.map((dir) => `${dir}/forge/tools/*`) };
  compilerOptions.rootDirs = [...solutions, ...faulty];
  // The fault trees are type-checked too, once made (npm run typecheck and verify make them first).
  const include = [
    ...new Set([...((config as { include?: string[] }).include ?? []).filter((entry) => entry !== "faulty"), ".lab/faults"]),
  ];
  return `${JSON.stringify({ ...config, compilerOptions, include }, null, 2)}\n`;
}

/** The checkout a catalog was read from: its committed files, wherever FORGE_WORKSPACE or FORGE_EVIDENCE point a run's folders. */
function layoutOfCatalog(catalog: Catalog): Layout {
  return layoutOf(catalog.stages[0]?.root ?? ROOT);
}

/** The course map in `locale` with its generated blocks (the learning path, the tool loop) rewritten, or why it cannot be. */
export function courseMapSync(catalog: Catalog, locale: Locale = "en"): CourseMapSync {
  const layout = layoutOfCatalog(catalog);
  const map = localized(layout.courseMap, locale);
  const sources = [map, layout.agentLoop, layout.checkedAgentLoop];
  if (!sources.every((file) => existsSync(file)))
    return {
      text: "",
      problems: [`${sources.map((file) => repoPath(file, layout.root)).join(", ")} must all exist`],
    };
  const loops = { loop: readFileSync(layout.agentLoop, "utf8"), checked: readFileSync(layout.checkedAgentLoop, "utf8") };
  const sync = syncCourseMap(readFileSync(map, "utf8"), catalog.stages, loops, locale);
  return { text: sync.text, problems: sync.problems.map((problem) => `${repoPath(map, layout.root)}: ${problem}`) };
}

export function generatedFiles(catalog: Catalog): GeneratedFile[] {
  const layout = layoutOfCatalog(catalog);
  // Each edition of the course map that exists; a missing twin is verify's parity check to name.
  const maps = LOCALES.flatMap((locale) => {
    const map = courseMapSync(catalog, locale);
    return map.problems.length === 0 ? [{ file: localized(layout.courseMap, locale), content: map.text }] : [];
  });
  return [
    ...exportedSchemas(layout),
    { file: layout.tsconfig, content: tsconfigFor(catalog, readFileSync(layout.tsconfig, "utf8")) },
    { file: join(layout.stages, "tsconfig.json"), content: stagesTsconfigFor(catalog) },
    ...maps,
    { file: layout.glossary, content: glossaryPage() },
    { file: layout.compiledCatalog, content: compileCatalog(layout) },
  ];
}

/** The generated files whose committed content is not what generation gives (line endings aside), as repository paths. */
export function staleGenerated(catalog: Catalog): string[] {
  const root = layoutOfCatalog(catalog).root;
  return generatedFiles(catalog)
    .filter(({ file, content }) => !existsSync(file) || withLf(readFileSync(file, "utf8")) !== content)
    .map(({ file }) => repoPath(file, root));
}
