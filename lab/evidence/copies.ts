// Is a learner's module the course's own code? `lab start` copies reference modules into workspace/,
// so a passing run of a copied module proves nothing about the learner. A copy is recognised by its
// content hash, with line endings normalized: a checkout with CRLF endings is still the same code.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { Stage } from "../catalog/catalog.js";
import { withLf } from "../core/files.js";
import { moduleFile } from "../core/layout.js";
import { faultyModule, PatchError } from "../trees/faults.js";

export type CopyKind = "reference" | "faulty";

export interface KnownCopy {
  readonly module: string;
  readonly kind: CopyKind;
  /** SHA-256 of the module's bytes in one line-ending form. */
  readonly sha256: string;
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** SHA-256 of a file's text after normalizing its line endings. */
export function lfHash(bytes: Uint8Array): string {
  return sha256(withLf(Buffer.from(bytes).toString("utf8")));
}

/** The course's own versions of a stage's modules: the reference, and each fault's module (made from its patch). */
function ownVersions(stage: Stage): Array<{ module: string; kind: CopyKind; text: string }> {
  const versions: Array<{ module: string; kind: CopyKind; text: string }> = [];
  for (const module of stage.spec?.modules ?? []) {
    const reference = moduleFile(stage.solutionDir, module);
    if (existsSync(reference)) versions.push({ module, kind: "reference", text: withLf(readFileSync(reference, "utf8")) });
  }
  for (const fault of stage.faults) {
    if (!existsSync(fault.patchPath)) continue;
    let made: { file: string; text: string };
    try {
      made = faultyModule(stage, fault);
    } catch (error) {
      if (error instanceof PatchError) continue; // verify names a patch that no longer applies
      throw error;
    }
    const module = made.file.replace(/^forge\/tools\//, "").replace(/\.ts$/, "");
    versions.push({ module, kind: "faulty", text: withLf(made.text) });
  }
  return versions;
}

/**
 * Hashes of every form in which a copy of the stage's own modules may reach a verification file: the
 * bytes with LF endings and with CRLF endings. (A verification file records the hash of the bytes it
 * tested; the site, which has only that hash, compares it with these.)
 */
export function knownCopies(stage: Stage): KnownCopy[] {
  return ownVersions(stage).flatMap(({ module, kind, text }) => {
    const lf = text;
    return [
      { module, kind, sha256: sha256(lf) },
      { module, kind, sha256: sha256(lf.replace(/\n/g, "\r\n")) },
    ];
  });
}

/** Whether a learner's file is one of the course's own versions of a stage module, line endings aside. */
export function copyKind(stage: Stage, module: string, bytes: Uint8Array): CopyKind | null {
  const hash = lfHash(bytes);
  for (const version of ownVersions(stage)) {
    if (version.module === module && sha256(version.text) === hash) return version.kind;
  }
  return null;
}
