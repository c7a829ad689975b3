// Stage 04: before a side effect runs, the harness asks one question: is this exact change approved?
// The gate answers from the operation's risk and an approval bound to both the operation id and the
// plan digest. It is a pure decision: no IO, no clock, nothing remembered between calls.
import { z } from "zod";

/** The risk vocabulary. Anything else is refused, never treated as the mildest risk. */
export const RISKS = Object.freeze(["read", "reversible_write", "irreversible"] as const);

export type Risk = (typeof RISKS)[number];

/** A reviewer's consent to one operation carrying out one exact plan. */
export type Approval = { readonly operationId: string; readonly planDigest: string };

export interface AuthorizationRequest {
  /** Typed as a string on purpose: it may come from a model's output or parsed JSON. */
  readonly risk: string;
  readonly operationId: string;
  /** The digest of the plan about to be applied (stage 03's `planDigest`). */
  readonly planDigest: string;
  readonly approval: Approval | null;
}

/** Exact membership: no case folding, no trimming, no property lookup that `"toString"` could satisfy. */
export function isRisk(value: unknown): value is Risk {
  return (RISKS as readonly unknown[]).includes(value);
}

/** Names a value in an error message without calling anything the value itself defines. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "an array" : "an object";
  if (typeof value === "function") return "a function";
  return String(value);
}

/** A binding value is a non-empty string; `undefined === undefined` must never count as a match. */
function isBindingValue(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

export class ApprovalGate {
  /**
   * True when the operation may run. Throws for a risk outside the vocabulary: an unknown risk is a
   * bug or an attack, and defaulting it to "read" would let it through without an approval.
   */
  authorize(request: AuthorizationRequest): boolean {
    const { risk, operationId, planDigest, approval } = request;
    if (!isRisk(risk)) {
      throw new Error(`unknown risk ${describe(risk)}; expected one of: ${RISKS.join(", ")}`);
    }
    // Reading changes nothing, so there is nothing to consent to.
    if (risk === "read") return true;
    // Fail closed on malformed input: a request that names no operation or no plan binds nothing.
    if (!isBindingValue(operationId) || !isBindingValue(planDigest)) return false;
    if (typeof approval !== "object" || approval === null) return false;
    // Both bindings: the operation id stops replay into another operation, the digest stops a plan
    // that changed after review from riding on the old approval.
    return approval.planDigest === planDigest;
  }
}

/** The shape of an approval that arrives as JSON, for example from a review screen. */
export const approvalInput = z
  .object({
    operationId: z.string().refine((value) => value.trim() !== "", "must not be blank"),
    // Exactly what planDigest produces. Another spelling of the same hash (upper case, a prefix) is
    // refused here rather than normalised: the gate compares strings exactly.
    planDigest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256 digest"),
  })
  .strict();

/** Validates untyped input and returns a frozen approval, or throws an error that says what is wrong. */
export function parseApproval(input: unknown): Approval {
  const result = approvalInput.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`);
    throw new Error(`invalid approval: ${problems.join("; ")}`);
  }
  return Object.freeze({ operationId: result.data.operationId, planDigest: result.data.planDigest });
}
