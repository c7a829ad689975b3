import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { buildChangePlan, planDigest, type ChangePlan, type PlannedWrite } from "forge/tools/plans";
import { otherThan, outcome, refused, type Wording } from "../../lab/outcome.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const paths = (plan: ChangePlan): string[] => plan.writes.map((write) => write.relativePath);

/** A hash, and what it is the SHA-256 of when it is one of `candidates`: a wrong hash says what it hashed. */
function identify(hash: string | undefined, candidates: Record<string, string>): string {
  for (const [what, text] of Object.entries(candidates)) if (hash === sha256(bytes(text))) return `${hash} = SHA-256 of ${what}`;
  return `${String(hash)} = SHA-256 of none of: ${Object.keys(candidates).join(", ")}`;
}

/** A plan in words, for a call that should have been refused and returned one. */
const planInWords = (value: unknown) => {
  const plan = value as Partial<ChangePlan> | null;
  const targets = Array.isArray(plan?.writes) ? plan.writes.map((write) => JSON.stringify(write?.relativePath)).join(", ") : "none";
  return `no error; returned a plan with writes to ${targets}`;
};

/** What buildChangePlan does with each request, in words: the refusal, or the plan it made instead. */
function verdicts(cases: Record<string, () => unknown>, wording: Wording): Record<string, string> {
  return Object.fromEntries(Object.entries(cases).map(([label, call]) => [label, outcome(call, wording, planInWords)]));
}

it("lists the writes sorted by path, whatever order they were given in", () => {
  const plan = buildChangePlan("op-1", {
    "src/b.ts": ["write b", bytes("B")],
    "src/a.ts": ["write a", bytes("A")],
  });
  expect(plan.operationId, "operationId of the plan").toBe("op-1");
  expect(paths(plan), "targets of a plan given src/b.ts first, in plan order").toEqual(["src/a.ts", "src/b.ts"]);
  expect(
    plan.writes.map((write) => write.summary),
    "summaries in plan order (each must stay with its write)",
  ).toEqual(["write a", "write b"]);

  // Code-unit order, the same on every machine: capitals before lower case, unlike localeCompare.
  const mixed = buildChangePlan("op-2", {
    "src/alpha.ts": ["a", bytes("1")],
    "src/Zeta.ts": ["z", bytes("2")],
    "README.md": ["r", bytes("3")],
    "src/App.tsx": ["app", bytes("4")],
  });
  expect(paths(mixed), "targets in plan order, which must be code-unit order").toEqual([
    "README.md",
    "src/App.tsx",
    "src/Zeta.ts",
    "src/alpha.ts",
  ]);
});

it("records the SHA-256 of the bytes to be written, not of the summary", () => {
  const plan = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")] });
  const hashed = { 'the bytes "A"': "A", 'the summary "write a"': "write a" };
  expect(identify(plan.writes[0]?.contentSha256, hashed), 'contentSha256 of a.txt, planned as ["write a", bytes "A"]').toBe(
    '559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd = SHA-256 of the bytes "A"',
  );

  // Other bytes under the same summary: the hash follows the bytes, and so does the digest.
  const changed = buildChangePlan("op-1", { "a.txt": ["write a", bytes("B")] });
  expect(
    identify(changed.writes[0]?.contentSha256, { 'the bytes "B"': "B", 'the summary "write a"': "write a" }),
    'contentSha256 of a.txt, planned as ["write a", bytes "B"]',
  ).toBe(`${sha256(bytes("B"))} = SHA-256 of the bytes "B"`);
  expect(planDigest(changed), 'planDigest must change when the bytes of a.txt change from "A" to "B" under the same summary').not.toBe(
    planDigest(plan),
  );

  // The same bytes under other words: nothing that binds the effect changes.
  const reworded = buildChangePlan("op-1", { "a.txt": ["set a.txt to the letter A", bytes("A")] });
  expect(reworded.writes[0]?.contentSha256, "contentSha256 of a.txt must stay the same when only its summary is reworded").toBe(
    plan.writes[0]?.contentSha256,
  );
  expect(planDigest(reworded), "planDigest must stay the same when only the summary of a.txt is reworded").toBe(planDigest(plan));
});

it("rejects a plan with no writes", () => {
  expect(verdicts({ 'buildChangePlan("op-1", {})': () => buildChangePlan("op-1", {}) }, "required"), "a plan with no writes").toEqual({
    'buildChangePlan("op-1", {})': refused("required"),
  });
});

