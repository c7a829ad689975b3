import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { join, sep } from "node:path";
import { expect, it } from "vitest";
import { RollbackJournal } from "forge/tools/rollback";
import { otherThan, refused, settled } from "../../lab/outcome.js";
import { symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

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

/** What a path holds, in words: its text, `(folder)`, or `(missing)`. */
function state(path: string): string {
  if (!existsSync(path)) return "(missing)";
  return statSync(path).isDirectory() ? "(folder)" : readFileSync(path, "utf8");
}

/** What each path (relative to repo) holds now: `{ "src/App.tsx": 'export const …', … }`. */
const states = (repo: string, paths: readonly string[]) => Object.fromEntries(paths.map((path) => [path, state(join(repo, path))]));

/** A path relative to the repository when it lies there, so that a failure reads the same in any temporary folder. */
const short = (repo: string, path: string) => (path.startsWith(repo + sep) ? path.slice(repo.length + 1) : path);

/** Awaits a promise that should reject and hands back what it rejected with. */
async function rejection(promise: Promise<unknown>, why: string): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`rollback resolved with ${String(value)}, but it must reject: ${why}`),
    (error: unknown) => error,
  );
}

/** node:fs as its CommonJS object: a test may wrap its functions, and syncBuiltinESMExports hands them to importers. */
const nodeFs = createRequire(import.meta.url)("node:fs") as {
  lstatSync: typeof lstatSync;
  readonly promises: { lstat: typeof import("node:fs/promises").lstat };
};

/** What another process does to a path at the worst moment; it may also change what the lstat reports. */
type Swap = (path: string, checked: Stats) => Stats | undefined;

/** The outcome of a journal that never lstat'd the path: it has no check, so no gap after one to race in. */
const NOT_CHECKED = "never lstat'd the path, so nothing could be swapped after a check";

/**
 * Runs `call` while the lstat of node:fs/promises (also reached as `fs.promises.lstat`) and node:fs's
 * lstatSync are watched: right after the first lstat of `path` answers, `swap` changes what lies there,
 * as another process could between the journal's check and its next step. Returns what `call` returned,
 * or NOT_CHECKED when nothing lstat'd the path.
 */
async function afterCheck(path: string, swap: Swap, call: () => Promise<string>): Promise<string> {
  const { promises } = nodeFs;
  const { lstat } = promises;
  const { lstatSync: realLstatSync } = nodeFs;
  let swapped = false;
  const checked = (target: unknown, stats: Stats): Stats => {
    if (swapped || String(target) !== path) return stats;
    swapped = true;
    return swap(path, stats) ?? stats;
  };
  promises.lstat = (async (target: string, options?: { bigint?: false }) => checked(target, await lstat(target, options))) as typeof lstat;
  nodeFs.lstatSync = ((target: string, options?: { bigint?: false }) => {
    const stats = realLstatSync(target, options);
    return stats && checked(target, stats);
  }) as typeof realLstatSync;
  syncBuiltinESMExports();
  try {
    const outcome = await call();
    return swapped ? outcome : NOT_CHECKED;
  } finally {
    promises.lstat = lstat;
    nodeFs.lstatSync = realLstatSync;
    syncBuiltinESMExports();
  }
}

/** The entries of a table of outcomes that are neither the expected one nor NOT_CHECKED. */
const unexpected = (outcomes: Readonly<Record<string, string>>, expected: string | Readonly<Record<string, string>>) =>
  otherThan(Object.fromEntries(Object.entries(outcomes).filter(([, outcome]) => outcome !== NOT_CHECKED)), expected);

/**
 * What `pending` came to, or, when it has not settled 10 s later and a pipe lies at `path`, that it was
 * waiting for a writer. The test then opens the pipe for writing without blocking, which succeeds only
 * when someone has it open for reading, and releases a reader stuck in its open.
 */
