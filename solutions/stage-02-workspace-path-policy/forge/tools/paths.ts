// Stage 02: a tool may only touch files inside its workspace. A requested path is checked for form
// first (pure, no IO), then walked on the real file system, following every symlink, and the walk's
// end decides: inside the workspace's real path, or "escapes".
import type { Stats } from "node:fs";
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** As many symlinks as Linux follows in one lookup before it gives up with ELOOP. */
export const MAX_SYMLINK_HOPS = 40;

/**
 * The longest request accepted, in characters. Linux's PATH_MAX is 4096 bytes with the closing NUL,
 * for the whole path the kernel is handed, so no honest request needs more, and the walk's work stays
 * bounded. A shorter one may still pass PATH_MAX with the workspace in front of it: lstat then says
 * ENAMETOOLONG, and the walk refuses it.
 */
export const MAX_REQUEST_LENGTH = 4096;

/** `C:\x`, `C:/x` and the drive-relative `C:x`: neither `isAbsolute` catches the last one. */
const DRIVE_LETTER = /^[A-Za-z]:/;

/** A request is split on both separators, so `src\app.ts` and `src/app.ts` are one path. */
const REQUEST_SEPARATORS = /[\\/]/;

/** A link target is read the way this platform's kernel reads it: `\` is a separator only on Windows. */
const LINK_SEPARATORS = path.sep === "\\" ? /[\\/]/ : /\//;

function show(value: string): string {
  // JSON quoting makes NUL bytes, tabs and trailing spaces visible in the message.
  return JSON.stringify(value);
}

/**
 * What a value that is not a path is, in words, without calling any of its methods: tool arguments
 * are untyped JSON, and `String(value)` throws for `Object.create(null)` or `{ "toString": "x" }`.
 */
function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/**
 * True for an absolute path in any platform's form, on every platform. Node's `path` follows the
 * platform it runs on, and a model's request may have been written for another one.
 */
function isAbsoluteAnywhere(requested: string): boolean {
  return path.posix.isAbsolute(requested) || path.win32.isAbsolute(requested) || DRIVE_LETTER.test(requested);
}

/**
 * The pure half of the policy: checks the request's form and returns its segments. It does no IO,
 * so it cannot know about symlinks; it only refuses what no file system lookup may ever see.
 */
function requestedSegments(requested: unknown): string[] {
  if (typeof requested !== "string") throw new Error(`a path is required, got ${kindOf(requested)}`);
  if (requested.length > MAX_REQUEST_LENGTH) {
    // Refused before any other work, and named by its start only: the message goes back to the model.
    throw new Error(`path ${show(requested.slice(0, 40))}… is longer than ${MAX_REQUEST_LENGTH} characters (it has ${requested.length})`);
  }
  if (requested.trim() === "") throw new Error(`a path is required, got ${show(requested)}`);
  if (requested.includes("\0")) {
    // The OS would cut the string at the NUL, or refuse it; either way it is not the path we checked.
    throw new Error(`path ${show(requested)} contains a NUL byte`);
  }
  if (isAbsoluteAnywhere(requested)) {
    // Refused, not normalized: a policy that rewrites `C:x` or `\\server\share` has to guess what it meant.
    throw new Error(`path ${show(requested)} is absolute; give a path relative to the workspace`);
  }
  // Every segment is kept: `..` is the walk's to resolve, and `.` or an empty segment (from `src//x` or
  // a trailing separator) leaves the walk where it is.
  return requested.split(REQUEST_SEPARATORS);
}

/** Containment by whole segments: `/w/ws-evil` is not inside `/w/ws`, `/w/ws/..x` is. */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === "") return true;
  const first = relative.split(path.sep)[0];
  // An absolute result happens on Windows when the candidate is on another drive.
  return first !== ".." && !path.isAbsolute(relative);
}