it("rejects a blank operation id", () => {
  const writes = { "a.txt": ["write a", bytes("A")] } as const;
  expect(
    verdicts({ '""': () => buildChangePlan("", writes), '"  \\t"': () => buildChangePlan("  \t", writes) }, "required"),
    "plans with a blank operation id",
  ).toEqual({
    '""': refused("required"),
    '"  \\t"': refused("required"),
  });
});

it("rejects an operation id that is not a string, and the error shows the value it got", () => {
  const writes = { "a.txt": ["write a", bytes("A")] } as const;
  // Untyped callers can pass anything, the whole operation object included.
  const ids: Record<string, unknown> = { undefined: undefined, null: null, "42": 42, '{ id: "op-7" }': { id: "op-7" } };
  const cases = Object.fromEntries(Object.entries(ids).map(([label, id]) => [label, () => buildChangePlan(id as string, writes)]));
  expect(
    otherThan(verdicts(cases, "required"), refused("required")),
    'operation ids that are not strings, not refused with an error containing "required"',
  ).toEqual({});
  // What the caller passed, so it can see its mistake: the number, and the object with its fields.
  const shown: Record<string, string> = { "42": "42", '{ id: "op-7" }': "op-7" };
  const named = Object.fromEntries(
    Object.entries(shown).map(([label, value]) => [
      label,
      outcome(() => buildChangePlan(ids[label] as string, writes), value, planInWords),
    ]),
  );
  expect(
    otherThan(named, Object.fromEntries(Object.entries(shown).map(([label, value]) => [label, refused(value)]))),
    "operation ids that are not strings, refused without showing the value that was passed",
  ).toEqual({});
});

it("rejects missing writes, undefined or null, as required", () => {
  const missing = (writes: unknown) => () => buildChangePlan("op-1", writes as Record<string, readonly [string, Uint8Array]>);
  expect(
    otherThan(verdicts({ undefined: missing(undefined), null: missing(null) }, "required"), refused("required")),
    'writes that are missing, not refused with an error containing "required"',
  ).toEqual({});
});

it("rejects two keys that name the same target after normalization", () => {
  const twins: [string, string][] = [
    ["a.txt", "./a.txt"],
    ["dir\\a.txt", "dir/a.txt"],
    ["dir/../a.txt", "a.txt"],
    ["src//app.ts", "src/app.ts"],
  ];
  const cases = Object.fromEntries(
    twins.map(([first, second]) => {
      const writes = { [first]: ["one version", bytes("1")], [second]: ["another version", bytes("2")] } as const;
      return [`${first} and ${second}`, () => buildChangePlan("op-1", writes)];
    }),
  );
  expect(
    otherThan(verdicts(cases, "duplicate"), refused("duplicate")),
    'plans with two keys for one target, not refused with an error containing "duplicate"',
  ).toEqual({});
});

it("records each target in normalized form and sorts by that form", () => {
  const plan = buildChangePlan("op-1", {
    "./src/b.ts": ["b", bytes("B")],
    "src\\a.ts": ["a", bytes("A")],
    "src//c.ts": ["c", bytes("C")],
    "lib/../src/d.ts": ["d", bytes("D")],
  });
  // Sorted by the key as written, "./src/b.ts" would come first.
  expect(paths(plan), 'targets planned from "./src/b.ts", "src\\a.ts", "src//c.ts" and "lib/../src/d.ts", in plan order').toEqual([
    "src/a.ts",
    "src/b.ts",
    "src/c.ts",
    "src/d.ts",
  ]);
  // Normalization is lexical and keeps case: these are two files on a case-sensitive file system.
  expect(
    paths(buildChangePlan("op-2", { "README.md": ["r", bytes("1")], "readme.md": ["r", bytes("2")] })),
    "targets planned from README.md and readme.md",
  ).toEqual(["README.md", "readme.md"]);
});

it("rejects a target path that is absolute, climbs out of the workspace or names no file", () => {
  const write = ["write", bytes("x")] as const;
  const groups: [readonly string[], RegExp][] = [
    [["/etc/passwd", "\\x", "C:\\x", "C:x", "c:/x", "//server/share/x", "\\\\server\\share\\x"], /invalid target path.*absolute/],
    [["../x", "a/../../x", "..\\x", "./.."], /invalid target path.*escapes/],
    [["", ".", "a/..", "./"], /invalid target path.*names no file/],
    [["a\0.txt"], /invalid target path/],
  ];
  const actual: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [keys, wording] of groups) {
    for (const key of keys) {
      actual[JSON.stringify(key)] = outcome(() => buildChangePlan("op-1", { [key]: write }), wording, planInWords);
      expected[JSON.stringify(key)] = refused(wording);
    }
  }
  expect(otherThan(actual, expected), "target paths that are absolute, climb out or name no file, not refused as expected").toEqual({});
});

