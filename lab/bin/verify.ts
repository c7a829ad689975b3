// Entry point of `npm run verify` (all stages) and `npm run verify -- stage-03 …` (some of them).
import { parseArgs } from "node:util";
import { siteSuite } from "../../site/test/suite.js";
import { loadCatalog, stageByName } from "../catalog/catalog.js";
import { labSuite } from "../test/suite.js";
import { formatReport } from "../verify/report.js";
import { runVerify } from "../verify/verify.js";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const catalog = loadCatalog();
const stages = positionals.map((name) => {
  const stage = stageByName(catalog, name);
  if (!stage) {
    console.error(`"${name}" is not a stage. Stages: ${catalog.stages.map((known) => known.id).join(", ")}`);
    process.exit(2);
  }
  return stage.id;
});

// The repository's own suites run beside the stages; each registers itself where its tests live.
const report = await runVerify({ stages, suites: [labSuite, siteSuite], onProjectEnd: (name) => console.log(`  finished ${name}`) });
console.log(formatReport(report));
process.exitCode = report.ok ? 0 : 1;
