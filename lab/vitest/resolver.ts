// A Vite plugin that answers `forge/tools/<module>` from a stack of layers, and relative imports made
// inside a layer from the same stack, so a reference module that imports `./atomic.js` finds it in
// whichever layer provides it. A module no layer has becomes a module that throws one clear line.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isInside } from "../core/inside.js";
import type { Plugin } from "vite";
import "vitest/config";
import type { Vitest, VitestPluginContext } from "vitest/node";
import type { Stage } from "../catalog/catalog.js";
import type { Section } from "../catalog/sections.js";
import { MODULE_DIR, dirs, repoPath, shownPath } from "../core/layout.js";
import { lessonIn } from "../i18n/content.js";
import { term } from "../i18n/glossary.js";
import type { Locale } from "../core/locale.js";
import { testWords } from "./words/index.js";
import { lookupInLayers, type LayerEntry, type Tree } from "../trees/trees.js";
import type { NotAFile } from "../core/files.js";
import { closeTypecheckers, isSyntaxError, keepTypecheckersOpen, typecheckWorkspace, type Diagnostic } from "./typecheck.js";

export const MISSING_MODULE_ERROR = "ModuleNotWritten";
/** The property of a ModuleNotWritten error that names the module. */
export const MISSING_MODULE_FIELD = "forgeModule";
export const TYPESCRIPT_ERROR = "TypeScriptError";
/** A folder, FIFO, symbolic link or the like stands where a module belongs. */
export const NOT_A_FILE_ERROR = "ModuleNotAFile";
/** A learner's module lacks a name a test file imports from it. */
export const EXPORT_MISSING_ERROR = "ExportMissing";
/**
 * The section a missing module's message sends the learner to: what the module must do and why. Both
 * paths read it; the worked example's steps, which the challenge path folds away, come later.
 */
export const MODULE_SECTION = "Concepts" satisfies Section;

const MISSING_PREFIX = "\0forge-missing:";
const NOT_A_FILE_PREFIX = "\0forge-not-a-file:";
const BARE = /^forge\/tools\/([a-z][a-z0-9-]*)(?:\.js|\.ts)?$/;

export interface LayerOptions {
  readonly stage: Stage;
  readonly tree: Tree;
  /** Which stage adds each module. */
  readonly owners: ReadonlyMap<string, Stage>;
  /** The edition of the messages below. */
  readonly locale: Locale;
}

/**
 * The line a learner reads when a module their tests need does not exist yet. It sends them to the
 * lesson in their language, and names the section as that page heads it.
 */
export function missingModuleMessage(options: LayerOptions, name: string): string {
  const { stage, tree, owners } = options;
  const text = testWords(options.locale);
  const owner = owners.get(name);
  if (tree.target === "workspace") {
    const file = repoPath(join(dirs.workspace, MODULE_DIR, `${name}.ts`));
    if (!owner) return text.notWritten(name, file);
    const lesson = lessonIn(owner, options.locale);
    const earlier = owner.number < stage.number ? owner.id : null;
    return text.notWrittenExplained(name, file, repoPath(lesson.file), term(MODULE_SECTION, lesson.locale), earlier);
  }
  return text.notInTree(name, tree.name, stage.id);
}

/**
 * The first diagnostic, in one line: a stray brace makes the compiler report a cascade whose later
 * entries are only consequences, so the first is where to look. The count says how many follow.
 */
export function typeScriptErrorMessage(diagnostics: readonly Diagnostic[], locale: Locale): string {
  const [first] = diagnostics;
  if (!first) return "";
  const where = `${repoPath(first.file)}:${first.line}:${first.column}`;
  return testWords(locale).typeScript(where, isSyntaxError(first), first.code, first.message, diagnostics.length - 1);
}

const UNRESOLVED_NEIGHBOUR = /^Cannot find module '\.\/([a-z][a-z0-9-]*)(?:\.js|\.ts)?'/;

