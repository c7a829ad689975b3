import { memfs, type NestedDirectoryJSON } from "memfs";
import { expect, it, onTestFinished, vi } from "vitest";
import {
  DEFAULT_LIMITS,
  preparePath,
  ReadOnlyWorkspace,
  WorkspaceToolError,
  type Limits,
  type ReadOnlyFileSystem,
} from "forge/tools/readonly";

// The software-delivery scenario, in memory: an agent reads a front-end repository through three
// tools. The repository's `data/config.json` holds the model's API key. memfs volumes stand in for
// the disk wherever only the shape of the tree matters; links, FIFOs and races are in disk.test.ts.

const API_KEY = "OPENAI_API_KEY=sk-live-4f9a-do-not-leak";

const repository = (): NestedDirectoryJSON => ({
  "README.md": "# Shop\nRun `npm start`.\n",
  "package.json": '{ "name": "shop" }\n',
  "src/app.ts": "import { cart } from './cart';\nexport const app = cart(1);\n",
  "src/cart.ts": "export const cart = (n: number) => n + 1;\n",
  "data/config.json": `{ "key": "${API_KEY}" }\n`,
  ".env": `${API_KEY}\n`,
  ".env.example": "OPENAI_API_KEY=\n",
  ".git/config": '[remote "origin"]\n\turl = https://token@example.com/shop.git\n',
});

/** A workspace over a fresh memfs volume rooted at /ws. */
function memoryWorkspace(files: NestedDirectoryJSON, options: { protectedPaths?: readonly string[]; limits?: Partial<Limits> } = {}) {
  const { fs, vol } = memfs(files, "/ws");
  const fileSystem: ReadOnlyFileSystem = fs.promises;
  return { workspace: new ReadOnlyWorkspace("/ws", { ...options, fs: fileSystem }), fileSystem, vol };
}

/** "ok", or the refusal as `code: message`, so that a table of outcomes shows every case at once. */
async function outcome(call: () => unknown): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    if (error instanceof WorkspaceToolError) return `${error.code}: ${error.message}`;
    return `not a WorkspaceToolError: ${String(error)}`;
  }
}

function prepared(input: unknown): Promise<string> {
  return outcome(() => preparePath(input as string)).then((result) => (result === "ok" ? preparePath(input as string) : result));
}

async function preparedTable(inputs: readonly unknown[]): Promise<Record<string, string>> {
  const table: Record<string, string> = {};
  for (const input of inputs) table[typeof input === "string" ? input : String(input)] = await prepared(input);
  return table;
}

it("prepares both separators, dots and repeated separators into one relative form", async () => {
  const inputs = [
    "docs\\a.md",
    "docs/a.md",
    "",
    ".",
    "./",
    ".\\",
    "./docs//a.md",
    "docs\\\\guide\\.\\a.md",
    "docs/",
    "..generated/routes.ts",
    " leading space.md",
    "~/notes.md",
    "CONFIG/console.log.md",
    "COM10.txt",
    "LPT.md",
    "café/ünïcode.md",
    "__proto__/constructor/toString",
  ];
  expect(await preparedTable(inputs), "the prepared form of each input").toEqual({
    "docs\\a.md": "docs/a.md",
    "docs/a.md": "docs/a.md",
    "": ".",
    ".": ".",
    "./": ".",
    ".\\": ".",
    "./docs//a.md": "docs/a.md",
    "docs\\\\guide\\.\\a.md": "docs/guide/a.md",
    "docs/": "docs",
    "..generated/routes.ts": "..generated/routes.ts",
    " leading space.md": " leading space.md",
    "~/notes.md": "~/notes.md",
    "CONFIG/console.log.md": "CONFIG/console.log.md",
    "COM10.txt": "COM10.txt",
    "LPT.md": "LPT.md",
    "café/ünïcode.md": "café/ünïcode.md",
    "__proto__/constructor/toString": "__proto__/constructor/toString",
  });
});

it("refuses absolute paths in every platform form: root, drive letter, UNC and device paths", async () => {
  const inputs = [
    "/etc/passwd",
    "/",
    "\\Windows\\win.ini",
    "C:\\Windows\\win.ini",
    "C:/x",
    "C:x",
    "d:foo",
    "//server/share/x",
    "\\\\server\\share\\x",
    "\\\\?\\C:\\x",
    "\\\\.\\pipe\\x",
    "\\\\.\\PhysicalDrive0",
  ];
  expect(await preparedTable(inputs), "the refusal of each absolute form").toEqual({
    "/etc/passwd": 'invalid_path: path "/etc/passwd" is absolute',
    "/": 'invalid_path: path "/" is absolute',
    "\\Windows\\win.ini": 'invalid_path: path "\\\\Windows\\\\win.ini" is absolute',
    "C:\\Windows\\win.ini": 'invalid_path: path "C:\\\\Windows\\\\win.ini" is absolute (a drive letter)',
    "C:/x": 'invalid_path: path "C:/x" is absolute (a drive letter)',
    "C:x": 'invalid_path: path "C:x" is absolute (a drive letter)',
    "d:foo": 'invalid_path: path "d:foo" is absolute (a drive letter)',
    "//server/share/x": 'invalid_path: path "//server/share/x" is absolute (a UNC or device path)',
    "\\\\server\\share\\x": 'invalid_path: path "\\\\\\\\server\\\\share\\\\x" is absolute (a UNC or device path)',
    "\\\\?\\C:\\x": 'invalid_path: path "\\\\\\\\?\\\\C:\\\\x" is absolute (a UNC or device path)',
    "\\\\.\\pipe\\x": 'invalid_path: path "\\\\\\\\.\\\\pipe\\\\x" is absolute (a UNC or device path)',
    "\\\\.\\PhysicalDrive0": 'invalid_path: path "\\\\\\\\.\\\\PhysicalDrive0" is absolute (a UNC or device path)',
  });
});

it("refuses a path that is not a string, is too long, or contains NUL or ..", async () => {
  // Exactly 4096 characters: sixteen 255-byte names, each followed by a separator.
  const longest = `${"d".repeat(255)}/`.repeat(16);
  const inputs = [
    undefined,
    null,
    42,
    true,
    ["src"],
    { path: "src" },
    "../secret.txt",
    "a/../b",
    "src\\..\\..\\x",
    "..",
    "src/app.ts\0.png",
  ];
  expect(await preparedTable(inputs), "the refusal of each input").toEqual({
    undefined: "invalid_path: a path is required, got undefined",
    null: "invalid_path: a path is required, got null",
    "42": "invalid_path: a path is required, got a number",
    true: "invalid_path: a path is required, got a boolean",
    src: "invalid_path: a path is required, got an array",
    "[object Object]": "invalid_path: a path is required, got an object",
    "../secret.txt": 'invalid_path: path "../secret.txt" contains "..": name the entry from the workspace root instead',
    "a/../b": 'invalid_path: path "a/../b" contains "..": name the entry from the workspace root instead',
    "src\\..\\..\\x": 'invalid_path: path "src\\\\..\\\\..\\\\x" contains "..": name the entry from the workspace root instead',
    "..": 'invalid_path: path ".." contains "..": name the entry from the workspace root instead',
    "src/app.ts\0.png": 'invalid_path: path "src/app.ts\\u0000.png" contains a NUL byte',
  });
  const lengths = {
    "4096 characters": await prepared(longest),
    "4097 characters": await prepared(`${longest}x`),
    "a megabyte": await prepared("a/".repeat(512 * 1024)),
  };
  expect(lengths, "the path length limit, at 4096 characters").toEqual({
    "4096 characters": longest.slice(0, -1),
    "4097 characters": "invalid_path: path is longer than 4096 characters",
    "a megabyte": "invalid_path: path is longer than 4096 characters",
  });
});

