import { expect, it } from "vitest";
import { defineTool } from "forge/tools/registry";
import { annotationsFor, forgeTools, toolList, TOOL_NAMES } from "forge/tools/server";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { acceptShown, session } from "./session.js";

// The server as a client sees it: five tools named as the official filesystem server names them, their
// schemas and hints, results with structuredContent, one tool error for bad input, and the audit.

function project(): string {
  const root = temporaryFolder();
  writeTree(root, {
    "README.md": "# Shop\n",
    "docs/guide.md": "# Guide\nexport the cart\nexport the orders\n",
    "docs/api.md": "# API\nexport GET /cart\n",
    "src/app.ts": "export const app = 'shop';\n",
  });
  return root;
}

it("lists the five tools under the official server's names, each inputSchema and outputSchema a JSON Schema object", async () => {
  const { client } = await session({ root: project() });
  const { tools } = await client.listTools();
  expect(
    tools.map((tool) => tool.name),
    "the tools a client sees",
  ).toEqual(["list_directory", "read_text_file", "search_files", "write_file", "run_command"]);
  for (const tool of tools) {
    expect(tool.inputSchema.type, `${tool.name}'s inputSchema type (the SDK client refuses any other)`).toBe("object");
    expect(tool.outputSchema?.type, `${tool.name}'s outputSchema type`).toBe("object");
    expect(tool.inputSchema.additionalProperties, `${tool.name}'s inputSchema refuses unknown fields`).toBe(false);
    // A client shows these to the model: a tool or a field without words is one the model must guess at.
    expect(tool.description?.length ?? 0, `the length of ${tool.name}'s description`).toBeGreaterThan(20);
    for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      const words = (schema as { description?: string }).description ?? "";
      expect(words.length, `the length of the description of ${tool.name}'s field ${field}`).toBeGreaterThan(10);
    }
  }
  expect(tools.find((tool) => tool.name === "read_text_file")?.inputSchema.required, "read_text_file's required fields").toEqual(["path"]);
});

