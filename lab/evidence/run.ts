// The run a verification file records: on GitHub Actions, the run that wrote it (from the variables every
// runner sets); anywhere else, nothing. A local run leaves `run: null`, so no local file carries anything
// that looks like CI's word. What the record is worth is said in evidence/README.md: it names where the
// file can be checked, it does not prove where it came from.
import type { Run } from "./schema.js";

type Environment = Readonly<Record<string, string | undefined>>;

const RUNNER_ENVIRONMENTS = ["github-hosted", "self-hosted"] as const;

/** The GitHub Actions run this process belongs to, or null when it is not in one (or its variables are incomplete). */
export function ciRun(env: Environment = process.env): Run | null {
  if (env.GITHUB_ACTIONS !== "true") return null;
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, "");
  const { GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId, GITHUB_SHA: commit } = env;
  if (!server || !repository || !runId || !commit) return null;
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? "1");
  const environment = RUNNER_ENVIRONMENTS.find((known) => known === env.RUNNER_ENVIRONMENT) ?? "unknown";
  return {
    provider: "github-actions",
    url: `${server}/${repository}/actions/runs/${runId}`,
    repository,
    runId,
    runAttempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
    workflow: env.GITHUB_WORKFLOW ?? "",
    event: env.GITHUB_EVENT_NAME ?? "",
    ref: env.GITHUB_REF ?? "",
    commit,
    runner: { os: env.RUNNER_OS ?? "unknown", arch: env.RUNNER_ARCH ?? "unknown", name: env.RUNNER_NAME ?? "unknown", environment },
  };
}
