import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import type { ReadOnlyFileSystem } from "forge/tools/readonly";
import { narrowToClientRoots, toWorkspacePath } from "forge/tools/server";
import { symlink, temporaryFolder, writeTree } from "../../lab/testing.js";
import { acceptShown, session, type Outcome } from "./session.js";

// The classes of path the official filesystem server got wrong, each through the official SDK client.
// The root is `<base>/allowed`; beside it lie folders whose names start with the root's name, and a
// folder `outside`. Every file outside holds SECRET, so any result that contains it is an escape.

const SECRET = "SECRET-OUTSIDE-THE-ROOT";

/** The root with two files, and the places an attack aims at. */
function studio(): { base: string; root: string } {
  const base = temporaryFolder();
  writeTree(base, {
    "allowed/README.md": "# Shop\n",
    "allowed/docs/guide.md": "# Guide\n",
    "outside/secret.txt": `${SECRET}\n`,
    "outside/folder/secret.txt": `${SECRET}\n`,
  });
  return { base, root: join(base, "allowed") };
}

/** Every read tool on one path: what each returned, for a message that says which one leaked. */
async function readAll(call: (name: string, args: Record<string, unknown>) => Promise<Outcome>, path: string) {
  return {
    read: await call("read_text_file", { path }),
    list: await call("list_directory", { path }),
    search: await call("search_files", { path, pattern: "SECRET" }),
  };
}

it("refuses the prefix sibling allowed_evil by whole segments, where CVE-2025-53110's startsWith let it in", async () => {
  const { base, root } = studio();
  writeTree(base, { "allowed_evil/secret.txt": `${SECRET}\n` });
  const { call } = await session({ root });
  const answers = await readAll(call, `${root}_evil/secret.txt`);
  expect(answers.read.code, `read_text_file of the prefix sibling: ${answers.read.text}`).toBe("outside_root");
  expect(answers.list.code, `list_directory of ${root}_evil/secret.txt: ${answers.list.text}`).toBe("outside_root");
  const folder = await call("list_directory", { path: `${root}_evil` });
  expect(folder.code, `list_directory of the sibling folder itself: ${folder.text}`).toBe("outside_root");
  expect(JSON.stringify(answers), "what the three tools returned").not.toContain(SECRET);
});

it("refuses the four suffix-strip siblings: a quote, a space, an apostrophe or a tab after the root's name", async () => {
  const { base, root } = studio();
  // GHSA-7rgq-gccq-qphx: a server that strips quotes and spaces from a path before comparing lets these in.
  const suffixes = ['"', " ", "'", "\t"];
  for (const suffix of suffixes) writeTree(base, { [`allowed${suffix}/secret.txt`]: `${SECRET}\n` });
  const { call } = await session({ root });
  const codes: Record<string, string | null> = {};
  for (const suffix of suffixes) {
    const answers = await readAll(call, `${root}${suffix}/secret.txt`);
    codes[JSON.stringify(suffix)] = answers.read.code;
    expect(JSON.stringify(answers), `what came back for the sibling allowed${JSON.stringify(suffix)}`).not.toContain(SECRET);
  }
  expect(codes, "the refusal of read_text_file for each suffix").toEqual({
    '"\\""': "outside_root",
    '" "': "outside_root",
    '"\'"': "outside_root",
    '"\\t"': "outside_root",
  });
});

it("reads inside the root by absolute path, by relative path and by the spelling the server was started with", async () => {
  const { base, root } = studio();
  symlink(root, join(base, "via-link"), "dir");
  const { call } = await session({ root: join(base, "via-link") });
  for (const path of [`${root}/docs/guide.md`, "docs/guide.md", `${join(base, "via-link")}/docs/guide.md`, `${root}//docs/./guide.md`]) {
    const answer = await call("read_text_file", { path });
    expect(answer, `read_text_file of ${JSON.stringify(path)}`).toMatchObject({ isError: false, text: "# Guide" });
  }
  const rootItself = await call("list_directory", { path: root });
  expect(rootItself.structured?.entries, "the entries of the root, listed by its own absolute path").toEqual([
    { name: "README.md", kind: "file" },
    { name: "docs", kind: "directory" },
  ]);
});