/**
 * An import of a sibling module the learner has not written yet (`./atomic.js` from rollback.ts). Left
 * to the "missing" stand-in, which names the file to create and the lesson, instead of TS2307.
 */
function isMissingNeighbour(diagnostic: Diagnostic): boolean {
  const name = diagnostic.code === "TS2307" ? UNRESOLVED_NEIGHBOUR.exec(diagnostic.message)?.[1] : undefined;
  return name !== undefined && !existsSync(join(dirname(diagnostic.file), `${name}.ts`));
}

/**
 * Code for a module that throws `message` when imported, with no stack trace to wade through. The
 * missing module's name travels on the error as data (vitest keeps an error's own properties), so the
 * evidence never has to read it back out of the message.
 */
function throwingModule(name: string, message: string, missingModule: string | null = null): string {
  return `const error = new Error(${JSON.stringify(message)});
error.name = ${JSON.stringify(name)};
error.stack = error.name + ": " + error.message;
error.${MISSING_MODULE_FIELD} = ${JSON.stringify(missingModule)};
throw error;
export {};
`;
}

/** `import { a, b as c, type T } from "forge/tools/x"`: the names a file imports by value from a course module. */
const NAMED_IMPORT = /^\s*import\s+(?!type\s)(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*["'](forge\/tools\/[^"']+)["']/gm;
/** Where the message of `exportChecks` names what is missing, filled in when the file loads. */
const MISSING_NAMES = "\u0000";

/**
 * Code appended to a file that imports a learner's module by name: it fails the file's load with one
 * line when the module lacks one of those names. Without it an empty module, or one export short, gave
 * every test its own `TypeError: defineTool is not a function`, and the type-check says nothing, since
 * it checks the learner's files, not the tests that import them. Appended after the last line, so the
 * file's own lines keep their numbers; an import is hoisted wherever it stands.
 */
export function exportChecks(
  code: string,
  learnerFileOf: (source: string) => string | null,
  message: (file: string, names: string) => string,
): string {
  const checks: string[] = [];
  for (const [, list = "", source = ""] of code.matchAll(NAMED_IMPORT)) {
    const file = learnerFileOf(source);
    if (file === null) continue;
    const names = list
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "" && !part.startsWith("type "))
      .map((part) => part.split(/\s+as\s+/)[0] ?? part);
    if (names.length === 0) continue;
    const namespace = `__forgeExports${checks.length}`;
    checks.push(
      `import * as ${namespace} from ${JSON.stringify(source)};`,
      `{ const missing = ${JSON.stringify(names)}.filter((name) => !(name in ${namespace})); if (missing.length > 0) { const error = new Error(${JSON.stringify(message(file, MISSING_NAMES))}.replace(${JSON.stringify(MISSING_NAMES)}, missing.join(", "))); error.name = ${JSON.stringify(EXPORT_MISSING_ERROR)}; error.stack = error.name + ": " + error.message; throw error; } }`,
    );
  }
  return checks.length === 0 ? "" : `\n${checks.join("\n")}\n`;
}

/** The learner folders each file watcher already reports on (a restarted vitest has a new watcher). */
const watching = new WeakMap<object, Set<string>>();

/**
 * Vitest reruns nothing when a file that is not a test goes away, so a learner's deleted module would
 * leave the last green result standing. A learner file that goes away is passed on as a change, which
 * the learner folder's watch trigger turns into a rerun of its tests: they then say what is missing.
 */
function rerunWhenLearnerFilesGo(vitest: Vitest, learner: string): void {
  const watcher = vitest.vite.watcher;
  const folders = watching.get(watcher) ?? new Set<string>();
  watching.set(watcher, folders);
  if (folders.has(learner)) return;
  folders.add(learner);
  const modules = join(learner, MODULE_DIR);
  watcher.on("unlink", (file: string) => {
    if (isInside(modules, file)) vitest.watcher.onFileChange(file);
  });
}