it("refuses a path that is not well-formed Unicode or holds U+FFFD, so one spelling never names two files", async () => {
  // The system gets a path as UTF-8 bytes. A lone surrogate has no UTF-8 form: Node writes U+FFFD in its
  // place, so "\ud800" would open the file named "\uFFFD". And readdir writes U+FFFD for every byte of a
  // name that is not UTF-8: a name holding U+FFFD may stand for another name on the disk.
  const inputs = ["\ud800", "src/\udc00.md", "a\ud83d", "\ude00b", "\uFFFD", "logs/bad-\uFFFD.log"];
  const table: Record<string, string> = {};
  for (const input of inputs) table[JSON.stringify(input)] = await prepared(input);
  expect(table, "the refusal of each path").toEqual({
    '"\\ud800"': 'invalid_path: path "\\ud800" is not well-formed Unicode: it has a lone surrogate',
    '"src/\\udc00.md"': 'invalid_path: path "src/\\udc00.md" is not well-formed Unicode: it has a lone surrogate',
    '"a\\ud83d"': 'invalid_path: path "a\\ud83d" is not well-formed Unicode: it has a lone surrogate',
    '"\\ude00b"': 'invalid_path: path "\\ude00b" is not well-formed Unicode: it has a lone surrogate',
    '"\uFFFD"': 'invalid_path: path "\uFFFD" contains U+FFFD, which stands for bytes that are not UTF-8',
    '"logs/bad-\uFFFD.log"': 'invalid_path: path "logs/bad-\uFFFD.log" contains U+FFFD, which stands for bytes that are not UTF-8',
  });
  // A surrogate pair is one character, and is kept.
  expect(await preparedTable(["notes/\u{1F600}.md", "\u{1F4C1}/a.md"]), "paths with a whole surrogate pair").toEqual({
    "notes/\u{1F600}.md": "notes/\u{1F600}.md",
    "\u{1F4C1}/a.md": "\u{1F4C1}/a.md",
  });
});

it("refuses names Windows reads differently: device names, trailing dots and spaces, forbidden characters", async () => {
  const inputs = [
    "CON",
    "con.txt",
    "Aux.tar.gz",
    "docs/nul/b.md",
    "PRN",
    "COM1",
    "com9.log",
    "COM¹",
    "LPT³.txt",
    "LPT0",
    "CONIN$",
    "conout$.txt",
    "CON .txt",
    "notes.txt.",
    ".git.",
    "notes ",
    "src/draft /a.md",
    "file.txt:hidden",
    ".git::$INDEX_ALLOCATION/config",
    "a<b",
    "a>b",
    'a"b',
    "a|b",
    "what?.md",
    "*.md",
    "tab\there",
    "bell\u0007",
    "x".repeat(256),
    "é".repeat(128),
  ];
  const why = "which Windows forbids in names";
  expect(await preparedTable(inputs), "the refusal of each Windows name").toEqual({
    CON: 'invalid_path: path "CON" uses the Windows device name "CON"',
    "con.txt": 'invalid_path: path "con.txt" uses the Windows device name "con"',
    "Aux.tar.gz": 'invalid_path: path "Aux.tar.gz" uses the Windows device name "Aux"',
    "docs/nul/b.md": 'invalid_path: path "docs/nul/b.md" uses the Windows device name "nul"',
    PRN: 'invalid_path: path "PRN" uses the Windows device name "PRN"',
    COM1: 'invalid_path: path "COM1" uses the Windows device name "COM1"',
    "com9.log": 'invalid_path: path "com9.log" uses the Windows device name "com9"',
    "COM¹": 'invalid_path: path "COM¹" uses the Windows device name "COM¹"',
    "LPT³.txt": 'invalid_path: path "LPT³.txt" uses the Windows device name "LPT³"',
    LPT0: 'invalid_path: path "LPT0" uses the Windows device name "LPT0"',
    CONIN$: 'invalid_path: path "CONIN$" uses the Windows device name "CONIN$"',
    "conout$.txt": 'invalid_path: path "conout$.txt" uses the Windows device name "conout$"',
    "CON .txt": 'invalid_path: path "CON .txt" uses the Windows device name "CON"',
    "notes.txt.": 'invalid_path: path "notes.txt." has a name ending in a dot or a space ("notes.txt."), which Windows drops',
    ".git.": 'invalid_path: path ".git." has a name ending in a dot or a space (".git."), which Windows drops',
    "notes ": 'invalid_path: path "notes " has a name ending in a dot or a space ("notes "), which Windows drops',
    "src/draft /a.md": 'invalid_path: path "src/draft /a.md" has a name ending in a dot or a space ("draft "), which Windows drops',
    "file.txt:hidden": `invalid_path: path "file.txt:hidden" contains ":", ${why}`,
    // The folder .git itself on NTFS, as its index stream: git's CVE-2019-1352.
    ".git::$INDEX_ALLOCATION/config": `invalid_path: path ".git::$INDEX_ALLOCATION/config" contains ":", ${why}`,
    "a<b": `invalid_path: path "a<b" contains "<", ${why}`,
    "a>b": `invalid_path: path "a>b" contains ">", ${why}`,
    'a"b': `invalid_path: path "a\\"b" contains "\\"", ${why}`,
    "a|b": `invalid_path: path "a|b" contains "|", ${why}`,
    "what?.md": `invalid_path: path "what?.md" contains "?", ${why}`,
    "*.md": `invalid_path: path "*.md" contains "*", ${why}`,
    "tab\there": `invalid_path: path "tab\\there" contains a control character, ${why}`,
    "bell\u0007": `invalid_path: path "bell\\u0007" contains a control character, ${why}`,
    ["x".repeat(256)]: `invalid_path: path "${"x".repeat(120)}…" has a name longer than 255 bytes`,
    ["é".repeat(128)]: `invalid_path: path "${"é".repeat(120)}…" has a name longer than 255 bytes`,
  });
  // The longest names that fit: 255 bytes, in one-byte and two-byte characters.
  expect(await preparedTable(["x".repeat(255), `${"é".repeat(127)}x`]), "names of exactly 255 bytes").toEqual({
    ["x".repeat(255)]: "x".repeat(255),
    [`${"é".repeat(127)}x`]: `${"é".repeat(127)}x`,
  });
});

it("accepts names that only end like a device name, such as favicon.ico or faux.css", async () => {
  // A device name is the whole part before the first dot, not its end: these are ordinary files.
  const inputs = ["favicon.ico", "src/icon.svg", "falcon.md", "faux.css", "telecom1.csv", "sculpt3.stl"];
  expect(await preparedTable(inputs), "the prepared form of each name").toEqual({
    "favicon.ico": "favicon.ico",
    "src/icon.svg": "src/icon.svg",
    "falcon.md": "falcon.md",
    "faux.css": "faux.css",
    "telecom1.csv": "telecom1.csv",
    "sculpt3.stl": "sculpt3.stl",
  });
});

it("quotes a path whole in a message up to 120 characters and shortens a longer one", async () => {
  const head = `/${"a".repeat(119)}`;
  const refusals = { "120 characters": await prepared(head), "121 characters": await prepared(`${head}b`) };
  expect(refusals, "the refusal of an absolute path of 120 and of 121 characters").toEqual({
    "120 characters": `invalid_path: path "${head}" is absolute`,
    "121 characters": `invalid_path: path "${head}…" is absolute`,
  });
});

it("keeps DEFAULT_LIMITS frozen and refuses a root, a limit or a protected path that is malformed", async () => {
  expect(DEFAULT_LIMITS, "the default limits the lesson states").toEqual({
    entries: 10_000,
    fileBytes: 1_048_576,
    lineLength: 2_000,
    matches: 200,
    resultBytes: 65_536,
    timeMs: 5_000,
  });
  expect(Object.isFrozen(DEFAULT_LIMITS), "DEFAULT_LIMITS is frozen").toBe(true);
  const { fileSystem: fs } = memoryWorkspace({});
  const construct = (root: unknown, options: object) => outcome(() => new ReadOnlyWorkspace(root as string, { fs, ...options }));
  const refusals = {
    "relative root": await construct("ws", {}),
    "missing root": await construct(undefined, {}),
    "limits null": await construct("/ws", { limits: null }),
    "limits 5": await construct("/ws", { limits: 5 }),
    "entries 0": await construct("/ws", { limits: { entries: 0 } }),
    "matches 2.5": await construct("/ws", { limits: { matches: 2.5 } }),
    'fileBytes "1024"': await construct("/ws", { limits: { fileBytes: "1024" } }),
    "timeMs -1": await construct("/ws", { limits: { timeMs: -1 } }),
    "lineLength Infinity": await construct("/ws", { limits: { lineLength: Infinity } }),
    "a typo": await construct("/ws", { limits: { entry: 5 } }),
    "constructor from JSON": await construct("/ws", { limits: JSON.parse('{ "constructor": 5 }') as object }),
    "protectedPaths not an array": await construct("/ws", { protectedPaths: "config/forge.toml" }),
    "protected ..": await construct("/ws", { protectedPaths: ["../forge.toml"] }),
    "protected absolute": await construct("/ws", { protectedPaths: ["/etc/forge.toml"] }),
    "protected root": await construct("/ws", { protectedPaths: ["./"] }),
    "larger limits": await construct("/ws", { limits: { entries: 50_000, resultBytes: 1 } }),
  };
  expect(refusals, "how each malformed option is refused").toEqual({
    "relative root": "invalid_path: the workspace root must be an absolute path",
    "missing root": "invalid_path: the workspace root must be an absolute path",
    "limits null": "invalid_argument: limits must be an object",
    "limits 5": "invalid_argument: limits must be an object",
    "entries 0": "invalid_argument: limit entries must be a positive integer",
    "matches 2.5": "invalid_argument: limit matches must be a positive integer",
    'fileBytes "1024"': "invalid_argument: limit fileBytes must be a positive integer",
    "timeMs -1": "invalid_argument: limit timeMs must be a positive integer",
    "lineLength Infinity": "invalid_argument: limit lineLength must be a positive integer",
    "a typo": 'invalid_argument: unknown limit "entry"',
    "constructor from JSON": 'invalid_argument: unknown limit "constructor"',
    "protectedPaths not an array": "invalid_argument: protectedPaths must be an array of paths",
    "protected ..": 'invalid_path: path "../forge.toml" contains "..": name the entry from the workspace root instead',
    "protected absolute": 'invalid_path: path "/etc/forge.toml" is absolute',
    "protected root": "invalid_path: a protected path must name an entry, not the whole workspace",
    // The trusted caller may raise a limit as well as lower it.
    "larger limits": "ok",
  });
});

