import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { resolveWorkspacePath } from "forge/tools/paths";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

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
 * "escapes" for a refusal that says so; otherwise the outcome in words, relative to `base` so that a
 * failure reads the same whatever the temporary folder is called.
 */
async function verdict(base: string, ws: string, requested: string): Promise<string> {
  try {
    return `accepted as ${relative(base, await resolveWorkspacePath(ws, requested))}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /escapes/.test(message) ? "escapes" : message;
  }
}

it("resolves a relative path inside the workspace", async () => {
  const { ws } = frontEndRepository();
  expect(await resolveWorkspacePath(ws, "src/app.ts")).toBe(join(ws, "src", "app.ts"));
  expect(await resolveWorkspacePath(ws, "./src//app.ts")).toBe(join(ws, "src", "app.ts"));
  expect(await resolveWorkspacePath(ws, "package.json")).toBe(join(ws, "package.json"));
});

it("accepts both separators and returns one form", async () => {
  const { ws } = frontEndRepository();
  const expected = join(ws, "src", "components", "Button.tsx");
  // A model trained on Windows repositories writes backslashes; the answer is the same path.
  expect(await resolveWorkspacePath(ws, "src\\components\\Button.tsx")).toBe(expected);
  expect(await resolveWorkspacePath(ws, "src/components\\Button.tsx")).toBe(expected);
  expect(await resolveWorkspacePath(ws, "src/components/Button.tsx")).toBe(expected);
});

it("rejects a parent traversal out of the workspace", async () => {
  const { ws } = frontEndRepository();
  await expect(resolveWorkspacePath(ws, "../secret.txt")).rejects.toThrow(/escapes/);
});

it("rejects traversal hidden in the middle of a path or behind a backslash", async () => {
  const { ws } = frontEndRepository();
  for (const requested of ["a/../../x", "src/../../secret.txt", "..\\x", "src\\..\\..\\secret.txt", "src/./../.."]) {
    await expect(resolveWorkspacePath(ws, requested), requested).rejects.toThrow(/escapes/);
  }
});

it("rejects a sibling folder whose name begins with the workspace name", async () => {
  const { base, ws } = frontEndRepository();
  // The trap a string-prefix check falls into: this outside file's path starts with the workspace's.
  expect(join(base, "ws-evil", "x").startsWith(ws)).toBe(true);
  await expect(resolveWorkspacePath(ws, "../ws-evil/x")).rejects.toThrow(/escapes/);
  await expect(resolveWorkspacePath(ws, "..\\ws-evil\\x")).rejects.toThrow(/escapes/);
});

it("accepts a name that merely begins with two dots", async () => {
  const { ws } = frontEndRepository();
  // `..generated` is an ordinary folder name, not a step up: containment is decided per segment.
  expect(await resolveWorkspacePath(ws, "..generated/routes.ts")).toBe(join(ws, "..generated", "routes.ts"));
  expect(await resolveWorkspacePath(ws, "src/...rest.ts")).toBe(join(ws, "src", "...rest.ts"));
});

it("rejects an empty or blank path", async () => {
  const { ws } = frontEndRepository();
  // Tool arguments arrive as JSON from a model: a missing field is undefined or null, not a string.
  for (const requested of ["", "   ", "\t\n", undefined, null]) {
    await expect(resolveWorkspacePath(ws, requested as string), String(requested)).rejects.toThrow(/required/);
  }
});

it("rejects a path that contains a NUL byte", async () => {
  const { ws } = frontEndRepository();
  await expect(resolveWorkspacePath(ws, "src/app.ts\0.png")).rejects.toThrow(/NUL/);
  await expect(resolveWorkspacePath(ws, "\0")).rejects.toThrow(/NUL/);
  // The message names the offending value with the NUL made visible.
  await expect(resolveWorkspacePath(ws, "src/app.ts\0.png")).rejects.toThrow("src/app.ts\\u0000.png");
});

it("rejects an absolute path in every platform form", async () => {
  const { ws } = frontEndRepository();
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
  for (const requested of forms) {
    await expect(resolveWorkspacePath(ws, requested), requested).rejects.toThrow(/absolute/);
    await expect(resolveWorkspacePath(ws, requested), requested).rejects.toThrow(JSON.stringify(requested));
  }
});

it("accepts a nested path that does not exist yet", async () => {
  const { ws } = frontEndRepository();
  // Only `src` exists: the answer is its real path joined with the segments still to be created.
  expect(await resolveWorkspacePath(ws, "src/features/cart/CartPanel.tsx")).toBe(
    join(ws, "src", "features", "cart", "CartPanel.tsx"),
  );
  expect(await resolveWorkspacePath(ws, "tests/cart/new-dir/../CartPanel.test.tsx")).toBe(
    join(ws, "tests", "cart", "CartPanel.test.tsx"),
  );
});

it("accepts paths inside a workspace reached through a symlink and returns the real path", async () => {
  const base = temporaryFolder();
  writeTree(base, { "real-repo/src/app.ts": "export {};\n", "secret.txt": "x\n" });
  const real = join(base, "real-repo");
  const link = join(base, "repo");
  symlinkSync(real, link, "dir");
  expect(await resolveWorkspacePath(link, "src/app.ts")).toBe(join(real, "src", "app.ts"));
  expect(await resolveWorkspacePath(link, "src/pages/Checkout.tsx")).toBe(join(real, "src", "pages", "Checkout.tsx"));
  await expect(resolveWorkspacePath(link, "../secret.txt")).rejects.toThrow(/escapes/);
});

it("follows symlinks to their real targets and rejects any that lead outside", async () => {
  const { base, ws } = frontEndRepository();
  writeTree(base, { "shared-lib/utils.ts": "export {};\n", "ws/releases/v2/app.ts": "export {};\n" });
  // Links that leave the workspace: to a file, to a folder, and dangling ones.
  symlinkSync(join(base, "secret.txt"), join(ws, "secret-link"));
  symlinkSync(join(base, "shared-lib"), join(ws, "shared"), "dir");
  symlinkSync("../outside/new.txt", join(ws, "dangling"));
  symlinkSync(join(base, "nowhere", "x.txt"), join(ws, "dangling-absolute"));
  symlinkSync("../../secret.txt", join(ws, "src", "up"));
  symlinkSync("src/up", join(ws, "chain"));

  const requests = [
    "secret-link", // a link to a file outside
    "shared/utils.ts", // a file in a linked folder outside
    "shared/new-helper.ts", // a file that does not exist yet, in a linked folder outside
    "dangling", // a dangling link: a write through it would create a file outside
    "dangling-absolute",
    "chain", // a link to a link to a file outside
  ];
  const verdicts: Record<string, string> = {};
  for (const requested of requests) verdicts[requested] = await verdict(base, ws, requested);
  expect(verdicts).toEqual(Object.fromEntries(requests.map((requested) => [requested, "escapes"])));

  // A link that stays inside resolves to where it really leads; `..` after it goes up from there.
  symlinkSync("releases/v2", join(ws, "current"), "dir");
  expect(await resolveWorkspacePath(ws, "current/app.ts")).toBe(join(ws, "releases", "v2", "app.ts"));
  expect(await resolveWorkspacePath(ws, "current/../v1.txt")).toBe(join(ws, "releases", "v1.txt"));

  // A loop is reported, not followed forever.
  symlinkSync("loop-b", join(ws, "loop-a"));
  symlinkSync("loop-a", join(ws, "loop-b"));
  await expect(resolveWorkspacePath(ws, "loop-a/x")).rejects.toThrow(/loop/);
});

it("refuses a workspace that is missing, relative or not a folder", async () => {
  const { base, ws } = frontEndRepository();
  mkdirSync(join(base, "empty"));
  writeFileSync(join(base, "file.txt"), "not a folder\n");
  await expect(resolveWorkspacePath(join(base, "missing"), "src/app.ts")).rejects.toThrow(/workspace/);
  await expect(resolveWorkspacePath(join(base, "file.txt"), "src/app.ts")).rejects.toThrow(/not a folder/);
  await expect(resolveWorkspacePath("ws", "src/app.ts")).rejects.toThrow(/absolute/);
  // An empty folder is a valid workspace: everything in it is still to be created.
  expect(await resolveWorkspacePath(join(base, "empty"), "README.md")).toBe(join(base, "empty", "README.md"));
  expect(await resolveWorkspacePath(ws, "src/app.ts")).toBe(join(ws, "src", "app.ts"));
});
