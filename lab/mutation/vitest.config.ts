// The vitest configuration StrykerJS runs for `npm run mutate`: one stage's tests against the reference
// tree (solutions 01..NN through the lab's resolver), with no evidence written. FORGE_MUTATE_STAGE names
// the stage; lab/mutation/run.ts sets it.
import { defineConfig } from "vitest/config";
import { findStage } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { stageProject } from "../vitest/projects.js";
import { treeFor } from "../trees/trees.js";
import { loadFailuresAsFailedTests } from "./load-failures.js";

const catalog = loadCatalog();
const stage = findStage(catalog, process.env.FORGE_MUTATE_STAGE ?? "");
if (!stage) throw new Error(`FORGE_MUTATE_STAGE must name a stage folder; got "${process.env.FORGE_MUTATE_STAGE ?? ""}"`);

const project = stageProject(catalog, { stage, tree: treeFor(catalog, stage, "solution") }, { locale: "en" });
// StrykerJS's instrumented module runs several times slower than the reference (every branch asks which
// mutant is active), so a test that streams megabytes needs more than vitest's 5 s; StrykerJS's own
// timeout still decides when a mutant hangs.
export default defineConfig({
  ...project,
  test: { ...project.test, testTimeout: 60_000, reporters: ["default", loadFailuresAsFailedTests()] },
});
