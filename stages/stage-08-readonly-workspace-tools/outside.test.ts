import { lstatSync, readdirSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, sep } from "node:path";
import { expect, it } from "vitest";
import { ReadOnlyWorkspace, WorkspaceToolError, type ReadOnlyFileSystem } from "forge/tools/readonly";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { payloads, TARGET } from "../stage-02-workspace-path-policy/payloads.js";

// Outside proof: the directory-traversal lists of PayloadsAllTheThings, which no one on this project
// wrote, through the three tools on a real disk (stages/stage-02-workspace-path-policy/payloads.ts reads
// them and says how each line is decoded). The workspace lies two folders deep in a temporary folder,
// with a copy of the target beside it and above it, so a request that climbs out has something to
// reach (and, three folders up or more, the machine's own /etc/passwd).

const SECRET = "OUTSIDE";

// Tens of thousands of calls: a second or two alone, many more on a loaded machine. The timeout only
// keeps vitest from giving up on it; nothing here is timed.
it("lets no PayloadsAllTheThings traversal read, list or search outside the workspace, as written and decoded, relative and absolute", {
  timeout: 120_000,
}, async () => {
  const base = temporaryFolder();
  const inside: Readonly<Record<string, string>> = {
    [TARGET]: "root:x:0:0:inside\n",
    "src/app.ts": "export {};\n",
    "windows/win.ini": "[fonts]\n",
  };
  writeTree(base, {
    [TARGET]: `root:x:0:0:${SECRET}, two folders up\n`,
    [`outer/${TARGET}`]: `root:x:0:0:${SECRET}, one folder up\n`,
    "outer/notes.md": `${SECRET}\n`,
    ...Object.fromEntries(Object.entries(inside).map(([path, text]) => [`outer/ws/${path}`, text])),
  });
  const ws = join(base, "outer", "ws");
  // What a call may return: the text of a file inside, the names of a folder inside, no match of SECRET.
  const texts = new Set(Object.values(inside).map((text) => text.trimEnd()));
  const listings = new Set(["etc src windows", "passwd", "app.ts", "win.ini"]);
  // The real disk, through the tools' own file-system option: lstat and readdir are asked of the
  // kernel directly rather than through Node's thread pool, which makes the tens of thousands of calls
  // here several times faster and changes no answer.
  const disk: ReadOnlyFileSystem = { lstat: async (path) => lstatSync(path), readdir: async (path) => readdirSync(path), open };
  const tools = new ReadOnlyWorkspace(ws, { fs: disk });
  const { lines, paths } = payloads();
  const requests = paths.flatMap((path) => [path, `${ws}${sep}${path}`]);
  const escapes: Record<string, string> = {};
  const seen = { answered: 0, "refused as invalid_path": 0, "refused as not_found": 0, "refused otherwise": 0 };
  const judge = async (call: string, requested: string, run: () => Promise<string | null>) => {
    let leak: string | null;
    try {
      leak = await run();
    } catch (error) {
      const code = error instanceof WorkspaceToolError ? error.code : "";
      if (!(error instanceof WorkspaceToolError)) escapes[`${call} ${JSON.stringify(requested)}`] = `not a refusal: ${String(error)}`;
      seen[code === "invalid_path" ? "refused as invalid_path" : code === "not_found" ? "refused as not_found" : "refused otherwise"] += 1;
      return;
    }
    seen.answered += 1;
    if (leak !== null) escapes[`${call} ${JSON.stringify(requested)}`] = leak.slice(0, 100);
  };
  // A refusal builds an Error, and its stack trace is most of what it costs: thousands are made here.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const requested of requests) {
      await judge("read", requested, async () => {
        const text = (await tools.read(requested)).lines.join("\n");
        return texts.has(text) ? null : `read ${JSON.stringify(text)}`;
      });
      await judge("list", requested, async () => {
        const names = (await tools.list(requested)).entries.map((entry) => entry.name).join(" ");
        return listings.has(names) ? null : `listed ${names}`;
      });
      await judge("search", requested, async () => {
        const { matches } = await tools.search(SECRET, { path: requested });
        return matches.length === 0 ? null : `found ${JSON.stringify(matches)}`;
      });
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  expect(escapes, `calls that returned outside content or failed outside the tools' refusals, of ${3 * requests.length}`).toEqual({});
  // The premise: the lists were read whole, and requests were both answered and refused, so the walk was reached.
  const refusals = Object.values(seen).reduce((sum, count) => sum + count, 0) - seen.answered;
  expect(
    { lines, answered: seen.answered > 0, refused: refusals > 0 },
    `the lines read, and the answers given (${JSON.stringify(seen)})`,
  ).toEqual({ lines: 7200, answered: true, refused: true });
});