it("converts a client's path by whole segments and hands the rest to stage 08, which refuses .. and Windows tricks", () => {
  const root = { given: "/srv/allowed", real: "/data/allowed" };
  // A request of 5,000 characters is keyed by its start and length, so a failing run stays readable.
  const shown = (path: string) => (path.length > 60 ? `${path.slice(0, 20)}… (${path.length} characters)` : path);
  const convert = (path: string) => {
    try {
      return toWorkspacePath(root, path);
    } catch (error) {
      return `${(error as { code?: string }).code}`;
    }
  };
  expect(
    Object.fromEntries(
      [
        "/srv/allowed/docs/a.md",
        "/data/allowed/docs/a.md",
        "/data/allowed",
        "\\data\\allowed\\docs\\a.md",
        "docs\\a.md",
        "/srv/allowed/../allowed_evil/x",
        "/srv/allowed_evil/x",
        "/srv/allowedx",
        "/srv",
        "/",
        "C:\\srv\\allowed\\x",
        "\\\\server\\share\\x",
        "/srv/allowed/a.txt:hidden",
        "/srv//allowed/./docs//a.md",
        "/./srv/allowed",
        `/srv/allowed/${"a/".repeat(2_500)}x`,
      ].map((path) => [shown(path), convert(path)]),
    ),
    "each client path in the workspace's form, or the code that refused it",
  ).toEqual({
    "/srv/allowed/docs/a.md": "docs/a.md",
    "/data/allowed/docs/a.md": "docs/a.md",
    "/data/allowed": ".",
    "\\data\\allowed\\docs\\a.md": "docs/a.md",
    "docs\\a.md": "docs/a.md",
    "/srv/allowed/../allowed_evil/x": "invalid_path",
    "/srv/allowed_evil/x": "outside_root",
    "/srv/allowedx": "outside_root",
    "/srv": "outside_root",
    "/": "outside_root",
    "C:\\srv\\allowed\\x": "outside_root",
    "\\\\server\\share\\x": "outside_root",
    "/srv/allowed/a.txt:hidden": "invalid_path",
    "/srv//allowed/./docs//a.md": "docs/a.md",
    "/./srv/allowed": ".",
    [shown(`/srv/allowed/${"a/".repeat(2_500)}x`)]: "invalid_path",
  });
  expect(convert(["/srv/allowed/x"] as unknown as string), "a path that is an array, not a string").toBe("invalid_path");
});

it("refuses a symlink out of the root, to a file and to a folder, for every read tool", async () => {
  const { base, root } = studio();
  symlink(join(base, "outside", "secret.txt"), join(root, "notes.txt"));
  symlink(join(base, "outside", "folder"), join(root, "shared"), "dir");
  const { call } = await session({ root });
  const file = await readAll(call, `${root}/notes.txt`);
  const folder = await readAll(call, `${root}/shared`);
  const through = await call("read_text_file", { path: "shared/secret.txt" });
  expect(file.read.code, `read_text_file of a link to a file outside: ${file.read.text}`).toBe("link_refused");
  expect(folder.list.code, `list_directory of a link to a folder outside: ${folder.list.text}`).toBe("link_refused");
  expect(through.code, `read_text_file through the folder link: ${through.text}`).toBe("link_refused");
  const everything = await readAll(call, root);
  expect(JSON.stringify([file, folder, through, everything]), "what the tools returned").not.toContain(SECRET);
  expect(everything.list.structured?.entries, "the links as list_directory shows them: named, never followed").toContainEqual({
    name: "notes.txt",
    kind: "link",
  });
});

it("refuses a symlink created after the server started, and a folder swapped for a link between two reads", async () => {
  const { base, root } = studio();
  const { call } = await session({ root });
  expect((await call("read_text_file", { path: "docs/guide.md" })).text, "docs/guide.md before the swap").toBe("# Guide");
  symlink(join(base, "outside", "secret.txt"), join(root, "late.txt"));
  renameSync(join(root, "docs"), join(base, "docs-before"));
  writeTree(base, { "outside/folder/guide.md": `${SECRET}\n` });
  symlink(join(base, "outside", "folder"), join(root, "docs"), "dir");
  const late = await call("read_text_file", { path: "late.txt" });
  const swapped = await call("read_text_file", { path: "docs/guide.md" });
  expect(late.code, `read_text_file of a link made after startup: ${late.text}`).toBe("link_refused");
  expect(swapped.code, `read_text_file of docs/guide.md after docs became a link: ${swapped.text}`).toBe("link_refused");
  expect(late.text + swapped.text, "what the two reads returned").not.toContain(SECRET);
});

it("refuses a write through a symlink out of the root before asking anyone, and changes nothing outside", async () => {
  const { base, root } = studio();
  symlink(join(base, "outside", "secret.txt"), join(root, "notes.txt"));
  symlink(join(base, "outside", "folder"), join(root, "shared"), "dir");
  const { call, questions } = await session({ root }, { answer: acceptShown });
  const file = await call("write_file", { path: `${root}/notes.txt`, content: "overwritten" });
  const folder = await call("write_file", { path: "shared/new.txt", content: "created" });
  expect(file.code, `write_file through a link to a file outside: ${file.text}`).toBe("path_escapes");
  expect(folder.code, `write_file through a link to a folder outside: ${folder.text}`).toBe("path_escapes");
  expect(questions, "approvals asked for writes that escape").toEqual([]);
  expect(readFileSync(join(base, "outside", "secret.txt"), "utf8"), "the file outside").toBe(`${SECRET}\n`);
  expect(readdirSync(join(base, "outside", "folder")), "the folder outside").toEqual(["secret.txt"]);
});

/**
 * The real disk, looked up as a case-insensitive one (macOS, Windows) looks names up: each segment
 * finds the entry whose name equals it ignoring case. What the entry is comes from the disk itself.
 */