/** What an import resolves to in a tree: a layer's entry, a missing module, or null when it is not the tree's to answer. */
function resolveInTree(
  layers: readonly string[],
  source: string,
  importer: string | undefined,
): LayerEntry | { readonly missing: string } | null {
  const bare = BARE.exec(source);
  if (bare) {
    const name = bare[1] ?? "";
    return lookupInLayers(layers, join(MODULE_DIR, name)) ?? { missing: name };
  }
  if (!importer || !source.startsWith(".")) return null;
  const layer = layers.find((root) => isInside(root, importer));
  if (!layer) return null;
  const pathInLayer = relative(layer, resolve(dirname(importer), source));
  const found = lookupInLayers(layers, pathInLayer);
  if (found) return found;
  const name = BARE.exec(pathInLayer.split(sep).join("/"))?.[1];
  return name ? { missing: name } : null;
}

/** Every import specifier a module's text names (`from "x"`, `import "x"`, `import("x")`). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'\n]+)["']/g;

/**
 * What a module's transform depends on beyond its path and text: where each of its imports into the
 * course's modules resolves in `tree`, one `specifier=file` per line (empty when it has none). False, "do
 * not cache", for a virtual module, the learner's own modules (their load depends on the type-check) and
 * a module with an import that reaches a stand-in (missing, or not a file).
 */
export function moduleCacheKey(tree: Pick<Tree, "layers" | "learner">, id: string, sourceCode: string): string | false {
  if (id.startsWith("\0") || (tree.learner !== null && isInside(join(tree.learner, MODULE_DIR), id))) return false;
  const answers: string[] = [];
  for (const [, source = ""] of sourceCode.matchAll(SPECIFIER)) {
    const entry = resolveInTree(tree.layers, source, id);
    if (entry === null) continue;
    if ("missing" in entry || entry.kind !== "file") return false;
    answers.push(`${source}=${entry.path}`);
  }
  return answers.join("\n");
}

type CacheKey = (id: string, sourceCode: string) => string | false;

/** For each vitest, the cache key of a transformed module by its project's environment (null: two projects share it). */
const cacheKeys = new WeakMap<Vitest, Map<object, CacheKey | null>>();

/**
 * Vitest's module cache on disk (`experimental.fsModuleCache`) keys a transformed module by its path and
 * text, but the transform has already resolved its imports: a stage test compiled against the reference
 * names the reference's file. So each project adds `moduleCacheKey` in its tree. Vitest applies every
 * generator to every module, so one generator serves all the projects of a run and answers only for the
 * environments it knows, each of one project: a module of any other is not cached.
 */
function keepCacheKeys(context: VitestPluginContext, key: CacheKey): void {
  let byEnvironment = cacheKeys.get(context.vitest);
  if (byEnvironment === undefined) {
    const known = new Map<object, CacheKey | null>();
    byEnvironment = known;
    cacheKeys.set(context.vitest, known);
    context.experimental_defineCacheKeyGenerator(({ environment, id, sourceCode }) => known.get(environment)?.(id, sourceCode) ?? false);
  }
  for (const environment of Object.values(context.project.vite.environments)) {
    byEnvironment.set(environment, byEnvironment.has(environment) ? null : key);
  }
}

