import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { previewDigest, SideEffectController, type AuditEntry } from "forge/tools/controller";
import { atomicWrite } from "forge/tools/atomic";
import { oneLine, otherThan, outcome, refused, settled, type Wording } from "../../lab/outcome.js";
import { symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent changes a front-end repository. Every test gets its own
// repository in a temporary folder.

const bytes = (text: string) => new TextEncoder().encode(text);
const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");
/** Every file and folder under root, as sorted relative paths with "/" separators. */
const tree = (root: string) =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((path) => path.split("\\").join("/"))
    .sort();
/** What a reviewer hands back after reading the preview of these writes. */
const approvalFor = (operationId: string, writes: Record<string, Uint8Array>) => ({ operationId, planDigest: previewDigest(writes) });
const statuses = (controller: SideEffectController) => controller.audit.map((entry) => [entry.operationId, entry.status]);

/** A real atomic write that runs `after` once the write with the given number (1-based) is done. */
function writeThen(number: number, after: () => void): (target: string, content: Uint8Array) => Promise<void> {
  let count = 0;
  return async (target, content) => {
    await atomicWrite(target, content);
    count += 1;
    if (count === number) after();
  };
}

const diskFull = () => Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });

/** A write that really writes the first file and throws `error` on the second, after `before` runs. */
function failSecondWrite(error: Error, before: () => void = () => undefined): (target: string, content: Uint8Array) => Promise<void> {
  let count = 0;
  return async (target, content) => {
    count += 1;
    if (count === 1) return atomicWrite(target, content);
    before();
    throw error;
  };
}

/** How an apply ended, in words: the refusal, any other error's whole message, or `no error; applied`. */
const attempt = (promise: Promise<unknown>, wording: Wording | null) =>
  settled(promise, wording, (value) => (value === undefined ? "no error; applied" : `no error; resolved with ${oneLine(value)}`));

/** What each path (relative to root) holds now: its text, `(folder)`, or `(missing)`. */
const contents = (root: string, paths: readonly string[]) =>
  Object.fromEntries(
    paths.map((path) => {
      const full = join(root, path);
      return [path, !existsSync(full) ? "(missing)" : statSync(full).isDirectory() ? "(folder)" : readFileSync(full, "utf8")];
    }),
  );

it("applies only the approved bytes and records committed", async () => {
  const repo = temporaryFolder();
  const writes = {
    "src/components/Button.tsx": bytes("export const Button = () => <button>Save</button>;\n"),
    "src/components/Button.test.tsx": bytes("it('renders', () => {});\n"),
  };
  const controller = new SideEffectController(repo);
  await controller.apply("op-7", writes, approvalFor("op-7", writes));

  expect(contents(repo, Object.keys(writes)), "the files after an approved apply").toEqual({
    "src/components/Button.tsx": "export const Button = () => <button>Save</button>;\n",
    "src/components/Button.test.tsx": "it('renders', () => {});\n",
  });
  // Nothing else appeared: no temporary file left behind, no stray output.
  expect(tree(repo), "everything in the repository after the apply (a temporary file left behind is debris)").toEqual([
    "src",
    "src/components",
    "src/components/Button.test.tsx",
    "src/components/Button.tsx",
  ]);
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "committed"]]);
});

it("writes the approved bytes even when the caller changes its buffer during apply", async () => {
  const repo = temporaryFolder();
  const content = bytes("export default 1;\n");
  const writes = { "src/version.ts": content };
  const controller = new SideEffectController(repo);
  const pending = controller.apply("op-7", writes, approvalFor("op-7", writes));
  // apply has hashed and approved the bytes, and is now waiting on the disk.
  content.set(bytes("export default 9;\n"));
  await pending;
  expect(
    read(repo, "src/version.ts"),
    "src/version.ts, approved as 'export default 1;', whose buffer the caller changed during apply",
  ).toBe("export default 1;\n");
});

