import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parseToolDescriptor, ToolRegistry } from "forge/tools/registry";

// Transfer: the same registry in an office-research team. The tools arrive as JSON, as a plugin
// manifest would deliver them, so they pass through parseToolDescriptor.
const manifest: unknown = JSON.parse(
  readFileSync(new URL("../../fixtures/scenarios/office-research/tools.json", import.meta.url), "utf8"),
);

function researchRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const entry of manifest as unknown[]) registry.register(parseToolDescriptor(entry));
  return registry;
}

it("finds web_fetcher, and only web_fetcher, by a network requirement", () => {
  const registry = researchRegistry();
  expect(registry.supporting(["network"]).map((tool) => tool.name)).toEqual(["web_fetcher"]);
  expect(registry.supporting(["network", "read"]).map((tool) => tool.name)).toEqual(["web_fetcher"]);
});

it("still finds every reading tool, sorted, when only read is required", () => {
  const registry = researchRegistry();
  expect(registry.supporting(["read"]).map((tool) => tool.name)).toEqual(["notes_writer", "reader", "web_fetcher"]);
  expect(registry.supporting(["network", "write"])).toEqual([]);
});
