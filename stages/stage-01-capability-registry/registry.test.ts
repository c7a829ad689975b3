import { expect, it } from "vitest";
import {
  ALLOWED_CAPABILITIES,
  defineTool,
  parseToolDescriptor,
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