it("denies an approval for any other plan — stale bytes or the same bytes to other paths — and writes nothing", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);

  // Stale: the reviewer approved the old bytes; the agent changed them afterwards.
  const reviewed = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const changed = { "src/App.tsx": bytes("export const title = 'Shop'; fetch('https://evil.example');\n") };
  // Redirected: the same bytes, approved for one path, sent to another.
  const approvedHere = { "src/config.ts": bytes("export const api = '/api';\n") };
  const sentThere = { ".github/workflows/deploy.yml": bytes("export const api = '/api';\n") };
  const outcomes = {
    "stale: src/App.tsx changed after review": await attempt(
      controller.apply("op-7", changed, approvalFor("op-7", reviewed)),
      "approval required",
    ),
    "redirected: the bytes approved for src/config.ts, sent to .github/workflows/deploy.yml": await attempt(
      controller.apply("op-8", sentThere, approvalFor("op-8", approvedHere)),
      "approval required",
    ),
  };
  expect(
    otherThan(outcomes, refused("approval required")),
    'applies with an approval of another plan, not refused with an error containing "approval required"',
  ).toEqual({});

  // No file and no folder: a denied operation touches nothing.
  expect(tree(repo), "everything in the repository after two denied applies").toEqual([]);
  expect(
    controller.audit.map(({ operationId, status, planDigest }) => [operationId, status, planDigest]),
    "the audit: [operation id, status, digest of the plan the operation carried]",
  ).toEqual([
    ["op-7", "denied", previewDigest(changed)],
    ["op-8", "denied", previewDigest(sentThere)],
  ]);
});

it("previewDigest changes when only a path changes, and not when only the key order does", () => {
  const content = bytes("export const api = '/api';\n");
  expect(
    previewDigest({ "src/config.ts": content }),
    "previewDigest of bytes for src/config.ts must differ from the same bytes for src/config.tsx",
  ).not.toBe(previewDigest({ "src/config.tsx": content }));
  expect(
    previewDigest({ "src/a.ts": bytes("A"), "src/b.ts": bytes("B") }),
    "previewDigest must change when the contents of a.ts and b.ts are swapped",
  ).not.toBe(previewDigest({ "src/a.ts": bytes("B"), "src/b.ts": bytes("A") }));
  // The plan is sorted by path, so the order of the keys is not part of what was approved.
  expect(
    previewDigest({ "src/a.ts": bytes("A"), "src/b.ts": bytes("B") }),
    "previewDigest must stay the same when only the key order changes",
  ).toBe(previewDigest({ "src/b.ts": bytes("B"), "src/a.ts": bytes("A") }));
});

it("previewDigest equals the digest the controller checks and records", async () => {
  const repo = temporaryFolder();
  const writes = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const controller = new SideEffectController(repo);
  const digest = previewDigest(writes);
  await controller.apply("op-7", writes, { operationId: "op-7", planDigest: digest });
  // The operation id is not part of a digest: a second operation with the same writes carries the same one.
  await controller.apply("op-8", writes, { operationId: "op-8", planDigest: digest });
  expect(
    controller.audit.map((entry) => [entry.status, entry.planDigest]),
    `the audit: [status, digest] (previewDigest was ${digest})`,
  ).toEqual([
    ["committed", digest],
    ["committed", digest],
  ]);
  expect(digest, "previewDigest, which must be 64 lower-case hex digits").toMatch(/^[0-9a-f]{64}$/);
});

it("checks every target before the first write", async () => {
  const repo = temporaryFolder();
  const outside = temporaryFolder();
  writeTree(repo, { "src/App.tsx": "export const title = 'Shop';\n" });
  // A link inside the repository that leads out of it. The plan's paths look harmless.
  symlink(outside, join(repo, "vendor"), "dir");
  const writes = { "src/App.tsx": bytes("export const title = 'Store';\n"), "vendor/lib.js": bytes("steal();\n") };
  const written: string[] = [];
  const controller = new SideEffectController(repo, {
    write: async (target, content) => {
      written.push(target);
      await atomicWrite(target, content);
    },
  });

  expect(
    await attempt(controller.apply("op-7", writes, approvalFor("op-7", writes)), "escapes"),
    "apply of a plan whose vendor/lib.js escapes through the link vendor",
  ).toBe(refused("escapes"));
  // src/App.tsx comes first in the plan, yet it was never written: the escape was found before any write.
  expect(written, "writes started before the escape of vendor/lib.js was found (every target is checked first)").toEqual([]);
  expect(read(repo, "src/App.tsx"), "src/App.tsx after the refused apply").toBe("export const title = 'Shop';\n");
  expect(readdirSync(outside), "files in the folder outside that vendor links to").toEqual([]);
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "rolled_back"]]);
});

