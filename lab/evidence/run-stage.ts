// Runs one stage's tests against one tree in this process, quietly, and returns the results: for the
// CLI's fault demo and its check of a learner's repair. (`npm test` and `verify` run vitest themselves.)
import { createVitest } from "vitest/node";
import type { Catalog, Stage } from "../catalog/catalog.js";
import { ROOT } from "../core/layout.js";
import { resultsOf, type Results } from "./results.js";
import type { Locale } from "../core/locale.js";
import type { Tree } from "../trees/trees.js";
import { stageProject } from "../vitest/projects.js";

/** `locale`: the edition of the messages of modules that cannot load (the CLI's own). */
export async function runStageTests(catalog: Catalog, stage: Stage, tree: Tree, locale: Locale): Promise<Results> {
  const silent = {}; // a reporter that reports nothing: the caller prints its own summary
  const vitest = await createVitest(
    "test",
    { watch: false, config: false, root: ROOT, reporters: [silent] },
    { test: { projects: [stageProject(catalog, { stage, tree }, { locale })] } },
  );
  try {
    await vitest.start();
    return resultsOf(vitest.state.getTestModules());
  } finally {
    await vitest.close();
  }
}
