import { expect, it } from "vitest";
import {
  ALLOWED_CAPABILITIES,
  defineTool,
  parseToolDescriptor,
  toolDescriptorInput,
  ToolRegistry,
  type Capability,
  type ToolDescriptor,
} from "forge/tools/registry";
import { oneLine, otherThan, outcome, refused } from "../../lab/outcome.js";

/** The software-delivery scenario: a reader that only looks, an editor that also changes files. */
function deliveryRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(defineTool("reader", ["read"]));
  registry.register(defineTool("editor", ["read", "write"]));
  return registry;
}

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

/** The tools `supporting` returns, by requirement: `{ "read + write": ["editor"], … }`. */
function found(registry: ToolRegistry, requirements: readonly (readonly Capability[])[]): Record<string, string[]> {
  return Object.fromEntries(requirements.map((required) => [required.join(" + ") || "(nothing)", names(registry.supporting(required))]));
}

/** A descriptor in words, so that a tool accepted by mistake shows what it declares. */
function toolInWords(value: unknown): string {
  if (typeof value !== "object" || value === null || !("name" in value) || !("capabilities" in value)) return oneLine(value);
  let capabilities: string;
  try {
    capabilities = [...(value.capabilities as Iterable<unknown>)].map(String).join(", ");
  } catch {
    capabilities = oneLine(value.capabilities);
  }
  return `tool ${JSON.stringify(value.name)} with capabilities [${capabilities}]`;
}

/** How a call that should have been refused is shown when it returned a descriptor instead. */
const describeTool = (value: unknown) => `no error; returned ${toolInWords(value)}`;

/** What a descriptor holds now, in one line. */
function stateOf(tool: ToolDescriptor): string {
  return `${toolInWords(tool)}, has("write") ${String(tool.capabilities.has("write" as Capability))}, size ${tool.capabilities.size}`;
}

it("returns only the tools that have every required capability", () => {
  const registry = deliveryRegistry();
  const byRequirement = found(registry, [["read", "write"], ["write"], ["network"]]);
  expect(byRequirement, "tools returned by supporting(requirement), by requirement").toEqual({
    "read + write": ["editor"],
    write: ["editor"],
    network: [],
  });
});

it("rejects a tool that declares an unknown capability", () => {
  const verdicts = {
    '["root"]': outcome(() => defineTool("shell", ["root"]), "invalid", describeTool),
    '["read", "Write"]': outcome(() => defineTool("shell", ["read", "Write"]), "invalid", describeTool),
  };
  expect(
    otherThan(verdicts, refused("invalid")),
    'defineTool("shell", capabilities) with a capability outside the vocabulary, not refused with an error containing "invalid"',
  ).toEqual({});
});

it("rejects a second tool with a name that is already registered", () => {
  const registry = deliveryRegistry();
  const second = outcome(() => registry.register(defineTool("reader", ["read", "network"])), "already");
  expect(second, 'registering a second tool named "reader"').toBe(refused("already"));
  // The first registration is untouched: reader still has read only.
  expect(found(registry, [["network"]]), "tools with network after the refused second reader").toEqual({ network: [] });
});

it("returns every tool, sorted by name, for an empty requirement", () => {
  const registry = new ToolRegistry();
  for (const name of ["writer", "Zeta", "alpha", "editor"]) registry.register(defineTool(name, ["read"]));
  // Code-unit order: capitals before lower case, the same on every machine.
  expect(names(registry.supporting([])), "tools returned by supporting([]), in code-unit order of their names").toEqual([
    "Zeta",
    "alpha",
    "editor",
    "writer",
  ]);
});

it("rejects a blank tool name", () => {
  const verdicts = {
    '""': outcome(() => defineTool("", ["read"]), "invalid", describeTool),
    '"   "': outcome(() => defineTool("   ", ["read"]), "invalid", describeTool),
  };
  expect(
    otherThan(verdicts, refused("invalid")),
    'blank names given to defineTool, not refused with an error containing "invalid"',
  ).toEqual({});
});

