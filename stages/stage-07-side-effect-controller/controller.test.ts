import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { previewDigest, SideEffectController, type AuditEntry } from "forge/tools/controller";
import { atomicWrite } from "forge/tools/atomic";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent changes a front-end repository. Every test gets its own
// repository in a temporary folder.

const bytes = (text: string) => new TextEncoder().encode(text);
const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");
/** Every file and folder under root, as sorted relative paths with "/" separators. */
const tree = (root: string) => readdirSync(root, { recursive: true, encoding: "utf8" }).map((path) => path.split("\\").join("/")).sort();
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

it("applies only the approved bytes and records committed", async () => {
  const repo = temporaryFolder();
  const writes = {
    "src/components/Button.tsx": bytes("export const Button = () => <button>Save</button>;\n"),
    "src/components/Button.test.tsx": bytes("it('renders', () => {});\n"),
  };
  const controller = new SideEffectController(repo);
  await controller.apply("op-7", writes, approvalFor("op-7", writes));

  expect(read(repo, "src/components/Button.tsx")).toBe("export const Button = () => <button>Save</button>;\n");
  expect(read(repo, "src/components/Button.test.tsx")).toBe("it('renders', () => {});\n");
  // Nothing else appeared: no temporary file left behind, no stray output.
  expect(tree(repo)).toEqual(["src", "src/components", "src/components/Button.test.tsx", "src/components/Button.tsx"]);
  expect(statuses(controller)).toEqual([["op-7", "committed"]]);
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
  expect(read(repo, "src/version.ts")).toBe("export default 1;\n");
});

it("denies an approval for any other plan — stale bytes or the same bytes to other paths — and writes nothing", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);

  // Stale: the reviewer approved the old bytes; the agent changed them afterwards.
  const reviewed = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const changed = { "src/App.tsx": bytes("export const title = 'Shop'; fetch('https://evil.example');\n") };
  await expect(controller.apply("op-7", changed, approvalFor("op-7", reviewed))).rejects.toThrow(/approval required/);

  // Redirected: the same bytes, approved for one path, sent to another.
  const approvedHere = { "src/config.ts": bytes("export const api = '/api';\n") };
  const sentThere = { ".github/workflows/deploy.yml": bytes("export const api = '/api';\n") };
  await expect(controller.apply("op-8", sentThere, approvalFor("op-8", approvedHere))).rejects.toThrow(/approval required/);

  // No file and no folder: a denied operation touches nothing.
  expect(tree(repo)).toEqual([]);
  expect(controller.audit.map(({ operationId, status, planDigest }) => [operationId, status, planDigest])).toEqual([
    ["op-7", "denied", previewDigest(changed)],
    ["op-8", "denied", previewDigest(sentThere)],
  ]);
});

it("previewDigest changes when only a path changes, and not when only the key order does", () => {
  const content = bytes("export const api = '/api';\n");
  expect(previewDigest({ "src/config.ts": content })).not.toBe(previewDigest({ "src/config.tsx": content }));
  expect(previewDigest({ "src/a.ts": bytes("A"), "src/b.ts": bytes("B") })).not.toBe(
    previewDigest({ "src/a.ts": bytes("B"), "src/b.ts": bytes("A") }),
  );
  // The plan is sorted by path, so the order of the keys is not part of what was approved.
  expect(previewDigest({ "src/a.ts": bytes("A"), "src/b.ts": bytes("B") })).toBe(
    previewDigest({ "src/b.ts": bytes("B"), "src/a.ts": bytes("A") }),
  );
});

it("previewDigest equals the digest the controller checks and records", async () => {
  const repo = temporaryFolder();
  const writes = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const controller = new SideEffectController(repo);
  const digest = previewDigest(writes);
  await controller.apply("op-7", writes, { operationId: "op-7", planDigest: digest });
  // The operation id is not part of a digest: a second operation with the same writes carries the same one.
  await controller.apply("op-8", writes, { operationId: "op-8", planDigest: digest });
  expect(controller.audit.map((entry) => [entry.status, entry.planDigest])).toEqual([
    ["committed", digest],
    ["committed", digest],
  ]);
  expect(digest).toMatch(/^[0-9a-f]{64}$/);
});

it("checks every target before the first write", async () => {
  const repo = temporaryFolder();
  const outside = temporaryFolder();
  writeTree(repo, { "src/App.tsx": "export const title = 'Shop';\n" });
  // A link inside the repository that leads out of it. The plan's paths look harmless.
  symlinkSync(outside, join(repo, "vendor"), "dir");
  const writes = { "src/App.tsx": bytes("export const title = 'Store';\n"), "vendor/lib.js": bytes("steal();\n") };
  let written = 0;
  const controller = new SideEffectController(repo, {
    write: async (target, content) => {
      written += 1;
      await atomicWrite(target, content);
    },
  });

  await expect(controller.apply("op-7", writes, approvalFor("op-7", writes))).rejects.toThrow(/escapes/);
  // src/App.tsx comes first in the plan, yet it was never written: the escape was found before any write.
  expect(written).toBe(0);
  expect(read(repo, "src/App.tsx")).toBe("export const title = 'Shop';\n");
  expect(readdirSync(outside)).toEqual([]);
  expect(statuses(controller)).toEqual([["op-7", "rolled_back"]]);
});

