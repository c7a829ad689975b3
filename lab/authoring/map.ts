// The course map (stages/README.md) is prose written by hand plus two generated blocks: the learning
// path, derived from the catalog, and the prerequisite's tool loop, copied from a file the repository
// type-checks. Nothing in the path is written by hand: what a stage depends on is what its reference
// imports, what it provides is its modules and their exports, and what constrains it is its tests and
// the later stages that import it. The site draws the same path as a diagram.
import { existsSync, readFileSync } from "node:fs";
import type { Stage } from "../catalog/catalog.js";
import { withLf } from "../core/files.js";
import { moduleFile, modulePath } from "../core/layout.js";
import { blockMarkers, fillBlock } from "./lesson.js";
import { specIn } from "../i18n/content.js";
import type { Locale } from "../core/locale.js";
import { localized } from "../core/layout.js";

export interface PathStage {
  readonly id: string;
  readonly nn: string;
  readonly title: string;
  readonly summary: string;
  /** The modules the stage adds, as `forge/tools/<name>.ts`. */
  readonly modules: readonly string[];
  /** The functions and classes those modules export: what later code can call. */
  readonly exports: readonly string[];
  /** Ids of the stages whose modules its reference imports, in stage order. */
  readonly dependsOn: readonly string[];
  /** Ids of the later stages whose reference imports its modules. */
  readonly usedBy: readonly string[];
  /** How many tests its suite has (mastery and transfer). */
  readonly tests: number;
}

const RELATIVE_IMPORT = /\bfrom\s+["']\.\/([a-z][a-z0-9-]*)(?:\.js|\.ts)?["']/g;
const EXPORTED = /^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)/gm;

/** The module names a source file imports (or re-exports) from its own folder: `./atomic.js` → `atomic`. */
export function relativeImports(source: string): string[] {
  return [...new Set([...source.matchAll(RELATIVE_IMPORT)].map((match) => match[1] ?? ""))];
}

/** The functions and classes a source file exports, in order. */
export function exportedNames(source: string): string[] {
  return [...source.matchAll(EXPORTED)].map((match) => match[1] ?? "");
}

/** Every complete stage on the path, with what it depends on, provides and is constrained by. */
export function learningPath(stages: readonly Stage[], locale: Locale = "en"): PathStage[] {
  const withSpec = stages.filter((stage) => stage.spec !== null);
  const owner = new Map<string, Stage>();
  for (const stage of withSpec) for (const name of stage.spec?.modules ?? []) owner.set(name, stage);
  const sources = (stage: Stage) =>
    (stage.spec?.modules ?? [])
      .map((name) => moduleFile(stage.solutionDir, name))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file, "utf8"));
  const dependsOn = new Map<string, string[]>();
  for (const stage of withSpec) {
    const imported = sources(stage).flatMap(relativeImports);
    const ids = new Set(
      imported
        .map((name) => owner.get(name))
        .filter((other) => other && other.id !== stage.id)
        .map((other) => other?.id ?? ""),
    );
    dependsOn.set(
      stage.id,
      withSpec.filter((other) => ids.has(other.id)).map((other) => other.id),
    );
  }
  return withSpec.map((stage) => {
    const spec = stage.spec;
    if (!spec) throw new Error(`${stage.id} has no stage.json`);
    // A stage without the edition's text shows its English (verify names the missing edition).
    const text = specIn(spec, locale) ?? spec;
    return {
      id: stage.id,
      nn: stage.nn,
      title: text.title,
      summary: text.summary,
      modules: spec.modules.map(modulePath),
      exports: sources(stage).flatMap(exportedNames),
      dependsOn: dependsOn.get(stage.id) ?? [],
      usedBy: withSpec.filter((other) => dependsOn.get(other.id)?.includes(stage.id)).map((other) => other.id),
      tests: new Set([...spec.mastery, ...spec.transfer.tests]).size,
    };
  });
}

const numbers = (ids: readonly string[], path: readonly PathStage[]) => ids.map((id) => path.find((stage) => stage.id === id)?.nn ?? id);

/** "02, 03 and 04"; in Chinese "02、03 和 04". */
export function listOf(items: readonly string[], locale: Locale = "en"): string {
  if (items.length <= 1) return items.join("");
  const [comma, and] = locale === "zh-CN" ? ["、", " 和 "] : [", ", " and "];
  return `${items.slice(0, -1).join(comma)}${and}${items.at(-1)}`;
}

