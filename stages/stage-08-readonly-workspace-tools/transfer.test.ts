import { readFileSync } from "node:fs";
import { memfs } from "memfs";
import { expect, it } from "vitest";
import { ReadOnlyWorkspace, WorkspaceToolError, type ReadOnlyFileSystem } from "forge/tools/readonly";

// Transfer: the same three tools for a research assistant. Its workspace is a market-study folder on a
// shared drive: interview notes, a draft report and a workshop transcript, next to the team's CRM
// export (a SQLite database with its sidecars) and the assistant's own configuration with its search
// API key. The trusted startup code names those two; nothing else about the scenario is in the tools.
interface ResearchFolder {
  readonly protectedPaths: readonly string[];
  readonly files: Readonly<Record<string, string>>;
}

const folder = JSON.parse(
  readFileSync(new URL("../../fixtures/scenarios/office-research/research-folder.json", import.meta.url), "utf8"),
) as ResearchFolder;

function researchWorkspace(): ReadOnlyWorkspace {
  const { fs } = memfs({ ...folder.files }, "/study");
  const fileSystem: ReadOnlyFileSystem = fs.promises;
  return new ReadOnlyWorkspace("/study", { fs: fileSystem, protectedPaths: folder.protectedPaths });
}

it("finds a quoted figure with regex characters in the research notes, as plain text", async () => {
  const workspace = researchWorkspace();
  const where = async (query: string) => (await workspace.search(query)).matches.map((match) => `${match.path}:${match.line}`);
  expect(
    { "$1.2M (+18%)": await where("$1.2M (+18%)"), "[source 3]": await where("[source 3]"), "(draft)": await where("(draft)") },
    "where each query is found, in path order",
  ).toEqual({
    "$1.2M (+18%)": ["notes/2024-09-19 interview globex.md:5", "reports/q3-draft.md:3", "transcripts/workshop-2024-09-25.txt:8"],
    "[source 3]": ["sources/links.md:1"],
    "(draft)": ["reports/q3-draft.md:1", "transcripts/workshop-2024-09-25.txt:10"],
  });
});

it("keeps the CRM database, its sidecars and the assistant's key out of every answer", async () => {
  const workspace = researchWorkspace();
  const kinds = async (path: string) => (await workspace.list(path)).entries.map((entry) => `${entry.name} ${entry.kind}`);
  expect({ ".": await kinds("."), crm: await kinds("crm"), config: await kinds("config") }, "what list shows").toEqual({
    ".": [
      ".env blocked",
      "brief.md file",
      "config directory",
      "crm directory",
      "notes directory",
      "reports directory",
      "sources directory",
      "transcripts directory",
    ],
    crm: ["contacts.sqlite blocked", "contacts.sqlite-journal blocked", "contacts.sqlite-wal blocked"],
    config: ["assistant.toml blocked"],
  });
  const reads: Record<string, string> = {};
  for (const path of ["crm/contacts.sqlite-wal", "config/assistant.toml", ".env"]) {
    try {
      reads[path] = `read: ${(await workspace.read(path)).lines.join(" ")}`;
    } catch (error) {
      reads[path] = error instanceof WorkspaceToolError ? error.code : String(error);
    }
  }
  expect(reads, "what read gives").toEqual({
    "crm/contacts.sqlite-wal": "workspace_path_denied",
    "config/assistant.toml": "workspace_path_denied",
    ".env": "workspace_path_denied",
  });
  const searches: Record<string, unknown> = {};
  for (const query of ["@acme.example", "rk-live", "555 01"]) searches[query] = await workspace.search(query);
  expect(searches, "search finds no contact detail and no key").toEqual({
    "@acme.example": { matches: [], truncated: false, limitReason: null },
    "rk-live": { matches: [], truncated: false, limitReason: null },
    "555 01": { matches: [], truncated: false, limitReason: null },
  });
});

it("pages a long workshop transcript by whole lines until nextStartLine is null", async () => {
  const workspace = researchWorkspace();
  const path = "transcripts/workshop-2024-09-25.txt";
  const pages: [number, number, number | null][] = [];
  const lines: string[] = [];
  for (let startLine: number | null = 1; startLine !== null; ) {
    const page = await workspace.read(path, { startLine, maxLines: 10 });
    pages.push([page.startLine, page.lines.length, page.nextStartLine]);
    lines.push(...page.lines);
    startLine = page.nextStartLine;
  }
  expect(pages, "each page: startLine, lines, nextStartLine").toEqual([
    [1, 10, 11],
    [11, 10, 21],
    [21, 3, null],
  ]);
  expect(lines, "the pages put together").toEqual(folder.files[path]?.split("\n").slice(0, -1));
});