it("treats only a letter and a colon at the start as a drive: a colon further on is part of a name", () => {
  const write = ["write", bytes("x")] as const;
  const keys = ["ab:c.txt", "notes/standup:monday.md", "src/C:x.ts"];
  const planned = (value: unknown) => `planned as ${JSON.stringify(paths(value as ChangePlan))}`;
  const actual = Object.fromEntries(keys.map((key) => [key, outcome(() => buildChangePlan("op-1", { [key]: write }), null, planned)]));
  const expected = Object.fromEntries(keys.map((key) => [key, `planned as ${JSON.stringify([key])}`]));
  expect(otherThan(actual, expected), "target paths with a colon after the start, not planned as written").toEqual({});
});

it("rejects a target path that is not well-formed Unicode, which the disk would store under another name", () => {
  const write = ["write", bytes("x")] as const;
  // A lone surrogate is encoded as U+FFFD on its way to the disk: "a\ud800.txt" and "a\ufffd.txt" would
  // be two targets in the plan, and one file.
  const illFormed = ["a\ud800.txt", "src/\udc00.ts", "docs/\ud83d", "\ude00notes.md"];
  const actual: Record<string, string> = {};
  for (const key of illFormed)
    actual[JSON.stringify(key)] = outcome(() => buildChangePlan("op-1", { [key]: write }), "invalid target path", planInWords);
  actual['"a\ud800.txt" with "a\ufffd.txt"'] = outcome(
    () => buildChangePlan("op-1", { "a\ud800.txt": write, "a\ufffd.txt": write }),
    "invalid target path",
    planInWords,
  );
  expect(
    otherThan(actual, refused("invalid target path")),
    'target paths with a lone surrogate, not refused with an error containing "invalid target path"',
  ).toEqual({});
  // Well-formed text is a name like any other: U+FFFD itself, and an emoji written as a surrogate pair.
  expect(
    paths(buildChangePlan("op-2", { "a\ufffd.txt": write, "docs/\ud83d\ude00.md": write })),
    'targets planned from "a\ufffd.txt" and "docs/\ud83d\ude00.md"',
  ).toEqual(["a\ufffd.txt", "docs/\ud83d\ude00.md"]);
});

it("accepts only bytes as content", () => {
  const asArray = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")] });
  const asBuffer = buildChangePlan("op-1", { "a.txt": ["write a", Buffer.from("A")] });
  expect(asBuffer.writes, "the writes planned from a Buffer must equal those from a Uint8Array of the same bytes").toEqual(asArray.writes);
  // Text is not bytes until an encoding is chosen; untyped callers can send anything.
  const notBytes: unknown[] = [["write a", "A"], ["write a", [65]], ["write a"], "A", null];
  const cases = Object.fromEntries(
    notBytes.map((request) => [
      JSON.stringify(request),
      () => buildChangePlan("op-1", { "a.txt": request } as unknown as Record<string, readonly [string, Uint8Array]>),
    ]),
  );
  expect(
    otherThan(verdicts(cases, "invalid write"), refused("invalid write")),
    'requests for a.txt that are not [summary, bytes], not refused with an error containing "invalid write"',
  ).toEqual({});
});

it("rejects a write request that is not exactly a summary string and bytes", () => {
  // A third element would be silently dropped, and a summary that is not text cannot be shown to the reviewer.
  const notPairs: Record<string, unknown> = {
    '["write a", bytes "A", "extra"]': ["write a", bytes("A"), "extra"],
    '[42, bytes "A"]': [42, bytes("A")],
    '[null, bytes "A"]': [null, bytes("A")],
  };
  const cases = Object.fromEntries(
    Object.entries(notPairs).map(([label, request]) => [
      label,
      () => buildChangePlan("op-1", { "a.txt": request } as unknown as Record<string, readonly [string, Uint8Array]>),
    ]),
  );
  expect(
    otherThan(verdicts(cases, "invalid write"), refused("invalid write")),
    'requests for a.txt that are not exactly [summary, bytes], not refused with an error containing "invalid write"',
  ).toEqual({});
});

