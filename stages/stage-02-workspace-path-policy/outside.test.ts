import { isAbsolute, join, relative, sep } from "node:path";
import { expect, it } from "vitest";
import { resolveWorkspacePath } from "forge/tools/paths";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { payloads, TARGET } from "./payloads.js";

// Outside proof: the directory-traversal lists of PayloadsAllTheThings, which no one on this project
// wrote, through the policy on a real disk. The workspace lies two folders deep in a temporary folder,
// with a copy of the target beside it and above it, so a request that climbs out has something to
// reach (and, three folders up or more, the machine's own /etc/passwd).

// Tens of thousands of calls: a second or two alone, many more on a loaded machine. The timeout only
// keeps vitest from giving up on it; nothing here is timed.
it("keeps every PayloadsAllTheThings traversal inside the workspace, as written and decoded, relative and absolute", {
  timeout: 120_000,
}, async () => {
  const base = temporaryFolder();
  writeTree(base, {
    [TARGET]: "root:x:0:0:OUTSIDE, two folders up\n",
    [`outer/${TARGET}`]: "root:x:0:0:OUTSIDE, one folder up\n",
    [`outer/ws/${TARGET}`]: "inside\n",
    "outer/ws/src/app.ts": "export {};\n",
  });
  const ws = join(base, "outer", "ws");
  const { lines, paths } = payloads();
  const requests = paths.flatMap((path) => [path, `${ws}${sep}${path}`]);
  const escapes: Record<string, string> = {};
  const seen = { accepted: 0, "refused as absolute": 0, "refused as escaping": 0, "refused otherwise": 0 };
  // A refusal builds an Error, and its stack trace is most of what it costs: thousands are made here.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // Several at a time, so that the lookups of one overlap the work of another.
    for (let first = 0; first < requests.length; first += 32) {
      await Promise.all(
        requests.slice(first, first + 32).map(async (requested) => {
          let resolved: string;
          try {
            resolved = await resolveWorkspacePath(ws, requested);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            seen[
              /absolute/.test(message) ? "refused as absolute" : /escapes/.test(message) ? "refused as escaping" : "refused otherwise"
            ] += 1;
            return;
          }
          seen.accepted += 1;
          const inside = typeof resolved === "string" ? relative(ws, resolved) : "..";
          if (inside.split(sep)[0] === ".." || isAbsolute(inside)) {
            escapes[JSON.stringify(requested)] = `accepted as ${String(resolved)}`;
          }
        }),
      );
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  expect(escapes, `requests accepted with a path outside the workspace, of ${requests.length}`).toEqual({});
  // The premise: the lists were read whole, and requests were both answered and refused, so the walk was reached.
  const refusals = Object.values(seen).reduce((sum, count) => sum + count, 0) - seen.accepted;
  expect(
    { lines, accepted: seen.accepted > 0, refused: refusals > 0 },
    `the lines read, and the answers given (${JSON.stringify(seen)})`,
  ).toEqual({ lines: 7200, accepted: true, refused: true });
});
