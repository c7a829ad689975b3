import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { previewDigest, SideEffectController } from "forge/tools/controller";
import { temporaryFolder } from "../../lab/testing.js";

// Transfer: the same controller in an office-research team. An agent drafts the quarterly brief in the
// team's shared folder; a reviewer approves the preview digest before anything is written.
const bytes = (text: string) => new TextEncoder().encode(text);

it("commits the approved draft of the quarterly brief", async () => {
  const shared = temporaryFolder();
  const writes = { "report/draft.md": bytes("# Q3 Brief") };
  const controller = new SideEffectController(shared);
  await controller.apply("brief-op", writes, { operationId: "brief-op", planDigest: previewDigest(writes) });

  expect(readFileSync(join(shared, "report/draft.md"), "utf8"), "report/draft.md after the approved apply").toBe("# Q3 Brief");
  expect(
    controller.audit.map(({ operationId, status, planDigest }) => ({ operationId, status, planDigest })),
    "the audit: operation id, status and digest of each outcome",
  ).toEqual([{ operationId: "brief-op", status: "committed", planDigest: previewDigest(writes) }]);
});

it("leaves the approved draft as it was when a revision fails halfway", async () => {
  const shared = temporaryFolder();
  const controller = new SideEffectController(shared);
  const draft = { "report/draft.md": bytes("# Q3 Brief") };
  await controller.apply("brief-op", draft, { operationId: "brief-op", planDigest: previewDigest(draft) });
  // The team keeps its sources in a folder; the revision wrongly plans a file at that path.
  mkdirSync(join(shared, "report/sources"));
  const revision = {
    "report/draft.md": bytes("# Q3 Brief\n\nRevenue grew 4% over Q2."),
    "report/notes.md": bytes("- check the Q2 baseline\n"),
    "report/sources": bytes("finance-q3.xlsx\n"),
  };

  await expect(
    controller.apply("brief-revision", revision, { operationId: "brief-revision", planDigest: previewDigest(revision) }),
    "apply of a revision whose third target, report/sources, is a folder (it must fail)",
  ).rejects.toThrow();
  expect(readFileSync(join(shared, "report/draft.md"), "utf8"), "report/draft.md after the failed revision").toBe("# Q3 Brief");
  expect(existsSync(join(shared, "report/notes.md")), "report/notes.md, created by the failed revision, still exists").toBe(false);
  expect(
    controller.audit.map((entry) => [entry.operationId, entry.status]),
    "the audit: [operation id, status] of each outcome",
  ).toEqual([
    ["brief-op", "committed"],
    ["brief-revision", "rolled_back"],
  ]);
});
