// `npm test -- stage-01` runs stage 01's tests against the tree FORGE_TARGET names (default: workspace/),
// and says what a learner must do in the language the lab CLI would use (FORGE_LANG, else the system's).
import { defineConfig } from "vitest/config";
import { parseCLI } from "vitest/node";
import { readCompiledCatalog, StaleCatalogError } from "./lab/catalog/compiled.js";
import { learnerWatchTriggers, ProjectIndex, stageProject, stagesMatching } from "./lab/vitest/projects.js";
import { evidencePlugin } from "./lab/evidence/plugin.js";
import type { Locale } from "./lab/core/locale.js";
import { testWords } from "./lab/vitest/words/index.js";
import { chooseLocale } from "./lab/i18n/locale.js";
import { TARGETS, type Target } from "./lab/trees/targets.js";
import { parseTarget, treeFor, UnknownTargetError } from "./lab/trees/trees.js";
import { dirs } from "./lab/core/layout.js";
import { join } from "node:path";
import { keepCompiledCode } from "./lab/vitest/compile-cache.mjs";

function editionFromEnvironment(): Locale {
  const chosen = chooseLocale();
  if ("locale" in chosen) return chosen.locale;
  console.error(chosen.error);
  process.exit(2);
}

function targetFromEnvironment(locale: Locale): Target {
  try {
    return parseTarget(process.env.FORGE_TARGET);
  } catch (error) {
    if (!(error instanceof UnknownTargetError)) throw error;
    console.error(testWords(locale).notATarget("FORGE_TARGET", error.value, TARGETS));
    process.exit(2);
  }
}

/** What `npm run generate` validated; a stage.json or contract edited since stops the run with one line. */
function compiledCatalog() {
  try {
    return readCompiledCatalog();
  } catch (error) {
    if (!(error instanceof StaleCatalogError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

keepCompiledCode();
const locale = editionFromEnvironment();
const target = targetFromEnvironment(locale);
const catalog = compiledCatalog();
for (const problem of catalog.problems) console.warn(`warning: ${problem.file}: ${problem.message}`);
const { filter } = parseCLI(["vitest", ...process.argv.slice(2)], { allowUnknownOptions: true });
const projects = stagesMatching(catalog, filter).map((stage) => ({ stage, tree: treeFor(catalog, stage, target) }));
// The evidence reporter rides on a plugin, not on `reporters`: `--reporter=junit` (or an editor's test
// explorer) replaces that list, and would drop verification.json without a word.
const evidence = evidencePlugin(new ProjectIndex(catalog, projects), locale);

export default defineConfig({
  test: {
    // Transformed modules are kept on disk between runs; the lab's resolver adds what the transform
    // depends on beyond a file's text (lab/vitest/resolver.ts, keepCacheKeys).
    experimental: { fsModuleCache: true, fsModuleCachePath: join(dirs.cache, "vitest-modules") },
    projects: projects.map((project) => stageProject(catalog, project, { locale, plugins: [evidence] })),
    // A learner file appearing, changing or going away reruns the tests that read it (watch mode).
    watchTriggerPatterns: learnerWatchTriggers(projects),
  },
});