it("binds each path: the same bytes planned for another file get another digest", () => {
  const toA = buildChangePlan("op-1", { "a.txt": ["write", bytes("A")] });
  const toB = buildChangePlan("op-1", { "b.txt": ["write", bytes("A")] });
  // Same bytes, same summary, so the content hashes agree; only the path differs.
  expect(toB.writes[0]?.contentSha256, 'contentSha256 of the same bytes "A" must be the same for b.txt as for a.txt').toBe(
    toA.writes[0]?.contentSha256,
  );
  expect(planDigest(toB), 'planDigest of bytes "A" to b.txt must differ from that of the same bytes to a.txt').not.toBe(planDigest(toA));
  // A write added to the plan changes the digest too.
  const both = buildChangePlan("op-1", { "a.txt": ["write", bytes("A")], "b.txt": ["write", bytes("A")] });
  expect(planDigest(both), "planDigest of a plan that also writes b.txt must differ from that of the plan that writes a.txt only").not.toBe(
    planDigest(toA),
  );
  expect(planDigest(toA), "planDigest, which must be 64 lower-case hex digits").toMatch(/^[0-9a-f]{64}$/);
});

it("gives the same digest whatever the insertion order, spelling of the keys or operation id", () => {
  const first = buildChangePlan("op-1", { "a.txt": ["write a", bytes("A")], "b.txt": ["write b", bytes("B")] });
  const reordered = buildChangePlan("op-2", { "b.txt": ["write b", bytes("B")], "a.txt": ["write a", bytes("A")] });
  const respelled = buildChangePlan("op-3", { "./b.txt": ["write b", bytes("B")], "x/../a.txt": ["write a", bytes("A")] });
  expect(
    { reordered: planDigest(reordered), respelled: planDigest(respelled), "the same plan again": planDigest(first) },
    "planDigest of plans that differ from the first only in key order, key spelling and operation id; each must equal the first plan's",
  ).toEqual({ reordered: planDigest(first), respelled: planDigest(first), "the same plan again": planDigest(first) });
});

it("encodes the digest so that two different plans cannot run together", () => {
  const twoWrites = buildChangePlan("op-1", { a: ["write a", bytes("A")], b: ["write b", bytes("B")] });
  const hashOfA = twoWrites.writes[0]?.contentSha256 ?? "";
  // One write whose path swallows the first pair: "a" + hash + "b", with b's bytes.
  const oneWrite = buildChangePlan("op-1", { [`a${hashOfA}b`]: ["write b", bytes("B")] });
  const concatenated = (plan: ChangePlan) => plan.writes.map((write) => write.relativePath + write.contentSha256).join("");
  // The trap is real: gluing paths and hashes together makes the two plans one string.
  expect(concatenated(oneWrite), "the premise: paths and hashes glued together read the same for both plans").toBe(concatenated(twoWrites));
  expect(planDigest(oneWrite), `planDigest of one write to "a<hash of A>b" must differ from that of two writes to a and b`).not.toBe(
    planDigest(twoWrites),
  );
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
  expect(JSON.stringify(plan), "the plan after the caller changed its bytes, its tuple and its record").toBe(snapshot);

  expect(
    {
      plan: Object.isFrozen(plan),
      writes: Object.isFrozen(plan.writes),
      "every write": plan.writes.every((write) => Object.isFrozen(write)),
    },
    "Object.isFrozen of the plan, its writes array and each write",
  ).toEqual({ plan: true, writes: true, "every write": true });
  const attempts: Record<string, () => unknown> = {
    'plan.operationId = "op-2"': () => ((plan as { operationId: string }).operationId = "op-2"),
    "plan.writes.push(…)": () => (plan.writes as PlannedWrite[]).push({ relativePath: "x", summary: "x", contentSha256: "0".repeat(64) }),
    "plan.writes.reverse()": () => (plan.writes as PlannedWrite[]).reverse(),
    'writes[0].contentSha256 = "000…"': () => ((plan.writes[0] as { contentSha256: string }).contentSha256 = "0".repeat(64)),
    'writes[0].relativePath = "src/evil.ts"': () => ((plan.writes[0] as { relativePath: string }).relativePath = "src/evil.ts"),
  };
  // Every attempt that changed the plan, with the plan afterwards; none may have.
  const changed: Record<string, string> = {};
  let state = snapshot;
  for (const [label, attempt] of Object.entries(attempts)) {
    try {
      attempt();
    } catch {
      // Refusing loudly is fine; what matters is the state afterwards.
    }
    if (JSON.stringify(plan) !== state) changed[label] = state = JSON.stringify(plan);
  }
  expect(changed, `attempts that changed the plan ${snapshot}, with the plan after each`).toEqual({});
  expect(planDigest(plan), "planDigest must stay the same after the attempts to change the plan").toBe(digest);
});
