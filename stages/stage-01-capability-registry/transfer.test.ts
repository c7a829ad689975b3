import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parseToolDescriptor, ToolRegistry, type Capability } from "forge/tools/registry";

// Transfer: the same registry in an office-research team. The tools arrive as JSON, as a plugin
// manifest would deliver them, so they pass through parseToolDescriptor.
const manifest: unknown = JSON.parse(readFileSync(new URL("../../fixtures/scenarios/office-research/tools.json", import.meta.url), "utf8"));

function researchRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const entry of manifest as unknown[]) registry.register(parseToolDescriptor(entry));
  return registry;
}

/** The names `supporting` returns, by requirement: `{ "network + read": ["web_fetcher"], … }`. */
function found(registry: ToolRegistry, requirements: readonly (readonly Capability[])[]): Record<string, string[]> {
  return Object.fromEntries(requirements.map((required) => [required.join(" + "), registry.supporting(required).map((tool) => tool.name)]));
}

it("finds web_fetcher, and only web_fetcher, by a network requirement", () => {
  expect(found(researchRegistry(), [["network"], ["network", "read"]]), "research tools returned by supporting(requirement)").toEqual({
    network: ["web_fetcher"],
    "network + read": ["web_fetcher"],
  });
});

it("still finds every reading tool, sorted, when only read is required", () => {
  expect(found(researchRegistry(), [["read"], ["network", "write"]]), "research tools returned by supporting(requirement)").toEqual({
    read: ["notes_writer", "reader", "web_fetcher"],
    "network + write": [],
  });
});
