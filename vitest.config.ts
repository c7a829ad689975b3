// `npm test -- stage-01` runs stage 01's tests against the tree FORGE_TARGET names (default: workspace/).
import { configDefaults, defineConfig } from "vitest/config";
import { parseCLI } from "vitest/node";
import { loadCatalog } from "./lab/catalog/catalog.js";
import { ProjectIndex, stageProject, stagesMatching } from "./lab/vitest/projects.js";
import { EvidenceReporter } from "./lab/evidence/reporter.js";
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

export default defineConfig({
  test: {
    projects: projects.map((project) => stageProject(catalog, project)),
    reporters: ["default", new EvidenceReporter(new ProjectIndex(catalog, projects))],
    // A learner file appearing or changing reruns the tests that may now find it.
    forceRerunTriggers:
      target === "workspace" ? [...configDefaults.forceRerunTriggers, "**/workspace/forge/**"] : configDefaults.forceRerunTriggers,
  },
});