it("lists one folder sorted by name, with the kind of each entry", async () => {
  const { workspace, vol } = memoryWorkspace({
    ...repository(),
    "docs/guide.md": "# Guide\n",
    assets: null,
    "constructor.ts": "export {};\n",
    toString: "\n",
    "a\\b.md": "a backslash is part of this name on Linux\n",
    CON: "a device name on Windows\n",
    "draft.": "a trailing dot\n",
    "vendor/lib/.git/HEAD": "ref: refs/heads/main\n",
    "vendor/lib/.env.local": `${API_KEY}\n`,
    "vendor/lib/index.js": "module.exports = {};\n",
  });
  // Written after the volume is made: memfs's JSON loader drops a key named __proto__.
  vol.writeFileSync("/ws/__proto__", "a file named like an object property\n");
  vol.symlinkSync("/ws/docs/guide.md", "/ws/guide-link.md");
  expect(await workspace.list("."), "the root, sorted by UTF-16 code units").toEqual({
    entries: [
      { name: ".env", kind: "blocked" },
      { name: ".env.example", kind: "blocked" },
      { name: ".git", kind: "blocked" },
      { name: "CON", kind: "blocked" },
      { name: "README.md", kind: "file" },
      { name: "__proto__", kind: "file" },
      { name: "a\\b.md", kind: "blocked" },
      { name: "assets", kind: "directory" },
      { name: "constructor.ts", kind: "file" },
      { name: "data", kind: "blocked" },
      { name: "docs", kind: "directory" },
      { name: "draft.", kind: "blocked" },
      { name: "guide-link.md", kind: "link" },
      { name: "package.json", kind: "file" },
      { name: "src", kind: "directory" },
      { name: "toString", kind: "file" },
      { name: "vendor", kind: "directory" },
    ],
    nextOffset: null,
    nextAfter: null,
  });
  expect(await workspace.list("vendor\\lib"), "a nested folder: .git and .env.* are protected at any depth").toEqual({
    entries: [
      { name: ".env.local", kind: "blocked" },
      { name: ".git", kind: "blocked" },
      { name: "index.js", kind: "file" },
    ],
    nextOffset: null,
    nextAfter: null,
  });
  expect(await workspace.list("assets"), "an empty folder").toEqual({ entries: [], nextOffset: null, nextAfter: null });
  const refusals = {
    "README.md": await outcome(() => workspace.list("README.md")),
    "README.md/x": await outcome(() => workspace.list("README.md/x")),
    missing: await outcome(() => workspace.list("missing")),
    "missing/deeper": await outcome(() => workspace.list("missing/deeper")),
    "guide-link.md": await outcome(() => workspace.list("guide-link.md")),
  };
  expect(refusals, "what cannot be listed").toEqual({
    "README.md": 'not_a_directory: path "README.md" is not a directory',
    "README.md/x": 'not_a_directory: path "README.md/x": "README.md" is not a directory',
    missing: 'not_found: path "missing" does not exist',
    "missing/deeper": 'not_found: path "missing" does not exist',
    "guide-link.md": 'link_refused: path "guide-link.md" goes through the symlink "guide-link.md"; links are not followed',
  });
});

it("uses a root that is itself a symlink as trusted code gave it: only links inside the workspace are refused", async () => {
  // On macOS, /tmp and /var are links into /private: a workspace created there is reached through one.
  const { fs, vol } = memfs({ "README.md": "# The shop\n", "src/app.ts": "export const app = 'shop';\n" }, "/private/var/shop");
  vol.symlinkSync("/private/var/shop", "/ws");
  vol.symlinkSync("/private/var/shop/README.md", "/private/var/shop/readme-link.md");
  const fileSystem: ReadOnlyFileSystem = fs.promises;
  const workspace = new ReadOnlyWorkspace("/ws", { fs: fileSystem });
  const answer = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      return await call();
    } catch (error) {
      return error instanceof WorkspaceToolError ? `${error.code}: ${error.message}` : `not a WorkspaceToolError: ${String(error)}`;
    }
  };
  expect(
    {
      "list .": await answer(async () => (await workspace.list(".")).entries.map((entry) => `${entry.name} ${entry.kind}`)),
      "read src/app.ts": await answer(async () => (await workspace.read("src/app.ts")).lines),
      "search shop": await answer(async () => (await workspace.search("shop")).matches.map((match) => `${match.path}:${match.line}`)),
      "read readme-link.md": await answer(() => workspace.read("readme-link.md")),
    },
    "what each call returns through the linked root",
  ).toEqual({
    "list .": ["README.md file", "readme-link.md link", "src directory"],
    "read src/app.ts": ["export const app = 'shop';"],
    "search shop": ["README.md:1", "src/app.ts:1"],
    "read readme-link.md": 'link_refused: path "readme-link.md" goes through the symlink "readme-link.md"; links are not followed',
  });
});