/** The four things the map says of a stage, as plain text (markdown code spans for names). */
export function pathCells(stage: PathStage, path: readonly PathStage[], locale: Locale = "en") {
  const provides = `${stage.modules.map((module) => `\`${module}\``).join(", ")}: ${stage.exports.map((name) => `\`${name}\``).join(", ")}`;
  if (locale === "zh-CN") {
    const stages = (ids: readonly string[]) => `阶段 ${listOf(numbers(ids, path), locale)}`;
    const users = stage.usedBy.length === 0 ? "" : `；${stages(stage.usedBy)} 导入本模块`;
    return {
      dependsOn: stage.dependsOn.length === 0 ? "无" : stages(stage.dependsOn),
      provides,
      constrainedBy: `${stage.tests} 个测试${users}`,
    };
  }
  const stages = (ids: readonly string[]) => `stage${ids.length === 1 ? "" : "s"} ${listOf(numbers(ids, path))}`;
  const users = stage.usedBy.length === 0 ? "" : `; ${stages(stage.usedBy)} import${stage.usedBy.length === 1 ? "s" : ""} it`;
  return {
    dependsOn: stage.dependsOn.length === 0 ? "none" : stages(stage.dependsOn),
    provides,
    constrainedBy: `its ${stage.tests} tests${users}`,
  };
}

/** The path table's columns in each edition: the code host's table and the site's say the same. */
export const PATH_COLUMNS = {
  en: ["Stage", "Depends on", "Provides", "Constrained by"],
  "zh-CN": ["阶段", "依赖", "提供", "受什么约束"],
} as const satisfies Record<Locale, readonly [string, string, string, string]>;

const PATH_WORDS = {
  en: "An arrow from one stage to another: the second one's reference imports the first one's module.",
  "zh-CN": "箭头从一个阶段指向另一个阶段，表示后者的参考实现导入了前者的模块。",
} as const satisfies Record<Locale, string>;

/** The learning path for a code host: a Mermaid diagram (GitHub draws it) and the same facts as a table. */
export function pathBlock(path: readonly PathStage[], locale: Locale = "en"): string {
  const node = (stage: PathStage) => `s${stage.nn}`;
  const diagram = [
    "```mermaid",
    "flowchart LR",
    ...path.map((stage) => `  ${node(stage)}["${stage.nn} · ${stage.title.replace(/"/g, "'")}"]`),
    ...path.flatMap((stage) => stage.dependsOn.map((id) => `  s${numbers([id], path)[0]} --> ${node(stage)}`)),
    "```",
  ];
  const rows = path.map((stage) => {
    const cells = pathCells(stage, path, locale);
    const link = `[${stage.nn} · ${stage.title}](${localized(`${stage.id}/README.md`, locale)})`;
    return `| ${link} | ${cells.dependsOn} | ${cells.provides} | ${cells.constrainedBy} |`;
  });
  const header = `| ${PATH_COLUMNS[locale].join(" | ")} |`;
  return [...diagram, "", PATH_WORDS[locale], "", header, "|---|---|---|---|", ...rows].join("\n");
}

/** The tool loop of the prerequisite, as the map shows it. */
export function loopBlock(source: string): string {
  return `\`\`\`ts\n${withLf(source).trimEnd()}\n\`\`\``;
}

export interface CourseMapSync {
  readonly text: string;
  readonly problems: readonly string[];
}

export const MAP_BLOCKS = ["loop", "checked-loop", "path"] as const;

/** The two tool loops the map shows: unchecked, and with the stage 12 server in the middle. */
export interface LoopSources {
  readonly loop: string;
  readonly checked: string;
}

/** The course map with its generated blocks rewritten from their sources; names a block that is missing. */
export function syncCourseMap(markdown: string, stages: readonly Stage[], loops: LoopSources, locale: Locale = "en"): CourseMapSync {
  const bodies: Record<(typeof MAP_BLOCKS)[number], string> = {
    loop: loopBlock(loops.loop),
    "checked-loop": loopBlock(loops.checked),
    path: pathBlock(learningPath(stages, locale), locale),
  };
  let text = withLf(markdown);
  const problems: string[] = [];
  for (const name of MAP_BLOCKS) {
    const filled = fillBlock(text, name, bodies[name]);
    if (filled === null) problems.push(`missing the generated block ${blockMarkers(name)}`);
    else text = filled;
  }
  return { text, problems };
}
