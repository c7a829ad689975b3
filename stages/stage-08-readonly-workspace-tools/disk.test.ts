import { execFile, execFileSync } from "node:child_process";
import {
  appendFileSync,
  constants as fsConstants,
  linkSync,
  renameSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import * as fsp from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, it, onTestFinished } from "vitest";
import { ReadOnlyWorkspace, WorkspaceToolError, type ReadOnlyFileHandle, type ReadOnlyFileSystem } from "forge/tools/readonly";
import { moduleFile, symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

// What only a real disk shows: symlinks, hard links, FIFOs and sockets, and a file swapped between
// the check and the open. These tests need a POSIX system (they run `mkfifo`).

const API_KEY = "OPENAI_API_KEY=sk-live-4f9a-do-not-leak";

/** A front-end repository with its secret config, and a secret outside it. */
function repository(): { base: string; ws: string } {
  const base = temporaryFolder();
  writeTree(base, {
    "secret.txt": `${API_KEY}\n`,
    "ws/README.md": "# Shop\nSee the guide.\n",
    "ws/docs/guide.md": "# Guide\nexport the cart\n",
    "ws/src/app.ts": "export const app = 'shop';\n",
    "ws/data/config.json": `{ "key": "${API_KEY}" }\n`,
  });
  return { base, ws: join(base, "ws") };
}

/** "ok", or the refusal as `code: message`. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    if (error instanceof WorkspaceToolError) return `${error.code}: ${error.message}`;
    return `not a WorkspaceToolError: ${String(error)}`;
  }
}

const kinds = async (workspace: ReadOnlyWorkspace, folder: string) =>
  Object.fromEntries((await workspace.list(folder)).entries.map((entry) => [entry.name, entry.kind]));
const hits = async (workspace: ReadOnlyWorkspace, query: string) =>
  (await workspace.search(query)).matches.map((match) => `${match.path}:${match.line}`);

it("never follows a symlink, not even one that points inside the workspace", async () => {
  const { base, ws } = repository();
  symlink("docs", join(ws, "docs-link"), "dir");
  symlink("README.md", join(ws, "readme-link.md"));
  // The leak this prevents: a link inside, to a protected file inside, under an innocent name.
  symlink("data/config.json", join(ws, "notes.md"));
  symlink(join(base, "secret.txt"), join(ws, "outside.txt"));
  symlink("nowhere.txt", join(ws, "dangling.txt"));
  symlink("..", join(ws, "src", "loop"), "dir");
  const workspace = new ReadOnlyWorkspace(ws);

  expect(await kinds(workspace, "."), "list shows every link as a link").toEqual({
    "README.md": "file",
    "dangling.txt": "link",
    data: "blocked",
    docs: "directory",
    "docs-link": "link",
    "notes.md": "link",
    "outside.txt": "link",
    "readme-link.md": "link",
    src: "directory",
  });
  const through = (path: string, link: string) => `link_refused: path "${path}" goes through the symlink "${link}"; links are not followed`;
  const outcomes: Record<string, string> = {};
  for (const path of ["readme-link.md", "notes.md", "outside.txt", "dangling.txt", "docs-link/guide.md", "src/loop/src/app.ts"]) {
    outcomes[`read ${path}`] = await outcome(() => workspace.read(path));
  }
  outcomes["list docs-link"] = await outcome(() => workspace.list("docs-link"));
  outcomes["list src/loop"] = await outcome(() => workspace.list("src/loop"));
  outcomes["search in src/loop"] = await outcome(() => workspace.search("x", { path: "src/loop" }));
  expect(outcomes, "every path through a link is refused, wherever the link leads").toEqual({
    "read readme-link.md": through("readme-link.md", "readme-link.md"),
    "read notes.md": through("notes.md", "notes.md"),
    "read outside.txt": through("outside.txt", "outside.txt"),
    "read dangling.txt": through("dangling.txt", "dangling.txt"),
    "read docs-link/guide.md": through("docs-link/guide.md", "docs-link"),
    "read src/loop/src/app.ts": through("src/loop/src/app.ts", "src/loop"),
    "list docs-link": through("docs-link", "docs-link"),
    "list src/loop": through("src/loop", "src/loop"),
    "search in src/loop": through("src/loop", "src/loop"),
  });
  // search does not descend into a link: each file is found once, the loop is not repeated, and
  // neither the config behind notes.md nor the secret outside is read.
  expect(
    { export: await hits(workspace, "export"), "sk-live": await hits(workspace, "sk-live"), Guide: await hits(workspace, "Guide") },
    "what search finds",
  ).toEqual({
    export: ["docs/guide.md:2", "src/app.ts:1"],
    "sk-live": [],
    Guide: ["docs/guide.md:1"],
  });
});

it("refuses a file with a second hard link, so another name cannot read a protected file", async () => {
  const { ws } = repository();
  writeTree(ws, { "src/a.ts": "export const a = 1;\n", "notes/todo.md": "export later\n" });
  // A hard link is the same file under a second name: nothing on the way is a link.
  linkSync(join(ws, "data", "config.json"), join(ws, "notes", "config-copy.json"));
  linkSync(join(ws, "src", "a.ts"), join(ws, "src", "b.ts"));
  const workspace = new ReadOnlyWorkspace(ws);
  const twoLinks = (path: string) => `hard_link_refused: path "${path}" has 2 hard links; a file with another name may be a protected one`;
  expect(
    {
      "notes/config-copy.json": await outcome(() => workspace.read("notes/config-copy.json")),
      "src/a.ts": await outcome(() => workspace.read("src/a.ts")),
      "src/b.ts": await outcome(() => workspace.read("src/b.ts")),
      "src/app.ts": await outcome(() => workspace.read("src/app.ts")),
    },
    "read of each name",
  ).toEqual({
    "notes/config-copy.json": twoLinks("notes/config-copy.json"),
    "src/a.ts": twoLinks("src/a.ts"),
    "src/b.ts": twoLinks("src/b.ts"),
    "src/app.ts": "ok",
  });
  expect(await kinds(workspace, "notes"), "list shows a hard-linked file as a file").toEqual({
    "config-copy.json": "file",
    "todo.md": "file",
  });
  expect({ export: await hits(workspace, "export"), "sk-live": await hits(workspace, "sk-live") }, "search skips both names").toEqual({
    export: ["docs/guide.md:2", "notes/todo.md:1", "src/app.ts:1"],
    "sk-live": [],
  });
  // With the second name gone, the file has one link again and reads.
  unlinkSync(join(ws, "src", "b.ts"));
  expect((await workspace.read("src/a.ts")).lines, "src/a.ts after its second name is removed").toEqual(["export const a = 1;"]);
});

it("shows FIFOs and sockets as other, never opens them, and blocks names it cannot look up again", async () => {
  const { ws } = repository();
  writeTree(ws, { "logs/app.log": "server ready\n" });
  execFileSync("mkfifo", [join(ws, "logs", "pipe")]);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(ws, "logs", "socket"), resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // A name that is not UTF-8: readdir can only give it back with U+FFFD, which names nothing.
  writeFileSync(Buffer.from([...Buffer.from(join(ws, "logs", "bad-")), 0xff, ...Buffer.from(".log")]), "server ready\n");
  const workspace = new ReadOnlyWorkspace(ws);
  expect(await kinds(workspace, "logs"), "the kind of each entry").toEqual({
    "app.log": "file",
    "bad-\uFFFD.log": "blocked",
    pipe: "other",
    socket: "other",
  });
  // Opening a FIFO for reading waits for a writer: had read opened it, this test would hang.
  expect(
    { pipe: await outcome(() => workspace.read("logs/pipe")), socket: await outcome(() => workspace.read("logs/socket")) },
    "read of a FIFO and a socket",
  ).toEqual({
    pipe: 'not_a_file: path "logs/pipe" is not a regular file',
    socket: 'not_a_file: path "logs/socket" is not a regular file',
  });
  expect(await hits(workspace, "ready"), "search reads only the regular file").toEqual(["logs/app.log:1"]);
});

it("blocks names that do not round-trip: a file named byte 0xFF beside one named U+FFFD is read as neither", async () => {
  const { ws } = repository();
  writeTree(ws, { "logs/app.log": "server ready\n", "logs/\uFFFD": "server ready, from the file named U+FFFD\n" });
  // readdir gives the byte 0xFF back as U+FFFD: both names read "\uFFFD", and only one of them can be
  // looked up by it. A lone surrogate is written as U+FFFD when a path is handed to the system.
  writeFileSync(Buffer.from([...Buffer.from(join(ws, "logs")), 0x2f, 0xff]), "server ready, from the file named 0xFF\n");
  const workspace = new ReadOnlyWorkspace(ws);
  const listed = (await workspace.list("logs")).entries.map((entry) => `${JSON.stringify(entry.name)} ${entry.kind}`);
  expect(
    {
      list: listed,
      search: await hits(workspace, "ready"),
      "read logs/<U+FFFD>": await outcome(() => workspace.read("logs/\uFFFD")),
      "read logs/<a lone U+D800>": await outcome(() => workspace.read("logs/\ud800")),
    },
    "what each tool makes of the two names",
  ).toEqual({
    list: ['"app.log" file', '"\uFFFD" blocked', '"\uFFFD" blocked'],
    search: ["logs/app.log:1"],
    "read logs/<U+FFFD>": 'invalid_path: path "logs/\uFFFD" contains U+FFFD, which stands for bytes that are not UTF-8',
    "read logs/<a lone U+D800>": 'invalid_path: path "logs/\\ud800" is not well-formed Unicode: it has a lone surrogate',
  });
});

/** Files named `hit.txt` in a chain of `depth` folders of 200 characters under `parent`, each holding the line `hit <level>`. */
function deepChain(parent: string, depth: number, firstLevel: number): void {
  let folder = parent;
  for (let level = firstLevel; level < firstLevel + depth; level += 1) {
    folder = join(folder, "d".repeat(200));
    writeTree(folder, { "hit.txt": `hit ${level}\n` });
  }
}

it("search walks a real tree deeper than PATH_MAX: it skips what the kernel cannot look up and keeps its matches", async () => {
  const { ws } = repository();
  // 24 folders of 200 characters: host paths pass 4095 bytes after about 20 of them. No single call can
  // create what lies deeper, so two chains of 12 are made apart and the second is moved under the first.
  const deep = join(ws, "deep");
  deepChain(deep, 12, 1);
  deepChain(join(ws, "rest"), 12, 13);
  const twelve = join(deep, ...Array.from({ length: 12 }, () => "d".repeat(200)));
  renameSync(join(ws, "rest", "d".repeat(200)), join(twelve, "d".repeat(200)));
  writeTree(ws, { "z-after.txt": "hit after the deep tree\n" });
  onTestFinished(async () => {
    // Node's rm needs every path it removes to fit PATH_MAX: move the deep half back up first.
    renameSync(join(twelve, "d".repeat(200)), join(ws, "rest", "d".repeat(200)));
  });
  // Paths are shown with D for each folder of 200 characters: deep/D/D/hit.txt is level 2.
  const short = (path: string) => path.replaceAll("d".repeat(200), "D");
  const within: string[] = [];
  for (let level = 24; level >= 1; level -= 1) {
    const file = ["deep", ...Array.from({ length: level }, () => "d".repeat(200)), "hit.txt"].join("/");
    if (Buffer.byteLength(join(ws, file)) <= 4095) within.push(`${short(file)}:1`);
  }
  expect(within.length, "the premise: levels whose hit.txt the kernel can look up, of 24").toBeLessThan(24);
  const result = await new ReadOnlyWorkspace(ws).search("hit").then(
    (found) => ({
      matches: found.matches.map((match) => `${short(match.path)}:${match.line}`),
      truncated: found.truncated,
      limitReason: found.limitReason,
    }),
    (error: unknown) => (error instanceof Error ? short(`${error.name}: ${error.message}`) : String(error)),
  );
  expect(result, "the search from the root: every hit the kernel can reach, then the file after the deep tree").toEqual({
    matches: [...within, "z-after.txt:1"],
    truncated: false,
    limitReason: null,
  });
});

/**
 * node:fs/promises with a hook that runs just before each open, or before the first read of an open
 * file: the moment an attacker (or a formatter, or git checkout) would change the file.
 */
function hookedFs(hooks: {
  beforeOpen?: (path: string) => void;
  beforeFirstRead?: (path: string) => void;
  /** What the open file's stat reports, for a change no test can make on one disk. */
  openedStats?: (stats: Stats) => Stats;
}) {
  let open = 0;
  const fs: ReadOnlyFileSystem = {
    lstat: (path) => fsp.lstat(path),
    readdir: (path) => fsp.readdir(path),
    async open(path, flags) {
      hooks.beforeOpen?.(path);
      const handle = await fsp.open(path, flags);
      open += 1;
      let reads = 0;
      const wrapped: ReadOnlyFileHandle = {
        stat: async () => (hooks.openedStats ?? ((stats) => stats))(await handle.stat()),
        async read(buffer, offset, length, position) {
          reads += 1;
          if (reads === 1) hooks.beforeFirstRead?.(path);
          return handle.read(buffer, offset, length, position);
        },
        async close() {
          open -= 1;
          await handle.close();
        },
      };
      return wrapped;
    },
  };
  return { fs, stillOpen: () => open };
}

it("refuses a file swapped after the check: the file opened must be the one checked", async () => {
  const { ws } = repository();
  const target = join(ws, "src", "app.ts");
  const swaps: Record<string, (path: string) => void> = {
    "replaced by another file": (path) => {
      writeFileSync(`${path}.new`, `${API_KEY}\n`);
      renameSync(`${path}.new`, path);
    },
    "replaced by a symlink to the config": (path) => {
      unlinkSync(path);
      symlink(join(ws, "data", "config.json"), path);
    },
    // O_NONBLOCK: without it, this open would wait forever for a writer.
    "replaced by a FIFO": (path) => {
      unlinkSync(path);
      execFileSync("mkfifo", [path]);
    },
    "given a second name": (path) => linkSync(path, join(ws, "app-copy.ts")),
    "left alone": () => undefined,
  };
  const outcomes: Record<string, string> = {};
  for (const [swap, beforeOpen] of Object.entries(swaps)) {
    writeTree(ws, { "src/app.ts": "export const app = 'shop';\n" });
    const { fs, stillOpen } = hookedFs({ beforeOpen: (path) => path === target && beforeOpen(path) });
    outcomes[swap] = await outcome(() => new ReadOnlyWorkspace(ws, { fs }).read("src/app.ts"));
    outcomes[`${swap}: handles left open`] = String(stillOpen());
    unlinkSync(target);
    await fsp.rm(join(ws, "app-copy.ts"), { force: true });
  }
  // A file on another file system can have the same inode number: the device must match too.
  {
    writeTree(ws, { "src/app.ts": "export const app = 'shop';\n" });
    const otherDevice = (stats: Stats): Stats =>
      Object.assign(Object.create(Object.getPrototypeOf(stats) as object) as Stats, stats, { dev: stats.dev + 1 });
    const { fs, stillOpen } = hookedFs({ openedStats: otherDevice });
    outcomes["same inode, other device"] = await outcome(() => new ReadOnlyWorkspace(ws, { fs }).read("src/app.ts"));
    outcomes["same inode, other device: handles left open"] = String(stillOpen());
  }
  const changes: Record<string, (path: string) => void> = {
    "grows while read": (path) => appendFileSync(path, "export const more = 1;\n"),
    "shrinks while read": (path) => truncateSync(path, 6),
  };
  for (const [change, beforeFirstRead] of Object.entries(changes)) {
    writeTree(ws, { "src/app.ts": "export const app = 'shop';\n" });
    const { fs, stillOpen } = hookedFs({ beforeFirstRead });
    outcomes[change] = await outcome(() => new ReadOnlyWorkspace(ws, { fs }).read("src/app.ts"));
    outcomes[`${change}: handles left open`] = String(stillOpen());
  }
  expect(outcomes, "read of src/app.ts, changed at the worst moment").toEqual({
    "replaced by another file": 'file_changed: path "src/app.ts" changed between the check and the open',
    "replaced by another file: handles left open": "0",
    "replaced by a symlink to the config": 'link_refused: path "src/app.ts" is a symlink; links are not followed',
    "replaced by a symlink to the config: handles left open": "0",
    "replaced by a FIFO": 'file_changed: path "src/app.ts" changed between the check and the open',
    "replaced by a FIFO: handles left open": "0",
    "given a second name": 'hard_link_refused: path "src/app.ts" has 2 hard links; a file with another name may be a protected one',
    "given a second name: handles left open": "0",
    "same inode, other device": 'file_changed: path "src/app.ts" changed between the check and the open',
    "same inode, other device: handles left open": "0",
    "left alone": "ok",
    "left alone: handles left open": "0",
    "grows while read": 'file_changed: path "src/app.ts" changed size while it was read',
    "grows while read: handles left open": "0",
    "shrinks while read": 'file_changed: path "src/app.ts" changed size while it was read',
    "shrinks while read: handles left open": "0",
  });
  // search skips a swapped file instead of returning what was swapped in.
  writeTree(ws, { "src/app.ts": "export const app = 'shop';\n" });
  const { fs } = hookedFs({ beforeOpen: (path) => path === target && swaps["replaced by another file"]?.(path) });
  expect((await new ReadOnlyWorkspace(ws, { fs }).search("sk-live")).matches, "search after the swap").toEqual([]);
});

it("opens a file with O_NOFOLLOW, O_NONBLOCK and O_NOCTTY, and reads nothing from a special file swapped in before the open", async () => {
  const { ws } = repository();
  const target = join(ws, "src", "app.ts");
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fsConstants;
  const expected = O_RDONLY | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0) | (O_NOCTTY ?? 0);
  const flags: number[] = [];
  let readsOfTheFifo = 0;
  const fs: ReadOnlyFileSystem = {
    lstat: (path) => fsp.lstat(path),
    readdir: (path) => fsp.readdir(path),
    async open(path, given) {
      flags.push(given);
      if (path !== target) return fsp.open(path, given);
      // What a process that can write to src/ may do between the check and the open.
      unlinkSync(path);
      execFileSync("mkfifo", [path]);
      const handle = await fsp.open(path, given);
      return {
        stat: () => handle.stat(),
        read: (buffer, offset, length, position) => {
          readsOfTheFifo += 1;
          return handle.read(buffer, offset, length, position);
        },
        close: () => handle.close(),
      };
    },
  };
  const workspace = new ReadOnlyWorkspace(ws, { fs });
  expect(
    {
      read: await outcome(() => workspace.read("src/app.ts")),
      "reads of the FIFO": readsOfTheFifo,
      "flags of every open": [...new Set(flags)].map((given) =>
        given === expected ? "O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY" : given,
      ),
    },
    "the read of src/app.ts with a FIFO swapped in at the open",
  ).toEqual({
    read: 'file_changed: path "src/app.ts" changed between the check and the open',
    "reads of the FIFO": 0,
    "flags of every open": ["O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY"],
  });
  unlinkSync(target);
  writeTree(ws, { "src/app.ts": "export const app = 'shop';\n" });
  flags.length = 0;
  await new ReadOnlyWorkspace(ws, { fs: { ...fs, open: (path, given) => (flags.push(given), fsp.open(path, given)) } }).search("export");
  expect(
    [...new Set(flags)].map((given) => (given === expected ? "O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY" : given)),
    "the flags of every open of a search",
  ).toEqual(["O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY"]);
});