/** The real path of the workspace folder itself: it may be reached through a symlink. */
async function workspaceRoot(workspace: string): Promise<string> {
  if (typeof workspace !== "string") throw new Error(`workspace must be an absolute path, got ${kindOf(workspace)}`);
  if (!path.isAbsolute(workspace)) throw new Error(`workspace ${show(workspace)} must be an absolute path`);
  let root: string;
  let stats: Stats;
  try {
    root = await realpath(workspace);
    stats = await stat(root);
  } catch (error) {
    throw new Error(`workspace ${show(workspace)} cannot be resolved`, { cause: error });
  }
  if (!stats.isDirectory()) throw new Error(`workspace ${show(workspace)} is not a folder`);
  return root;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // ENOTDIR: a segment below a file. It cannot exist, and it cannot lead anywhere either.
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Walks `segments` from `root` the way a POSIX kernel would, one segment at a time: a symlink is
 * replaced by its target (even a dangling one), and `..` goes to the parent of the real folder reached
 * so far. A segment that does not exist yet is taken as it is, and so is a segment below a file: there
 * the kernel would stop with ENOENT or ENOTDIR, while the walk goes on by text, and a later `..` folds
 * it away. `.` and an empty segment name the folder reached so far: `path.join(current, ".")` is
 * `current`, which is never a link, so the walk stays there. The result is the real path of the
 * deepest existing ancestor joined with the segments that do not exist yet. It has no `.` or `..`
 * left, so whoever opens it goes where the walk went.
 */
async function walkRealPath(root: string, segments: readonly string[], requested: string): Promise<string> {
  // The segments still to walk, the next one last: pop() takes it and push() puts a link's target in
  // front, each at a cost that does not grow with what is queued. shift() and unshift() move every
  // queued segment on each call, which makes a long request (or a long chain of links) quadratic.
  const pending = [...segments].reverse();
  let current = root;
  let hops = 0;
  for (let segment = pending.pop(); segment !== undefined; segment = pending.pop()) {
    if (segment === "..") {
      // `current` is always a real path, so its parent is the parent the kernel would use.
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    let stats: Stats;
    try {
      stats = await lstat(next);
    } catch (error) {
      // The cause names the folder; the message, which goes back to the model, does not.
      if (!isMissing(error)) throw new Error(`path ${show(requested)} cannot be inspected`, { cause: error });
      // Not there yet: keep walking lexically. A later `..` may bring us back to something real.
      current = next;
      continue;
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) {
      throw new Error(`path ${show(requested)} cannot be resolved: more than ${MAX_SYMLINK_HOPS} symlinks (a symlink loop?)`);
    }
    // readlink, not realpath: a dangling link has no real path, but its target still says where a
    // write through it would land.
    const target = await readlink(next);
    let rest = target;
    if (path.isAbsolute(target)) {
      // An absolute target starts again at its root (`/`; on Windows also `C:\` or `\\server\share\`),
      // and what follows the root is walked from there.
      const targetRoot = path.parse(target).root;
      current = targetRoot;
      rest = target.slice(targetRoot.length);
    }
    // The rest is read from `current`: the link's folder for a relative target, the root for an absolute
    // one. Its first segment goes last.
    const targetSegments = rest.split(LINK_SEPARATORS);
    for (let index = targetSegments.length - 1; index >= 0; index -= 1) pending.push(targetSegments[index] as string);
  }
  return current;
}

/**
 * Returns the absolute real path that `requested` names inside `workspace`, or throws: "required"
 * for an empty request or one that is not a string, "longer than 4096 characters" for a longer one,
 * "NUL" for a NUL byte, "absolute" for an absolute path in any platform's form, "escapes" when the
 * real path lies outside the workspace's real path.
 */
export async function resolveWorkspacePath(workspace: string, requested: string): Promise<string> {
  const segments = requestedSegments(requested);
  const root = await workspaceRoot(workspace);
  const resolved = await walkRealPath(root, segments, requested);
  if (!isInside(root, resolved)) {
    // The message goes back to the model: name what it asked for, not what lies outside.
    throw new Error(`path ${show(requested)} escapes the workspace`);
  }
  return resolved;
}
