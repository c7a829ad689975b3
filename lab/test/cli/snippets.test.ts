// The client configurations the README and the stage 12 lesson give are the ones that work: each
// snippet is read from the Markdown, its two placeholder paths filled in, and started as written by
// the official SDK client, which lists the tools.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, it } from "vitest";
import { ROOT } from "../../core/layout.js";
import { temporaryFolder, writeTree } from "../../testing.js";

interface Snippet {
  readonly command: string;
  readonly args: readonly string[];
}

/** The body of every fenced block of one language in a Markdown file. */
function blocks(file: string, language: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((match) => match[1] ?? "");
}

/** The server entry of a JSON `mcpServers` block. */
function fromJson(body: string): Snippet {
  const parsed = JSON.parse(body) as { mcpServers: Record<string, Snippet> };
  const entry = parsed.mcpServers["forge-lab"];
  if (entry === undefined) throw new Error("no forge-lab entry in the mcpServers block");
  return entry;
}

/** The server table of Codex CLI's TOML: `command` is a string, `args` an array of strings (JSON's form). */
function fromToml(body: string): Snippet {
  const command = /^command = (".*")$/m.exec(body)?.[1];
  const args = /^args = (\[.*\])$/m.exec(body)?.[1];
  if (command === undefined || args === undefined) throw new Error(`no command or args line in:\n${body}`);
  return { command: JSON.parse(command) as string, args: JSON.parse(args) as string[] };
}

async function toolsOf(snippet: Snippet, root: string): Promise<string[]> {
  const args = snippet.args.map((arg) => arg.replace("/path/to/forge-lab", ROOT).replace("/path/to/your/repository", root));
  const client = new Client({ name: "snippet-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: snippet.command, args, cwd: root, stderr: "ignore" }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

const FIVE = ["list_directory", "read_text_file", "search_files", "write_file", "run_command"];

// Each start loads the lab through tsx (about a second alone, several under load): an explicit bound.
it("starts the server from the README's and the lesson's mcpServers and Codex snippets, as written", { timeout: 120_000 }, async () => {
  const root = temporaryFolder();
  writeTree(root, { "README.md": "# Shop\n" });
  for (const file of ["README.md", "stages/stage-12-mcp-server/README.md"]) {
    const json = blocks(file, "json").filter((body) => body.includes('"mcpServers"'));
    const toml = blocks(file, "toml").filter((body) => body.includes("[mcp_servers.forge-lab]"));
    expect([json.length, toml.length], `the mcpServers and Codex snippets in ${file}`).toEqual([1, 1]);
    expect(await toolsOf(fromJson(json[0] ?? ""), root), `the tools of ${file}'s mcpServers snippet`).toEqual(FIVE);
    expect(await toolsOf(fromToml(toml[0] ?? ""), root), `the tools of ${file}'s Codex snippet`).toEqual(FIVE);
  }
});