async function unlessWaitingOnPipe(pending: Promise<string>, path: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const waiting = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      try {
        if (!lstatSync(path).isFIFO()) return;
        closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
        resolve("still waiting for a writer to open the pipe 10 s later");
      } catch {
        // ENXIO: nobody has the pipe open for reading, so nobody is waiting on it.
      }
    }, 10_000);
  });
  try {
    return await Promise.race([pending, waiting]);
  } finally {
    clearTimeout(timer);
    await pending;
  }
}

/** How many of this process's file descriptors are open on the file at `path` (same device and inode). */
function descriptorsOn(path: string): number {
  const { dev, ino } = statSync(path);
  // /dev/fd lists this process's descriptors on Linux and macOS; elsewhere, try the first thousand.
  const descriptors = existsSync("/dev/fd") ? readdirSync("/dev/fd").map(Number) : Array.from({ length: 1024 }, (_, fd) => fd);
  return descriptors.filter((fd) => {
    try {
      const info = fstatSync(fd);
      return info.dev === dev && info.ino === ino;
    } catch {
      return false;
    }
  }).length;
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

  expect(
    states(repo, ["src/App.tsx", "src/components/Button.tsx"]),
    "after rollback: src/App.tsx was modified, src/components/ was deleted with Button.tsx in it",
  ).toEqual({ "src/App.tsx": APP, "src/components/Button.tsx": BUTTON });
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

  const versions: Record<string, string> = {
    [APP]: "the original, captured first",
    'export const title = "Shop (draft)";': "the draft, captured second",
    'export const title = "Shop (final)";': "the final version, never captured",
  };
  const restored = state(app);
  expect(`${versions[restored] ?? "none of the versions"}: ${restored}`, "src/App.tsx after rollback, captured three times").toBe(
    `the original, captured first: ${APP}`,
  );
});

it("rolls back an empty journal safely", async () => {
  const repo = frontEnd();
  const before = tree(repo);
  const journal = new RollbackJournal();
  const first = await settled(journal.rollback(), null);
  const second = await settled(journal.rollback(), null);
  expect({ first, second }, "two rollbacks of an empty journal").toEqual({
    first: "no error; resolved with undefined",
    second: "no error; resolved with undefined",
  });
  expect(journal.size, "journal.size after rolling back an empty journal").toBe(0);
  expect(tree(repo), "the repository after rolling back an empty journal (nothing may change)").toEqual(before);
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

  // A file that was never created is already as it was: removing it is not an error.
  expect(
    states(repo, ["src/components/Banner.tsx", "src/features/cart/Cart.tsx", "src/ghost.ts"]),
    "after rollback: files that did not exist when they were captured (the last one never written)",
  ).toEqual({ "src/components/Banner.tsx": "(missing)", "src/features/cart/Cart.tsx": "(missing)", "src/ghost.ts": "(missing)" });
  // Every file that existed is untouched (the cart's folders were created by the change).
  const after = tree(repo);
  expect(
    Object.fromEntries(Object.entries(after).filter(([path]) => !path.includes("features"))),
    "the rest of the repository after rollback (it must be as before the change)",
  ).toEqual(before);
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

  const error = await rejection(journal.rollback(), "public/logo.svg and dist/bundle.js cannot be restored");

  expect(error, "what rollback rejected with").toBeInstanceOf(AggregateError);
  const failures = (error as AggregateError).errors as { path: string; message: string }[];
  expect(
    failures.map((failure) => short(repo, failure.path)),
    "the path of each failure in the AggregateError, in the order the restores ran (newest capture first)",
  ).toEqual([join("dist", "bundle.js"), join("public", "logo.svg")]);
  const message = (error as AggregateError).message;
  expect(
    { "names public/logo.svg": message.includes(logo), "names dist/bundle.js": message.includes(bundle) },
    `the AggregateError's message: ${message}`,
  ).toEqual({
    "names public/logo.svg": true,
    "names dist/bundle.js": true,
  });
  // The restores before and after each failure all happened.
  expect(
    states(repo, ["src/App.tsx", "src/main.tsx", "dist/bundle.js/chunk.js"]),
    "after rollback: the two restores that could run, and the folder in bundle.js's place that must stay",
  ).toEqual({ "src/App.tsx": APP, "src/main.tsx": MAIN, "dist/bundle.js/chunk.js": "chunk" });
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
  expect(await settled(journal.rollback(), null), "rollback of build/index.html (captured first) and build (captured second)").toBe(
    "no error; resolved with undefined",
  );

  expect(
    states(repo, ["build", "build/index.html"]),
    "after rollback: build was a folder, then a file; build/index.html was in it",
  ).toEqual({
    build: "(folder)",
    "build/index.html": "<html>v1</html>",
  });
});