it("rolls back an earlier write when a workspace escape appears during the operation, and records rolled_back", async () => {
  const repo = temporaryFolder();
  const outside = temporaryFolder();
  writeTree(repo, { "src/App.tsx": "export const title = 'Shop';\n", "vendor/README.md": "third-party code\n" });
  const writes = { "src/App.tsx": bytes("export const title = 'Store';\n"), "vendor/lib.js": bytes("steal();\n") };
  // After the first write, something swaps the checked folder for a link to the outside.
  const swap = () => {
    rmSync(join(repo, "vendor"), { recursive: true });
    symlink(outside, join(repo, "vendor"), "dir");
  };
  const controller = new SideEffectController(repo, { write: writeThen(1, swap) });

  expect(
    await attempt(controller.apply("op-7", writes, approvalFor("op-7", writes)), "escapes"),
    "apply of a plan whose folder vendor became a link to the outside after the first write",
  ).toBe(refused("escapes"));
  expect(read(repo, "src/App.tsx"), "src/App.tsx after the rollback (it was written before the escape)").toBe(
    "export const title = 'Shop';\n",
  );
  expect(readdirSync(outside), "files in the folder outside that vendor now links to").toEqual([]);
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "rolled_back"]]);
});

it("restores a pre-existing file and removes a created one when a later target fails halfway", async () => {
  const repo = temporaryFolder();
  writeTree(repo, { "src/App.tsx": "export const title = 'Shop';\n" });
  mkdirSync(join(repo, "src/styles"));
  // In plan order: a change, a new file, then a target that is a folder, which the file system refuses.
  const writes = {
    "src/App.tsx": bytes("import { Banner } from './Banner';\n"),
    "src/Banner.tsx": bytes("export const Banner = () => null;\n"),
    "src/styles": bytes("body { margin: 0 }\n"),
  };
  const controller = new SideEffectController(repo);

  expect(
    await attempt(controller.apply("op-7", writes, approvalFor("op-7", writes)), null),
    "apply of a plan whose third target, src/styles, is a folder",
  ).toMatch(/^error: /);
  expect(
    contents(repo, ["src/App.tsx", "src/Banner.tsx"]),
    "after the rollback: src/App.tsx existed before, src/Banner.tsx did not",
  ).toEqual({
    "src/App.tsx": "export const title = 'Shop';\n",
    "src/Banner.tsx": "(missing)",
  });
  expect(tree(repo), "everything in the repository after the rollback").toEqual(["src", "src/App.tsx", "src/styles"]);
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "rolled_back"]]);
});

it("rethrows the original error, not a wrapper", async () => {
  const repo = temporaryFolder();
  const failure = diskFull();
  const controller = new SideEffectController(repo, { write: failSecondWrite(failure) });
  const writes = { "src/a.ts": bytes("export const a = 1;\n"), "src/b.ts": bytes("export const b = 2;\n") };

  await expect(
    controller.apply("op-7", writes, approvalFor("op-7", writes)),
    "apply must reject with the write's own ENOSPC error",
  ).rejects.toBe(failure);
  expect(contents(repo, ["src/a.ts"]), "src/a.ts, written before the second write failed, after the rollback").toEqual({
    "src/a.ts": "(missing)",
  });
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "rolled_back"]]);
});

