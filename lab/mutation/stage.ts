// A stage's committed mutation summary as verify and `npm run mutate` see it: read, validated, and
// judged against the files it claims to be computed from (their hashes are recomputed, never trusted).
import type { Stage } from "../catalog/catalog.js";
import { readFileState, sha256 } from "../core/files.js";
import { moduleFile, repoPath, stageFiles, layoutOf } from "../core/layout.js";
import { MIN_SCORE, mutationSummarySchema, scoreOf, type MutationSummary } from "./summary.js";

export function summaryFile(stage: Stage): string {
  return stageFiles(layoutOf(stage.root), stage.id).mutation;
}

/** The reference modules a stage's mutants are made in. */
export function mutatedModules(stage: Stage): string[] {
  return (stage.spec?.modules ?? []).map((name) => moduleFile(stage.solutionDir, name));
}

/** Repository path → SHA-256 of the stage's reference modules and test files, as they are now. */
export function currentSources(stage: Stage): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of [...mutatedModules(stage), ...stage.testFiles]) {
    const state = readFileState(file);
    sources[repoPath(file, stage.root)] = state.kind === "file" ? sha256(state.bytes) : `(${state.kind})`;
  }
  return sources;
}

/**
 * `met`: fresh, consistent, at or above the goal with every survivor explained. `below`: fresh and
 * consistent, short of the goal. `broken`: missing, invalid, inconsistent, or `stale` (computed from
 * other files than the ones present, so `npm run mutate` must run again).
 */
export type MutationVerdict =
  | { readonly state: "met"; readonly summary: MutationSummary }
  | { readonly state: "below"; readonly summary: MutationSummary; readonly problem: string }
  | { readonly state: "broken"; readonly stale: boolean; readonly summary: MutationSummary | null; readonly problem: string };

export function readSummary(stage: Stage): { summary: MutationSummary } | { problem: string } {
  const file = summaryFile(stage);
  // Read only a regular file: a FIFO put in its place would make verify wait forever.
  const state = readFileState(file);
  if (state.kind === "missing") return { problem: `${repoPath(file, stage.root)} is missing` };
  if (state.kind !== "file") return { problem: `${repoPath(file, stage.root)} is ${state.what}, not a file` };
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(state.bytes).toString("utf8"));
  } catch (error) {
    return { problem: `${repoPath(file, stage.root)} is not JSON: ${(error as Error).message}` };
  }
  const parsed = mutationSummarySchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${repoPath(file, stage.root)}: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
  }
  return { summary: parsed.data };
}

/** The stage's committed summary when it is valid JSON of the right shape (fresh or not), else null. */
export function committedSummary(stage: Stage): MutationSummary | null {
  const read = readSummary(stage);
  return "summary" in read ? read.summary : null;
}

/** What verify says of a stage's mutation summary; `stale` means `npm run mutate` must run again. */
export function judgeMutation(stage: Stage): MutationVerdict {
  const read = readSummary(stage);
  if ("problem" in read)
    return { state: "broken", stale: true, summary: null, problem: `${read.problem}: run npm run mutate -- stage-${stage.nn}` };
  const { summary } = read;
  const now = currentSources(stage);
  const changed = [...new Set([...Object.keys(now), ...Object.keys(summary.sources)])]
    .filter((path) => now[path] !== summary.sources[path])
    .sort();
  if (changed.length > 0) {
    return {
      state: "broken",
      stale: true,
      summary,
      problem: `stale: ${changed.join(", ")} changed since the summary was computed; run npm run mutate -- stage-${stage.nn}`,
    };
  }
  const score = scoreOf(summary.mutants);
  if (score !== summary.score) {
    return { state: "broken", stale: false, summary, problem: `the summary says ${summary.score}% but its counts give ${score}%` };
  }
  const listed = summary.equivalent.length + summary.unexplained.length;
  const undetected = summary.mutants.survived + summary.mutants.noCoverage;
  if (listed !== undetected) {
    return { state: "broken", stale: false, summary, problem: `${undetected} mutants survived but ${listed} are listed` };
  }
  if (score < MIN_SCORE) {
    return { state: "below", summary, problem: `mutation score ${score}% is below ${MIN_SCORE}%` };
  }
  if (summary.unexplained.length > 0) {
    const first = summary.unexplained[0];
    return {
      state: "below",
      summary,
      problem: `${summary.unexplained.length} surviving mutants have no test and no reason, first ${first?.mutator} at ${first?.at} → ${JSON.stringify(first?.replacement)}`,
    };
  }
  return { state: "met", summary };
}