it("derives every tool's annotations from its stage 01 capabilities, so the two cannot disagree", async () => {
  const { client } = await session({ root: project() });
  const registry = forgeTools();
  const listed = (await client.listTools()).tools;
  for (const tool of listed) {
    const [descriptor] = registry.supporting([]).filter((candidate) => candidate.name === tool.name);
    expect(descriptor, `the registry's descriptor of ${tool.name}`).toBeDefined();
    if (descriptor) expect(tool.annotations, `${tool.name}'s annotations against its capabilities`).toEqual(annotationsFor(descriptor));
  }
  const hints = Object.fromEntries(listed.map((tool) => [tool.name, tool.annotations]));
  expect(hints, "the hints of the five tools").toEqual({
    list_directory: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    read_text_file: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    search_files: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    write_file: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    run_command: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  });
  expect(
    [["network"], ["process"], ["write"], [], ["read", "network"]].map((capabilities) => annotationsFor(defineTool("t", capabilities))),
    "the hints of network, process, write, no capability and read with network",
  ).toEqual([
    { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  ]);
  expect(
    toolList(forgeTools()).map((tool) => tool.name),
    "toolList's order",
  ).toEqual([...TOOL_NAMES]);
});

it("returns stage 08's pagination for reads and lists, and its limit reason for a search, in structuredContent", async () => {
  const root = project();
  const { call } = await session({ root, limits: { matches: 2 } });
  const firstPage = await call("list_directory", { path: "docs", limit: 1 });
  expect(firstPage.structured, "the first page of docs").toEqual({
    path: "docs",
    entries: [{ name: "api.md", kind: "file" }],
    nextAfter: "api.md",
  });
  const secondPage = await call("list_directory", { path: `${root}/docs`, after: "api.md" });
  expect(secondPage.structured, "the page after api.md").toEqual({
    path: "docs",
    entries: [{ name: "guide.md", kind: "file" }],
    nextAfter: null,
  });
  expect(secondPage.text, "the page as text").toBe("[file] guide.md");
  const whole = await call("list_directory", { path: "." });
  expect(whole.text, "the root's entries as text, one per line").toBe("[file] README.md\n[directory] docs\n[directory] src");
  const file = await call("read_text_file", { path: "docs/guide.md" });
  expect(file.text, "docs/guide.md as text").toBe("# Guide\nexport the cart\nexport the orders");
  const lines = await call("read_text_file", { path: "docs/guide.md", startLine: 2, maxLines: 1 });
  expect(lines.structured, "line 2 of docs/guide.md").toEqual({
    path: "docs/guide.md",
    lines: ["export the cart"],
    startLine: 2,
    nextStartLine: 3,
  });
  const found = await call("search_files", { path: root, pattern: "export" });
  expect(found.structured, "a search that stops at the match limit").toMatchObject({ path: ".", truncated: true, limitReason: "matches" });
  expect(found.text.split("\n"), "the matches as text").toEqual(["docs/api.md:2: export GET /cart", "docs/guide.md:2: export the cart"]);
});

it("refuses arguments outside the tool's schema, object-property names included, as one tool error naming each field", async () => {
  const { call } = await session({ root: project() });
  const missing = await call("read_text_file", {});
  const typed = await call("list_directory", { path: 7, limit: 0 });
  const unknown = await call("read_text_file", JSON.parse('{"path":"README.md","__proto__":{"admin":true},"constructor":1}'));
  expect(missing.code, `read_text_file with no path: ${missing.text}`).toBe("invalid_arguments");
  expect(missing.text, "the message for a missing path").toMatch(/path: /);
  expect(typed.text, "the message names both fields").toMatch(/path: .*; limit: /);
  expect(unknown.code, `read_text_file with __proto__ and constructor fields: ${unknown.text}`).toBe("invalid_arguments");
  expect(unknown.text, "the unknown field, named").toContain('"constructor": unknown field');
  // JSON gives `__proto__` as a plain key; the SDK drops it before any tool sees it, and nothing is polluted.
  const proto = await call("read_text_file", JSON.parse('{"path":"README.md","__proto__":{"path":"/etc/passwd"}}'));
  expect(proto, "read_text_file with a __proto__ field beside its path").toMatchObject({ isError: false, text: "# Shop" });
  expect(Object.prototype, "Object.prototype after the calls").not.toHaveProperty("path");
  const huge = await call("read_text_file", { path: `${"a/".repeat(600_000)}x` });
  expect(huge.code, "a path of 1.2 MB").toBe("invalid_path");
});

it("refuses an unknown tool name, toString, __proto__ or constructor included, and audits it", async () => {
  const { call, server } = await session({ root: project() });
  const codes = [];
  for (const name of ["delete_everything", "toString", "__proto__", "constructor"]) codes.push((await call(name)).code);
  expect(codes, "the refusal of each unknown tool").toEqual(["unknown_tool", "unknown_tool", "unknown_tool", "unknown_tool"]);
  expect(
    server.audit.map((entry) => [entry.tool, entry.status]),
    "the audit of the four calls",
  ).toEqual([
    ["delete_everything", "rejected"],
    ["toString", "rejected"],
    ["__proto__", "rejected"],
    ["constructor", "rejected"],
  ]);
});

it("records every call and every refusal in the audit with the root that authorized it", async () => {
  const root = project();
  const times = ["2026-03-01T10:00:00.000Z", "2026-03-01T10:00:01.000Z", "2026-03-01T10:00:02.000Z", "2026-03-01T10:00:03.000Z"];
  let tick = 0;
  const seen: unknown[] = [];
  const { call, server } = await session(
    { root, now: () => new Date(times[Math.min(tick++, times.length - 1)] ?? 0), onAudit: (entry) => seen.push(entry) },
    { answer: acceptShown },
  );
  await call("read_text_file", { path: "README.md" });
  await call("read_text_file", { path: `${root}/../elsewhere.txt` });
  await call("write_file", { path: "notes.md", content: "# Notes\n" });
  const [read, refused, written] = server.audit;
  expect(read, "the audit entry of a read").toEqual({
    tool: "read_text_file",
    status: "completed",
    code: null,
    authorizedBy: root,
    planDigest: null,
    root,
    at: times[0],
  });
  expect(refused, "the audit entry of a refused read").toMatchObject({
    tool: "read_text_file",
    status: "rejected",
    code: "invalid_path",
    authorizedBy: null,
    root,
  });
  expect(written, "the audit entry of an approved write").toMatchObject({
    tool: "write_file",
    status: "committed",
    code: null,
    authorizedBy: "person",
    root,
  });
  expect(written?.planDigest, "the digest recorded for the write").toMatch(/^[0-9a-f]{64}$/);
  expect(seen, "the entries handed to onAudit as they landed").toEqual([...server.audit]);
  expect(Object.isFrozen(server.audit) && Object.isFrozen(server.audit[0]), "the audit and its entries are frozen").toBe(true);
});
