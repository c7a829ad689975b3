// `npm test -- stage-01` runs stage 01's tests against the tree FORGE_TARGET names (default: workspace/).
import { configDefaults, defineConfig } from "vitest/config";
import { parseCLI } from "vitest/node";
import { loadCatalog } from "./lab/catalog/catalog.js";
import { ProjectIndex, stageProject, stagesMatching } from "./lab/vitest/projects.js";
import { evidencePlugin } from "./lab/evidence/plugin.js";
import { parseTarget, treeFor, UnknownTargetError, type Target } from "./lab/trees/trees.js";

function targetFromEnvironment(): Target {
  try {
    return parseTarget(process.env.FORGE_TARGET);
  } catch (error) {
    if (!(error instanceof UnknownTargetError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

const target = targetFromEnvironment();
const catalog = loadCatalog();
for (const problem of catalog.problems) console.warn(`warning: ${problem.file}: ${problem.message}`);
const { filter } = parseCLI(["vitest", ...process.argv.slice(2)], { allowUnknownOptions: true });
const projects = stagesMatching(catalog, filter).map((stage) => ({ stage, tree: treeFor(catalog, stage, target) }));
// The evidence reporter rides on a plugin, not on `reporters`: `--reporter=junit` (or an editor's test
// explorer) replaces that list, and would drop verification.json without a word.
const evidence = evidencePlugin(new ProjectIndex(catalog, projects));

export default defineConfig({
  test: {
    projects: projects.map((project) => stageProject(catalog, project, [evidence])),
    // A learner file appearing or changing reruns the tests that may now find it.
    forceRerunTriggers:
      target === "workspace" ? [...configDefaults.forceRerunTriggers, "**/workspace/forge/**"] : configDefaults.forceRerunTriggers,
  },
});