it("reports a failed rollback together with the original error, which comes first", async () => {
  const repo = temporaryFolder();
  const failure = diskFull();
  // Before the second write fails, something puts a folder where the first write created a file:
  // the rollback cannot remove it without deleting what it never captured.
  const controller = new SideEffectController(repo, {
    write: failSecondWrite(failure, () => {
      rmSync(join(repo, "src/a.ts"));
      writeTree(repo, { "src/a.ts/other.ts": "not ours\n" });
    }),
  });
  const writes = { "src/a.ts": bytes("export const a = 1;\n"), "src/b.ts": bytes("export const b = 2;\n") };

  const error: unknown = await controller.apply("op-7", writes, approvalFor("op-7", writes)).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, "what apply rejected with when both the write and the rollback failed").toBeInstanceOf(AggregateError);
  const { errors, message } = error as AggregateError;
  expect(
    errors.map((item: unknown) =>
      item === failure ? "the original ENOSPC error" : item instanceof Error ? `an Error: ${item.message}` : oneLine(item),
    ),
    "the errors in the AggregateError, in order",
  ).toEqual(["the original ENOSPC error", expect.stringMatching(/^an Error: /)]);
  expect(message, "the AggregateError's message").toMatch(/rollback did not complete/);
  expect(read(repo, "src/a.ts/other.ts"), "src/a.ts/other.ts, which the journal never captured").toBe("not ours\n");
  expect(statuses(controller), "the audit: [operation id, status] of each outcome").toEqual([["op-7", "rolled_back"]]);
});

it("records a request refused before approval as rejected, with its reason and a null digest", async () => {
  const repo = temporaryFolder();
  const at = "2025-03-14T09:26:53.000Z";
  const controller = new SideEffectController(repo, { now: () => new Date(at) });
  // No writes at all, and a path that climbs out of the workspace in plain sight: neither is a plan.
  const climbing = { "../outside.ts": bytes("export {};\n") };
  // Text is not bytes until someone picks an encoding; a plain-JavaScript caller can still send it.
  const text = { "src/a.ts": "export {};\n" as unknown as Uint8Array };
  /** The error an apply rejected with, kept whole: the audit must give its message as the reason. */
  const thrown: Record<string, unknown> = {};
  const keep = (operationId: string, promise: Promise<void>) =>
    promise.then(
      () => undefined,
      (error: unknown) => {
        thrown[operationId] = error;
        throw error;
      },
    );
  const outcomes = {
    "op-7: apply with no writes": await attempt(keep("op-7", controller.apply("op-7", {}, null)), null),
    "op-8: apply of ../outside.ts": await attempt(
      keep("op-8", controller.apply("op-8", climbing, { operationId: "op-8", planDigest: "0".repeat(64) })),
      null,
    ),
    "op-9: apply of text instead of bytes": await attempt(keep("op-9", controller.apply("op-9", text, null)), "invalid write"),
    "previewDigest of ../outside.ts": outcome(() => previewDigest(climbing), null),
  };
  expect(outcomes, 'requests that are not a plan (any error will do, but text instead of bytes must say "invalid write")').toEqual({
    "op-7: apply with no writes": expect.stringMatching(/^error: /),
    "op-8: apply of ../outside.ts": expect.stringMatching(/^error: /),
    "op-9: apply of text instead of bytes": refused("invalid write"),
    "previewDigest of ../outside.ts": expect.stringMatching(/^error: /),
  });
  // The reason is what apply told its caller; previewDigest is a pure function and audits nothing.
  const reason = (operationId: string) => {
    const error = thrown[operationId];
    return error instanceof Error ? error.message : `(apply of ${operationId} did not reject with an Error)`;
  };
  expect(controller.audit, "the audit after three applies refused before approval (each rejected, no digest)").toEqual([
    { operationId: "op-7", status: "rejected", planDigest: null, reason: reason("op-7"), at },
    { operationId: "op-8", status: "rejected", planDigest: null, reason: reason("op-8"), at },
    { operationId: "op-9", status: "rejected", planDigest: null, reason: reason("op-9"), at },
  ]);
  expect(tree(repo), "everything in the repository after the refused requests").toEqual([]);
});

it("records an operation id that is not a string as an empty id, so every id in the audit is a string", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);
  // A plain-JavaScript caller can send anything as the id. With no writes the request is never a plan,
  // whatever the id, so each one must be recorded as rejected.
  const ids: Record<string, unknown> = { "the number 7": 7, undefined: undefined, "an object { id: 'op-7' }": { id: "op-7" } };
  const recorded: Record<string, string> = {};
  for (const [label, id] of Object.entries(ids)) {
    const before = controller.audit.length;
    const ended = await attempt(controller.apply(id as string, {}, null), null);
    const entry = controller.audit[before];
    const audited = entry === undefined ? "no audit entry" : `audited ${entry.status} with operation id ${oneLine(entry.operationId)}`;
    recorded[label] = `${/^error: /.test(ended) ? "refused" : ended}; ${audited}`;
  }
  expect(
    otherThan(recorded, "refused; audited rejected with operation id ''"),
    'applies with no writes whose operation id is not a string: how each ended and what the audit recorded (the id must be "")',
  ).toEqual({});
  expect(tree(repo), "everything in the repository after the refused requests").toEqual([]);
});