const CHILD = fileURLToPath(new URL("./search-child.ts", import.meta.url));
const CONTROL = fileURLToPath(new URL("./spawning-search.ts", import.meta.url));

/** Runs one search in a child process that records every attempt to start a process. */
function searchInChild(bundle: string, module: string, root: string, query: string): Promise<{ attempts: string[]; result: unknown }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(bundle, "search-child.mjs"), join(bundle, `${module}.mjs`), root, query], (error, stdout, stderr) => {
      if (error) reject(new Error(`the search child failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as { attempts: string[]; result: unknown });
    });
  });
}

it("search never starts a process: no rg, no grep, no shell", { timeout: 30_000 }, async () => {
  const { ws } = repository();
  // Plain JavaScript for the child: a TypeScript loader would start esbuild's own process.
  const bundle = temporaryFolder({ insideRepository: true });
  await build({
    entryPoints: { "search-child": CHILD, "module-under-test": moduleFile("readonly"), control: CONTROL },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outdir: bundle,
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
  });
  const [underTest, control] = await Promise.all([
    searchInChild(bundle, "module-under-test", ws, "export"),
    searchInChild(bundle, "control", ws, "export"),
  ]);
  expect(underTest, "the module under test: its attempts to start a process, and its result").toEqual({
    attempts: [],
    result: {
      matches: [
        { path: "docs/guide.md", line: 2, text: "export the cart" },
        { path: "src/app.ts", line: 1, text: "export const app = 'shop';" },
      ],
      truncated: false,
      limitReason: null,
    },
  });
  // The control shells out to ripgrep and swallows the error: the child still sees the attempt.
  expect(control, "the control that starts rg").toEqual({
    attempts: ["execFile rg"],
    result: { matches: [], truncated: false, limitReason: null },
  });
});