it("shares one snapshot between two spellings of the same file", async () => {
  const repo = frontEnd();
  const app = join(repo, "src/App.tsx");
  const button = join(repo, "src/components/Button.tsx");
  // `ui` is a symbolic link to src/components, a folder one level deeper than the link itself.
  symlink(join(repo, "src/components"), join(repo, "ui"), "dir");
  const journal = new RollbackJournal();
  await journal.capture([repo, "src", "components", "..", "App.tsx"].join(sep));
  await journal.capture(app);
  // After a link, `..` is the parent of the link's target, as for any write: src/, not the repository.
  await journal.capture([repo, "ui", "..", "App.tsx"].join(sep));
  await journal.capture(join(repo, "ui", "Button.tsx"));
  await journal.capture(button);

  expect(
    journal.paths.map((path) => short(repo, path)),
    "journal.paths after five captures of two files in different spellings (one real path per file)",
  ).toEqual([join("src", "App.tsx"), join("src", "components", "Button.tsx")]);
  writeFileSync(app, "changed");
  writeFileSync(button, "changed");
  await journal.rollback();
  expect(states(repo, ["src/App.tsx", "src/components/Button.tsx"]), "after rollback").toEqual({
    "src/App.tsx": APP,
    "src/components/Button.tsx": BUTTON,
  });
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

  const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8);
  expect(
    { "scripts/deploy.sh": mode(deploy), ".env.local": mode(secrets) },
    "modes after rollback (deploy.sh was 755 and deleted; .env.local was 600, deleted and rewritten as 644)",
  ).toEqual({ "scripts/deploy.sh": "755", ".env.local": "600" });
  expect(read(repo, ".env.local"), ".env.local after rollback").toBe("API_KEY=abc");
});

it("refuses to capture a directory, a symbolic link or a relative path", async () => {
  const repo = frontEnd();
  const outside = temporaryFolder();
  writeTree(outside, { id_rsa: "secret" });
  symlink(join(outside, "id_rsa"), join(repo, "src/key.txt"));
  const journal = new RollbackJournal();

  expect(
    {
      "src, a folder": await settled(journal.capture(join(repo, "src")), "folder"),
      "src/key.txt, a symlink to a file outside": await settled(journal.capture(join(repo, "src/key.txt")), "symlink"),
      '"src/App.tsx", a relative path': await settled(journal.capture("src/App.tsx"), "absolute"),
    },
    "capture of what the journal cannot snapshot",
  ).toEqual({
    "src, a folder": refused("folder"),
    "src/key.txt, a symlink to a file outside": refused("symlink"),
    '"src/App.tsx", a relative path': refused("absolute"),
  });
  expect(journal.size, "journal.size after three refused captures").toBe(0);
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

  await rejection(journal.rollback(), "public/logo.svg cannot be restored while public is a file");
  expect(
    journal.paths.map((path) => short(repo, path)),
    "journal.paths after a rollback in which only public/logo.svg failed",
  ).toEqual([join("public", "logo.svg")]);
  expect(read(repo, "src/App.tsx"), "src/App.tsx after the first rollback").toBe(APP);

  // Once the obstacle is gone, the retry restores what failed, and the journal is empty.
  rmSync(join(repo, "public"));
  await journal.rollback();
  expect(state(logo), "public/logo.svg after the second rollback").toBe(LOGO);
  expect(journal.size, "journal.size after the second rollback restored everything").toBe(0);

  // An emptied journal has nothing left to undo: a later change stays.
  writeFileSync(app, "next transaction");
  await journal.rollback();
  expect(read(repo, "src/App.tsx"), "src/App.tsx changed after the journal emptied, then rolled back again (the change must stay)").toBe(
    "next transaction",
  );
});

