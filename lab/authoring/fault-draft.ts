// Writing a fault, in one command run twice (`npm run lab -- new-fault <stage> <fault-id>`). The first
// run puts a draft of the stage's module where an author edits it (.lab/fault-drafts/, git-ignored):
// the fault's current version when its patch applies, else the reference. The second run turns the
// draft into the fault's patch, faulty/<stage>/<fault-id>.patch, when it differs from the reference by
// exactly one change, and removes the draft. A contract that does not exist yet is scaffolded with each
// piece to write marked, as `lab new` does for a stage.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { formatPatch, structuredPatch } from "diff";
import type { Stage } from "../catalog/catalog.js";
import { withLf, writeFileAtomic } from "../core/files.js";
import { dirs, layoutOf, stageFiles } from "../core/layout.js";
import { TWIN_LOCALE } from "../core/locale.js";
import { faultyModule, PatchError } from "../trees/faults.js";
import { todo } from "./placeholder.js";

/** A unified diff of one module, as faulty/<stage>/<fault-id>.patch stores it: three lines of context. */
export function modulePatch(file: string, reference: string, faulty: string): { readonly text: string; readonly hunks: number } {
  const patch = structuredPatch(`a/${file}`, `b/${file}`, withLf(reference), withLf(faulty), "", "", { context: 3 });
  // jsdiff writes a line of "=" and a tab after each file name; a plain unified diff has neither.
  const text = formatPatch(patch)
    .replace(/^=+\n/, "")
    .replace(/^(---|\+\+\+) (\S+)\t\n/gm, "$1 $2\n");
  return { text, hunks: patch.hunks.length };
}

export type DraftStep =
  | { readonly kind: "drafted"; readonly draft: string; readonly contract: string | null }
  | { readonly kind: "saved"; readonly patch: string }
  | { readonly kind: "unchanged"; readonly draft: string }
  | { readonly kind: "several changes"; readonly draft: string; readonly hunks: number };

const FAULT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why a fault id cannot be one, or null. */
export function faultIdProblem(id: string): string | null {
  return FAULT_ID.test(id) ? null : `"${id}" is not a fault id: lowercase words joined by hyphens, such as partial-write`;
}

/** The module a new fault changes: the one its contract names, else the stage's first module. */
function faultFileOf(stage: Stage, id: string): string {
  const known = stage.faults.find((fault) => fault.id === id)?.contract?.faultFile;
  return known ?? `forge/tools/${stage.spec?.modules[0] ?? "module"}.ts`;
}

/** One run of `new-fault`: a draft to edit, or the draft saved as the fault's patch. */
export function draftFault(stage: Stage, id: string): DraftStep {
  const file = faultFileOf(stage, id);
  const draft = join(dirs.labState, "fault-drafts", stage.id, id, file);
  const reference = readFileSync(join(stage.solutionDir, file), "utf8");
  const files = stageFiles(layoutOf(stage.root), stage.id);
  const patchPath = files.patchOf(id);
  if (!existsSync(draft)) {
    let start = reference;
    if (existsSync(patchPath)) {
      try {
        start = faultyModule(stage, { patchPath }).text;
      } catch (error) {
        if (!(error instanceof PatchError)) throw error; // a broken patch is re-made from the reference
      }
    }
    writeFileAtomic(draft, start);
    return { kind: "drafted", draft, contract: scaffoldContract(stage, id, file) };
  }
  const { text, hunks } = modulePatch(file, reference, readFileSync(draft, "utf8"));
  if (hunks === 0) return { kind: "unchanged", draft };
  if (hunks > 1) return { kind: "several changes", draft, hunks };
  writeFileAtomic(patchPath, text);
  rmSync(join(dirs.labState, "fault-drafts", stage.id, id), { recursive: true, force: true });
  return { kind: "saved", patch: patchPath };
}

/** The contract of a further fault that has none yet, each piece to write marked; null when it exists. */
function scaffoldContract(stage: Stage, id: string, faultFile: string): string | null {
  if (stage.faults.some((fault) => fault.id === id)) return null;
  const file = join(stageFiles(layoutOf(stage.root), stage.id).faultContracts, `${id}.json`);
  if (existsSync(file)) return null;
  const contract = {
    $schema: "../../failure.schema.json",
    id,
    faultFile,
    targetTest: todo("the test that catches the fault."),
    expectedFailure: todo("a regular expression its failure message matches."),
    alsoFailing: [],
    diagnosis: [todo("the first diagnosis step."), todo("the next one.")],
    fixPrinciple: todo("the principle of the fix."),
    [TWIN_LOCALE]: {
      diagnosis: [todo("the first diagnosis step in Chinese."), todo("the next one in Chinese.")],
      fixPrinciple: todo("the principle of the fix in Chinese."),
    },
  };
  writeFileAtomic(file, `${JSON.stringify(contract, null, 2)}\n`);
  return file;
}

/** A stage module's stub and the patch of a first, placeholder fault: what `lab new` writes. */
export function placeholderFault(module: string, stub: string): string {
  const file = `forge/tools/${module}.ts`;
  const faulty = `${stub}// ${todo("the injected fault")}, one change of the reference: npm run lab -- new-fault <NN> <fault-id>\n`;
  return modulePatch(file, stub, faulty).text;
}
