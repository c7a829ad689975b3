// `npm run lint`: the hygiene check verify runs (lab/verify/lint.ts), on its own.
import { lintProblems } from "../verify/lint.js";

const problems = await lintProblems();
for (const problem of problems) console.log(problem);
console.log(problems.length === 0 ? "lint: the formatter and knip are clean." : `lint: ${problems.length} problem(s).`);
if (problems.length > 0) process.exitCode = 1;
