// The child process of stage 08's no-process test (disk.test.ts).
//
//   node search-child.mjs <module file> <workspace root> <query>
//
// Before it loads the module, it replaces every function of node:child_process that starts a process
// with one that records the call and throws, and syncs the replacement into the ES module exports, so
// that `import { execFile } from "node:child_process"` in the module gets the recording one too. Then
// it runs `new ReadOnlyWorkspace(root).search(query)` and prints one line of JSON: every attempt to
// start a process, and the search result. A module that catches the error and carries on is still
// caught: the attempt was recorded before the throw.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

const attempts: string[] = [];
const writable = childProcess as unknown as Record<string, unknown>;
for (const name of STARTERS) {
  writable[name] = (command: unknown) => {
    attempts.push(`${name} ${String(command)}`);
    throw new Error(`${name}(${String(command)}): starting a process is not allowed in this test`);
  };
}
syncBuiltinESMExports();

interface Searcher {
  search(query: string): Promise<unknown>;
}

const [moduleFile, root, query] = process.argv.slice(2);
if (moduleFile === undefined || root === undefined || query === undefined) {
  process.stderr.write("usage: search-child.mjs <module file> <workspace root> <query>\n");
  process.exit(2);
}
const loaded = (await import(pathToFileURL(moduleFile).href)) as { ReadOnlyWorkspace: new (root: string) => Searcher };
let result: unknown;
try {
  result = await new loaded.ReadOnlyWorkspace(root).search(query);
} catch (error) {
  result = `search failed: ${error instanceof Error ? error.message : String(error)}`;
}
process.stdout.write(`${JSON.stringify({ attempts, result })}\n`);
