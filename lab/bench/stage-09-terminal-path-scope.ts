// Stage 09: one call of decide() on a 1 MiB command line, whatever its shape, within 1 s. Each shape is
// one an attacker would pick to make a policy do work per word times per folder, per segment times per
// pattern, or per `..`: the slowest of them is the figure. Its baseline, taken in the same run, is the
// least any policy must do with the same line: cut it at its operators and split each part into words.
import type { Figure, Measure } from "./figure.js";
import { decide } from "../../solutions/stage-09-terminal-path-scope/forge/tools/scope.js";

const BOUND_SECONDS = 1;
const SIZE = 1 << 20;
const RUNS = 3;
const ROOT = "/data/project-workspaces/shop";
const CONTEXT = { cwd: ROOT, root: ROOT };
/** A realistic rule set: the recorded session's deny list and a few allow patterns. */
const RULES = { deny: ["git push --force", "git reset --hard", "rm -rf"], allow: ["pnpm lint", "npm run build", "git fetch"] };

/** `unit` repeated after `head` until the line is 1 MiB, then `tail`. */
function line(head: string, unit: string, tail = ""): string {
  return head + unit.repeat(Math.floor((SIZE - head.length - tail.length) / unit.length)) + tail;
}

const FIVE_CDS = "cd a; cd b; cd c; cd d; cd e; ";

/** The shapes, each 1 MiB. */
const SHAPES: Readonly<Record<string, string>> = {
  "32 folders, then words": line(`${FIVE_CDS}cat `, "a "),
  "32 folders, then `..` words": line(`${FIVE_CDS}cat `, "../a "),
  "32 folders, then pipelines": line(FIVE_CDS, "ls; ", "ls"),
  "31 cds joined by &&, then pipelines": line(
    `${Array.from({ length: 31 }, (_, index) => `cd d${index}`).join(" && ")} && `,
    "ls && ",
    "ls",
  ),
  "segments of 3 characters": line("", "ls;", "ls"),
  "a pipeline of 300 000 segments": line("", "ls|", "ls"),
  "one word": line("cat src/", "a", ".ts"),
  "one path of `..`": line("cat ", "../"),
  "a folder 100 000 deep, and paths that climb out of it": `cd ${"a/".repeat(100_000)} && cat ${"../".repeat(100_000)}x ${"a/../".repeat(60_000)}b`,
  "a word of 500 000 pieces": line("grep --file=", "a=", "/etc/passwd src"),
  "a cluster of short options": line("ls -", "l", " src"),
  "escaped spaces": line("cat ", "a\\ "),
  "a quoted word": line('cat "', "a", '"'),
  "git revisions": line("git show --no-ext-diff --no-textconv ", "HEAD:./a "),
  "control characters": line("cat ", "\u202e"),
};

/** The least work: the line cut at its operators, each part split into words. */
const baseline = (command: string): number =>
  command.split(/&&|\|\||[;|]/).reduce((words, part) => words + part.trim().split(/\s+/).length, 0);

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    run();
    times.push((performance.now() - started) / 1000);
  }
  return [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
}

export const measure: Measure = async () => {
  // One short call first, so the figure measures the algorithm rather than its first compilation.
  decide(`${FIVE_CDS}cat a b`, CONTEXT, RULES);
  const rows = Object.entries(SHAPES).map(([shape, command]) => ({
    shape,
    seconds: median(() => decide(command, CONTEXT, RULES)),
    baseline: median(() => baseline(command)),
  }));
  const slowest = rows.reduce((worst, row) => (row.seconds > worst.seconds ? row : worst));
  const figure: Figure = {
    label: `stage 09: decide() on a 1 MiB command line, the slowest of ${rows.length} shapes (${slowest.shape})`,
    value: slowest.seconds,
    unit: "s",
    bound: BOUND_SECONDS,
    baseline: `a split of the same line at its operators and spaces: ${slowest.baseline.toFixed(3)} s`,
  };
  return [figure];
};
