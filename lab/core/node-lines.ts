// Which Node.js release lines the course supports. The one home of that fact is package.json's
// `engines` range; doctor, the multi-version run (`npm run verify:node`) and the workflow test read it
// from there, so a line added to `engines` is tested everywhere at once.
import { readFileSync } from "node:fs";
import semver from "semver";
import { dirs } from "./layout.js";

/** package.json's `engines.node`, e.g. "^20.19.0 || ^22.15.0 || ^24.0.0 || ^26.0.0". */
export function enginesRange(packageJson: string = dirs.packageJson): string {
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as { engines?: { node?: string } };
  return manifest.engines?.node ?? "*";
}

// Lines from the oldest Node.js the lab could meet to a few beyond today's newest: a range is asked
// about each of them, never searched open-ended.
const CANDIDATE_LINES = Array.from({ length: 31 }, (_, index) => 16 + index);

/** The release lines (majors) a range admits at least one version of, oldest first: [20, 22, 24, 26]. */
export function supportedLines(range: string): number[] {
  return CANDIDATE_LINES.filter((major) => semver.intersects(range, `>=${major}.0.0 <${major + 1}.0.0`));
}
