import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { buildChangePlan, planDigest } from "forge/tools/plans";

// Transfer: an office-research team plans its Q3 decision brief before anything is written. Same API,
// other files and bytes.
const draft = new TextEncoder().encode("# Q3 Brief");

it("plans the Q3 brief as one write whose hash is the SHA-256 of its bytes", () => {
  const plan = buildChangePlan("brief-op", { "report/draft.md": ["write the draft", draft] });
  expect(plan.operationId).toBe("brief-op");
  expect(plan.writes.map((write) => write.relativePath)).toEqual(["report/draft.md"]);
  expect(plan.writes[0]?.contentSha256).toBe(createHash("sha256").update("# Q3 Brief", "utf8").digest("hex"));
});

it("binds the brief to its file: the same bytes for report/final.md get another digest", () => {
  const toDraft = planDigest(buildChangePlan("brief-op", { "report/draft.md": ["write the draft", draft] }));
  const toFinal = planDigest(buildChangePlan("brief-op", { "report/final.md": ["write the draft", draft] }));
  expect(toFinal).not.toBe(toDraft);
  // A colleague on Windows names the same file with backslashes: one target, one digest.
  const fromWindows = planDigest(buildChangePlan("brief-op-2", { "report\\draft.md": ["write the draft", draft] }));
  expect(fromWindows).toBe(toDraft);
});
