import { expect, it } from "vitest";
import {
  ALLOWED_CAPABILITIES,
  defineTool,
  parseToolDescriptor,
  ToolRegistry,
  type Capability,
  type ToolDescriptor,
} from "forge/tools/registry";

/** The software-delivery scenario: a reader that only looks, an editor that also changes files. */
function deliveryRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(defineTool("reader", ["read"]));
  registry.register(defineTool("editor", ["read", "write"]));
  return registry;
}

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

it("returns only the tools that have every required capability", () => {
  const registry = deliveryRegistry();
  expect(names(registry.supporting(["read", "write"]))).toEqual(["editor"]);
  expect(names(registry.supporting(["write"]))).toEqual(["editor"]);
  expect(names(registry.supporting(["network"]))).toEqual([]);
});

it("rejects a tool that declares an unknown capability", () => {
  expect(() => defineTool("shell", ["root"])).toThrow(/invalid/);
  expect(() => defineTool("shell", ["read", "Write"])).toThrow(/invalid/);
});

it("rejects a second tool with a name that is already registered", () => {
  const registry = deliveryRegistry();
  expect(() => registry.register(defineTool("reader", ["read", "network"]))).toThrow(/already/);
  // The first registration is untouched: reader still has read only.
  expect(names(registry.supporting(["network"]))).toEqual([]);
});

it("returns every tool, sorted by name, for an empty requirement", () => {
  const registry = new ToolRegistry();
  for (const name of ["writer", "Zeta", "alpha", "editor"]) registry.register(defineTool(name, ["read"]));
  // Code-unit order: capitals before lower case, the same on every machine.
  expect(names(registry.supporting([]))).toEqual(["Zeta", "alpha", "editor", "writer"]);
});

it("rejects a blank tool name", () => {
  expect(() => defineTool("", ["read"])).toThrow(/invalid/);
  expect(() => defineTool("   ", ["read"])).toThrow(/invalid/);
});

it("keeps a descriptor unchanged after creation, its capability set included", () => {
  const tool = defineTool("reader", ["read"]);
  const writable = tool as { name: string; capabilities: unknown };
  const set = tool.capabilities as unknown as Set<string>;
  const attempts = [
    () => (writable.name = "root-shell"),
    () => (writable.capabilities = new Set(["read", "write"])),
    () => set.add("write"),
    () => set.clear(),
    // Reaches past any override: only a set whose items are truly private survives this.
    () => Set.prototype.add.call(set, "write"),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // Refusing loudly is fine; what matters is the state afterwards.
    }
  }
  expect(tool.name).toBe("reader");
  expect([...tool.capabilities]).toEqual(["read"]);
  expect(tool.capabilities.has("write" as Capability)).toBe(false);
  expect(tool.capabilities.size).toBe(1);
});

it("is not affected when the caller changes its array afterwards", () => {
  const declared = ["read"];
  const tool = defineTool("reader", declared);
  declared.push("write");
  expect([...tool.capabilities]).toEqual(["read"]);
  const registry = new ToolRegistry();
  registry.register(tool);
  expect(names(registry.supporting(["write"]))).toEqual([]);
});

it("validates a descriptor that arrives as untyped JSON", () => {
  const tool = parseToolDescriptor(JSON.parse('{"name": "editor", "capabilities": ["write", "read"]}'));
  expect(tool.name).toBe("editor");
  expect([...tool.capabilities].sort()).toEqual(["read", "write"]);
  for (const bad of [
    '{"name": "shell", "capabilities": ["root"]}',
    '{"name": "shell", "capabilities": "read"}',
    '{"name": "  ", "capabilities": []}',
    '{"name": 7, "capabilities": ["read"]}',
    '{"capabilities": ["read"]}',
    '["read"]',
    "null",
  ]) {
    expect(() => parseToolDescriptor(JSON.parse(bad)), bad).toThrow(/invalid/);
  }
});

it("rejects a requirement that names an unknown capability", () => {
  const registry = deliveryRegistry();
  // A misspelt requirement must not quietly match nothing.
  expect(() => registry.supporting(["wirte" as Capability])).toThrow(/invalid/);
});

it("registers only descriptors made by defineTool", () => {
  // The type says ToolDescriptor, but nothing validated this object.
  const forged = { name: "shell", capabilities: new Set(["root"]) } as unknown as ToolDescriptor;
  const registry = new ToolRegistry();
  expect(() => registry.register(forged)).toThrow(/invalid/);
  expect(names(registry.supporting([]))).toEqual([]);
  expect(ALLOWED_CAPABILITIES).toEqual(["read", "write", "network", "process"]);
});