it("refuses a path that is not a string, as it refuses a relative one", async () => {
  const journal = new RollbackJournal();
  // A JavaScript caller (or a model's tool call parsed without a schema) can hand over anything.
  const notStrings: Record<string, unknown> = {
    "the number 42": 42,
    undefined: undefined,
    null: null,
    "an array holding an absolute path": [join(temporaryFolder(), "src", "App.tsx")],
  };
  const outcomes: Record<string, string> = {};
  for (const [label, value] of Object.entries(notStrings)) {
    outcomes[label] = await settled(journal.capture(value as string), "absolute");
  }
  expect(
    otherThan(outcomes, refused("absolute")),
    'captures of values that are not strings, not refused with an error containing "absolute"',
  ).toEqual({});
  expect(journal.size, "journal.size after four refused captures").toBe(0);
});

it("records a path beneath a regular file as missing, and rollback leaves it missing", async () => {
  const repo = frontEnd();
  const before = tree(repo);
  const journal = new RollbackJournal();
  // package.json is a file, so nothing can exist beneath it (ENOTDIR): the file is not there.
  const beneath = join(repo, "package.json", "exports.json");
  const deeper = join(repo, "src", "App.tsx", "components", "Banner.tsx");
  expect(
    {
      "package.json/exports.json": await settled(journal.capture(beneath), null),
      "src/App.tsx/components/Banner.tsx": await settled(journal.capture(deeper), null),
    },
    "capture of paths beneath a regular file",
  ).toEqual({
    "package.json/exports.json": "no error; resolved with undefined",
    "src/App.tsx/components/Banner.tsx": "no error; resolved with undefined",
  });
  expect(
    journal.paths.map((path) => short(repo, path)),
    "journal.paths after capturing two paths beneath regular files (each recorded, as missing)",
  ).toEqual([join("package.json", "exports.json"), join("src", "App.tsx", "components", "Banner.tsx")]);
  expect(await settled(journal.rollback(), null), "rollback of two paths that were, and still are, beneath a file").toBe(
    "no error; resolved with undefined",
  );
  expect(journal.size, "journal.size after that rollback").toBe(0);
  expect(tree(repo), "the repository after that rollback (nothing may change)").toEqual(before);
});

