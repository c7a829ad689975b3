import { execFile } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, it } from "vitest";
import { resolveWorkspacePath } from "forge/tools/paths";
import { oneLine, otherThan, refused, settled, type Wording } from "../../lab/outcome.js";
import { moduleFile, symlink, temporaryFolder, writeTree } from "../../lab/testing.js";

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

it("resolves the workspace itself, asked for as . or as a folder and .., to its real path", async () => {
  const { base, ws } = frontEndRepository();
  // `.` names the workspace folder: a tool that lists it must get it, not an "escapes" refusal.
  const requests = [".", "./", "src/..", "src/app.ts/../.."];
  expect(
    otherThan(await answers(base, ws, requests, null), "accepted as ws"),
    "requests for the workspace itself, not answered with the workspace's real path ws",
  ).toEqual({});
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

it("accepts a colon after the start of a name: only a letter and a colon at the very start name a drive", async () => {
  const { base, ws } = frontEndRepository();
  // `C:x` is refused above; `notes.txt:b` and `src/C:x` are names inside the workspace (on NTFS the first
  // is the stream b of notes.txt, which "What it is not" explains), and this policy does not filter names.
  expect(await answers(base, ws, ["notes.txt:b", "src/C:x"], null), "the path returned for names with a colon after their start").toEqual({
    "notes.txt:b": `accepted as ${join("ws", "notes.txt:b")}`,
    "src/C:x": `accepted as ${join("ws", "src", "C:x")}`,
  });
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

it("goes on by text below a file, as it does below a missing folder", async () => {
  const { base, ws } = frontEndRepository();
  // `src/app.ts` is a file: the kernel would stop below it with ENOTDIR. The walk goes on by text, and
  // a later `..` folds the file's name away.
  const requests = ["src/app.ts/../index.ts", "src/app.ts/x"];
  expect(await answers(base, ws, requests, null), "the path returned for requests that go on below the file src/app.ts").toEqual({
    "src/app.ts/../index.ts": `accepted as ${join("ws", "src", "index.ts")}`,
    "src/app.ts/x": `accepted as ${join("ws", "src", "app.ts", "x")}`,
  });
});

it("refuses a name the file system cannot look up, naming the request and keeping the system's error as the cause", async () => {
  const { ws } = frontEndRepository();
  // A name of 300 characters: lstat fails with ENAMETOOLONG, which is neither "missing" nor "a file".
  const requested = `src/${"a".repeat(300)}.ts`;
  const caught: unknown = await resolveWorkspacePath(ws, requested).then(
    (value) => `accepted as ${value.startsWith(ws + sep) ? join("ws", value.slice(ws.length + 1)) : value}`,
    (error: unknown) => error,
  );
  const refusal =
    caught instanceof Error
      ? {
          "the message names the request": caught.message.includes(requested),
          "the message names the workspace folder": caught.message.includes(ws),
          "the code of its cause": (caught.cause as NodeJS.ErrnoException | undefined)?.code,
        }
      : { outcome: typeof caught === "string" ? caught : oneLine(caught) };
  const expected = {
    "the message names the request": true,
    "the message names the workspace folder": false,
    "the code of its cause": "ENAMETOOLONG",
  };
  // Windows may answer such a name as missing rather than too long; then the walk goes on by text, as
  // for any missing name, and the path stays inside. Both answers are safe; any other is not.
  const missingOnWindows = { outcome: `accepted as ${join("ws", "src", `${"a".repeat(300)}.ts`)}` };
  if (process.platform === "win32" && "outcome" in refusal) {
    expect(refusal, "what resolveWorkspacePath answers for src/<300 times a>.ts on Windows").toEqual(missingOnWindows);
  } else {
    expect(refusal, "what the refusal of src/<300 times a>.ts says").toEqual(expected);
  }
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

it("follows a chain of 40 symlinks, as Linux does, and refuses a 41st with the loop error", async () => {
  const { base, ws } = frontEndRepository();
  // Two chains to src/app.ts: c1 → c2 → … → c40 → src/app.ts is 40 links, d1 → … → d41 → src/app.ts is 41.
  for (const [chain, links] of [
    ["c", 40],
    ["d", 41],
  ] as const) {
    for (let link = 1; link <= links; link += 1) symlink(link < links ? `${chain}${link + 1}` : "src/app.ts", join(ws, `${chain}${link}`));
  }
  const chains = { ...(await answers(base, ws, ["c1"], null)), ...(await answers(base, ws, ["d1"], "loop")) };
  expect(chains, "the answer for c1 → … → c40 → src/app.ts (40 links) and for d1 → … → d41 → src/app.ts (41 links)").toEqual({
    c1: `accepted as ${join("ws", "src", "app.ts")}`,
    d1: refused("loop"),
  });
});

it("follows an absolute link target from its own root, so a link that names a place inside by its full path stays inside", async () => {
  const { base, ws } = frontEndRepository();
  // Links written by a tool that stores full paths: to a file and to a folder, both inside.
  symlink(join(ws, "src", "app.ts"), join(ws, "entry"));
  symlink(join(ws, "src"), join(ws, "sources"), "dir");
  expect(
    await answers(base, ws, ["entry", "sources/app.ts", "sources/../package.json"], null),
    "the path returned through links whose targets are absolute paths inside the workspace",
  ).toEqual({
    entry: `accepted as ${join("ws", "src", "app.ts")}`,
    "sources/app.ts": `accepted as ${join("ws", "src", "app.ts")}`,
    "sources/../package.json": `accepted as ${join("ws", "package.json")}`,
  });
});

it("reads a backslash in a link target as part of a name, except on Windows where it separates", async () => {
  const { base, ws } = frontEndRepository();
  // On Linux and macOS the kernel reads the target `..\secret.txt` as one name in the link's folder, so
  // a write through the link creates a file of that name inside the workspace. On Windows, `\` separates.
  symlink("..\\secret.txt", join(ws, "backslash"));
  const expected = sep === "\\" ? refused("escapes") : `accepted as ${join("ws", "..\\secret.txt")}`;
  expect(
    await answers(base, ws, ["backslash"], sep === "\\" ? "escapes" : null),
    `the answer through the link backslash → ..\\secret.txt, on a platform whose separator is ${sep}`,
  ).toEqual({ backslash: expected });
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

it("refuses a workspace that is not a string with an error that says workspace", async () => {
  // The workspace comes from the harness's settings, which may be read from JSON and lack it.
  const workspaces: Record<string, unknown> = { undefined: undefined, null: null, "42": 42, "{}": {} };
  const refusals: Record<string, string> = {};
  for (const [label, workspace] of Object.entries(workspaces)) {
    refusals[label] = await settled(resolveWorkspacePath(workspace as string, "src/app.ts"), "workspace");
  }
  expect(
    otherThan(refusals, refused("workspace")),
    'resolveWorkspacePath(workspace, "src/app.ts") for workspaces that are not strings, not refused with an error containing "workspace"',
  ).toEqual({});
});

it("keeps the system's error as the cause when the workspace cannot be resolved", async () => {
  const { base } = frontEndRepository();
  const caught: unknown = await resolveWorkspacePath(join(base, "missing"), "src/app.ts").then(
    (value) => `no error; resolved with ${value}`,
    (error: unknown) => error,
  );
  const cause = caught instanceof Error ? `cause: ${String((caught.cause as NodeJS.ErrnoException | undefined)?.code)}` : oneLine(caught);
  expect(cause, 'the code of the cause of the refusal of the missing workspace "missing"').toBe("cause: ENOENT");
});

it("refuses a request that is not a string with the required error, whatever JSON value it is", async () => {
  const { ws } = frontEndRepository();
  // Tool arguments are untyped JSON: the "path" field can hold any JSON value. `{ "toString": … }` and an
  // object without a prototype have no usable toString, so a message built with String(value) throws a
  // TypeError of its own instead of the refusal.
  const values: Record<string, unknown> = {
    ...Object.fromEntries(
      ["42", "true", "[]", '["src/app.ts"]', '{ "path": "src/app.ts" }', '{ "toString": "src/app.ts" }'].map((json) => [
        json,
        JSON.parse(json),
      ]),
    ),
    "Object.create(null)": Object.create(null),
  };
  const refusals: Record<string, string> = {};
  for (const [label, value] of Object.entries(values))
    refusals[label] = await settled(resolveWorkspacePath(ws, value as string), "required");
  expect(
    otherThan(refusals, refused("required")),
    'requests that are not strings, not refused with an error containing "required"',
  ).toEqual({});
});

it("names the kind of a request that is not a string: a number, a boolean, an array, an object, null or undefined", async () => {
  const { ws } = frontEndRepository();
  // The kind, with its article, tells the model what it sent instead of a path.
  const kinds: Record<string, readonly [unknown, string]> = {
    "42": [42, "a number"],
    true: [true, "a boolean"],
    '["src/app.ts"]': [["src/app.ts"], "an array"],
    '{ "path": "src/app.ts" }': [{ path: "src/app.ts" }, "an object"],
    "Object.create(null)": [Object.create(null), "an object"],
    null: [null, "null"],
    undefined: [undefined, "undefined"],
  };
  const named: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [label, [value, kind]] of Object.entries(kinds)) {
    named[label] = await settled(resolveWorkspacePath(ws, value as string), kind);
    expected[label] = refused(kind);
  }
  expect(otherThan(named, expected), "requests that are not strings, whose refusal does not name their kind").toEqual({});
});

it("names null and undefined as they are, never with an article", async () => {
  const { ws } = frontEndRepository();
  // `typeof undefined` is "undefined", and the rule that gives a kind its article would make it "an
  // undefined": null and undefined are values, not kinds, and the refusal names them as they were sent.
  const naming: Record<string, string> = {};
  for (const [label, value] of [
    ["null", null],
    ["undefined", undefined],
  ] as const) {
    const message = await resolveWorkspacePath(ws, value as unknown as string).then(
      (resolved) => `no error; resolved with ${resolved}`,
      (error: unknown) => (error instanceof Error ? error.message : `threw ${oneLine(error)}, which is not an Error`),
    );
    naming[label] = new RegExp(`\\ban? ${label}\\b`).test(message)
      ? `named with an article: ${message}`
      : message.includes(label)
        ? `named as ${label}`
        : `not named: ${message}`;
  }
  expect(naming, "how the refusal of a null and of an undefined request names the value").toEqual({
    null: "named as null",
    undefined: "named as undefined",
  });
});

/** An answer with each long run of `x` or of `../` written as its count, so that a failure stays readable. */
const brief = (answer: string) =>
  answer.replace(/x{40,}/g, (run) => `x×${run.length}`).replace(/(?:\.\.\/){20,}/g, (run) => `../×${run.length / 3}`);

it("refuses a request longer than 4096 characters, and names it by its start only", async () => {
  const { base, ws } = frontEndRepository();
  // Linux refuses a path longer than PATH_MAX (4096 bytes) as given, so no honest request is longer.
  // These have one or two segments each: a policy without the bound walks them at once, and the table
  // shows what it answered instead, each long run of a request written as its length (x×4097).
  const requests = {
    "4,097 times x": "x".repeat(4097),
    "src/, then 1,200,000 times x": `src/${"x".repeat(1_200_000)}`,
  };
  const refusals: Record<string, string> = {};
  for (const [label, requested] of Object.entries(requests)) {
    refusals[label] = brief(await settled(resolveWorkspacePath(ws, requested), "longer than 4096 characters"));
  }
  expect(
    otherThan(refusals, refused("longer than 4096 characters")),
    'requests longer than 4096 characters, not refused with an error containing "longer than 4096 characters"',
  ).toEqual({});
  // The bound comes before any other work, the disk included, so it bounds the walk: 400,000 `..`
  // segments are refused for their length even for a workspace that does not exist, and nothing is
  // walked. (A policy that looks at the disk first stops at once, at the missing workspace.)
  const unwalked = await settled(resolveWorkspacePath(join(base, "missing"), `${"../".repeat(400_000)}x`), "longer than 4096 characters");
  expect(
    brief(unwalked),
    "the answer for 400,000 times ../, then x, for a workspace that does not exist: refused before any other work",
  ).toBe(refused("longer than 4096 characters"));
  // The message goes back to the model: it quotes the start of the request, never all of it.
  const message = await resolveWorkspacePath(ws, requests["src/, then 1,200,000 times x"]).catch((error: Error) => error.message);
  expect(message.length, `the length of the refusal of a request of 1,200,004 characters: ${message.slice(0, 300)}`).toBeLessThanOrEqual(
    200,
  );
  // 4096 characters is still a request: "./" 2043 times, then src/app.ts.
  const atTheLimit = `${"./".repeat(2043)}src/app.ts`;
  expect(
    Object.values(await answers(base, ws, [atTheLimit], null)),
    `the answer for ("./" 2043 times, then src/app.ts), a request of exactly ${atTheLimit.length} characters`,
  ).toEqual([`accepted as ${join("ws", "src", "app.ts")}`]);
});

const WALK_COST = fileURLToPath(new URL("./walk-cost.ts", import.meta.url));
const QUEUE_WALK = fileURLToPath(new URL("./queue-walk.ts", import.meta.url));
/** Links in each chain: one fewer than the 40 a walk must follow, so that where it counts from does not matter. */
const CHAIN_LINKS = 39;
/** `..` segments in each link of the long chain: its target, `l2/../../…`, then has at most 4,084 bytes (a link's target may have 4,095). */
const LONG_RUN = 1360;

interface WalkCost {
  /** The least processor time one call took, in microseconds. */
  readonly micros: number;
  /** What the call answered: `resolved to …` or `error: …`. */
  readonly answer: string;
}

/** The processor time of one call per request, measured in a child process (see walk-cost.ts). */
function walkCost(bundle: string, module: string, ws: string, rounds: Readonly<Record<string, number>>): Promise<Record<string, WalkCost>> {
  const args = [join(bundle, "walk-cost.mjs"), join(bundle, `${module}.mjs`), ws];
  for (const [request, count] of Object.entries(rounds)) args.push(String(count), request);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, (error, stdout, stderr) => {
      if (error) reject(new Error(`the walk-cost child for ${module} failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, WalkCost>);
    });
  });
}

/** How many times a call of l1/x took longer than one of s1/x, to a tenth, and the numbers behind it. */
function growth(costs: Record<string, WalkCost>): { times: number; shown: string } {
  const [short, long] = [costs["s1/x"], costs["l1/x"]];
  const times = Math.round(((long?.micros ?? NaN) / (short?.micros ?? NaN)) * 10) / 10;
  const shown = `s1/x ${short?.micros} µs (${short?.answer}), l1/x ${long?.micros} µs (${long?.answer})`;
  return { times, shown };
}

it("walks in time proportional to the segments it walks, links included", { timeout: 120_000 }, async () => {
  const { ws } = frontEndRepository();
  // Two chains of 39 links. Each link's target is the next link followed by a run of `..` segments, so
  // every hop queues one more run in front of what is left: a walk of s1/x meets 39 runs of 170, one
  // of l1/x 39 runs of 1360, eight times as many segments. The requests themselves stay short: links
  // are how a workspace makes a walk long within the 4096-character bound. (Both chains lead out of
  // the workspace; whether a walk follows them there is the business of the test on symlinks.)
  for (const [chain, run] of [
    ["s", LONG_RUN / 8],
    ["l", LONG_RUN],
  ] as const) {
    for (let link = 1; link <= CHAIN_LINKS; link += 1) {
      const next = link < CHAIN_LINKS ? `${chain}${link + 1}` : "end";
      symlinkSync(`${next}/${"../".repeat(run)}`, join(ws, `${chain}${link}`));
    }
  }
  // Plain JavaScript for the child, which measures the processor time of each call.
  const bundle = temporaryFolder({ insideRepository: true });
  await build({
    entryPoints: { "walk-cost": WALK_COST, "module-under-test": moduleFile("paths"), control: QUEUE_WALK },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outdir: bundle,
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
  });
  // A walk whose time is proportional to its segments takes at most 8 times as long for 8 times as
  // many (less, since part of its work, such as reading the 39 links, is the same for both); one that
  // moves every queued segment at each step takes about 64 times as long, or more. Between them lies 16.
  const measured = growth(await walkCost(bundle, "module-under-test", ws, { "s1/x": 9, "l1/x": 9 }));
  expect(
    measured.times,
    `how many times longer one resolveWorkspacePath call took for 8 times as many segments (${measured.shown}); more than 16 means each step costs more the more segments are queued, as Array.prototype.shift and unshift on a long array do`,
  ).toBeLessThan(16);
  // The control walks with shift and unshift (queue-walk.ts): the same measurement must see it pass 16.
  // One counted call of l1/x is enough for it: noise only makes a call slower, and that call is the slow one.
  const controlled = growth(await walkCost(bundle, "control", ws, { "s1/x": 9, "l1/x": 1 }));
  expect(
    controlled.times,
    `how many times longer the control, a walk with shift and unshift, took for 8 times as many segments (${controlled.shown}); 16 or less would mean this measurement cannot tell a quadratic walk`,
  ).toBeGreaterThanOrEqual(16);
});
