import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { buildChangePlan, planDigest, type ChangePlan, type PlannedWrite } from "forge/tools/plans";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const paths = (plan: ChangePlan): string[] => plan.writes.map((write) => write.relativePath);

it("lists the writes sorted by path, whatever order they were given in", () => {
  const plan = buildChangePlan("op-1", {
    "src/b.ts": ["write b", bytes("B")],
    "src/a.ts": ["write a", bytes("A")],
  });
  expect(plan.operationId).toBe("op-1");
  expect(paths(plan)).toEqual(["src/a.ts", "src/b.ts"]);
  expect(plan.writes.map((write) => write.summary)).toEqual(["write a", "write b"]);

  // Code-unit order, the same on every machine: capitals before lower case, unlike localeCompare.
  const mixed = buildChangePlan("op-2", {
    "src/alpha.ts": ["a", bytes("1")],
    "src/Zeta.ts": ["z", bytes("2")],
    "README.md": ["r", bytes("3")],
    "src/App.tsx": ["app", bytes("4")],
  });
  expect(paths(mixed)).toEqual(["README.md", "src/App.tsx", "src/Zeta.ts", "src/alpha.ts"]);
});

it("records the SHA-256 of the bytes to be written, not of the summary", () => {
  const plan = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")] });
  expect(plan.writes[0]?.contentSha256).toBe("559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd");

  // Other bytes under the same summary: the hash follows the bytes, and so does the digest.
  const changed = buildChangePlan("op-1", { "a.txt": ["write a", bytes("B")] });
  expect(changed.writes[0]?.contentSha256).toBe(sha256(bytes("B")));
  expect(planDigest(changed)).not.toBe(planDigest(plan));

  // The same bytes under other words: nothing that binds the effect changes.
  const reworded = buildChangePlan("op-1", { "a.txt": ["set a.txt to the letter A", bytes("A")] });
  expect(reworded.writes[0]?.contentSha256).toBe(plan.writes[0]?.contentSha256);
  expect(planDigest(reworded)).toBe(planDigest(plan));
});

it("rejects a plan with no writes", () => {
  expect(() => buildChangePlan("op-1", {})).toThrow(/required/);
});

it("rejects a blank operation id", () => {
  const writes = { "a.txt": ["write a", bytes("A")] } as const;
  expect(() => buildChangePlan("", writes)).toThrow(/required/);
  expect(() => buildChangePlan("  \t", writes)).toThrow(/required/);
});

it("rejects two keys that name the same target after normalization", () => {
  const twins: [string, string][] = [
    ["a.txt", "./a.txt"],
    ["dir\\a.txt", "dir/a.txt"],
    ["dir/../a.txt", "a.txt"],
    ["src//app.ts", "src/app.ts"],
  ];
  for (const [first, second] of twins) {
    const writes = { [first]: ["one version", bytes("1")], [second]: ["another version", bytes("2")] } as const;
    expect(() => buildChangePlan("op-1", writes), `${first} and ${second}`).toThrow(/duplicate/);
  }
});

