import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { payloads, TARGET } from "../stage-02-workspace-path-policy/payloads.js";
import { acceptShown, session } from "./session.js";

// Outside proof: the directory-traversal lists of PayloadsAllTheThings (stages/stage-02-workspace-path-
// policy/payloads.ts reads them and says how each line is decoded), sent through the official SDK client
// as a client sends paths: absolute, with the root's own path in front (relative paths reach stage 08's
// tools unchanged, and its own outside test sends every one of them). The root lies two folders deep,
// with a copy of the target beside it and above it. The person accepts every write, so only the path
// checks stand between a request and the disk.

const SECRET = "OUTSIDE";

/** Every file under a folder, outside the root, with its size and time of change. */
function snapshot(base: string, root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (path === root) continue;
      if (entry.isDirectory()) walk(path);
      else files[relative(base, path)] = `${statSync(path).size} ${statSync(path).mtimeMs}`;
    }
  };
  walk(base);
  return files;
}

// Every path is read; every fourth is listed and every twentieth written (a write costs ten times a
// read: an approval round trip and the disk). Seconds alone, more on a loaded machine: the timeout only
// keeps vitest from giving up, nothing here is timed.
it("lets no PayloadsAllTheThings traversal, sent as an absolute path, read, list or write outside the root", {
  timeout: 120_000,
}, async () => {
  const base = temporaryFolder();
  writeTree(base, {
    [TARGET]: `root:x:0:0:${SECRET}, two folders up\n`,
    [`outer/${TARGET}`]: `root:x:0:0:${SECRET}, one folder up\n`,
    "outer/notes.md": `${SECRET}\n`,
    [`outer/ws/${TARGET}`]: "root:x:0:0:inside\n",
    "outer/ws/src/app.ts": "export {};\n",
  });
  const root = join(base, "outer", "ws");
  const before = snapshot(base, root);
  const { call } = await session({ root }, { answer: acceptShown });
  const { lines, paths } = payloads();
  const escapes: Record<string, string> = {};
  const seen = { read: 0, listed: 0, written: 0 };
  // A refusal builds an Error, and its stack trace is most of what it costs.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const [index, line] of paths.entries()) {
      const path = `${root}/${line}`;
      const tools = index % 4 === 0 ? ["read_text_file", "list_directory"] : ["read_text_file"];
      for (const tool of tools) {
        const outcome = await call(tool, { path });
        // A list of a file inside reached the disk too: it is refused as not_a_directory there.
        if (!outcome.isError || outcome.code === "not_a_directory") seen[tool === "read_text_file" ? "read" : "listed"] += 1;
        if (outcome.text.includes(SECRET)) escapes[`${tool} ${JSON.stringify(path)}`] = outcome.text.slice(0, 100);
      }
      if (index % 20 === 0 && !(await call("write_file", { path, content: "written through a payload\n" })).isError) seen.written += 1;
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  expect(escapes, `reads and lists that returned outside content, of ${paths.length} paths`).toEqual({});
  expect(snapshot(base, root), "the files outside the root after every write").toEqual(before);
  expect(readFileSync(join(base, TARGET), "utf8"), "the target two folders up").toContain(SECRET);
  // The premise: the lists were read whole, and requests of each kind were answered, so the tools were reached.
  expect(
    { lines, read: seen.read > 0, listed: seen.listed > 0, written: seen.written > 0 },
    `the lines read, and the calls answered (${JSON.stringify(seen)})`,
  ).toEqual({ lines: 7200, read: true, listed: true, written: true });
});
