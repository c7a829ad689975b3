// The vitest configuration StrykerJS runs for `npm run mutate`: one stage's tests against the reference
// tree (solutions 01..NN through the lab's resolver), with no evidence written. FORGE_MUTATE_STAGE names
// the stage; lab/mutation/run.ts sets it.
import { defineConfig } from "vitest/config";
import { findStage, loadCatalog } from "../catalog/catalog.js";
import { stageProject } from "../vitest/projects.js";
import { treeFor } from "../trees/trees.js";

const catalog = loadCatalog();
const stage = findStage(catalog, process.env.FORGE_MUTATE_STAGE ?? "");
if (!stage) throw new Error(`FORGE_MUTATE_STAGE must name a stage folder; got "${process.env.FORGE_MUTATE_STAGE ?? ""}"`);

export default defineConfig(stageProject(catalog, { stage, tree: treeFor(catalog, stage, "solution") }));