it("records the operation id, the digest and the time of every outcome", async () => {
  const repo = temporaryFolder();
  writeTree(repo, { "src/styles/.keep": "" });
  const clock = new Date("2025-03-14T09:26:53.000Z");
  const controller = new SideEffectController(repo, { now: () => clock });
  const good = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const unapproved = { "src/App.tsx": bytes("export const title = 'Store';\n") };
  const broken = { "src/styles": bytes("body { margin: 0 }\n") };

  expect(
    {
      "op-1, approved": await attempt(controller.apply("op-1", good, approvalFor("op-1", good)), null),
      "op-2, no approval": await attempt(controller.apply("op-2", unapproved, null), "approval required"),
      "op-3, approved, its target a folder": await attempt(controller.apply("op-3", broken, approvalFor("op-3", broken)), null),
    },
    "how each apply ended",
  ).toEqual({
    "op-1, approved": "no error; applied",
    "op-2, no approval": refused("approval required"),
    "op-3, approved, its target a folder": expect.stringMatching(/^error: /),
  });

  const at = "2025-03-14T09:26:53.000Z";
  expect(controller.audit, "the audit of the three outcomes, with the controller's clock").toEqual([
    { operationId: "op-1", status: "committed", planDigest: previewDigest(good), at },
    { operationId: "op-2", status: "denied", planDigest: previewDigest(unapproved), at },
    { operationId: "op-3", status: "rolled_back", planDigest: previewDigest(broken), at },
  ]);
  // Without a clock of its own the controller stamps the real time, in ISO 8601.
  const real = new SideEffectController(repo);
  expect(await attempt(real.apply("op-4", good, null), "approval required"), "apply of op-4 with no approval").toBe(
    refused("approval required"),
  );
  const stamp = real.audit[0]?.at ?? "";
  expect(stamp, "the time stamped by a controller without a clock, which must be ISO 8601 as toISOString writes it").toBe(
    Number.isNaN(Date.parse(stamp)) ? "an ISO 8601 time" : new Date(stamp).toISOString(),
  );
});

it("keeps the audit read-only to callers", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);
  const writes = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  expect(await attempt(controller.apply("op-7", writes, null), "approval required"), "apply of op-7 with no approval").toBe(
    refused("approval required"),
  );

  const forged: AuditEntry = { operationId: "op-7", status: "committed", planDigest: previewDigest(writes), at: new Date().toISOString() };
  const audit = controller.audit as AuditEntry[];
  const attempts: Record<string, () => unknown> = {
    "audit.push(a forged entry)": () => audit.push(forged),
    "audit.splice(0, 1)": () => audit.splice(0, 1),
    'audit[0].status = "committed"': () => ((audit[0] as { status: string }).status = "committed"),
    "controller.audit = [a forged entry]": () => ((controller as unknown as { audit: unknown }).audit = [forged]),
  };
  // Every attempt that changed the audit, with the audit afterwards; none may have.
  const changed: Record<string, string> = {};
  let state = JSON.stringify(statuses(controller));
  for (const [label, change] of Object.entries(attempts)) {
    try {
      change();
    } catch {
      // Refusing loudly is fine; what matters is the audit afterwards.
    }
    if (JSON.stringify(statuses(controller)) !== state) changed[label] = state = JSON.stringify(statuses(controller));
  }
  expect(changed, 'attempts that changed the audit [["op-7","denied"]], with its [operation id, status] pairs after each').toEqual({});
  expect(statuses(controller), "the audit after the attempts").toEqual([["op-7", "denied"]]);
  expect(
    { audit: Object.isFrozen(controller.audit), "every entry": controller.audit.every((entry) => Object.isFrozen(entry)) },
    "Object.isFrozen of the audit and of each entry",
  ).toEqual({ audit: true, "every entry": true });
});
