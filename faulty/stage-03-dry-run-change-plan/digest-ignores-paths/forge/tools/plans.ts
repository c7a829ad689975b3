// Stage 03: before anything is written, the harness turns the intended writes into a change plan:
// which files change, a summary for the reviewer, and the SHA-256 of the exact bytes each file will
// get. The plan digest is the value a later approval binds to. Pure functions: no file-system access.
import { createHash } from "node:crypto";
import { types } from "node:util";

/** One intended write: the bytes are not kept, only their hash. */
export interface PlannedWrite {
  /** The target relative to the workspace root, normalized: `/` separators, no `.`, `..` or empty segments. */
  readonly relativePath: string;
  /** What the write does, in words for the reviewer. Not part of the digest. */
  readonly summary: string;
  /** Lower-case hex SHA-256 of the bytes that will be written. */
  readonly contentSha256: string;
}

export interface ChangePlan {
  readonly operationId: string;
  /** Sorted by relativePath in code-unit order, at most one write per target. */
  readonly writes: readonly PlannedWrite[];
}

/** What the caller proposes for one target: a summary for people and the bytes for the disk. */
export type WriteRequest = readonly [summary: string, content: Uint8Array];

/** `C:`, `C:\x` and the drive-relative `C:x` all depend on a drive, never on the workspace. */
const DRIVE = /^[A-Za-z]:/;

/**
 * The one spelling of a target the plan records. Lexical only, because this function does no IO: it
 * catches what can be seen in the string (absolute forms, climbing above the root), while the real
 * containment check (symlinks, real paths) is stage 02's, applied again when the plan is executed.
 */
function normalizeTarget(key: string): string {
  const shown = JSON.stringify(key);
  if (key.includes("\0")) throw new Error(`invalid target path ${shown}: it contains a NUL byte`);
  // A lone surrogate reaches the disk as U+FFFD: "a\ud800.txt" and "a\ufffd.txt" would be two targets
  // here and one file there.
  if (!key.isWellFormed()) {
    throw new Error(`invalid target path ${shown}: it is not well-formed Unicode (a lone surrogate would be written as U+FFFD)`);
  }
  // Both separators, so `dir\a.txt` from a Windows caller and `dir/a.txt` are one target.
  const unified = key.replaceAll("\\", "/");
  // A leading `/` covers `/x`, `\x`, `//server/share` and `\\server\share` after unification.
  if (unified.startsWith("/") || DRIVE.test(unified)) {
    throw new Error(`invalid target path ${shown}: absolute paths are not allowed; name the file relative to the workspace root`);
  }
  const segments: string[] = [];
  for (const segment of unified.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      // Nothing left to climb out of: the path leaves the workspace.
      if (segments.length === 0) throw new Error(`invalid target path ${shown}: it escapes the workspace root`);
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  if (segments.length === 0) throw new Error(`invalid target path ${shown}: it names no file`);
  return segments.join("/");
}

/** Checks the shape at run time: callers outside TypeScript can pass anything. */
function readRequest(key: string, request: unknown): WriteRequest {
  const shown = JSON.stringify(key);
  if (!Array.isArray(request) || request.length !== 2) {
    throw new Error(`invalid write for ${shown}: expected [summary, bytes]`);
  }
  const [summary, content] = request as unknown[];
  if (typeof summary !== "string") throw new Error(`invalid write for ${shown}: the summary must be a string`);
  // A string is not bytes until someone picks an encoding; the plan must hash exactly what lands on disk.
  if (!types.isUint8Array(content)) {
    throw new Error(
      `invalid write for ${shown}: the content must be bytes (a Uint8Array), got ${typeof content}; encode text first, e.g. new TextEncoder().encode(text)`,
    );
  }
  return [summary, content];
}

function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** UTF-16 code-unit order: the same on every machine, unlike localeCompare. */
function byPath(a: PlannedWrite, b: PlannedWrite): number {
  return a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
}

/**
 * Builds a deeply frozen plan: the writes sorted by normalized path, each with the SHA-256 of its
 * bytes. Refuses a blank operation id, an empty plan, an invalid path and two keys that name the
 * same target after normalization.
 */
export function buildChangePlan(operationId: string, writes: Record<string, WriteRequest>): ChangePlan {
  if (typeof operationId !== "string" || operationId.trim() === "") {
    throw new Error(`an operation id is required, got ${JSON.stringify(operationId) ?? String(operationId)}`);
  }
  if (typeof writes !== "object" || writes === null) {
    throw new Error(`change plan "${operationId}": writes are required, as a record of target path to [summary, bytes]`);
  }
  const entries = Object.entries(writes);
  if (entries.length === 0) throw new Error(`change plan "${operationId}": at least one write is required`);

  // Keys are unique strings already, so a duplicate can only appear after normalization: check there.
  const planned = new Map<string, { readonly key: string; readonly write: PlannedWrite }>();
  for (const [key, request] of entries) {
    const relativePath = normalizeTarget(key);
    const earlier = planned.get(relativePath);
    if (earlier !== undefined) {
      throw new Error(
        `duplicate target "${relativePath}" in change plan "${operationId}": the keys ${JSON.stringify(earlier.key)} and ${JSON.stringify(key)} name the same file`,
      );
    }
    const [summary, content] = readRequest(key, request);
    // Hash now and keep only the hash: whatever the caller does to its bytes later cannot reach the plan.
    const write: PlannedWrite = Object.freeze({ relativePath, summary, contentSha256: sha256Hex(content) });
    planned.set(relativePath, { key, write });
  }
  const sorted = [...planned.values()].map((entry) => entry.write).sort(byPath);
  return Object.freeze({ operationId, writes: Object.freeze(sorted) });
}

/** Versioned, so a digest of this encoding can never be mistaken for the hash of some other JSON. */
const DIGEST_FORMAT = "forge-change-plan/v1";

/**
 * Hex SHA-256 over every (path, content hash) pair, in plan order, as canonical JSON: JSON quotes and
 * escapes every string, so two different lists of pairs never encode to the same text. The operation
 * id is left out (the approval binds it separately) and so are the summaries (words, not effects).
 */
export function planDigest(plan: ChangePlan): string {
  const pairs = plan.writes.map((write) => write.contentSha256);
  return createHash("sha256")
    .update(JSON.stringify([DIGEST_FORMAT, pairs]), "utf8")
    .digest("hex");
}
