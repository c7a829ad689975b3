// `npm run generate`: rewrites what the repository derives from its sources — the JSON Schema files,
// tsconfig.json's per-stage entries and the generated blocks of every lesson README (`npm run generate
// -- stage-03` for one stage's blocks). Safe to run at any time; it prints what changed.
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadCatalog, stageByName } from "../catalog/catalog.js";
import { writeFileAtomic } from "../core/files.js";
import { repoPath } from "../core/layout.js";
import { syncBlocks } from "./lesson.js";
import { generatedFiles } from "./generated.js";

function update(file: string, content: string): void {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  writeFileAtomic(file, content);
  console.log(`updated ${repoPath(file)}`);
}

const catalog = loadCatalog();
for (const { file, content } of generatedFiles(catalog)) update(file, content);

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const chosen = positionals.map((name) => stageByName(catalog, name)?.id ?? name);
for (const stage of catalog.stages) {
  if (chosen.length > 0 && !chosen.includes(stage.id)) continue;
  if (!stage.spec || !stage.contract || !existsSync(stage.readmePath)) continue;
  const sync = syncBlocks(readFileSync(stage.readmePath, "utf8"), { stage, spec: stage.spec, contract: stage.contract });
  for (const problem of sync.problems) console.error(`${repoPath(stage.readmePath)}: ${problem}`);
  update(stage.readmePath, sync.text);
}
for (const problem of catalog.problems) console.error(`${problem.file}: ${problem.message}`);
if (catalog.problems.length > 0) process.exitCode = 1;
