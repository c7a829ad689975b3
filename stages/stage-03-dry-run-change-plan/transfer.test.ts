import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { buildChangePlan, planDigest } from "forge/tools/plans";

// Transfer: an office-research team plans its Q3 decision brief before anything is written. Same API,
// other files and bytes.
const draft = new TextEncoder().encode("# Q3 Brief");
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

it("plans the Q3 brief as one write whose hash is the SHA-256 of its bytes", () => {
  const plan = buildChangePlan("brief-op", { "report/draft.md": ["write the draft", draft] });
  expect(plan.operationId, "operationId of the plan").toBe("brief-op");
  expect(
    plan.writes.map((write) => write.relativePath),
    "targets of the plan",
  ).toEqual(["report/draft.md"]);
  const hash = plan.writes[0]?.contentSha256;
  const what =
    hash === sha256("# Q3 Brief")
      ? 'the bytes "# Q3 Brief"'
      : hash === sha256("write the draft")
        ? 'the summary "write the draft"'
        : "neither the bytes nor the summary";
  expect(
    `${String(hash)} = SHA-256 of ${what}`,
    'contentSha256 of report/draft.md, planned as ["write the draft", bytes "# Q3 Brief"]',
  ).toBe(`${sha256("# Q3 Brief")} = SHA-256 of the bytes "# Q3 Brief"`);
});

it("binds the brief to its file: the same bytes for report/final.md get another digest", () => {
  const toDraft = planDigest(buildChangePlan("brief-op", { "report/draft.md": ["write the draft", draft] }));
  const toFinal = planDigest(buildChangePlan("brief-op", { "report/final.md": ["write the draft", draft] }));
  expect(toFinal, "planDigest of the brief for report/final.md must differ from that for report/draft.md").not.toBe(toDraft);
  // A colleague on Windows names the same file with backslashes: one target, one digest.
  const fromWindows = planDigest(buildChangePlan("brief-op-2", { "report\\draft.md": ["write the draft", draft] }));
  expect(fromWindows, "planDigest of the brief for report\\draft.md must equal that for report/draft.md").toBe(toDraft);
});
