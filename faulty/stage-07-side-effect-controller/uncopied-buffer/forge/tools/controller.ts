// Stage 07: one entry point for every file change an agent makes. It composes the earlier stages into a
// transaction: plan the exact bytes, digest the plan, ask the gate, check every target, then capture and
// write each one; on any error roll back what was written. Every outcome lands in an audit trail.
import { createHash } from "node:crypto";
import { types } from "node:util";
import { ApprovalGate, type Approval } from "./approval.js";
import { atomicWrite } from "./atomic.js";
import { resolveWorkspacePath } from "./paths.js";
import { buildChangePlan, planDigest, type ChangePlan } from "./plans.js";
import { RollbackJournal } from "./rollback.js";

export type { Approval } from "./approval.js";

/** The outcome of an operation: a plan existed, so its digest is known. */
export interface OperationAuditEntry {
  readonly operationId: string;
  readonly status: "committed" | "denied" | "rolled_back";
  /** The digest of the plan the operation carried, whatever the outcome. */
  readonly planDigest: string;
  /** When the outcome was decided, as an ISO 8601 timestamp. */
  readonly at: string;
}

/** A request refused before it became a plan (a path that climbs out, text instead of bytes). */
export interface RejectedAuditEntry {
  readonly operationId: string;
  readonly status: "rejected";
  /** No plan was built, so there is no digest to record. */
  readonly planDigest: null;
  /** The message of the error `apply` threw. */
  readonly reason: string;
  readonly at: string;
}

export type AuditEntry = OperationAuditEntry | RejectedAuditEntry;
export type AuditStatus = AuditEntry["status"];

export interface ControllerOptions {
  /** The clock for audit timestamps. */
  readonly now?: () => Date;
  /** How one file is written; stage 05's atomic write unless replaced (for example to inject a fault). */
  readonly write?: (target: string, content: Uint8Array) => Promise<void>;
}

/** The one place that decides what a planned write says about itself; it is not part of any digest. */
function planFor(operationId: string, writes: Readonly<Record<string, Uint8Array>>): ChangePlan {
  const entries: Record<string, readonly [string, Uint8Array]> = {};
  for (const [path, content] of Object.entries(writes)) entries[path] = [`write ${content.byteLength} bytes`, content];
  return buildChangePlan(operationId, entries);
}

/**
 * The digest a reviewer approves for these writes: the digest of the plan `apply` builds for them. The
 * operation id is not part of a digest, so any placeholder gives the same value.
 */
export function previewDigest(writes: Readonly<Record<string, Uint8Array>>): string {
  return planDigest(planFor("preview", writes));
}

/**
 * A copy of each buffer: the caller keeps its buffers and could change them while the writes wait on the
 * disk. Only bytes we own are hashed, approved and written.
 */
function ownedBytes(writes: Readonly<Record<string, Uint8Array>>): Record<string, Uint8Array> {
  const owned: Record<string, Uint8Array> = {};
  for (const [path, content] of Object.entries(writes)) {
    // Checked before copying: `new Uint8Array("text")` would quietly make an empty array of bytes.
    if (!types.isUint8Array(content)) {
      throw new Error(`invalid write for ${JSON.stringify(path)}: the content must be bytes (a Uint8Array), got ${typeof content}`);
    }
    owned[path] = content;
  }
  return owned;
}

function sha256(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

export class SideEffectController {
  readonly #workspace: string;
  readonly #now: () => Date;
  readonly #write: (target: string, content: Uint8Array) => Promise<void>;
  readonly #gate = new ApprovalGate();
  // Replaced, never changed in place: every array a caller has seen stays frozen and true.
  #audit: readonly AuditEntry[] = Object.freeze([]);

  constructor(workspace: string, options: ControllerOptions = {}) {
    this.#workspace = workspace;
    this.#now = options.now ?? (() => new Date());
    this.#write = options.write ?? ((target, content) => atomicWrite(target, content));
  }

  /** Every outcome so far, oldest first. A frozen snapshot: callers can read it, not change it. */
  get audit(): readonly AuditEntry[] {
    return this.#audit;
  }

  /**
   * Writes exactly the approved bytes to the approved paths, or nothing. Throws "approval required" when
   * the approval does not match this plan, and rethrows the original error after a rollback.
   */
  async apply(operationId: string, writes: Readonly<Record<string, Uint8Array>>, approval: Approval | null): Promise<void> {
    let owned: Record<string, Uint8Array>;
    let plan: ChangePlan;
    try {
      owned = ownedBytes(writes);
      // An invalid request (no writes, a path that climbs out, two keys for one target) throws here.
      plan = planFor(operationId, owned);
    } catch (error) {
      // It never becomes an operation, but an attempt to escape is exactly what an audit is for.
      this.#reject(operationId, error);
      throw error;
    }
    const digest = planDigest(plan);

    if (!this.#gate.authorize({ risk: "reversible_write", operationId, planDigest: digest, approval })) {
      this.#record(operationId, "denied", digest);
      throw new Error(`approval required: operation "${operationId}" with plan digest ${digest} is not approved`);
    }

    // The plan names each write by its normalized path and its hash; the bytes to write are the ones
    // with that hash, so nothing but approved content can reach the disk.
    const byHash = new Map(Object.values(owned).map((content) => [sha256(content), content] as const));
    const journal = new RollbackJournal();
    try {
      // Check every target before the first write, so a plan that escapes changes nothing at all.
      for (const write of plan.writes) await resolveWorkspacePath(this.#workspace, write.relativePath);
      for (const write of plan.writes) {
        const content = byHash.get(write.contentSha256);
        if (!content) throw new Error(`internal error: no content has the planned hash of "${write.relativePath}"`);
        // Resolve again right before the write: a folder swapped for a link since the check above must
        // be caught here. This narrows the window between check and use; it does not close it.
        const target = await resolveWorkspacePath(this.#workspace, write.relativePath);
        await journal.capture(target);
        await this.#write(target, content);
      }
    } catch (error) {
      let failure: unknown = error;
      try {
        await journal.rollback();
      } catch (rollbackError) {
        // The original error comes first: it is why the operation stopped; the second says what is left.
        failure = new AggregateError(
          [error, rollbackError],
          `operation "${operationId}" failed and its rollback did not complete: ${String(rollbackError)}`,
        );
      }
      this.#record(operationId, "rolled_back", digest);
      throw failure;
    }
    this.#record(operationId, "committed", digest);
  }

  #record(operationId: string, status: OperationAuditEntry["status"], digest: string): void {
    this.#append({ operationId, status, planDigest: digest, at: this.#now().toISOString() });
  }

  #reject(operationId: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    // A plain-JavaScript caller can send any id; the entry keeps a string, never the raw value.
    const id = typeof operationId === "string" ? operationId : "";
    this.#append({ operationId: id, status: "rejected", planDigest: null, reason, at: this.#now().toISOString() });
  }

  #append(entry: AuditEntry): void {
    this.#audit = Object.freeze([...this.#audit, Object.freeze(entry)]);
  }
}
