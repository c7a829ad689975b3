import { expect, it } from "vitest";
import { ApprovalGate, parseApproval, type Approval } from "forge/tools/approval";
import { buildChangePlan, planDigest } from "forge/tools/plans";

// Transfer: a music team's release plan. Changing a track's metadata is a reversible write; the
// operation is `release-op`. Version 1 of the plan was approved; version 2 renames track 3 and
// changes its credits after the review.
const OPERATION = "release-op";
const bytes = (text: string) => new TextEncoder().encode(text);

function releasePlanDigest(track3: { title: string; credits: string }): string {
  const metadata = JSON.stringify({ number: 3, isrc: "GB-XYZ-25-00003", ...track3 }, null, 2);
  return planDigest(
    buildChangePlan(OPERATION, { "release/tracks/03.json": ["update track 3 metadata", bytes(`${metadata}\n`)] }),
  );
}

const v1 = releasePlanDigest({ title: "Night Drive", credits: "M. Okafor" });
const v2 = releasePlanDigest({ title: "Night Drive (Extended Mix)", credits: "M. Okafor, J. Lind" });
const approve = (digest: string): Approval => ({ operationId: OPERATION, planDigest: digest });

it("the v1 approval of a release plan does not authorize v2", () => {
  const gate = new ApprovalGate();
  expect(v2).not.toBe(v1);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: v2 };
  expect(gate.authorize({ ...request, approval: approve(v1) }), "the v1 approval authorized release plan v2").toBe(false);
  expect(gate.authorize({ ...request, approval: approve(v2) })).toBe(true);
});

it("reading the release plan needs no approval, changing its metadata needs one", () => {
  const gate = new ApprovalGate();
  expect(gate.authorize({ risk: "read", operationId: OPERATION, planDigest: v2, approval: null })).toBe(true);
  expect(gate.authorize({ risk: "reversible_write", operationId: OPERATION, planDigest: v2, approval: null })).toBe(false);
  // The label's review screen sends its approval as JSON.
  const fromReview = parseApproval(JSON.parse(JSON.stringify({ operationId: OPERATION, planDigest: v2 })));
  expect(gate.authorize({ risk: "reversible_write", operationId: OPERATION, planDigest: v2, approval: fromReview })).toBe(true);
});