export function forgeLayers(options: LayerOptions): Plugin {
  const { layers, learner } = options.tree;
  const learnerModules = learner === null ? null : join(learner, MODULE_DIR);
  // A folder, FIFO or link where a module belongs loads as a stand-in that says so in one line: vite
  // would wait forever reading a FIFO, and a link would load a file the type-check does not see.
  const notAFiles = new Map<string, { readonly path: string; readonly kind: NotAFile }>();
  const resolved = (entry: LayerEntry): string => {
    if (entry.kind === "file") return entry.path;
    const id = `${NOT_A_FILE_PREFIX}${entry.path}`;
    notAFiles.set(id, { path: entry.path, kind: entry.kind });
    return id;
  };
  // The compiler starts now, while vitest starts its workers and transforms the test files; the first
  // learner module to load waits for what is by then mostly done (one run per distinct content).
  if (learner !== null) void typecheckWorkspace(learner).catch(() => undefined);

  return {
    name: "forge-layers",
    enforce: "pre",
    resolveId(source, importer) {
      const entry = resolveInTree(layers, source, importer);
      if (entry === null) return null;
      return "missing" in entry ? `${MISSING_PREFIX}${entry.missing}` : resolved(entry);
    },
    async load(id) {
      const standIn = notAFiles.get(id);
      if (standIn) return throwingModule(NOT_A_FILE_ERROR, testWords(options.locale).notAFile(shownPath(standIn.path), standIn.kind));
      if (id.startsWith(MISSING_PREFIX)) {
        const name = id.slice(MISSING_PREFIX.length);
        return throwingModule(MISSING_MODULE_ERROR, missingModuleMessage(options, name), name);
      }
      if (learnerModules === null || !isInside(learnerModules, id)) return null;
      const own = (await typecheckWorkspace(learner ?? undefined)).filter(
        (diagnostic) => diagnostic.file === id && !isMissingNeighbour(diagnostic),
      );
      return own.length > 0 ? throwingModule(TYPESCRIPT_ERROR, typeScriptErrorMessage(own, options.locale)) : null;
    },
    transform(code, id) {
      if (learnerModules === null || id.startsWith("\0") || isInside(learnerModules, id)) return null;
      const learnerFileOf = (source: string) => {
        const entry = resolveInTree(layers, source, id);
        return entry !== null && !("missing" in entry) && entry.kind === "file" && isInside(learnerModules, entry.path) ? entry.path : null;
      };
      const appended = exportChecks(code, learnerFileOf, (file, names) =>
        testWords(options.locale).exportMissing(shownPath(file), names, repoPath(id)),
      );
      // Nothing before the last line moves, so the file's source map stays as it is.
      return appended === "" ? null : { code: `${code}${appended}`, map: null };
    },
    configureVitest(context) {
      const { vitest, project } = context;
      keepCacheKeys(context, (id, sourceCode) => {
        const key = moduleCacheKey(options.tree, id, sourceCode);
        // A test file that imports the learner's modules carries a message in the learner's language.
        return key === false || learner === null ? key : `${key}\nlocale=${options.locale}`;
      });
      if (learner === null) return;
      vitest.onClose(() => closeTypecheckers());
      if (vitest.config.watch) {
        keepTypecheckersOpen(learner);
        rerunWhenLearnerFilesGo(vitest, learner);
      }
      // A learner file that appears, changes or goes away can change what other files resolve to (a
      // "missing" stand-in is baked into its importers) and how every learner file type-checks: on each
      // rerun, forget the learner's modules, the stand-ins, and everything that imports them — only those.
      vitest.onTestsRerun(() => {
        for (const environment of Object.values(project.vite.environments)) {
          const graph = environment.moduleGraph;
          const stale = [...graph.idToModuleMap.values()].filter(
            (module) =>
              module.id !== null &&
              (module.id.startsWith(MISSING_PREFIX) ||
                module.id.startsWith(NOT_A_FILE_PREFIX) ||
                (learnerModules !== null && isInside(learnerModules, module.id))),
          );
          const seen = new Set<(typeof stale)[number]>();
          while (stale.length > 0) {
            const module = stale.pop();
            if (!module || seen.has(module)) continue;
            seen.add(module);
            graph.invalidateModule(module);
            stale.push(...module.importers);
          }
        }
        // The check of the saved files starts now, while the rerun's worker starts, as the first run's
        // does while vitest starts: the learner module's load then finds it done or nearly so.
        void typecheckWorkspace(learner).catch(() => undefined);
      });
    },
  };
}