it("keeps a descriptor unchanged after creation, its capability set included", () => {
  const tool = defineTool("reader", ["read"]);
  const original = stateOf(tool);
  const writable = tool as { name: string; capabilities: unknown };
  const set = tool.capabilities as unknown as Set<string>;
  const attempts: Record<string, () => unknown> = {
    'tool.name = "root-shell"': () => (writable.name = "root-shell"),
    'tool.capabilities = new Set(["read", "write"])': () => (writable.capabilities = new Set(["read", "write"])),
    'capabilities.add("write")': () => set.add("write"),
    "capabilities.clear()": () => set.clear(),
    // Reaches past any override: only a set whose items are truly private survives this.
    'Set.prototype.add.call(capabilities, "write")': () => Set.prototype.add.call(set, "write"),
  };
  // Every attempt that changed the descriptor, with its state afterwards; none may have.
  const changed: Record<string, string> = {};
  let state = original;
  for (const [label, attempt] of Object.entries(attempts)) {
    try {
      attempt();
    } catch {
      // Refusing loudly is fine; what matters is the state afterwards.
    }
    if (stateOf(tool) !== state) changed[label] = state = stateOf(tool);
  }
  expect(changed, `attempts that changed the descriptor (${original}), with its state after each`).toEqual({});
  expect(original, "the descriptor as created").toBe('tool "reader" with capabilities [read], has("write") false, size 1');
});

it("is not affected when the caller changes its array afterwards", () => {
  const declared = ["read"];
  const tool = defineTool("reader", declared);
  declared.push("write");
  expect([...tool.capabilities], 'capabilities of the tool after the caller pushed "write" onto its own array').toEqual(["read"]);
  const registry = new ToolRegistry();
  registry.register(tool);
  expect(found(registry, [["write"]]), 'tools with write after the caller pushed "write" onto its own array').toEqual({ write: [] });
});

it("validates a descriptor that arrives as untyped JSON", () => {
  const tool = parseToolDescriptor(JSON.parse('{"name": "editor", "capabilities": ["write", "read"]}'));
  expect(tool.name, "name parsed from JSON").toBe("editor");
  expect([...tool.capabilities].sort(), "capabilities parsed from JSON").toEqual(["read", "write"]);
  const bad = [
    '{"name": "shell", "capabilities": ["root"]}',
    '{"name": "shell", "capabilities": "read"}',
    '{"name": "  ", "capabilities": []}',
    '{"name": 7, "capabilities": ["read"]}',
    '{"capabilities": ["read"]}',
    '["read"]',
    "null",
  ];
  const verdicts = Object.fromEntries(
    bad.map((json) => [json, outcome(() => parseToolDescriptor(JSON.parse(json)), "invalid", describeTool)]),
  );
  expect(
    otherThan(verdicts, refused("invalid")),
    'malformed descriptors given to parseToolDescriptor, not refused with an error containing "invalid"',
  ).toEqual({});
});

it("rejects a requirement that names an unknown capability", () => {
  const registry = deliveryRegistry();
  // A misspelt requirement must not quietly match nothing.
  expect(
    outcome(() => names(registry.supporting(["wirte" as Capability])), "invalid"),
    'supporting(["wirte"]), a misspelt requirement',
  ).toBe(refused("invalid"));
});

it("registers only descriptors made by defineTool", () => {
  // The type says ToolDescriptor, but nothing validated this object.
  const forged = { name: "shell", capabilities: new Set(["root"]) } as unknown as ToolDescriptor;
  const registry = new ToolRegistry();
  expect(
    outcome(() => registry.register(forged), "invalid"),
    'registering a plain object { name: "shell", capabilities: Set { "root" } }',
  ).toBe(refused("invalid"));
  expect(found(registry, [[]]), "tools registered after the forged one was refused").toEqual({ "(nothing)": [] });
  expect(ALLOWED_CAPABILITIES, "ALLOWED_CAPABILITIES").toEqual(["read", "write", "network", "process"]);
});

/** The message of the error `call` throws, or what it returned instead. */
function messageOf(call: () => unknown): string {
  try {
    return `no error; returned ${oneLine(call())}`;
  } catch (error) {
    return error instanceof Error ? error.message : `threw ${oneLine(error)}, which is not an Error`;
  }
}

/** The words of `wanted` that `message` does not contain as whole words. */
const unnamed = (message: string, wanted: readonly string[]) =>
  wanted.filter((word) => !new RegExp(`(^|[^A-Za-z0-9_])${word}($|[^A-Za-z0-9_])`).test(message));