it("rolls back an earlier write when a workspace escape appears during the operation, and records rolled_back", async () => {
  const repo = temporaryFolder();
  const outside = temporaryFolder();
  writeTree(repo, { "src/App.tsx": "export const title = 'Shop';\n", "vendor/README.md": "third-party code\n" });
  const writes = { "src/App.tsx": bytes("export const title = 'Store';\n"), "vendor/lib.js": bytes("steal();\n") };
  // After the first write, something swaps the checked folder for a link to the outside.
  const swap = () => {
    rmSync(join(repo, "vendor"), { recursive: true });
    symlinkSync(outside, join(repo, "vendor"), "dir");
  };
  const controller = new SideEffectController(repo, { write: writeThen(1, swap) });

  await expect(controller.apply("op-7", writes, approvalFor("op-7", writes))).rejects.toThrow(/escapes/);
  expect(read(repo, "src/App.tsx")).toBe("export const title = 'Shop';\n");
  expect(readdirSync(outside)).toEqual([]);
  expect(statuses(controller)).toEqual([["op-7", "rolled_back"]]);
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

  await expect(controller.apply("op-7", writes, approvalFor("op-7", writes))).rejects.toThrow();
  expect(read(repo, "src/App.tsx")).toBe("export const title = 'Shop';\n");
  expect(existsSync(join(repo, "src/Banner.tsx"))).toBe(false);
  expect(tree(repo)).toEqual(["src", "src/App.tsx", "src/styles"]);
  expect(statuses(controller)).toEqual([["op-7", "rolled_back"]]);
});

it("rethrows the original error, not a wrapper", async () => {
  const repo = temporaryFolder();
  const failure = diskFull();
  const controller = new SideEffectController(repo, { write: failSecondWrite(failure) });
  const writes = { "src/a.ts": bytes("export const a = 1;\n"), "src/b.ts": bytes("export const b = 2;\n") };

  await expect(controller.apply("op-7", writes, approvalFor("op-7", writes))).rejects.toBe(failure);
  expect(existsSync(join(repo, "src/a.ts"))).toBe(false);
  expect(statuses(controller)).toEqual([["op-7", "rolled_back"]]);
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
  expect(error).toBeInstanceOf(AggregateError);
  const { errors, message } = error as AggregateError;
  expect(errors).toHaveLength(2);
  expect(errors[0]).toBe(failure);
  expect(errors[1]).toBeInstanceOf(Error);
  expect(message).toMatch(/rollback did not complete/);
  expect(read(repo, "src/a.ts/other.ts")).toBe("not ours\n");
  expect(statuses(controller)).toEqual([["op-7", "rolled_back"]]);
});

it("refuses a request the plan rejects before it becomes an operation, without an audit entry", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);
  // No writes at all, and a path that climbs out of the workspace in plain sight: neither is a plan.
  await expect(controller.apply("op-7", {}, null)).rejects.toThrow();
  const climbing = { "../outside.ts": bytes("export {};\n") };
  await expect(controller.apply("op-8", climbing, { operationId: "op-8", planDigest: "0".repeat(64) })).rejects.toThrow();
  expect(() => previewDigest(climbing)).toThrow();
  // Text is not bytes until someone picks an encoding; a plain-JavaScript caller can still send it.
  const text = { "src/a.ts": "export {};\n" as unknown as Uint8Array };
  await expect(controller.apply("op-9", text, null)).rejects.toThrow(/Uint8Array/);
  expect(controller.audit).toEqual([]);
  expect(tree(repo)).toEqual([]);
});

it("records the operation id, the digest and the time of every outcome", async () => {
  const repo = temporaryFolder();
  writeTree(repo, { "src/styles/.keep": "" });
  const clock = new Date("2025-03-14T09:26:53.000Z");
  const controller = new SideEffectController(repo, { now: () => clock });
  const good = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  const unapproved = { "src/App.tsx": bytes("export const title = 'Store';\n") };
  const broken = { "src/styles": bytes("body { margin: 0 }\n") };

  await controller.apply("op-1", good, approvalFor("op-1", good));
  await expect(controller.apply("op-2", unapproved, null)).rejects.toThrow(/approval required/);
  await expect(controller.apply("op-3", broken, approvalFor("op-3", broken))).rejects.toThrow();

  const at = "2025-03-14T09:26:53.000Z";
  expect(controller.audit).toEqual([
    { operationId: "op-1", status: "committed", planDigest: previewDigest(good), at },
    { operationId: "op-2", status: "denied", planDigest: previewDigest(unapproved), at },
    { operationId: "op-3", status: "rolled_back", planDigest: previewDigest(broken), at },
  ]);
  // Without a clock of its own the controller stamps the real time, in ISO 8601.
  const real = new SideEffectController(repo);
  await expect(real.apply("op-4", good, null)).rejects.toThrow(/approval required/);
  const stamp = real.audit[0]?.at ?? "";
  expect(new Date(stamp).toISOString()).toBe(stamp);
});

it("keeps the audit read-only to callers", async () => {
  const repo = temporaryFolder();
  const controller = new SideEffectController(repo);
  const writes = { "src/App.tsx": bytes("export const title = 'Shop';\n") };
  await expect(controller.apply("op-7", writes, null)).rejects.toThrow(/approval required/);

  const forged: AuditEntry = { operationId: "op-7", status: "committed", planDigest: previewDigest(writes), at: new Date().toISOString() };
  const audit = controller.audit as AuditEntry[];
  const attempts = [
    () => audit.push(forged),
    () => audit.splice(0, 1),
    () => ((audit[0] as { status: string }).status = "committed"),
    () => ((controller as unknown as { audit: unknown }).audit = [forged]),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // Refusing loudly is fine; what matters is the audit afterwards.
    }
  }
  expect(statuses(controller)).toEqual([["op-7", "denied"]]);
  expect(Object.isFrozen(controller.audit)).toBe(true);
  expect(controller.audit.every((entry) => Object.isFrozen(entry))).toBe(true);
});
