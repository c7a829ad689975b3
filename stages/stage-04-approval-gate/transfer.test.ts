import { expect, it } from "vitest";
import { ApprovalGate, parseApproval, type Approval, type AuthorizationRequest } from "forge/tools/approval";
import { buildChangePlan, planDigest } from "forge/tools/plans";
import { oneLine, outcome } from "../../lab/outcome.js";

// Transfer: a music team's release plan. Changing a track's metadata is a reversible write; the
// operation is `release-op`. Version 1 of the plan was approved; version 2 renames track 3 and
// changes its credits after the review.
const OPERATION = "release-op";
const bytes = (text: string) => new TextEncoder().encode(text);

function releasePlanDigest(track3: { title: string; credits: string }): string {
  const metadata = JSON.stringify({ number: 3, isrc: "GB-XYZ-25-00003", ...track3 }, null, 2);
  return planDigest(buildChangePlan(OPERATION, { "release/tracks/03.json": ["update track 3 metadata", bytes(`${metadata}\n`)] }));
}

const v1 = releasePlanDigest({ title: "Night Drive", credits: "M. Okafor" });
const v2 = releasePlanDigest({ title: "Night Drive (Extended Mix)", credits: "M. Okafor, J. Lind" });
const approve = (digest: string): Approval => ({ operationId: OPERATION, planDigest: digest });

/** The gate's decision for each request, in order: `authorized`, `denied`, or what happened instead. */
function decisions(gate: ApprovalGate, requests: Record<string, AuthorizationRequest>): Record<string, string> {
  const decision = (value: unknown) => (value === true ? "authorized" : value === false ? "denied" : `returned ${oneLine(value)}`);
  return Object.fromEntries(
    Object.entries(requests).map(([label, request]) => [label, outcome(() => gate.authorize(request), null, decision)]),
  );
}

it("the v1 approval of a release plan does not authorize v2", () => {
  const gate = new ApprovalGate();
  expect(v2, "the premise: the digest of release plan v2 differs from v1").not.toBe(v1);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: v2 };
  expect(
    decisions(gate, { "the v1 approval": { ...request, approval: approve(v1) }, "a v2 approval": { ...request, approval: approve(v2) } }),
    "decisions for release plan v2, by approval (only an approval of v2 may authorize it)",
  ).toEqual({ "the v1 approval": "denied", "a v2 approval": "authorized" });
});

it("reading the release plan needs no approval, changing its metadata needs one", () => {
  const gate = new ApprovalGate();
  // The label's review screen sends its approval as JSON.
  const fromReview = parseApproval(JSON.parse(JSON.stringify({ operationId: OPERATION, planDigest: v2 })));
  expect(
    decisions(gate, {
      "read, no approval": { risk: "read", operationId: OPERATION, planDigest: v2, approval: null },
      "reversible_write, no approval": { risk: "reversible_write", operationId: OPERATION, planDigest: v2, approval: null },
      "reversible_write, the approval from the review screen": {
        risk: "reversible_write",
        operationId: OPERATION,
        planDigest: v2,
        approval: fromReview,
      },
    }),
    "decisions for release plan v2, by risk and approval",
  ).toEqual({
    "read, no approval": "authorized",
    "reversible_write, no approval": "denied",
    "reversible_write, the approval from the review screen": "authorized",
  });
});
