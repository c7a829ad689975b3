// `npm run generate` (`npm run generate -- stage-03` for one stage's lesson blocks).
import { parseArgs } from "node:util";
import { stageByName } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { generate } from "../authoring/generate.js";

const catalog = loadCatalog();
const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const { updated, problems } = generate(
  catalog,
  positionals.map((name) => stageByName(catalog, name)?.id ?? name),
);
for (const file of updated) console.log(`updated ${file}`);
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exitCode = 1;
