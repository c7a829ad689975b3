// Entry point of `npm run verify` (the whole course) and `npm run verify -- stage-03 …` (some stages:
// their rows and what their files touch — the type-check, lint, generated files — without the lab
// engine's and the site's own suites, which only the whole run proves). A line is printed as each check
// finishes, so a run of minutes is never silent; the table and every breach follow.
import { parseArgs } from "node:util";
import { siteSuite } from "../../site/test/suite.js";
import { stageByName } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { paint } from "../core/style.js";
import { labSuite } from "../test/suite.js";
import { formatReport } from "../verify/report.js";
import { runVerify, type ProgressEvent } from "../verify/run.js";

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

const colours = paint();
const whole = stages.length === 0;
console.log(
  whole
    ? "Verifying the whole course: every stage, the lab engine's and the site's suites, the type-check and lint."
    : `Verifying ${stages.join(", ")}: their rows, the type-check, lint and generated files. The lab engine's and the site's suites are left out: npm run verify runs them.`,
);
const say = (event: ProgressEvent) =>
  console.log(
    `  ${event.ok ? colours.green("✔") : colours.red("✘")} ${event.label}: ${event.detail} ${colours.dim(`(${event.seconds.toFixed(1)} s)`)}`,
  );
// The repository's own suites run beside the stages; each registers itself where its tests live.
const report = await runVerify({ stages, suites: whole ? [labSuite, siteSuite] : [], onProgress: say });
console.log("");
console.log(formatReport(report));
if (!whole) console.log(colours.dim("The lab engine's and the site's suites were not run: npm run verify runs them."));
process.exitCode = report.ok ? 0 : 1;
