// `npm run typecheck`: tsc over the repository and over the site's browser code. The fault trees are
// made from their patches first (lab/trees/faults.ts), so the faulty modules are type-checked too.
import { $ } from "zx";
import { loadCatalog } from "../catalog/load.js";
import { ROOT } from "../core/layout.js";
import { materializeFaults } from "../trees/faults.js";

const broken = materializeFaults(loadCatalog().stages);
for (const { stage, fault, problem } of broken) console.error(`${stage.id}: fault "${fault.id}": ${problem}`);
const tsc = (project: string) => $({ cwd: ROOT, nothrow: true, stdio: "inherit" })`tsc --noEmit -p ${project}`;
const results = await Promise.all([tsc("tsconfig.json"), tsc("site/client/tsconfig.json")]);
process.exitCode = broken.length > 0 || results.some((result) => result.exitCode !== 0) ? 1 : 0;