it("treats only a missing path as missing: capture refuses, and rollback reports, a path it cannot look up", async () => {
  const repo = frontEnd();
  const journal = new RollbackJournal();
  // A name of 300 characters: lstat fails with ENAMETOOLONG, which is neither "missing" nor "a file".
  // Recorded as missing, the path would be removed on rollback, without the journal knowing what it held.
  const name = `${"a".repeat(300)}.tsx`;
  const shown = (path: string) => short(repo, path).replace(name, "<300 times a>.tsx");
  const code = (error: Error) => (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
  const captured: unknown = await journal.capture(join(repo, "src", name)).then(
    () => `recorded, as ${journal.paths.map(shown).join(", ")}`,
    (error: unknown) => error,
  );
  const capture = captured instanceof Error ? `refused, the code of the error or of its cause: ${code(captured)}` : String(captured);
  // Windows may answer such a name as missing rather than too long; then "missing" is the truth and
  // the path is recorded as such. Both answers are safe; any other is not.
  const refusal = "refused, the code of the error or of its cause: ENAMETOOLONG";
  const safeCapture = process.platform === "win32" ? [refusal, `recorded, as ${join("src", "<300 times a>.tsx")}`] : [refusal];
  expect(safeCapture, `capture of src/<300 times a>.tsx: ${capture}`).toContain(capture);

  // Beneath a folder that is missing at capture, the same name is missing (ENOENT). The change then
  // creates the folder, and rollback can no longer tell whether the name is clear: it must say so.
  const fresh = new RollbackJournal();
  await fresh.capture(join(repo, "generated", name));
  mkdirSync(join(repo, "generated"));
  const rolledBack: unknown = await fresh.rollback().then(
    () => `resolved; journal.paths: [${fresh.paths.map(shown).join(", ")}]`,
    (error: unknown) => error,
  );
  const failures = rolledBack instanceof AggregateError ? (rolledBack.errors as { path: string }[]) : [];
  const rollback =
    rolledBack instanceof Error ? `rejected, naming ${failures.map((failure) => shown(failure.path)).join(", ")}` : String(rolledBack);
  const reported = `rejected, naming ${join("generated", "<300 times a>.tsx")}`;
  const safeRollback = process.platform === "win32" ? [reported, "resolved; journal.paths: []"] : [reported];
  expect(
    safeRollback,
    `rollback of generated/<300 times a>.tsx, captured as missing, after the change created generated/: ${rollback}`,
  ).toContain(rollback);
});

it("refuses a path through a loop of links, instead of reading the .. after it as text", async () => {
  const repo = frontEnd();
  // `loop` is a symbolic link to itself: no folder lies behind it, so `loop/..` has no parent to go to.
  symlink(join(repo, "loop"), join(repo, "loop"), "dir");
  const journal = new RollbackJournal();
  const captured: unknown = await journal.capture([repo, "loop", "..", "src", "App.tsx"].join(sep)).then(
    () => `recorded, as ${journal.paths.map((path) => short(repo, path)).join(", ")}`,
    (error: unknown) => error,
  );
  const code = (error: Error) => (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
  const outcome = captured instanceof Error ? `refused, the code of the error or of its cause: ${code(captured)}` : String(captured);
  // The kernel gives up on the loop (ELOOP); a write to this path would fail the same way. Windows
  // removes `..` by text before it looks at a single folder, so there the path is src/App.tsx.
  const refusal = "refused, the code of the error or of its cause: ELOOP";
  const safe = process.platform === "win32" ? [refusal, `recorded, as ${join("src", "App.tsx")}`] : [refusal];
  expect(safe, `capture of loop/../src/App.tsx, where loop is a link to itself: ${outcome}`).toContain(outcome);
});

it("shares one snapshot between two spellings of a file that does not exist yet", async () => {
  const repo = frontEnd();
  // `ui` links to src/components; the change will create src/components/banner/Banner.tsx, folder and all.
  symlink(join(repo, "src/components"), join(repo, "ui"), "dir");
  const journal = new RollbackJournal();
  await journal.capture(join(repo, "ui", "banner", "Banner.tsx"));
  await journal.capture(join(repo, "src", "components", "banner", "Banner.tsx"));
  await journal.capture([repo, "src", "components", "banner", "..", "banner", "Banner.tsx"].join(sep));
  expect(
    journal.paths.map((path) => short(repo, path)),
    "journal.paths after three captures of one missing file, the first through the link ui (its folder banner is missing too)",
  ).toEqual([join("src", "components", "banner", "Banner.tsx")]);

  mkdirSync(join(repo, "src/components/banner"));
  writeFileSync(join(repo, "src/components/banner/Banner.tsx"), "export function Banner() { return null; }");
  await journal.rollback();
  expect(state(join(repo, "src/components/banner/Banner.tsx")), "src/components/banner/Banner.tsx after rollback").toBe("(missing)");
});

it("reports each failed restore with the path, the underlying error as its cause, and a folder in the way by name", async () => {
  const repo = frontEnd();
  const logo = join(repo, "public/logo.svg");
  const bundle = join(repo, "dist/bundle.js");
  const journal = new RollbackJournal();
  await journal.capture(logo);
  await journal.capture(bundle);
  // public/ becomes a file, so logo.svg cannot be written back; a folder appears where bundle.js was missing.
  rmSync(join(repo, "public"), { recursive: true });
  writeFileSync(join(repo, "public"), "not a folder");
  mkdirSync(bundle, { recursive: true });

  const error = await rejection(journal.rollback(), "public/logo.svg and dist/bundle.js cannot be restored");
  expect(error, "what rollback rejected with").toBeInstanceOf(AggregateError);
  const failures = (error as AggregateError).errors as { path: string; message: string; cause?: unknown }[];
  expect(
    Object.fromEntries(failures.map((failure) => [short(repo, failure.path), failure.cause instanceof Error])),
    "whether each failure in the AggregateError, by path, has the underlying Error as its cause",
  ).toEqual({ [join("dist", "bundle.js")]: true, [join("public", "logo.svg")]: true });
  const folder = failures.find((failure) => failure.path === bundle);
  // The message without the path, so that no temporary folder's name can supply the word.
  expect(
    folder?.message.replaceAll(bundle, "").includes("folder"),
    `says "folder", the failure for dist/bundle.js: ${folder?.message}`,
  ).toBe(true);
});

it("refuses a pipe or a device, saying it is not a regular file", { timeout: 30_000 }, async () => {
  const repo = frontEnd();
  const pipe = join(repo, "src", "events.pipe");
  // Windows has no mkfifo and no /dev: there the journal meets only files, folders and links.
  const specials: Record<string, string> = {};
  if (process.platform !== "win32") {
    execFileSync("mkfifo", [pipe]);
    specials["src/events.pipe, a named pipe"] = pipe;
    specials["/dev/null, a device"] = "/dev/null";
  }
  const journal = new RollbackJournal();
  const outcomes: Record<string, string> = {};
  for (const [label, path] of Object.entries(specials)) {
    // A journal that opened the pipe to read it would wait for a writer, and none comes.
    outcomes[label] = await unlessWaitingOnPipe(settled(journal.capture(path), "regular file"), path);
  }
  expect(
    otherThan(outcomes, refused("regular file")),
    'captures of a pipe and a device, not refused with an error containing "regular file"',
  ).toEqual({});
  expect(journal.size, "journal.size after the refused captures").toBe(0);
});

it("refuses a file replaced between its check and its open, at once, and records nothing", { timeout: 30_000 }, async () => {
  const repo = frontEnd();
  const app = join(repo, "src", "App.tsx");
  const where = join("src", "App.tsx");
  // What another process could do right after the journal's lstat of src/App.tsx, before it reads the file.
  const swaps: Record<string, Swap> = {
    "replaced by another file, renamed over it": (path) => {
      writeFileSync(`${path}.new`, 'export const title = "Swapped";');
      renameSync(`${path}.new`, path);
      return undefined;
    },
    // A file on another file system can have the same inode number: the device must match too.
    "the check saw a file with the same inode number on another device": (_path, checked) =>
      Object.assign(Object.create(Object.getPrototypeOf(checked) as object) as Stats, checked, { dev: checked.dev + 1 }),
    // Opened for reading, a pipe waits for a writer, and here none comes. Windows has no mkfifo.
    ...(process.platform === "win32"
      ? {}
      : {
          "replaced by a named pipe": (path: string) => {
            rmSync(path);
            execFileSync("mkfifo", [path]);
            return undefined;
          },
        }),
  };
  const outcomes: Record<string, string> = {};
  for (const [label, swap] of Object.entries(swaps)) {
    rmSync(app, { force: true });
    writeFileSync(app, APP);
    const journal = new RollbackJournal();
    outcomes[label] = await afterCheck(app, swap, async () => {
      const captured = await unlessWaitingOnPipe(settled(journal.capture(app), where), app);
      return `${captured}; journal.size ${journal.size}`;
    });
  }
  expect(
    unexpected(outcomes, `${refused(where)}; journal.size 0`),
    `captures of src/App.tsx, changed right after the journal's lstat, that did not end at once refused by an error naming it, with the journal empty`,
  ).toEqual({});
});

it("refuses a link swapped in after the check, even one to the file that was there", async () => {
  const repo = frontEnd();
  const app = join(repo, "src", "App.tsx");
  const moved = join(repo, "src", "App.moved.tsx");
  const where = join("src", "App.tsx");
  // Made beforehand, then renamed into place: right after the journal's lstat, another process moves
  // App.tsx aside and puts a link to it where it was. The link leads to the very file the check saw.
  symlink(moved, join(repo, "src", "App.link"));
  const journal = new RollbackJournal();
  const outcome = await afterCheck(
    app,
    (path) => {
      renameSync(path, moved);
      renameSync(join(repo, "src", "App.link"), path);
      return undefined;
    },
    async () => `${await settled(journal.capture(app), where)}; journal.size ${journal.size}`,
  );
  // Windows has no O_NOFOLLOW: there the open follows the link to the file the check saw, and records it.
  const safe = [`${refused(where)}; journal.size 0`, NOT_CHECKED];
  if (process.platform === "win32") safe.push("no error; resolved with undefined; journal.size 1");
  expect(safe, `capture of src/App.tsx, swapped for a link to itself right after the journal's lstat: ${outcome}`).toContain(outcome);
});

it("leaves no file open once it has captured it", async () => {
  const repo = frontEnd();
  const files = ["src/App.tsx", "src/main.tsx", "public/logo.svg"];
  const journal = new RollbackJournal();
  for (const file of files) await journal.capture(join(repo, file));
  expect(
    Object.fromEntries(files.map((file) => [file, descriptorsOn(join(repo, file))])),
    "file descriptors this process still holds open on each captured file",
  ).toEqual({ "src/App.tsx": 0, "src/main.tsx": 0, "public/logo.svg": 0 });
});

it("takes a created file removed by someone else after rollback's check as gone, and reports a folder put in its place", async () => {
  const repo = frontEnd();
  const banner = join(repo, "src", "components", "Banner.tsx");
  const where = join("src", "components", "Banner.tsx");
  // What another process could do right after rollback's lstat of Banner.tsx, before it removes the file.
  const swaps: Record<string, Swap> = {
    "removed by another process": (path) => {
      rmSync(path);
      return undefined;
    },
    "replaced by a folder with a file in it": (path) => {
      rmSync(path);
      writeTree(path, { "index.ts": "export {};" });
      return undefined;
    },
  };
  const outcomes: Record<string, string> = {};
  for (const [label, swap] of Object.entries(swaps)) {
    const journal = new RollbackJournal();
    await journal.capture(banner);
    writeFileSync(banner, "export function Banner() { return null; }");
    outcomes[label] = await afterCheck(banner, swap, async () => {
      const rolledBack = await journal.rollback().then(
        () => "resolved",
        (error: unknown) =>
          error instanceof AggregateError
            ? `rejected, naming ${(error.errors as { path: string }[]).map((failure) => short(repo, failure.path)).join(", ")}`
            : `rejected with ${String(error)}`,
      );
      return `${rolledBack}; journal.paths: [${journal.paths.map((path) => short(repo, path)).join(", ")}]`;
    });
    rmSync(banner, { recursive: true, force: true });
  }
  expect(
    unexpected(outcomes, {
      "removed by another process": "resolved; journal.paths: []",
      "replaced by a folder with a file in it": `rejected, naming ${where}; journal.paths: [${where}]`,
    }),
    "rollbacks of src/components/Banner.tsx (created by the change), changed right after rollback's lstat, that did not end as expected",
  ).toEqual({});
});
