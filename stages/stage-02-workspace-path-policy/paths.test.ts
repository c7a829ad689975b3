import { mkdirSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { expect, it } from "vitest";
import { resolveWorkspacePath } from "forge/tools/paths";
import { oneLine, otherThan, refused, settled, type Wording } from "../../lab/outcome.js";
import { symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

/**
 * The software-delivery scenario on a real disk: a front-end repository `ws` with a secret next to
 * it, and a sibling folder whose name begins with the repository's name.
 *
 *   base/secret.txt
 *   base/ws/src/app.ts
 *   base/ws-evil/x
 */
function frontEndRepository(): { base: string; ws: string } {
  const base = temporaryFolder();
  writeTree(base, {
    "secret.txt": "API_TOKEN=do-not-leak\n",
    "ws/src/app.ts": "export const app = 'shop';\n",
    "ws/package.json": "{}\n",
    "ws-evil/x": "not yours\n",
  });
  return { base, ws: join(base, "ws") };
}

/**
 * What the policy answers for each request, in words a diff can show: `accepted as ws/src/app.ts` (the
 * returned path, shown relative to `base` so that a failure reads the same whatever the temporary
 * folder is called), `error containing "escapes"` for a refusal that says the required word, or the
 * whole message of any other error. `wording` null: every request is expected to be accepted.
 */
async function answers(base: string, ws: string, requests: readonly unknown[], wording: Wording | null): Promise<Record<string, string>> {
  const shown = (value: unknown) =>
    `accepted as ${typeof value === "string" && value.startsWith(base + sep) ? value.slice(base.length + 1) : oneLine(value)}`;
  const table: Record<string, string> = {};
  for (const requested of requests) {
    const key = typeof requested === "string" ? requested : String(requested);
    table[key] = await settled(resolveWorkspacePath(ws, requested as string), wording, shown);
  }
  return table;
}

it("resolves a relative path inside the workspace", async () => {
  const { base, ws } = frontEndRepository();
  expect(await answers(base, ws, ["src/app.ts", "./src//app.ts", "package.json"], null), "the path returned for each request").toEqual({
    "src/app.ts": `accepted as ${join("ws", "src", "app.ts")}`,
    "./src//app.ts": `accepted as ${join("ws", "src", "app.ts")}`,
    "package.json": `accepted as ${join("ws", "package.json")}`,
  });
});

it("accepts both separators and returns one form", async () => {
  const { base, ws } = frontEndRepository();
  // A model trained on Windows repositories writes backslashes; the answer is the same path.
  const requests = ["src\\components\\Button.tsx", "src/components\\Button.tsx", "src/components/Button.tsx"];
  const expected = `accepted as ${join("ws", "src", "components", "Button.tsx")}`;
  expect(otherThan(await answers(base, ws, requests, null), expected), `spellings not ${expected}`).toEqual({});
});

it("rejects a parent traversal out of the workspace", async () => {
  const { base, ws } = frontEndRepository();
  expect(await answers(base, ws, ["../secret.txt"], "escapes"), "a request that climbs out of the workspace").toEqual({
    "../secret.txt": refused("escapes"),
  });
});

it("rejects traversal hidden in the middle of a path or behind a backslash", async () => {
  const { base, ws } = frontEndRepository();
  const requests = ["a/../../x", "src/../../secret.txt", "..\\x", "src\\..\\..\\secret.txt", "src/./../.."];
  expect(
    otherThan(await answers(base, ws, requests, "escapes"), refused("escapes")),
    'requests whose .. segments climb out of the workspace, not refused with an error containing "escapes"',
  ).toEqual({});
});

it("rejects a sibling folder whose name begins with the workspace name", async () => {
  const { base, ws } = frontEndRepository();
  // The trap a string-prefix check falls into: this outside file's path starts with the workspace's.
  expect(join(base, "ws-evil", "x").startsWith(ws), "the premise: the outside file's path starts with the workspace's path").toBe(true);
  const requests = ["../ws-evil/x", "..\\ws-evil\\x"];
  expect(
    otherThan(await answers(base, ws, requests, "escapes"), refused("escapes")),
    'requests for a file in the sibling folder ws-evil, not refused with an error containing "escapes"',
  ).toEqual({});
});

it("accepts a name that merely begins with two dots", async () => {
  const { base, ws } = frontEndRepository();
  // `..generated` is an ordinary folder name, not a step up: containment is decided per segment.
  expect(
    await answers(base, ws, ["..generated/routes.ts", "src/...rest.ts"], null),
    "the path returned for names that begin with dots",
  ).toEqual({
    "..generated/routes.ts": `accepted as ${join("ws", "..generated", "routes.ts")}`,
    "src/...rest.ts": `accepted as ${join("ws", "src", "...rest.ts")}`,
  });
});

it("rejects an empty or blank path", async () => {
  const { base, ws } = frontEndRepository();
  // Tool arguments arrive as JSON from a model: a missing field is undefined or null, not a string.
  const requests = ["", "   ", "\t\n", undefined, null];
  expect(
    otherThan(await answers(base, ws, requests, "required"), refused("required")),
    'empty, blank and missing requests, not refused with an error containing "required"',
  ).toEqual({});
});

it("rejects a path that contains a NUL byte", async () => {
  const { base, ws } = frontEndRepository();
  expect(
    otherThan(await answers(base, ws, ["src/app.ts\0.png", "\0"], "NUL"), refused("NUL")),
    'requests with a NUL byte, not refused with an error containing "NUL"',
  ).toEqual({});
  // The message names the offending value with the NUL made visible.
  const named = await settled(resolveWorkspacePath(ws, "src/app.ts\0.png"), "src/app.ts\\u0000.png");
  expect(named, "the refusal of src/app.ts<NUL>.png names the request, NUL written as \\u0000").toBe(refused("src/app.ts\\u0000.png"));
});

it("rejects an absolute path in every platform form", async () => {
  const { base, ws } = frontEndRepository();
  const forms = [
    "/etc/passwd", // POSIX root
    "C:\\Windows\\win.ini", // drive, backslash
    "C:/Windows/win.ini", // drive, slash
    "C:x", // drive-relative: the current folder of drive C, not inside the workspace
    "D:foo", // drive-relative on another drive
    "\\\\server\\share\\x", // UNC
    "//server/share/x", // UNC written with slashes
    "\\x", // the root of the current drive
    "\\\\?\\C:\\x", // Win32 file namespace
    "\\\\.\\PhysicalDrive0", // Win32 device namespace
  ];
  expect(
    otherThan(await answers(base, ws, forms, "absolute"), refused("absolute")),
    'absolute requests in every platform form, not refused with an error containing "absolute"',
  ).toEqual({});
  // Each refusal names what was asked, quoted as JSON.
  const unnamed: Record<string, string> = {};
  for (const requested of forms) {
    const named = await settled(resolveWorkspacePath(ws, requested), JSON.stringify(requested));
    if (named !== refused(JSON.stringify(requested))) unnamed[requested] = named;
  }
  expect(unnamed, "absolute requests whose refusal does not name the request, quoted as JSON").toEqual({});
});

it("accepts a nested path that does not exist yet", async () => {
  const { base, ws } = frontEndRepository();
  // Only `src` exists: the answer is its real path joined with the segments still to be created.
  const requests = ["src/features/cart/CartPanel.tsx", "tests/cart/new-dir/../CartPanel.test.tsx"];
  expect(await answers(base, ws, requests, null), "the path returned for paths still to be created").toEqual({
    "src/features/cart/CartPanel.tsx": `accepted as ${join("ws", "src", "features", "cart", "CartPanel.tsx")}`,
    "tests/cart/new-dir/../CartPanel.test.tsx": `accepted as ${join("ws", "tests", "cart", "CartPanel.test.tsx")}`,
  });
});

it("accepts paths inside a workspace reached through a symlink and returns the real path", async () => {
  const base = temporaryFolder();
  writeTree(base, { "real-repo/src/app.ts": "export {};\n", "secret.txt": "x\n" });
  const link = join(base, "repo");
  symlink(join(base, "real-repo"), link, "dir");
  // The workspace is `repo`, a symlink to `real-repo`: answers are real paths, under real-repo.
  expect(
    await answers(base, link, ["src/app.ts", "src/pages/Checkout.tsx"], null),
    "the path returned through the workspace link repo",
  ).toEqual({
    "src/app.ts": `accepted as ${join("real-repo", "src", "app.ts")}`,
    "src/pages/Checkout.tsx": `accepted as ${join("real-repo", "src", "pages", "Checkout.tsx")}`,
  });
  expect(await answers(base, link, ["../secret.txt"], "escapes"), "a climb out of the workspace reached through a link").toEqual({
    "../secret.txt": refused("escapes"),
  });
});

it("follows symlinks to their real targets and rejects any that lead outside", async () => {
  const { base, ws } = frontEndRepository();
  writeTree(base, { "shared-lib/utils.ts": "export {};\n", "ws/releases/v2/app.ts": "export {};\n" });
  // Links that leave the workspace: to a file, to a folder, and dangling ones.
  symlink(join(base, "secret.txt"), join(ws, "secret-link"));
  symlink(join(base, "shared-lib"), join(ws, "shared"), "dir");
  symlink("../outside/new.txt", join(ws, "dangling"));
  symlink(join(base, "nowhere", "x.txt"), join(ws, "dangling-absolute"));
  symlink("../../secret.txt", join(ws, "src", "up"));
  symlink("src/up", join(ws, "chain"));

  const requests = [
    "secret-link", // a link to a file outside
    "shared/utils.ts", // a file in a linked folder outside
    "shared/new-helper.ts", // a file that does not exist yet, in a linked folder outside
    "dangling", // a dangling link: a write through it would create a file outside
    "dangling-absolute",
    "chain", // a link to a link to a file outside
  ];
  expect(
    otherThan(await answers(base, ws, requests, "escapes"), refused("escapes")),
    'requests through symlinks that lead out of the workspace, not refused with an error containing "escapes"',
  ).toEqual({});

  // A link that stays inside resolves to where it really leads; `..` after it goes up from there.
  symlink("releases/v2", join(ws, "current"), "dir");
  expect(
    await answers(base, ws, ["current/app.ts", "current/../v1.txt"], null),
    "the path returned through the inside link current",
  ).toEqual({
    "current/app.ts": `accepted as ${join("ws", "releases", "v2", "app.ts")}`,
    "current/../v1.txt": `accepted as ${join("ws", "releases", "v1.txt")}`,
  });

  // A loop is reported, not followed forever.
  symlink("loop-b", join(ws, "loop-a"));
  symlink("loop-a", join(ws, "loop-b"));
  expect(await answers(base, ws, ["loop-a/x"], "loop"), "a request through the symlink loop loop-a → loop-b → loop-a").toEqual({
    "loop-a/x": refused("loop"),
  });
});

it("refuses a workspace that is missing, relative or not a folder", async () => {
  const { base, ws } = frontEndRepository();
  mkdirSync(join(base, "empty"));
  writeFileSync(join(base, "file.txt"), "not a folder\n");
  const workspaces = {
    "missing folder": await settled(resolveWorkspacePath(join(base, "missing"), "src/app.ts"), "workspace"),
    "a file, file.txt": await settled(resolveWorkspacePath(join(base, "file.txt"), "src/app.ts"), "not a folder"),
    'relative path "ws"': await settled(resolveWorkspacePath("ws", "src/app.ts"), "absolute"),
  };
  expect(workspaces, 'resolveWorkspacePath(workspace, "src/app.ts") for each unusable workspace').toEqual({
    "missing folder": refused("workspace"),
    "a file, file.txt": refused("not a folder"),
    'relative path "ws"': refused("absolute"),
  });
  // An empty folder is a valid workspace: everything in it is still to be created.
  expect(await answers(base, join(base, "empty"), ["README.md"], null), "the path returned in the empty workspace empty/").toEqual({
    "README.md": `accepted as ${join("empty", "README.md")}`,
  });
  expect(await answers(base, ws, ["src/app.ts"], null), "the path returned in the workspace ws/").toEqual({
    "src/app.ts": `accepted as ${join("ws", "src", "app.ts")}`,
  });
});