it("names each unknown capability in its error, and the allowed ones", () => {
  const declared = messageOf(() => defineTool("shell", ["root", undefined as unknown as string]));
  expect(
    unnamed(declared, ["invalid", "root", "undefined"]),
    `words missing from the error of defineTool("shell", ["root", undefined]): ${declared}`,
  ).toEqual([]);
  expect(
    unnamed(declared, [...ALLOWED_CAPABILITIES]),
    `allowed capabilities missing from that error, each as a word of its own: ${declared}`,
  ).toEqual([]);
  const required = messageOf(() => deliveryRegistry().supporting(["wirte", "netwrok"] as unknown as Capability[]));
  expect(
    unnamed(required, ["invalid", "wirte", "netwrok"]),
    `words missing from the error of supporting(["wirte", "netwrok"]): ${required}`,
  ).toEqual([]);
});

it("lists a tool's capabilities in one order, however they were declared", () => {
  const orders = {
    '["write", "read", "network"]': [...defineTool("a", ["write", "read", "network"]).capabilities],
    '["network", "write", "read"]': [...defineTool("b", ["network", "write", "read"]).capabilities],
    '["read", "network", "write"]': [...defineTool("c", ["read", "network", "write"]).capabilities],
  };
  const expected = ["network", "read", "write"];
  expect(orders, "capabilities of a tool, by the order they were declared in").toEqual({
    '["write", "read", "network"]': expected,
    '["network", "write", "read"]': expected,
    '["read", "network", "write"]': expected,
  });
});

it("visits every capability with forEach, as a ReadonlySet does", () => {
  const tool = defineTool("editor", ["write", "read"]);
  const visits: string[] = [];
  const context = { label: "ctx" };
  tool.capabilities.forEach(function (this: unknown, value, key, set) {
    visits.push(`${value}/${key}/${set === tool.capabilities ? "the set" : oneLine(set)}/${this === context ? "thisArg" : oneLine(this)}`);
  }, context);
  expect(visits, 'calls of capabilities.forEach(callback, thisArg) as "value/key/set/this"').toEqual([
    "read/read/the set/thisArg",
    "write/write/the set/thisArg",
  ]);
});

it("rejects a tool name that is not a string", () => {
  const verdicts = {
    "7": outcome(() => defineTool(7 as unknown as string, ["read"]), "invalid", describeTool),
    null: outcome(() => defineTool(null as unknown as string, ["read"]), "invalid", describeTool),
  };
  expect(
    otherThan(verdicts, refused("invalid")),
    'names that are not strings given to defineTool, not refused with an error containing "invalid"',
  ).toEqual({});
});

it("refuses a blank name in the JSON schema itself, not only in defineTool", () => {
  const result = toolDescriptorInput.safeParse({ name: "   ", capabilities: ["read"] });
  const said = result.success
    ? `accepted ${oneLine(result.data)}`
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  expect(said, 'toolDescriptorInput.safeParse({ name: "   ", capabilities: ["read"] })').toMatch(/^name: .*\bblank\b/);
});

it("names every invalid field when it rejects untyped JSON", () => {
  const message = messageOf(() => parseToolDescriptor({ name: 7, capabilities: ["root"] }));
  expect(
    unnamed(message, ["invalid", "name", "capabilities"]),
    `fields missing from the error of parseToolDescriptor({ name: 7, capabilities: ["root"] }): ${message}`,
  ).toEqual([]);
});

it("names each unknown value as a word of its own, even when it is not a string", () => {
  // Strings arrive quoted; these do not, so only a separator keeps them apart in the message.
  const values = [null, undefined, 7];
  const words = ["null", "undefined", "7"];
  const declared = messageOf(() => defineTool("shell", values as unknown as string[]));
  expect(
    unnamed(declared, words),
    `unknown values missing from the error of defineTool("shell", [null, undefined, 7]), each as a word of its own: ${declared}`,
  ).toEqual([]);
  const required = messageOf(() => deliveryRegistry().supporting(values as unknown as Capability[]));
  expect(
    unnamed(required, words),
    `unknown values missing from the error of supporting([null, undefined, 7]), each as a word of its own: ${required}`,
  ).toEqual([]);
});
