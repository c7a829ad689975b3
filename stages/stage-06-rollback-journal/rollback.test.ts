import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { expect, it } from "vitest";
import { RollbackJournal } from "forge/tools/rollback";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent changes a small front-end repository.
const APP = 'export const title = "Shop";';
const BUTTON = "export function Button() { return null; }";
const MAIN = 'import { title } from "./App";';
const LOGO = "<svg><circle r='4'/></svg>";

function frontEnd(): string {
  const repo = temporaryFolder();
  writeTree(repo, {
    "package.json": '{ "name": "shop" }',
    "src/App.tsx": APP,
    "src/main.tsx": MAIN,
    "src/components/Button.tsx": BUTTON,
    "public/logo.svg": LOGO,
  });
  return repo;
}

const read = (repo: string, path: string) => readFileSync(join(repo, path), "utf8");

/** Every file and folder under a folder, with file contents: a picture of the whole tree. */
function tree(folder: string): Record<string, string> {
  const picture: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    picture[path.slice(folder.length)] = entry.isDirectory() ? "(folder)" : readFileSync(path, "utf8");
  }
  return picture;
}

/** Awaits a promise that should reject and hands back what it rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected the promise to reject"),
    (error: unknown) => error,
  );
}

it("restores modified and deleted files", async () => {
  const repo = frontEnd();
  const journal = new RollbackJournal();
  await journal.capture(join(repo, "src/App.tsx"));
  await journal.capture(join(repo, "src/components/Button.tsx"));

  writeFileSync(join(repo, "src/App.tsx"), 'export const title = "Shop 2";');
  // The deleted file's folder goes too: restoring it must recreate the folder.
  rmSync(join(repo, "src/components"), { recursive: true });
  await journal.rollback();

  expect(read(repo, "src/App.tsx")).toBe(APP);
  expect(read(repo, "src/components/Button.tsx")).toBe(BUTTON);
});

it("keeps the first pre-change snapshot when a path is captured twice", async () => {
  const repo = frontEnd();
  const app = join(repo, "src/App.tsx");
  const journal = new RollbackJournal();
  await journal.capture(app);
  writeFileSync(app, 'export const title = "Shop (draft)";');
  // A second step of the same transaction captures the file again, once as it is spelt above and
  // once through another spelling: both would record the draft, not the original.
  await journal.capture(app);
  await journal.capture([repo, "src", "components", "..", "App.tsx"].join(sep));
  writeFileSync(app, 'export const title = "Shop (final)";');
  await journal.rollback();

  expect(read(repo, "src/App.tsx")).toBe(APP);
});

it("rolls back an empty journal safely", async () => {
  const repo = frontEnd();
  const before = tree(repo);
  const journal = new RollbackJournal();
  await expect(journal.rollback()).resolves.toBeUndefined();
  await expect(journal.rollback()).resolves.toBeUndefined();
  expect(journal.size).toBe(0);
  expect(tree(repo)).toEqual(before);
});

it("removes a file the change created", async () => {
  const repo = frontEnd();
  const before = tree(repo);
  const banner = join(repo, "src/components/Banner.tsx");
  const cart = join(repo, "src/features/cart/Cart.tsx");
  const neverWritten = join(repo, "src/ghost.ts");
  const journal = new RollbackJournal();
  for (const path of [banner, cart, neverWritten]) await journal.capture(path);

  writeFileSync(banner, "export function Banner() { return null; }");
  mkdirSync(join(repo, "src/features/cart"), { recursive: true });
  writeFileSync(cart, "export function Cart() { return null; }");
  await journal.rollback();

  expect(existsSync(banner)).toBe(false);
  expect(existsSync(cart)).toBe(false);
  // A file that was never created is already as it was: removing it is not an error.
  expect(existsSync(neverWritten)).toBe(false);
  // Every file that existed is untouched (the cart's folders were created by the change).
  const after = tree(repo);
  expect(Object.fromEntries(Object.entries(after).filter(([path]) => !path.includes("features")))).toEqual(before);
});

it("attempts every restore and reports all failures together", async () => {
  const repo = frontEnd();
  const app = join(repo, "src/App.tsx");
  const logo = join(repo, "public/logo.svg");
  const main = join(repo, "src/main.tsx");
  const bundle = join(repo, "dist/bundle.js");
  const journal = new RollbackJournal();
  for (const path of [app, logo, main, bundle]) await journal.capture(path);

  writeFileSync(app, "broken");
  writeFileSync(main, "broken");
  // Something outside the journal gets in the way of two restores (no permissions needed, as root):
  // public/ becomes a regular file, so logo.svg cannot be written back beneath it ...
  rmSync(join(repo, "public"), { recursive: true });
  writeFileSync(join(repo, "public"), "not a folder");
  // ... and a folder appears where bundle.js was missing, which the journal must not delete.
  mkdirSync(join(repo, "dist/bundle.js"), { recursive: true });
  writeFileSync(join(repo, "dist/bundle.js/chunk.js"), "chunk");

  const error = await rejection(journal.rollback());

  expect(error).toBeInstanceOf(AggregateError);
  const failures = (error as AggregateError).errors as { path: string; message: string }[];
  expect(failures.map((failure) => failure.path)).toEqual([bundle, logo]);
  expect((error as AggregateError).message).toContain(logo);
  expect((error as AggregateError).message).toContain(bundle);
  // The restores before and after each failure all happened.
  expect(read(repo, "src/App.tsx")).toBe(APP);
  expect(read(repo, "src/main.tsx")).toBe(MAIN);
  expect(read(repo, "dist/bundle.js/chunk.js")).toBe("chunk");
});

it("restores in reverse capture order", async () => {
  const repo = frontEnd();
  writeTree(repo, { "build/index.html": "<html>v1</html>" });
  const journal = new RollbackJournal();
  // Step 1 deletes the build/ folder; step 2 writes a build script where the folder was.
  await journal.capture(join(repo, "build/index.html"));
  rmSync(join(repo, "build"), { recursive: true });
  await journal.capture(join(repo, "build"));
  writeFileSync(join(repo, "build"), "vite build");

  // Newest first: the script goes, then index.html can recreate its folder. Oldest first, writing
  // build/index.html would fail while build is still a file.
  await journal.rollback();

  expect(statSync(join(repo, "build")).isDirectory()).toBe(true);
  expect(read(repo, "build/index.html")).toBe("<html>v1</html>");
});

it("shares one snapshot between two spellings of the same file", async () => {
  const repo = frontEnd();
  const app = join(repo, "src/App.tsx");
  const button = join(repo, "src/components/Button.tsx");
  // `ui` is a symbolic link to src/components, a folder one level deeper than the link itself.
  symlinkSync(join(repo, "src/components"), join(repo, "ui"), "dir");
  const journal = new RollbackJournal();
  await journal.capture([repo, "src", "components", "..", "App.tsx"].join(sep));
  await journal.capture(app);
  // After a link, `..` is the parent of the link's target, as for any write: src/, not the repository.
  await journal.capture([repo, "ui", "..", "App.tsx"].join(sep));
  await journal.capture(join(repo, "ui", "Button.tsx"));
  await journal.capture(button);

  expect(journal.paths).toEqual([app, button]);
  writeFileSync(app, "changed");
  writeFileSync(button, "changed");
  await journal.rollback();
  expect(read(repo, "src/App.tsx")).toBe(APP);
  expect(read(repo, "src/components/Button.tsx")).toBe(BUTTON);
});

it("restores the original mode of each file", async () => {
  const repo = frontEnd();
  const deploy = join(repo, "scripts/deploy.sh");
  const secrets = join(repo, ".env.local");
  writeTree(repo, { "scripts/deploy.sh": "npm run build", ".env.local": "API_KEY=abc" });
  chmodSync(deploy, 0o755);
  chmodSync(secrets, 0o600);
  const journal = new RollbackJournal();
  await journal.capture(deploy);
  await journal.capture(secrets);

  rmSync(deploy);
  rmSync(secrets);
  writeFileSync(secrets, "API_KEY=leaked");
  chmodSync(secrets, 0o644);
  await journal.rollback();

  expect(statSync(deploy).mode & 0o7777).toBe(0o755);
  expect(statSync(secrets).mode & 0o7777).toBe(0o600);
  expect(read(repo, ".env.local")).toBe("API_KEY=abc");
});

it("refuses to capture a directory, a symbolic link or a relative path", async () => {
  const repo = frontEnd();
  const outside = temporaryFolder();
  writeTree(outside, { "id_rsa": "secret" });
  symlinkSync(join(outside, "id_rsa"), join(repo, "src/key.txt"));
  const journal = new RollbackJournal();

  await expect(journal.capture(join(repo, "src"))).rejects.toThrow(/directory/);
  await expect(journal.capture(join(repo, "src/key.txt"))).rejects.toThrow(/symbolic link/);
  await expect(journal.capture("src/App.tsx")).rejects.toThrow(/absolute/);
  expect(journal.size).toBe(0);
});

it("keeps only the failed snapshots, so a second rollback retries them", async () => {
  const repo = frontEnd();
  const app = join(repo, "src/App.tsx");
  const logo = join(repo, "public/logo.svg");
  const journal = new RollbackJournal();
  await journal.capture(logo);
  await journal.capture(app);
  writeFileSync(app, "broken");
  rmSync(join(repo, "public"), { recursive: true });
  writeFileSync(join(repo, "public"), "not a folder");

  await rejection(journal.rollback());
  expect(journal.paths).toEqual([logo]);
  expect(read(repo, "src/App.tsx")).toBe(APP);

  // Once the obstacle is gone, the retry restores what failed, and the journal is empty.
  rmSync(join(repo, "public"));
  await journal.rollback();
  expect(read(repo, "public/logo.svg")).toBe(LOGO);
  expect(journal.size).toBe(0);

  // An emptied journal has nothing left to undo: a later change stays.
  writeFileSync(app, "next transaction");
  await journal.rollback();
  expect(read(repo, "src/App.tsx")).toBe("next transaction");
});
