// Each fault is a patch of one change that still applies to its reference.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.
import { existsSync, readFileSync } from "node:fs";
import { type Stage } from "../../catalog/catalog.js";
import { repoPath } from "../../core/layout.js";
import { PatchError, faultyModule, parsePatch } from "../../trees/faults.js";

/**
 * Each fault is a patch of one hunk that still applies to the reference: a patch that no longer applies
 * names the fault and the lines an edit of the reference touched, so the fault is re-made, not lost.
 */
export function judgePatches(stage: Stage): string[] {
  return stage.faults.flatMap((fault) => {
    if (!fault.contract || !existsSync(fault.patchPath)) return []; // the catalog names what is missing
    const patch = repoPath(fault.patchPath, stage.root);
    try {
      const parsed = parsePatch(readFileSync(fault.patchPath, "utf8"));
      if (parsed.file !== fault.contract.faultFile)
        return [`${patch} changes ${parsed.file}, but its contract names ${fault.contract.faultFile} as the fault file`];
      if (parsed.hunks.length !== 1)
        return [`${patch} changes the reference in ${parsed.hunks.length} places; a fault is one injected change`];
      if (!parsed.hunks[0]?.lines.some((line) => line.startsWith("-") || line.startsWith("+"))) return [`${patch} injects no change`];
      faultyModule(stage, fault);
      return [];
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return [`fault "${fault.id}" (${patch}): ${error.message}; make it again with npm run lab -- new-fault ${stage.nn} ${fault.id}`];
    }
  });
}