function caseInsensitive(): ReadOnlyFileSystem {
  const actual = (path: string) => {
    const [first = "", ...segments] = path.split(sep);
    let current = first === "" ? sep : first;
    for (const segment of segments) {
      if (segment === "") continue;
      const names = readdirSync(current);
      const found = names.find((name) => name === segment) ?? names.find((name) => name.toLowerCase() === segment.toLowerCase());
      current = join(current, found ?? segment);
    }
    return current;
  };
  return {
    lstat: async (path) => lstatSync(actual(path)),
    readdir: async (path) => readdirSync(actual(path)),
    open: async (path, flags) => open(actual(path), flags),
  };
}

it("refuses a symlink spelled in another letter case on a case-insensitive disk, where no name comparison could catch it", async () => {
  const { base, root } = studio();
  symlink(join(base, "outside", "folder"), join(root, "shared"), "dir");
  const { call } = await session({ root, fs: caseInsensitive() });
  const upper = await call("read_text_file", { path: `${root}/SHARED/secret.txt` });
  const mixed = await call("list_directory", { path: "Shared" });
  const ordinary = await call("read_text_file", { path: "DOCS/GUIDE.MD" });
  expect(upper.code, `read_text_file of SHARED/secret.txt: ${upper.text}`).toBe("link_refused");
  expect(mixed.code, `list_directory of Shared: ${mixed.text}`).toBe("link_refused");
  expect(ordinary, "a file inside, reached by another case on this disk").toMatchObject({ isError: false, text: "# Guide" });
});

it("takes the root from whoever starts the server: a client's roots narrow it and never widen it", async () => {
  const { base, root } = studio();
  const uri = (path: string) => pathToFileURL(path).href;
  const { call, announceRoots } = await session({ root }, { roots: [uri(join(root, "docs"))] });
  const narrowed = await call("read_text_file", { path: "README.md" });
  expect(narrowed.code, `README.md with the client's root narrowed to docs: ${narrowed.text}`).toBe("outside_client_roots");
  expect((await call("read_text_file", { path: "docs/guide.md" })).text, "docs/guide.md inside the client's root").toBe("# Guide");
  await announceRoots([uri(base), uri(join(base, "outside"))]);
  const widened = await call("read_text_file", { path: join(base, "outside", "secret.txt") });
  expect(widened.code, `a file in a root the client announced outside the server's: ${widened.text}`).toBe("outside_root");
  expect((await call("read_text_file", { path: "README.md" })).text, "README.md once the client announced a folder above the root").toBe(
    "# Shop",
  );
  expect(
    narrowToClientRoots({ given: root, real: root }, [uri(base), uri(join(root, "docs")), "https://example.com/", uri(`${root}_evil`)]),
    "the scopes a parent, a child, a web address and a prefix sibling leave open",
  ).toEqual([".", "docs"]);
  expect(narrowToClientRoots({ given: root, real: root }, [uri(`${root}_evil`)]), "the scopes of a sibling root alone").toEqual([]);
  expect(
    narrowToClientRoots({ given: "/srv/allowed", real: "/data/allowed" }, [
      "file:///srv",
      "file:///data/allowed/src",
      "file:///srv/allowed/docs",
    ]),
    "the scopes of a parent of the spelling the server was started with, and two children, sorted",
  ).toEqual([".", "docs", "src"]);
  await announceRoots([uri(join(root, "src")), uri(join(root, "docs"))]);
  expect((await call("list_directory", { path: "docs" })).isError, "docs listed, a root the client announced").toBe(false);
  expect((await call("read_text_file", { path: "docs/guide.md" })).text, "docs/guide.md under two client roots").toBe("# Guide");
});

it("creates nothing outside the root for a write to a sibling, a parent or an absolute path elsewhere", async () => {
  const { base, root } = studio();
  const { call, questions } = await session({ root }, { answer: acceptShown });
  const attempts = [
    `${root}_evil/new.txt`,
    `${root}/../outside/new.txt`,
    join(base, "outside", "new.txt"),
    "../outside/new.txt",
    "/etc/forge-lab-test.txt",
  ];
  const codes = [];
  for (const path of attempts) codes.push((await call("write_file", { path, content: SECRET })).code);
  expect(codes, "the refusal of each write").toEqual(["outside_root", "invalid_path", "outside_root", "invalid_path", "outside_root"]);
  expect(questions, "approvals asked for writes outside the root").toEqual([]);
  expect(existsSync(join(base, "outside", "new.txt")) || existsSync(`${root}_evil`), "a file created outside").toBe(false);
  mkdirSync(join(root, "made"));
  const inside = await call("write_file", { path: `${root}/made/new.txt`, content: "inside" });
  expect(inside, "a write inside the root, accepted by the person").toMatchObject({ isError: false });
  expect(readFileSync(join(root, "made", "new.txt"), "utf8"), "the file written inside").toBe("inside");
});
