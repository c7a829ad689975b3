// A fault is a change, not a copy. Each fault of a stage is a one-hunk unified diff of its stage's
// reference module, faulty/<stage>/<fault-id>.patch; the tree a run needs is made from it on demand
// (.lab/faults/<stage>/<fault-id>/forge/tools/<module>.ts, git-ignored), so vitest, tsc, StrykerJS,
// stack traces and `lab fault --open` see a real file, and the reference is written down once.
//
// Applying is exact: the hunk's old lines must stand in the reference as they are, found where the
// hunk says or, after an edit above it, wherever they stand once. No fuzz: an edit that touched the
// fault's lines makes the patch fail, naming the fault and the lines, rather than injecting something
// other than what the contract documents.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Fault, Stage } from "../catalog/catalog.js";
import { withLf, writeFileAtomic } from "../core/files.js";

export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** Each line with its mark: " " context, "-" removed, "+" added. */
  readonly lines: readonly string[];
}

export interface Patch {
  /** The module the patch changes, as its header names it: `forge/tools/atomic.ts`. */
  readonly file: string;
  readonly hunks: readonly Hunk[];
}

/** A patch that cannot be read or that no longer applies; the message names what and where. */
export class PatchError extends Error {
  override readonly name = "PatchError";
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Reads a unified diff of one file. */
export function parsePatch(text: string): Patch {
  const lines = withLf(text).split("\n");
  if (lines.at(-1) === "") lines.pop(); // the newline that ends the last line
  const from = lines.findIndex((line) => line.startsWith("--- "));
  const to = lines[from + 1];
  if (from < 0 || !to?.startsWith("+++ ")) throw new PatchError("not a unified diff: no --- and +++ header lines");
  const file = to.slice(4).split("\t")[0]?.replace(/^b\//, "") ?? "";
  const hunks: Hunk[] = [];
  let index = from + 2;
  while (index < lines.length) {
    const header = HUNK_HEADER.exec(lines[index] ?? "");
    if (!header) {
      if ((lines[index] ?? "") === "") {
        index += 1;
        continue;
      }
      throw new PatchError(`line ${index + 1}: expected a hunk header (@@ -a,b +c,d @@), got ${JSON.stringify(lines[index])}`);
    }
    const oldLines = header[2] === undefined ? 1 : Number(header[2]);
    const newLines = header[4] === undefined ? 1 : Number(header[4]);
    const body: string[] = [];
    let old = 0;
    let added = 0;
    index += 1;
    while (index < lines.length && (old < oldLines || added < newLines)) {
      const line = lines[index] ?? "";
      index += 1;
      if (line.startsWith("\\")) continue; // "\ No newline at end of file"
      const mark = line[0] ?? " ";
      if (mark !== " " && mark !== "-" && mark !== "+")
        throw new PatchError(`line ${index}: a hunk line starts with ${JSON.stringify(mark)}`);
      if (mark !== "+") old += 1;
      if (mark !== "-") added += 1;
      body.push(line === "" ? " " : line);
    }
    if (old !== oldLines || added !== newLines)
      throw new PatchError(`the hunk at line ${header[1]} promises ${oldLines} old and ${newLines} new lines; it has ${old} and ${added}`);
    hunks.push({ oldStart: Number(header[1]), oldLines, newStart: Number(header[3]), newLines, lines: body });
  }
  if (hunks.length === 0) throw new PatchError("the patch changes nothing: it has no hunk");
  return { file, hunks };
}

/** Where `needle` stands in `haystack` as whole lines: at `preferred` if it stands there, else its one place. */
function locate(haystack: readonly string[], needle: readonly string[], preferred: number): number | "none" | "several" {
  const at = (start: number) => needle.every((line, offset) => haystack[start + offset] === line);
  if (preferred >= 0 && at(preferred)) return preferred;
  const found: number[] = [];
  for (let start = 0; start + needle.length <= haystack.length && found.length < 2; start += 1) if (at(start)) found.push(start);
  if (found.length === 0) return "none";
  return found.length === 1 ? (found[0] ?? "none") : "several";
}

/** The reference with the patch applied; a PatchError names the hunk whose lines the reference no longer has. */
export function applyPatch(reference: string, patch: Patch): string {
  const lines = withLf(reference).split("\n");
  let shift = 0;
  for (const hunk of patch.hunks) {
    const before = hunk.lines.filter((line) => !line.startsWith("+")).map((line) => line.slice(1));
    const after = hunk.lines.filter((line) => !line.startsWith("-")).map((line) => line.slice(1));
    const where = locate(lines, before, hunk.oldStart - 1 + shift);
    const span = `lines ${hunk.oldStart}–${hunk.oldStart + hunk.oldLines - 1} of ${patch.file}`;
    if (where === "none") throw new PatchError(`the reference no longer has the ${span} this fault changes: an edit touched them`);
    if (where === "several")
      throw new PatchError(`the ${span} this fault changes stand in the reference more than once: give the hunk more context`);
    lines.splice(where, before.length, ...after);
    shift += after.length - before.length;
  }
  return lines.join("\n");
}

/** The fault's module, made from the stage's reference and the fault's patch. */
export function faultyModule(stage: Pick<Stage, "solutionDir">, fault: Pick<Fault, "patchPath">): { file: string; text: string } {
  const patch = parsePatch(readFileSync(fault.patchPath, "utf8"));
  const reference = readFileSync(join(stage.solutionDir, patch.file), "utf8");
  return { file: patch.file, text: applyPatch(reference, patch) };
}

/**
 * Writes the fault's tree from its patch when it is missing or stale, and returns the module's path
 * (null when the fault has no patch). Cheap when fresh: one read of each file and a comparison.
 */
export function materializeFault(stage: Pick<Stage, "solutionDir">, fault: Pick<Fault, "patchPath" | "dir">): string | null {
  if (!existsSync(fault.patchPath)) return null; // the catalog names the missing patch
  const { file, text } = faultyModule(stage, fault);
  const target = join(fault.dir, file);
  if (existsSync(target) && readFileSync(target, "utf8") === text) return target;
  mkdirSync(dirname(target), { recursive: true });
  writeFileAtomic(target, text);
  return target;
}

/** Every fault's tree of these stages; the faults whose patch does not apply, each with why. */
export function materializeFaults(
  stages: readonly Stage[],
): Array<{ readonly stage: Stage; readonly fault: Fault; readonly problem: string }> {
  const problems: Array<{ stage: Stage; fault: Fault; problem: string }> = [];
  for (const stage of stages) {
    for (const fault of stage.faults) {
      try {
        materializeFault(stage, fault);
      } catch (error) {
        if (!(error instanceof PatchError)) throw error;
        problems.push({ stage, fault, problem: error.message });
      }
    }
  }
  return problems;
}

/** The patch as it is stored: what `lab fault` and the site's instructor view show. */
export function patchText(fault: Pick<Fault, "patchPath">): string {
  return withLf(readFileSync(fault.patchPath, "utf8"));
}