it("pages a folder by offset and never returns more than the entries limit, whatever the request asks", async () => {
  const files = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${String(i).padStart(2, "0")}.ts`, ""]));
  const names = (result: { entries: { name: string }[] }) => result.entries.map((entry) => entry.name);
  // readdir promises no order (ext4 returns hash order): this one answers in reverse.
  const { fileSystem } = memoryWorkspace(files(25));
  const reversed: ReadOnlyFileSystem = { ...fileSystem, readdir: async (path) => [...(await fileSystem.readdir(path))].reverse() };
  const workspace = new ReadOnlyWorkspace("/ws", { fs: reversed, limits: { entries: 10 } });
  const pages = {
    "limit 1e9": await workspace.list(".", { limit: 1e9 }),
    "offset 10": await workspace.list(".", { offset: 10 }),
    "offset 20": await workspace.list(".", { offset: 20, limit: 10 }),
    "offset 22, limit 2": await workspace.list(".", { offset: 22, limit: 2 }),
    "offset 25": await workspace.list(".", { offset: 25 }),
    "offset 99": await workspace.list(".", { offset: 99 }),
  };
  const ts = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `f${String(from + i).padStart(2, "0")}.ts`);
  expect(
    Object.fromEntries(Object.entries(pages).map(([request, page]) => [request, [names(page), page.nextOffset]])),
    "each page's names and nextOffset",
  ).toEqual({
    "limit 1e9": [ts(0, 10), 10],
    "offset 10": [ts(10, 20), 20],
    "offset 20": [ts(20, 25), null],
    "offset 22, limit 2": [ts(22, 24), 24],
    "offset 25": [[], null],
    "offset 99": [[], null],
  });
  // A folder of exactly the limit fits in one page; one more entry needs a second page.
  const boundary: Record<number, [number, number | null]> = {};
  for (const count of [9, 10, 11]) {
    const page = await memoryWorkspace(files(count), { limits: { entries: 10 } }).workspace.list(".");
    boundary[count] = [page.entries.length, page.nextOffset];
  }
  expect(boundary, "entries in the first page and nextOffset, for 9, 10 and 11 entries").toEqual({
    9: [9, null],
    10: [10, null],
    11: [10, 10],
  });
  // resultBytes counts the JSON of each entry: {"name":"f00.ts","kind":"file"} is 31 bytes.
  expect(JSON.stringify({ name: "f00.ts", kind: "file" }).length, "the size of one entry").toBe(31);
  const cut: Record<number, [number, number | null]> = {};
  for (const resultBytes of [30, 61, 62, 63]) {
    const page = await memoryWorkspace(files(3), { limits: { resultBytes } }).workspace.list(".");
    cut[resultBytes] = [page.entries.length, page.nextOffset];
  }
  expect(cut, "entries per page for a resultBytes of 30, 61, 62 and 63 (at least one, so paging moves on)").toEqual({
    30: [1, 1],
    61: [1, 1],
    62: [2, 2],
    63: [2, 2],
  });
});

it("pages a folder by the last name returned: no entry present throughout is skipped or repeated while the folder changes", async () => {
  // 110 entries, pages of 10. After each page, entries are created and deleted on both sides of the
  // name the next page starts after, as an editor, a build or git would while the model reads.
  const name = (n: number) => `n${String(n).padStart(3, "0")}.ts`;
  const initial = Array.from({ length: 110 }, (_, n) => name(n * 2));
  const { workspace, vol } = memoryWorkspace(Object.fromEntries(initial.map((file) => [file, ""])), { limits: { entries: 10 } });
  const deleted = new Set<string>();
  const seen: string[] = [];
  let after: string | null | undefined;
  for (let page = 0; page < 40 && after !== null; page += 1) {
    const result = await workspace.list(".", after === undefined ? {} : { after });
    for (const entry of result.entries) seen.push(entry.name);
    after = result.nextAfter;
    if (typeof after !== "string") break;
    const at = Number(after.slice(1, 4));
    for (const created of [name(at - 1), name(at + 1)]) vol.writeFileSync(`/ws/${created}`, "");
    for (const gone of [name(at - 4), name(at + 4)]) {
      if (!vol.existsSync(`/ws/${gone}`)) continue;
      vol.unlinkSync(`/ws/${gone}`);
      deleted.add(gone);
    }
  }
  const counts = new Map<string, number>();
  for (const seenName of seen) counts.set(seenName, (counts.get(seenName) ?? 0) + 1);
  const throughout = initial.filter((file) => !deleted.has(file));
  expect(
    {
      "the last page's nextAfter": after,
      "entries present throughout, never listed": throughout.filter((file) => !counts.has(file)),
      "entries listed more than once": [...counts].filter(([, count]) => count > 1).map(([file]) => file),
    },
    "what the pages returned while the folder changed",
  ).toEqual({ "the last page's nextAfter": null, "entries present throughout, never listed": [], "entries listed more than once": [] });
  expect(
    { "pages that changed the folder": deleted.size / 2, "entries deleted": deleted.size },
    "the premise: the folder changed after every page but the last",
  ).toEqual({ "pages that changed the folder": 10, "entries deleted": 20 });

  // nextAfter is the last name of a page that is not the last; after may name an entry that is gone.
  const { workspace: small } = memoryWorkspace({ "a.ts": "", "b.ts": "", "c.ts": "" });
  const pages = {
    "limit 2": await small.list(".", { limit: 2 }),
    'after "b.ts"': await small.list(".", { after: "b.ts" }),
    'after "a.ts", limit 1': await small.list(".", { after: "a.ts", limit: 1 }),
    'after "b", a name that is not there': await small.list(".", { after: "b" }),
    'after "c.ts"': await small.list(".", { after: "c.ts" }),
    'after ""': await small.list(".", { after: "" }),
  };
  const shown = Object.fromEntries(
    Object.entries(pages).map(([request, page]) => [request, [page.entries.map((entry) => entry.name), page.nextOffset, page.nextAfter]]),
  );
  expect(shown, "each page's names, nextOffset and nextAfter").toEqual({
    "limit 2": [["a.ts", "b.ts"], 2, "b.ts"],
    'after "b.ts"': [["c.ts"], null, null],
    'after "a.ts", limit 1': [["b.ts"], 2, "b.ts"],
    'after "b", a name that is not there': [["b.ts", "c.ts"], null, null],
    'after "c.ts"': [[], null, null],
    'after ""': [["a.ts", "b.ts", "c.ts"], null, null],
  });
  const untyped = small as unknown as { list: (path: string, page: unknown) => Promise<unknown> };
  expect(
    {
      "after 5": await outcome(() => untyped.list(".", { after: 5 })),
      "after null": await outcome(() => untyped.list(".", { after: null })),
      "offset and after": await outcome(() => untyped.list(".", { offset: 1, after: "a.ts" })),
    },
    "the refusal of each malformed cursor",
  ).toEqual({
    "after 5": "invalid_argument: after must be a string: the name of the last entry of the page before",
    "after null": "invalid_argument: after must be a string: the name of the last entry of the page before",
    "offset and after": "invalid_argument: give offset or after, not both",
  });
});

it("reads whole lines in pages and says where the next page starts", async () => {
  const { workspace } = memoryWorkspace({
    "CHANGELOG.md": "# 1.4.0\n- cart\n- checkout\n# 1.3.0\n- search",
    "windows.txt": "first\r\nsecond\r\n",
    "empty.txt": "",
    "blank-line.txt": "\n",
    "bom.txt": "\uFEFFtitle\n",
  });
  const read = (path: string, page?: { startLine?: number; maxLines?: number }) => workspace.read(path, page);
  expect(
    {
      whole: await read("CHANGELOG.md"),
      "maxLines 2": await read("CHANGELOG.md", { maxLines: 2 }),
      "from 3, maxLines 2": await read("CHANGELOG.md", { startLine: 3, maxLines: 2 }),
      "from 5": await read("CHANGELOG.md", { startLine: 5, maxLines: 5 }),
      "from 6": await read("CHANGELOG.md", { startLine: 6 }),
      "maxLines 1e9": await read("CHANGELOG.md", { startLine: 4, maxLines: 1e9 }),
      crlf: await read("windows.txt"),
      empty: await read("empty.txt"),
      "one line break": await read("blank-line.txt"),
      bom: await read("bom.txt"),
    },
    "each page",
  ).toEqual({
    whole: { lines: ["# 1.4.0", "- cart", "- checkout", "# 1.3.0", "- search"], startLine: 1, nextStartLine: null },
    "maxLines 2": { lines: ["# 1.4.0", "- cart"], startLine: 1, nextStartLine: 3 },
    "from 3, maxLines 2": { lines: ["- checkout", "# 1.3.0"], startLine: 3, nextStartLine: 5 },
    "from 5": { lines: ["- search"], startLine: 5, nextStartLine: null },
    "from 6": { lines: [], startLine: 6, nextStartLine: null },
    "maxLines 1e9": { lines: ["# 1.3.0", "- search"], startLine: 4, nextStartLine: null },
    crlf: { lines: ["first", "second"], startLine: 1, nextStartLine: null },
    empty: { lines: [], startLine: 1, nextStartLine: null },
    "one line break": { lines: [""], startLine: 1, nextStartLine: null },
    bom: { lines: ["title"], startLine: 1, nextStartLine: null },
  });
  // resultBytes counts each line's JSON: "# 1.4.0" is 9 bytes, "- cart" 8, "- checkout" 12.
  const cut: Record<number, [number, number | null]> = {};
  for (const resultBytes of [5, 16, 17, 18, 28, 29]) {
    const { workspace: small } = memoryWorkspace({ "CHANGELOG.md": "# 1.4.0\n- cart\n- checkout\n" }, { limits: { resultBytes } });
    const page = await small.read("CHANGELOG.md");
    cut[resultBytes] = [page.lines.length, page.nextStartLine];
  }
  expect(cut, "lines per page for each resultBytes (at least one, so paging moves on)").toEqual({
    5: [1, 2],
    16: [1, 2],
    17: [2, 3],
    18: [2, 3],
    28: [2, 3],
    29: [3, null],
  });
  // Bytes, not characters: "ééé" is 3 characters and, quoted, 8 bytes of JSON.
  const accents: Record<number, [number, number | null]> = {};
  for (const resultBytes of [15, 16]) {
    const page = await memoryWorkspace({ "accents.txt": "ééé\nééé\n" }, { limits: { resultBytes } }).workspace.read("accents.txt");
    accents[resultBytes] = [page.lines.length, page.nextStartLine];
  }
  expect(accents, "lines of two-byte characters per page, for a resultBytes of 15 and 16").toEqual({ 15: [1, 2], 16: [2, null] });
});

it("cuts a line longer than lineLength and says how long it was", async () => {
  const { workspace } = memoryWorkspace(
    {
      "bundle.js": ["0123456789", "0123456789a", "x".repeat(30), "12345678😀", "123456789😀"].join("\n"),
    },
    { limits: { lineLength: 10 } },
  );
  expect((await workspace.read("bundle.js")).lines, "each line, cut at 10 UTF-16 code units").toEqual([
    "0123456789",
    "0123456789 [… line cut: 11 characters in all]",
    "xxxxxxxxxx [… line cut: 30 characters in all]",
    "12345678😀",
    // The emoji is two code units, the 10th and 11th: cutting between them would leave half of it.
    "123456789 [… line cut: 11 characters in all]",
  ]);
  expect((await workspace.search("a")).matches, "search cuts the line it returns the same way").toEqual([
    { path: "bundle.js", line: 2, text: "0123456789 [… line cut: 11 characters in all]" },
  ]);
});

it("cuts a line one character short only where the cut would split a surrogate pair, not because the line holds one", async () => {
  const { workspace } = memoryWorkspace(
    { "emoji.txt": ["😀 xxxxxxxxxxxxxxxxxxxx", "ab😀cdefghijklmnop"].join("\n") },
    { limits: { lineLength: 10 } },
  );
  expect((await workspace.read("emoji.txt")).lines, "each line, cut at 10 UTF-16 code units after an emoji").toEqual([
    "😀 xxxxxxx [… line cut: 23 characters in all]",
    "ab😀cdefgh [… line cut: 18 characters in all]",
  ]);
});

it("refuses to read what is not a regular UTF-8 file within fileBytes", async () => {
  const { workspace } = memoryWorkspace(
    {
      "src/app.ts": "export {};\n",
      "sixteen.txt": "0123456789abcdef",
      "seventeen.txt": "0123456789abcdefg",
      "utf8.txt": "café 😀 ✓",
      "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]),
      "latin1.txt": Buffer.from("caf\xe9", "latin1"),
      "overlong.txt": Buffer.from([0x2f, 0xc0, 0xaf]),
      "surrogate.txt": Buffer.from([0xed, 0xa0, 0x80]),
      "cut-short.txt": Buffer.from([0x61, 0xe2, 0x9c]),
    },
    { limits: { fileBytes: 16 } },
  );
  const outcomes: Record<string, string> = {};
  const paths = [
    "src",
    ".",
    "sixteen.txt",
    "seventeen.txt",
    "utf8.txt",
    "logo.png",
    "latin1.txt",
    "overlong.txt",
    "surrogate.txt",
    "cut-short.txt",
  ];
  for (const path of paths) outcomes[path] = await outcome(() => workspace.read(path));
  expect(outcomes, "what read does with each entry").toEqual({
    src: 'not_a_file: path "src" is not a regular file',
    ".": 'not_a_file: path "." is not a regular file',
    "sixteen.txt": "ok",
    "seventeen.txt": 'too_large: path "seventeen.txt" has 17 bytes, more than the limit of 16',
    "utf8.txt": "ok",
    "logo.png": 'not_utf8: path "logo.png" is not UTF-8 text',
    "latin1.txt": 'not_utf8: path "latin1.txt" is not UTF-8 text',
    "overlong.txt": 'not_utf8: path "overlong.txt" is not UTF-8 text',
    "surrogate.txt": 'not_utf8: path "surrogate.txt" is not UTF-8 text',
    "cut-short.txt": 'not_utf8: path "cut-short.txt" is not UTF-8 text',
  });
  expect((await workspace.read("utf8.txt")).lines, "valid multi-byte text is read as it is").toEqual(["café 😀 ✓"]);
});

/** A chain of `depth` folders, each named with `width` times the letter d: its path, without a separator at the end. */
const folderChain = (depth: number, width: number) => Array.from({ length: depth }, () => "d".repeat(width)).join("/");

it("refuses a path too long for the kernel: PATH_MAX counts the bytes of the whole host path, with its NUL", async () => {
  // Linux refuses a host path of 4096 bytes or more (PATH_MAX is 4096, the closing NUL included), and
  // the host path is the root, a separator and the request. Here the root is /ws: a request of n bytes
  // makes a host path of 4 + n bytes. The volume itself has no limit, so only the tools can refuse.
  const chain = folderChain(16, 250); // 16 × 251 - 1 = 4015 bytes
  const fits = `${chain}/${"x".repeat(75)}`; // /ws/ + 4091 bytes = 4095
  const oneByteMore = `${chain}/${"x".repeat(76)}`; // 4096
  const accents = `${chain}/${"é".repeat(38)}`; // 4096 bytes in 4054 characters
  const { workspace } = memoryWorkspace({
    [fits]: "at the limit\n",
    [oneByteMore]: "one byte past the limit\n",
    [accents]: "two-byte characters, past the limit\n",
    "z-after.txt": "at the limit, and after it\n",
  });
  const tooLong = (path: string) =>
    `invalid_path: path ${JSON.stringify(`${path.slice(0, 120)}…`)} is too long for the file system: with the workspace root it has more than 4095 bytes`;
  expect(
    {
      [`read of ${fits.length} characters, 4095 bytes with the root`]: await outcome(() => workspace.read(fits)),
      [`read of ${oneByteMore.length} characters, 4096 bytes with the root`]: await outcome(() => workspace.read(oneByteMore)),
      [`read of ${accents.length} characters, 4096 bytes with the root`]: await outcome(() => workspace.read(accents)),
      [`list of ${oneByteMore.length} characters`]: await outcome(() => workspace.list(oneByteMore)),
      [`search in ${oneByteMore.length} characters`]: await outcome(() => workspace.search("limit", { path: oneByteMore })),
    },
    "each call, by the length of its path",
  ).toEqual({
    "read of 4091 characters, 4095 bytes with the root": "ok",
    "read of 4092 characters, 4096 bytes with the root": tooLong(oneByteMore),
    "read of 4054 characters, 4096 bytes with the root": tooLong(accents),
    "list of 4092 characters": tooLong(oneByteMore),
    "search in 4092 characters": tooLong(oneByteMore),
  });
  // The entries the kernel could not look up are blocked in a listing and skipped by a search, which
  // goes on after them and keeps what it found.
  expect((await workspace.list(chain)).entries, "the entries of the deepest folder").toEqual([
    { name: "x".repeat(75), kind: "file" },
    { name: "x".repeat(76), kind: "blocked" },
    { name: "é".repeat(38), kind: "blocked" },
  ]);
  expect(await workspace.search("limit"), "a search from the root").toEqual({
    matches: [
      { path: fits, line: 1, text: "at the limit" },
      { path: "z-after.txt", line: 1, text: "at the limit, and after it" },
    ],
    truncated: false,
    limitReason: null,
  });
});

it("searches for the query as plain text: regular-expression characters match only themselves", async () => {
  const { workspace } = memoryWorkspace({
    "docs/pricing.md": "Pro plan: $1.2M (draft)\nTeam plan: $12M\n",
    "src/math.ts": "export const next = (a+1);\nexport const other = aa1;\n",
    "src/routes.ts": "// TODO [draft]: ^login$ route\nconst re = /\\d+/;\n",
    "src/z-last.ts": "axxb\n",
    "README.md": "todo: lower case\n",
  });
  const hits = async (query: string) => (await workspace.search(query)).matches.map((match) => `${match.path}:${match.line}`);
  const queries = ["$1.2M", "(a+1)", "[draft]", "^login$", "\\d+", "a.*b", "a+1", ".", "TODO", "todo"];
  const found: Record<string, string[]> = {};
  for (const query of queries) found[query] = await hits(query);
  expect(found, "where each query is found, in path order").toEqual({
    "$1.2M": ["docs/pricing.md:1"],
    "(a+1)": ["src/math.ts:1"],
    "[draft]": ["src/routes.ts:1"],
    "^login$": ["src/routes.ts:1"],
    "\\d+": ["src/routes.ts:2"],
    "a.*b": [],
    "a+1": ["src/math.ts:1"],
    ".": ["docs/pricing.md:1"],
    TODO: ["src/routes.ts:1"],
    todo: ["README.md:1"],
  });
  expect(await workspace.search("(draft)", { path: "docs" }), "a whole result, from a sub-folder").toEqual({
    matches: [{ path: "docs/pricing.md", line: 1, text: "Pro plan: $1.2M (draft)" }],
    truncated: false,
    limitReason: null,
  });
});

it("search skips protected entries, names no path can express, and files too large or not UTF-8", async () => {
  const { workspace } = memoryWorkspace(
    {
      ...repository(),
      "src/keys.ts": "// sk-live rotated monthly\n",
      "config/forge.toml": 'api_key = "sk-live-forge"\n',
      "a\\b.txt": "sk-live in a name a path cannot express\n",
      CON: "sk-live in a Windows device name\n",
      "dump.bin": Buffer.concat([Buffer.from("sk-live "), Buffer.from([0xff])]),
      "big.log": `sk-live ${"x".repeat(100)}\n`,
      "packages/api/.env": `${API_KEY}\n`,
    },
    { protectedPaths: ["config/forge.toml"], limits: { fileBytes: 64 } },
  );
  expect(await workspace.search("sk-live"), "only the one ordinary file").toEqual({
    matches: [{ path: "src/keys.ts", line: 1, text: "// sk-live rotated monthly" }],
    truncated: false,
    limitReason: null,
  });
});

it("denies protected entries in all three tools: list marks them blocked, read denies them, search skips them", async () => {
  const { workspace } = memoryWorkspace(
    {
      ...repository(),
      "src/data/seed.json": '{ "products": [] }\n',
      "packages/api/.env": `${API_KEY}\n`,
      "config/forge.toml": 'api_key = "sk-live-forge"\n',
      "config/app.toml": 'theme = "dark"\n',
      "state/app.db": "SQLite format 3",
      "state/app.db-wal": "sk-live page",
      "state/app.db-journal": "sk-live page",
      "state/app.db-shm": "",
      "state/app.db.bak": "a copy the caller did not name",
      "docs/.environments.md": "# Staging and production\n",
      "secrets/prod/token.txt": "sk-live-prod\n",
    },
    { protectedPaths: ["config/forge.toml", "state\\app.db", "./secrets/"] },
  );
  const reads: Record<string, string> = {};
  for (const path of [
    "data/config.json",
    "data",
    "data/missing.json",
    ".env",
    ".env.example",
    ".git/config",
    "packages/api/.env",
    "config/forge.toml",
    "state/app.db",
    "state/app.db-wal",
    "state/app.db-journal",
    "state/app.db-shm",
    "secrets/prod/token.txt",
    "src/data/seed.json",
    "config/app.toml",
    "state/app.db.bak",
    "docs/.environments.md",
  ]) {
    reads[path] = await outcome(() => workspace.read(path));
  }
  const denied = (path: string) => `workspace_path_denied: path "${path}" is protected; the tools do not read it`;
  expect(reads, "read of each path").toEqual({
    "data/config.json": denied("data/config.json"),
    data: denied("data"),
    "data/missing.json": denied("data/missing.json"),
    ".env": denied(".env"),
    ".env.example": denied(".env.example"),
    ".git/config": denied(".git/config"),
    "packages/api/.env": denied("packages/api/.env"),
    "config/forge.toml": denied("config/forge.toml"),
    "state/app.db": denied("state/app.db"),
    "state/app.db-wal": denied("state/app.db-wal"),
    "state/app.db-journal": denied("state/app.db-journal"),
    "state/app.db-shm": denied("state/app.db-shm"),
    "secrets/prod/token.txt": denied("secrets/prod/token.txt"),
    "src/data/seed.json": "ok",
    "config/app.toml": "ok",
    "state/app.db.bak": "ok",
    "docs/.environments.md": "ok",
  });
  expect(
    {
      "list data": await outcome(() => workspace.list("data")),
      "list secrets/prod": await outcome(() => workspace.list("secrets/prod")),
      "search in .git": await outcome(() => workspace.search("url", { path: ".git" })),
    },
    "list and search refuse to start inside a protected folder",
  ).toEqual({
    "list data": denied("data"),
    "list secrets/prod": denied("secrets/prod"),
    "search in .git": denied(".git"),
  });
  const kinds = async (folder: string) => (await workspace.list(folder)).entries.map((entry) => `${entry.name} ${entry.kind}`);
  expect(
    { config: await kinds("config"), state: await kinds("state"), "packages/api": await kinds("packages/api") },
    "list marks protected entries blocked",
  ).toEqual({
    config: ["app.toml file", "forge.toml blocked"],
    state: ["app.db blocked", "app.db-journal blocked", "app.db-shm blocked", "app.db-wal blocked", "app.db.bak file"],
    "packages/api": [".env blocked"],
  });
  expect((await workspace.search("sk-live")).matches, "search finds no key").toEqual([]);
});

it("denies protected entries under any letter case, as a case-insensitive disk resolves them", async () => {
  // Windows and macOS look names up without regard to case: `DATA/config.json` opens data/config.json.
  // This volume does the same (names stored in lower case, every lookup folded), and a second one
  // keeps names as a case-preserving disk shows them.
  const { fileSystem } = memoryWorkspace({
    ...repository(),
    "config/forge.toml": 'api_key = "sk-live-forge"\n',
    "state/app.db-wal": API_KEY,
    "hr/salário.csv": "name,salary\n",
  });
  const lower = (path: string) => path.toLowerCase();
  const caseInsensitive: ReadOnlyFileSystem = {
    lstat: (path) => fileSystem.lstat(lower(path)),
    readdir: (path) => fileSystem.readdir(lower(path)),
    open: (path, flags) => fileSystem.open(lower(path), flags),
  };
  const workspace = new ReadOnlyWorkspace("/ws", {
    fs: caseInsensitive,
    protectedPaths: ["config/forge.toml", "state/app.db", "hr/salário.csv"],
  });
  const requests = [
    "DATA/config.json",
    "Data/Config.json",
    ".ENV",
    ".Env.Example",
    ".GIT/config",
    "CONFIG/Forge.toml",
    "state/APP.DB-WAL",
    "HR/SALÁRIO.CSV",
    "hr/sala\u0301rio.csv",
    ".g\u200cit/config",
    ".gıt/config",
  ];
  const outcomes: Record<string, string> = {};
  for (const path of requests) {
    try {
      outcomes[path] = `read: ${(await workspace.read(path)).lines.join(" ")}`;
    } catch (error) {
      outcomes[path] = error instanceof WorkspaceToolError ? error.code : String(error);
    }
  }
  const preserving = memoryWorkspace({
    "Data/profile.json": `{ "token": "${API_KEY}" }\n`,
    ".ENV.production": `${API_KEY}\n`,
    "src/app.ts": "export {};\n",
  }).workspace;
  outcomes["list ."] = (await preserving.list(".")).entries.map((entry) => `${entry.name} ${entry.kind}`).join(", ");
  outcomes["search sk-live"] = JSON.stringify((await preserving.search("sk-live")).matches);
  expect(outcomes, "what each request gets: no key, whatever the letter case").toEqual({
    "DATA/config.json": "workspace_path_denied",
    "Data/Config.json": "workspace_path_denied",
    ".ENV": "workspace_path_denied",
    ".Env.Example": "workspace_path_denied",
    ".GIT/config": "workspace_path_denied",
    "CONFIG/Forge.toml": "workspace_path_denied",
    "state/APP.DB-WAL": "workspace_path_denied",
    "HR/SALÁRIO.CSV": "workspace_path_denied",
    // The same name with the accent as a separate combining mark (NFD, as macOS writes it).
    "hr/sala\u0301rio.csv": "workspace_path_denied",
    // An invisible joiner, which HFS+ ignores, and a dotless ı, which Windows upper-cases to I.
    ".g\u200cit/config": "workspace_path_denied",
    ".gıt/config": "workspace_path_denied",
    "list .": ".ENV.production blocked, Data blocked, src directory",
    "search sk-live": "[]",
  });
});

it("refuses malformed page and query arguments from untyped JSON with one clear error", async () => {
  const { workspace } = memoryWorkspace({ "src/app.ts": "export {};\n" }, { limits: { lineLength: 8 } });
  // The arguments arrive as JSON from the model: any value may stand where the types say otherwise.
  const untyped = workspace as unknown as Record<"list" | "read" | "search", (...args: unknown[]) => Promise<unknown>>;
  const call = (run: (w: typeof untyped) => Promise<unknown>) => outcome(() => run(untyped));
  const refusals = {
    "list offset -1": await call((w) => w.list(".", { offset: -1 })),
    "list offset 1.5": await call((w) => w.list(".", { offset: 1.5 })),
    'list offset "2"': await call((w) => w.list(".", { offset: "2" })),
    "list limit 0": await call((w) => w.list(".", { limit: 0 })),
    "list limit NaN": await call((w) => w.list(".", { limit: Number.NaN })),
    "list limit Infinity": await call((w) => w.list(".", { limit: Infinity })),
    "list page null": await call((w) => w.list(".", null)),
    "list page array": await call((w) => w.list(".", [1])),
    "list path 7": await call((w) => w.list(7)),
    "read startLine 0": await call((w) => w.read("src/app.ts", { startLine: 0 })),
    "read maxLines -3": await call((w) => w.read("src/app.ts", { maxLines: -3 })),
    "read page string": await call((w) => w.read("src/app.ts", "all")),
    "search empty": await call((w) => w.search("")),
    "search null": await call((w) => w.search(null)),
    "search line break": await call((w) => w.search("export\n{")),
    "search carriage return": await call((w) => w.search("export\r")),
    "search 9 characters": await call((w) => w.search("123456789")),
    "search 8 characters": await call((w) => w.search("12345678")),
    "search options 5": await call((w) => w.search("x", 5)),
    "search path 5": await call((w) => w.search("x", { path: 5 })),
    "search maxMatches 0": await call((w) => w.search("x", { maxMatches: 0 })),
  };
  expect(refusals, "the refusal of each malformed argument").toEqual({
    "list offset -1": "invalid_argument: offset must be an integer of at least 0",
    "list offset 1.5": "invalid_argument: offset must be an integer of at least 0",
    'list offset "2"': "invalid_argument: offset must be an integer of at least 0",
    "list limit 0": "invalid_argument: limit must be a positive integer",
    "list limit NaN": "invalid_argument: limit must be a positive integer",
    "list limit Infinity": "invalid_argument: limit must be a positive integer",
    "list page null": "invalid_argument: page must be an object",
    "list page array": "invalid_argument: page must be an object",
    "list path 7": "invalid_path: a path is required, got a number",
    "read startLine 0": "invalid_argument: startLine must be an integer of at least 1",
    "read maxLines -3": "invalid_argument: maxLines must be a positive integer",
    "read page string": "invalid_argument: page must be an object",
    "search empty": "invalid_argument: a search query is required",
    "search null": "invalid_argument: a search query is required",
    "search line break": "invalid_argument: a search query cannot contain a line break: lines are searched one by one",
    "search carriage return": "invalid_argument: a search query cannot contain a line break: lines are searched one by one",
    "search 9 characters": "invalid_argument: a search query is limited to 8 characters",
    "search 8 characters": "ok",
    "search options 5": "invalid_argument: search options must be an object",
    "search path 5": "invalid_path: a path is required, got a number",
    "search maxMatches 0": "invalid_argument: maxMatches must be a positive integer",
  });
});

/** A tree for the search limits: `count` files in three folders, each file with one line "hit <n>". */
function hitTree(count: number): NestedDirectoryJSON {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`d${i % 3}/f${String(i).padStart(5, "0")}.txt`, `hit ${i}\n`]));
}

it("stops a search at the entries, matches and result-bytes limits, exactly at each boundary", { timeout: 30_000 }, async () => {
  // 6 files in 3 folders: 9 entries visited in all.
  const search = async (limits: Partial<Limits>, options?: { maxMatches?: number }) => {
    const result = await memoryWorkspace(hitTree(6), { limits }).workspace.search("hit", options);
    return `${result.matches.length} ${result.truncated ? result.limitReason : "complete"}`;
  };
  expect(
    {
      "entries 8": await search({ entries: 8 }),
      "entries 9": await search({ entries: 9 }),
      "entries 10": await search({ entries: 10 }),
      "matches 5": await search({ matches: 5 }),
      "matches 6": await search({ matches: 6 }),
      "matches 7": await search({ matches: 7 }),
      "maxMatches 2": await search({}, { maxMatches: 2 }),
      "maxMatches 1e9, matches 3": await search({ matches: 3 }, { maxMatches: 1e9 }),
      // One match is {"path":"d0/f00000.txt","line":1,"text":"hit 0"}: 48 bytes; six are 288.
      "resultBytes 287": await search({ resultBytes: 287 }),
      "resultBytes 288": await search({ resultBytes: 288 }),
      "resultBytes 47": await search({ resultBytes: 47 }),
    },
    "matches found and why the search stopped",
  ).toEqual({
    "entries 8": "5 entries",
    "entries 9": "6 complete",
    "entries 10": "6 complete",
    "matches 5": "5 matches",
    "matches 6": "6 complete",
    "matches 7": "6 complete",
    "maxMatches 2": "2 matches",
    "maxMatches 1e9, matches 3": "3 matches",
    "resultBytes 287": "5 result_bytes",
    "resultBytes 288": "6 complete",
    "resultBytes 47": "0 result_bytes",
  });
  expect(JSON.stringify({ path: "d0/f00000.txt", line: 1, text: "hit 0" }).length, "the size of one match").toBe(48);
  // With the default limits: 10,000 empty folders, then a file with a hit as the 10,001st entry.
  const big: NestedDirectoryJSON = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`d${String(i).padStart(5, "0")}`, null]));
  big["zz-last.txt"] = "hit\n";
  const result = await memoryWorkspace(big).workspace.search("hit");
  expect(result, "a tree one entry larger than the default entries limit").toEqual({
    matches: [],
    truncated: true,
    limitReason: "entries",
  });
});

it("stops a search that takes longer than timeMs, on a clock the model cannot move", async () => {
  vi.useFakeTimers({ toFake: ["performance"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const { fileSystem } = memoryWorkspace(hitTree(6));
  /** A disk where each folder read takes `step` milliseconds. */
  const slow = (step: number): ReadOnlyFileSystem => ({
    ...fileSystem,
    lstat: (path) => fileSystem.lstat(path),
    open: (path, flags) => fileSystem.open(path, flags),
    readdir: async (path) => {
      vi.advanceTimersByTime(step);
      return fileSystem.readdir(path);
    },
  });
  const search = async (step: number) => {
    const result = await new ReadOnlyWorkspace("/ws", { fs: slow(step), limits: { timeMs: 100 } }).search("hit");
    return `${result.matches.length} ${result.truncated ? result.limitReason : "complete"}`;
  };
  // Four folders are read (the root, d0, d1, d2), each taking `step` ms; the limit is checked before
  // each entry, so d2's files are visited at 4 × step.
  const outcomes = {
    "4 × 25 ms": await search(25),
    "4 × 26 ms": await search(26),
    "3 × 34 ms": await search(34),
    "2 × 51 ms": await search(51),
  };
  expect(outcomes, "matches found and why it stopped").toEqual({
    "4 × 25 ms": "6 complete",
    "4 × 26 ms": "4 time",
    "3 × 34 ms": "2 time",
    "2 × 51 ms": "0 time",
  });
});

it("turns file-system failures into refusals that name the workspace path, never the host path", async () => {
  const root = "/srv/agents/run-42/shop";
  const { fs } = memfs(
    {
      "src/app.ts": "export {};\n",
      "src/locked.ts": "x\n",
      "src/sealed.ts": "x\n",
      "src/z-broken.ts": "x\n",
      "src/deep.ts": "x\n",
      "docs/a.md": "a\n",
      moved: null,
    },
    root,
  );
  const fileSystem: ReadOnlyFileSystem = fs.promises;
  const failure = (code: string, syscall: string, path: string) =>
    Object.assign(new Error(`${code}: injected, ${syscall} '${path}'`), { code, syscall, path });
  const failing: ReadOnlyFileSystem = {
    lstat: (path) => fileSystem.lstat(path),
    readdir: async (path) => {
      if (path.endsWith("docs")) return [Buffer.from("a.md")];
      // A folder replaced by a file between the walk and the readdir.
      if (path.endsWith("moved")) throw failure("ENOTDIR", "scandir", path);
      return fileSystem.readdir(path);
    },
    open: async (path, flags) => {
      if (path.endsWith("locked.ts")) throw failure("EACCES", "open", path);
      if (path.endsWith("sealed.ts")) throw failure("EPERM", "open", path);
      if (path.endsWith("z-broken.ts")) throw failure("EIO", "open", path);
      // What macOS answers once a host path passes its PATH_MAX of 1024 bytes.
      if (path.endsWith("deep.ts")) throw failure("ENAMETOOLONG", "open", path);
      return fileSystem.open(path, flags);
    },
  };
  const workspace = new ReadOnlyWorkspace(root, { fs: failing });
  const errors: unknown[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    try {
      return await run();
    } catch (error) {
      errors.push(error);
      if (error instanceof WorkspaceToolError) return `${error.code}: ${error.message}`;
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  };
  const outcomes = {
    locked: await attempt(() => workspace.read("src/locked.ts")),
    sealed: await attempt(() => workspace.read("src/sealed.ts")),
    moved: await attempt(() => workspace.list("moved")),
    broken: await attempt(() => workspace.read("src/z-broken.ts")),
    deep: await attempt(() => workspace.read("src/deep.ts")),
    missing: await attempt(() => workspace.read("src/missing.ts")),
    "under a file": await attempt(() => workspace.read("src/app.ts/x")),
    "readdir of Buffers": await attempt(() => workspace.list("docs")),
    search: await attempt(() => workspace.search("export", { path: "src" })),
  };
  expect(outcomes, "each outcome").toEqual({
    locked: 'workspace_path_denied: path "src/locked.ts" is not readable',
    sealed: 'workspace_path_denied: path "src/sealed.ts" is not readable',
    moved: 'not_found: path "moved" does not exist',
    broken: 'Error: path "src/z-broken.ts" could not be read (EIO)',
    deep: 'invalid_path: path "src/deep.ts" is too long for the file system (ENAMETOOLONG)',
    missing: 'not_found: path "src/missing.ts" does not exist',
    "under a file": 'not_a_directory: path "src/app.ts/x": "src/app.ts" is not a directory',
    "readdir of Buffers": "TypeError: the file system's readdir must return names as strings",
    // EACCES, EPERM and ENAMETOOLONG are refusals, so search skips those files; EIO is a real failure, so search reports it.
    search: 'Error: path "src/z-broken.ts" could not be read (EIO)',
  });
  const messages = errors.map((error) => (error as Error).message);
  expect(
    messages.filter((message) => message.includes("/srv/")),
    "messages that name a host path",
  ).toEqual([]);
  // The host path is kept for the harness's log, as the cause.
  const broken = errors.find((error) => error instanceof Error && error.message.endsWith("(EIO)")) as Error;
  expect((broken.cause as Error).message, "the cause of the EIO failure").toBe(`EIO: injected, open '${root}/src/z-broken.ts'`);
});

/** The error a call rejects with, or a note that it did not reject. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
    return "no error";
  } catch (error) {
    return error;
  }
}

it("names a refusal WorkspaceToolError and keeps the error it was made from as its cause, for the harness's log", async () => {
  const root = "/srv/agents/run-7/shop";
  const { fs } = memfs(
    {
      "src/loop.ts": "x\n",
      "src/locked.ts": "x\n",
      "src/sealed.ts": "x\n",
      "src/deep.ts": "x\n",
      "latin1.txt": Buffer.from("caf\xe9", "latin1"),
      moved: null,
    },
    root,
  );
  const fileSystem: ReadOnlyFileSystem = fs.promises;
  const thrown = new Map<string, Error>();
  const failure = (code: string, syscall: string, path: string) => {
    const error = Object.assign(new Error(`${code}: injected, ${syscall} '${path}'`), { code, syscall, path });
    thrown.set(code, error);
    return error;
  };
  const failing: ReadOnlyFileSystem = {
    lstat: async (path) => {
      if (path.endsWith("missing.ts")) throw failure("ENOENT", "lstat", path);
      return fileSystem.lstat(path);
    },
    readdir: async (path) => {
      if (path.endsWith("moved")) throw failure("ENOTDIR", "scandir", path);
      return fileSystem.readdir(path);
    },
    open: async (path, flags) => {
      // ELOOP is what O_NOFOLLOW reports when a symlink was swapped in after the walk.
      if (path.endsWith("loop.ts")) throw failure("ELOOP", "open", path);
      if (path.endsWith("locked.ts")) throw failure("EACCES", "open", path);
      if (path.endsWith("sealed.ts")) throw failure("EPERM", "open", path);
      if (path.endsWith("deep.ts")) throw failure("ENAMETOOLONG", "open", path);
      return fileSystem.open(path, flags);
    },
  };
  const workspace = new ReadOnlyWorkspace(root, { fs: failing });
  const calls: Record<string, [string, () => Promise<unknown>]> = {
    "read src/missing.ts": ["ENOENT", () => workspace.read("src/missing.ts")],
    "list moved": ["ENOTDIR", () => workspace.list("moved")],
    "read src/loop.ts": ["ELOOP", () => workspace.read("src/loop.ts")],
    "read src/locked.ts": ["EACCES", () => workspace.read("src/locked.ts")],
    "read src/sealed.ts": ["EPERM", () => workspace.read("src/sealed.ts")],
    "read src/deep.ts": ["ENAMETOOLONG", () => workspace.read("src/deep.ts")],
  };
  const seen: Record<string, string> = {};
  for (const [call, [code, run]] of Object.entries(calls)) {
    const error = await rejection(run);
    if (!(error instanceof WorkspaceToolError)) {
      seen[call] = `not a WorkspaceToolError: ${String(error)}`;
      continue;
    }
    const cause = error.cause === thrown.get(code) ? `the ${code} error` : String(error.cause);
    seen[call] = `name ${JSON.stringify(error.name)}, ${error.code}, cause: ${cause}`;
  }
  const decoding = await rejection(() => workspace.read("latin1.txt"));
  if (decoding instanceof WorkspaceToolError) {
    const cause = decoding.cause instanceof Error ? "the decoder's error" : String(decoding.cause);
    seen["read latin1.txt"] = `name ${JSON.stringify(decoding.name)}, ${decoding.code}, cause: ${cause}`;
  } else {
    seen["read latin1.txt"] = `not a WorkspaceToolError: ${String(decoding)}`;
  }
  expect(seen, "each refusal: its name, its code and its cause").toEqual({
    "read src/missing.ts": 'name "WorkspaceToolError", not_found, cause: the ENOENT error',
    "list moved": 'name "WorkspaceToolError", not_found, cause: the ENOTDIR error',
    "read src/loop.ts": 'name "WorkspaceToolError", link_refused, cause: the ELOOP error',
    "read src/locked.ts": 'name "WorkspaceToolError", workspace_path_denied, cause: the EACCES error',
    "read src/sealed.ts": 'name "WorkspaceToolError", workspace_path_denied, cause: the EPERM error',
    "read src/deep.ts": 'name "WorkspaceToolError", invalid_path, cause: the ENAMETOOLONG error',
    "read latin1.txt": 'name "WorkspaceToolError", not_utf8, cause: the decoder\'s error',
  });
});

it("reports a failure without an error code as a plain Error that says unknown error, never as a refusal", async () => {
  const { fileSystem } = memoryWorkspace({ "src/app.ts": "export {};\n" });
  const gone = new Error("the disk went away");
  const failing: ReadOnlyFileSystem = {
    lstat: (path) => fileSystem.lstat(path),
    readdir: (path) => fileSystem.readdir(path),
    open: async () => {
      throw gone;
    },
  };
  const workspace = new ReadOnlyWorkspace("/ws", { fs: failing });
  const describe = (error: unknown) =>
    error instanceof Error
      ? {
          refusal: error instanceof WorkspaceToolError,
          message: error.message,
          cause: error.cause === gone ? "the error thrown" : error.cause,
        }
      : { thrown: error };
  const failed = {
    read: describe(await rejection(() => workspace.read("src/app.ts"))),
    search: describe(await rejection(() => workspace.search("export"))),
  };
  const expected = { refusal: false, message: expect.stringContaining("unknown error"), cause: "the error thrown" };
  expect(failed, "how read and search report a failure that has no code").toEqual({ read: expected, search: expected });
});

it("list stops on a real failure while it looks at an entry, instead of showing the entry as blocked", async () => {
  const { fileSystem } = memoryWorkspace({ "gone/a.ts": "x\n", "gone/b.ts": "x\n", "broken/a.ts": "x\n", "broken/b.ts": "x\n" });
  const failure = (code: string, path: string) =>
    Object.assign(new Error(`${code}: injected, lstat '${path}'`), { code, syscall: "lstat", path });
  const failing: ReadOnlyFileSystem = {
    lstat: async (path) => {
      // A file deleted between readdir and lstat is a refusal; an I/O error is a real failure.
      if (path === "/ws/gone/b.ts") throw failure("ENOENT", path);
      if (path === "/ws/broken/b.ts") throw failure("EIO", path);
      return fileSystem.lstat(path);
    },
    readdir: (path) => fileSystem.readdir(path),
    open: (path, flags) => fileSystem.open(path, flags),
  };
  const workspace = new ReadOnlyWorkspace("/ws", { fs: failing });
  const listing = async (folder: string): Promise<unknown> => {
    try {
      return (await workspace.list(folder)).entries.map((entry) => `${entry.name} ${entry.kind}`);
    } catch (error) {
      if (error instanceof WorkspaceToolError) return `${error.code}: ${error.message}`;
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  };
  expect({ gone: await listing("gone"), broken: await listing("broken") }, "what list returns for each folder").toEqual({
    gone: ["a.ts file", "b.ts blocked"],
    broken: 'Error: path "broken/b.ts" could not be read (EIO)',
  });
});