it("records each target in normalized form and sorts by that form", () => {
  const plan = buildChangePlan("op-1", {
    "./src/b.ts": ["b", bytes("B")],
    "src\\a.ts": ["a", bytes("A")],
    "src//c.ts": ["c", bytes("C")],
    "lib/../src/d.ts": ["d", bytes("D")],
  });
  // Sorted by the key as written, "./src/b.ts" would come first.
  expect(paths(plan)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts"]);
  // Normalization is lexical and keeps case: these are two files on a case-sensitive file system.
  expect(paths(buildChangePlan("op-2", { "README.md": ["r", bytes("1")], "readme.md": ["r", bytes("2")] }))).toEqual([
    "README.md",
    "readme.md",
  ]);
});

it("rejects a target path that is absolute, climbs out of the workspace or names no file", () => {
  const write = ["write", bytes("x")] as const;
  for (const absolute of ["/etc/passwd", "\\x", "C:\\x", "C:x", "c:/x", "//server/share/x", "\\\\server\\share\\x"]) {
    expect(() => buildChangePlan("op-1", { [absolute]: write }), absolute).toThrow(/invalid target path.*absolute/);
  }
  for (const climbing of ["../x", "a/../../x", "..\\x", "./.."]) {
    expect(() => buildChangePlan("op-1", { [climbing]: write }), climbing).toThrow(/invalid target path.*escapes/);
  }
  for (const nothing of ["", ".", "a/..", "./"]) {
    expect(() => buildChangePlan("op-1", { [nothing]: write }), JSON.stringify(nothing)).toThrow(/invalid target path.*names no file/);
  }
  expect(() => buildChangePlan("op-1", { "a\0.txt": write })).toThrow(/invalid target path/);
});

it("accepts only bytes as content", () => {
  const asArray = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")] });
  const asBuffer = buildChangePlan("op-1", { "a.txt": ["write a", Buffer.from("A")] });
  expect(asBuffer.writes).toEqual(asArray.writes);
  // Text is not bytes until an encoding is chosen; untyped callers can send anything.
  const notBytes: unknown[] = [["write a", "A"], ["write a", [65]], ["write a"], "A", null];
  for (const request of notBytes) {
    const writes = { "a.txt": request } as unknown as Record<string, readonly [string, Uint8Array]>;
    expect(() => buildChangePlan("op-1", writes), JSON.stringify(request)).toThrow(/invalid write/);
  }
});

it("binds each path: the same bytes planned for another file get another digest", () => {
  const toA = buildChangePlan("op-1", { "a.txt": ["write", bytes("A")] });
  const toB = buildChangePlan("op-1", { "b.txt": ["write", bytes("A")] });
  // Same bytes, same summary, so the content hashes agree; only the path differs.
  expect(toB.writes[0]?.contentSha256).toBe(toA.writes[0]?.contentSha256);
  expect(planDigest(toB)).not.toBe(planDigest(toA));
  // A write added to the plan changes the digest too.
  const both = buildChangePlan("op-1", { "a.txt": ["write", bytes("A")], "b.txt": ["write", bytes("A")] });
  expect(planDigest(both)).not.toBe(planDigest(toA));
  expect(planDigest(toA)).toMatch(/^[0-9a-f]{64}$/);
});

it("gives the same digest whatever the insertion order, spelling of the keys or operation id", () => {
  const first = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")], "b.txt": ["write b", bytes("B")] });
  const reordered = buildChangePlan("op-2", { "b.txt": ["write b", bytes("B")], "a.txt": ["write a", bytes("A")] });
  const respelled = buildChangePlan("op-3", { "./b.txt": ["write b", bytes("B")], "x/../a.txt": ["write a", bytes("A")] });
  expect(planDigest(reordered)).toBe(planDigest(first));
  expect(planDigest(respelled)).toBe(planDigest(first));
  // Deterministic: the same plan, the same digest.
  expect(planDigest(first)).toBe(planDigest(first));
});

it("encodes the digest so that two different plans cannot run together", () => {
  const twoWrites = buildChangePlan("op-1", { a: ["write a", bytes("A")], b: ["write b", bytes("B")] });
  const hashOfA = twoWrites.writes[0]?.contentSha256 ?? "";
  // One write whose path swallows the first pair: "a" + hash + "b", with b's bytes.
  const oneWrite = buildChangePlan("op-1", { [`a${hashOfA}b`]: ["write b", bytes("B")] });
  const concatenated = (plan: ChangePlan) => plan.writes.map((write) => write.relativePath + write.contentSha256).join("");
  // The trap is real: gluing paths and hashes together makes the two plans one string.
  expect(concatenated(oneWrite)).toBe(concatenated(twoWrites));
  expect(planDigest(oneWrite)).not.toBe(planDigest(twoWrites));
});

it("keeps the plan unchanged after creation, whatever happens to the caller's input", () => {
  const content = bytes("export const radius = 8;\n");
  const request: [string, Uint8Array] = ["round the corners", content];
  const writes: Record<string, readonly [string, Uint8Array]> = { "src/Button.tsx": request };
  const plan = buildChangePlan("op-1", writes);
  const snapshot = JSON.stringify(plan);
  const digest = planDigest(plan);

  // The caller changes its own bytes, tuple and record afterwards.
  content.fill(0x21);
  request[0] = "delete everything";
  writes["src/evil.ts"] = ["sneak in", bytes("x")];

  expect(Object.isFrozen(plan)).toBe(true);
  expect(Object.isFrozen(plan.writes)).toBe(true);
  expect(plan.writes.every((write) => Object.isFrozen(write))).toBe(true);
  const attempts = [
    () => ((plan as { operationId: string }).operationId = "op-2"),
    () => (plan.writes as PlannedWrite[]).push({ relativePath: "x", summary: "x", contentSha256: "0".repeat(64) }),
    () => (plan.writes as PlannedWrite[]).reverse(),
    () => ((plan.writes[0] as { contentSha256: string }).contentSha256 = "0".repeat(64)),
    () => ((plan.writes[0] as { relativePath: string }).relativePath = "src/evil.ts"),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // Refusing loudly is fine; what matters is the state afterwards.
    }
  }
  expect(JSON.stringify(plan)).toBe(snapshot);
  expect(planDigest(plan)).toBe(digest);
});
