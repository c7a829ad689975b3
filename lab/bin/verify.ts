// Entry point of `npm run verify`.
import { formatReport } from "../verify-report.js";
import { runVerify } from "../verify.js";

const report = await runVerify();
console.log(formatReport(report));
process.exitCode = report.ok ? 0 : 1;
