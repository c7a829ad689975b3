// `npm run mutate` (every stage), `npm run mutate -- stage-05 …` (some), `--stale` (only those whose
// committed summary is missing or stale), `--twice` (run each stage twice and require identical verdicts).
import { parseArgs } from "node:util";
import { stageByName, type Stage } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { repoPath } from "../core/layout.js";
import { generate } from "../authoring/generate.js";
import { mutateStage, writeSummary } from "../mutation/run.js";
import { judgeMutation } from "../mutation/stage.js";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { stale: { type: "boolean", default: false }, twice: { type: "boolean", default: false } },
});
const catalog = loadCatalog();
const named: Stage[] = positionals.map((name) => {
  const stage = stageByName(catalog, name);
  if (!stage) {
    console.error(`"${name}" is not a stage. Stages: ${catalog.stages.map((known) => known.id).join(", ")}`);
    process.exit(2);
  }
  return stage;
});
const chosen = (named.length > 0 ? named : catalog.stages).filter((stage) => {
  if (!values.stale) return true;
  const verdict = judgeMutation(stage);
  return verdict.state === "broken" && verdict.stale;
});
if (chosen.length === 0) console.log("Every mutation summary is up to date.");

let failed = false;
for (const stage of chosen) {
  console.log(`\n# ${stage.id}`);
  let first: Awaited<ReturnType<typeof mutateStage>>;
  try {
    first = await mutateStage(stage);
  } catch (error) {
    // One stage that cannot run does not stop the others; the command still fails at the end.
    console.error(`${stage.id}: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
    continue;
  }
  if (values.twice) {
    const second = await mutateStage(stage, { quiet: true });
    const differ = first.verdicts.filter((line, index) => line !== second.verdicts[index]);
    if (first.verdicts.length !== second.verdicts.length || differ.length > 0) {
      console.error(`${stage.id}: two runs gave different verdicts, first at ${differ[0] ?? "(count)"}`);
      failed = true;
      continue;
    }
    console.log(`second run: the same ${second.verdicts.length} verdicts (${second.seconds.toFixed(0)} s)`);
  }
  writeSummary(stage, first.summary);
  // The lesson's "Mastery evidence" block states the score: bring it up to date with the summary.
  const generated = generate(loadCatalog(), [stage.id]);
  for (const file of generated.updated) console.log(`updated ${file}`);
  const { score, mutants, unexplained } = first.summary;
  console.log(
    `${stage.id}: ${score}% (killed ${mutants.killed}, timed out ${mutants.timedOut}, survived ${mutants.survived}, no coverage ${mutants.noCoverage}, not type-correct ${mutants.compileErrors}) in ${first.seconds.toFixed(0)} s; report ${repoPath(first.report)}`,
  );
  for (const mutant of unexplained) console.log(`  survived: ${mutant.at} ${mutant.mutator} → ${mutant.replacement}`);
  const verdict = judgeMutation(stage);
  if (verdict.state === "below") console.log(`${stage.id}: short of the goal: ${verdict.problem}`);
  if (verdict.state === "broken") {
    console.error(`${stage.id}: ${verdict.problem}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
