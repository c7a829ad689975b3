// Stage 08: three read-only tools a model may call on the workspace (list, read, search) without
// leaking what it must not see. A path is first prepared as a string (one canonical form, no IO);
// then the tools walk the real entries one segment at a time, follow no link, open no special file,
// refuse protected entries and files with a second name, check that the file they opened is the one
// they checked, and stop at limits the model cannot raise.
import { Buffer } from "node:buffer";
import { constants as fsConstants } from "node:fs";
import * as nodeFs from "node:fs/promises";
import path from "node:path";

export type WorkspaceToolErrorCode =
  | "invalid_path"
  | "invalid_argument"
  | "workspace_path_denied"
  | "link_refused"
  | "hard_link_refused"
  | "not_found"
  | "not_a_directory"
  | "not_a_file"
  | "too_large"
  | "not_utf8"
  | "file_changed";

/** A refusal the model may see: a stable `code` and a message that names only workspace paths. */
export class WorkspaceToolError extends Error {
  readonly code: WorkspaceToolErrorCode;

  constructor(code: WorkspaceToolErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "WorkspaceToolError";
    this.code = code;
  }
}

/** What lstat and an open file's stat must tell. Numbers may be bigints (memfs types them so). */
export interface ReadOnlyStats {
  readonly dev: number | bigint;
  readonly ino: number | bigint;
  readonly nlink: number | bigint;
  readonly size: number | bigint;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export interface ReadOnlyFileHandle {
  stat(): Promise<ReadOnlyStats>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * The part of `node:fs/promises` the tools use; memfs's `promises` has the same shape. `readdir`
 * is typed loosely because memfs declares names, Buffers or Dirents; called with no options, both
 * return names, and the tools check that they did.
 */
export interface ReadOnlyFileSystem {
  lstat(path: string): Promise<ReadOnlyStats>;
  readdir(path: string): Promise<readonly unknown[]>;
  open(path: string, flags: number): Promise<ReadOnlyFileHandle>;
}

export interface Limits {
  /** list: most entries in one page. search: most folder entries visited in one call. */
  readonly entries: number;
  /** The largest file read or searched, in bytes. */
  readonly fileBytes: number;
  /** Longer lines are cut to this many characters (UTF-16 code units) and marked as cut. */
  readonly lineLength: number;
  /** search: most matches in one call. */
  readonly matches: number;
  /** Most bytes of JSON items (entries, lines, matches) in one result. */
  readonly resultBytes: number;
  /** search: most milliseconds one call may take. */
  readonly timeMs: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  entries: 10_000,
  fileBytes: 1_048_576,
  lineLength: 2_000,
  matches: 200,
  resultBytes: 65_536,
  timeMs: 5_000,
});

export interface WorkspaceOptions {
  /** Workspace-relative paths only the trusted caller knows: a config file, a database, a folder. */
  readonly protectedPaths?: readonly string[];
  readonly limits?: Partial<Limits>;
  /** Defaults to `node:fs/promises`. */
  readonly fs?: ReadOnlyFileSystem;
}

export type EntryKind = "file" | "directory" | "link" | "other" | "blocked";

export interface ListResult {
  readonly entries: { name: string; kind: EntryKind }[];
  /** Where the next page starts, by position among the names as they are now; `null` after the last page. */
  readonly nextOffset: number | null;
  /** The last name of this page, to pass as `after` for the next one; `null` after the last page. */
  readonly nextAfter: string | null;
}

export interface ReadResult {
  readonly lines: string[];
  readonly startLine: number;
  readonly nextStartLine: number | null;
}

export type LimitReason = "matches" | "result_bytes" | "time" | "entries";

export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

export interface SearchResult {
  readonly matches: SearchMatch[];
  readonly truncated: boolean;
  readonly limitReason: null | LimitReason;
}

// ---- preparePath: strings only, no IO ----

/** The longest request, in characters: a bound on the work of preparing it, before any other check. */
const MAX_PATH_LENGTH = 4_096;
/** Linux's NAME_MAX: a longer name could never be opened. */
const MAX_NAME_BYTES = 255;
/**
 * Linux's PATH_MAX is 4096 bytes with the closing NUL, and it bounds the whole path handed to the
 * kernel: the root, a separator and the request. So a host path may have 4095 bytes of UTF-8.
 */
const MAX_HOST_PATH_BYTES = 4_095;

/** `C:\x`, `C:/x` and the drive-relative `C:x`. */
const DRIVE_LETTER = /^[A-Za-z]:/;
const SEPARATORS = /[\\/]+/;
/** Windows opens a device, not a file, for these names, with any extension: `con.txt`, `Aux.tar.gz`. */
const DEVICE_NAME = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])$/i;
/** Characters Windows forbids in a name; `:` also opens an alternate data stream (`a.txt:hidden`). */
const FORBIDDEN_CHARACTER = /[<>:"|?*]/;
const CONTROL_CHARACTER = /[\u0001-\u001f]/;

const encoder = new TextEncoder();

/** JSON quoting makes NUL bytes, tabs and trailing spaces visible; a huge value is shortened. */
function show(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}

function invalidPath(requested: string, reason: string): WorkspaceToolError {
  return new WorkspaceToolError("invalid_path", `path ${show(requested)} ${reason}`);
}

/**
 * What a value that is not a path is, in words, without calling any of its methods: arguments are
 * untyped JSON, and `String(value)` throws for `Object.create(null)`.
 */
function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** The Windows rules for one name; each of them would make one name mean two things. */
function checkName(requested: string, name: string): void {
  if (name === "..") throw invalidPath(requested, 'contains "..": name the entry from the workspace root instead');
  const device = name.split(".")[0]?.trimEnd() ?? "";
  if (DEVICE_NAME.test(device)) throw invalidPath(requested, `uses the Windows device name ${show(device)}`);
  if (name.endsWith(".") || name.endsWith(" ")) {
    throw invalidPath(requested, `has a name ending in a dot or a space (${show(name)}), which Windows drops`);
  }
  const forbidden = FORBIDDEN_CHARACTER.exec(name)?.[0];
  if (forbidden !== undefined) throw invalidPath(requested, `contains ${show(forbidden)}, which Windows forbids in names`);
  if (CONTROL_CHARACTER.test(name)) throw invalidPath(requested, "contains a control character, which Windows forbids in names");
  // readdir writes U+FFFD for each byte of a name that is not UTF-8 (and Windows for a lone surrogate
  // in a name): such a name may stand for another one on the disk, or for several.
  if (name.includes("\uFFFD")) throw invalidPath(requested, "contains U+FFFD, which stands for bytes that are not UTF-8");
  if (encoder.encode(name).byteLength > MAX_NAME_BYTES) {
    throw invalidPath(requested, `has a name longer than ${MAX_NAME_BYTES} bytes`);
  }
}

/**
 * The one form every tool works with: workspace-relative, `/`-separated, no empty or `.` segments;
 * `"."` for the workspace itself. `docs\a.md` and `./docs//a.md` both become `docs/a.md`. Anything
 * that could name a place outside the workspace, or mean something else on Windows, is refused with
 * `invalid_path`, never rewritten.
 */
export function preparePath(input: string): string {
  const requested: unknown = input;
  if (typeof requested !== "string") throw new WorkspaceToolError("invalid_path", `a path is required, got ${kindOf(requested)}`);
  if (requested.length > MAX_PATH_LENGTH) {
    throw new WorkspaceToolError("invalid_path", `path is longer than ${MAX_PATH_LENGTH} characters`);
  }
  if (requested.includes("\0")) throw invalidPath(requested, "contains a NUL byte");
  // A lone surrogate has no UTF-8 form: Node hands the system U+FFFD in its place, another file's name.
  if (!requested.isWellFormed()) throw invalidPath(requested, "is not well-formed Unicode: it has a lone surrogate");
  if (/^[\\/]{2}/.test(requested)) throw invalidPath(requested, "is absolute (a UNC or device path)");
  if (/^[\\/]/.test(requested)) throw invalidPath(requested, "is absolute");
  if (DRIVE_LETTER.test(requested)) throw invalidPath(requested, "is absolute (a drive letter)");
  const segments = requested.split(SEPARATORS).filter((segment) => segment !== "" && segment !== ".");
  for (const segment of segments) checkName(requested, segment);
  return segments.length === 0 ? "." : segments.join("/");
}

/** True for a name that a path can express exactly, so the model can ask for it by that name. */
function isAddressable(name: string): boolean {
  try {
    return preparePath(name) === name;
  } catch {
    return false;
  }
}

// ---- protected entries ----

/** Code points that some file systems ignore in names (HFS+ ignores U+200C, so `.g\u200cit` is `.git`). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A name as a case-insensitive disk compares it: Windows and macOS treat `DATA` as `data`. Upper
 * then lower catches both directions (`ı` → `I` → `i`, Kelvin sign `K` → `k`); NFC makes composed
 * and decomposed accents one name, as APFS does. Folding too much only protects more.
 */
function fold(name: string): string {
  return name;
}

const SQLITE_SIDECARS = ["-wal", "-journal", "-shm"] as const;

/**
 * The rule the model cannot change: `data/` at the root, `.git`, `.env` and `.env.*` at any depth
 * (a monorepo keeps one per package), and the caller's paths with everything beneath them and their
 * SQLite sidecars.
 */
class ProtectedEntries {
  readonly #custom = new Set<string>();

  constructor(paths: readonly string[]) {
    if (!Array.isArray(paths)) throw new WorkspaceToolError("invalid_argument", "protectedPaths must be an array of paths");
    for (const entry of paths) {
      const prepared = preparePath(entry);
      if (prepared === ".") {
        throw new WorkspaceToolError("invalid_path", "a protected path must name an entry, not the whole workspace");
      }
      const folded = prepared.split("/").map(fold).join("/");
      this.#custom.add(folded);
      for (const suffix of SQLITE_SIDECARS) this.#custom.add(folded + suffix);
    }
  }

  /** `segments` is a prepared path split on `/`; the workspace itself is `[]`. */
  covers(segments: readonly string[]): boolean {
    const folded = segments.map(fold);
    if (folded[0] === "data") return true;
    if (folded.some((name) => name === ".git" || name === ".env" || name.startsWith(".env."))) return true;
    for (let depth = 1; depth <= folded.length; depth += 1) {
      if (this.#custom.has(folded.slice(0, depth).join("/"))) return true;
    }
    return false;
  }
}

// ---- limits and arguments ----

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

function checkLimits(requested: unknown): Readonly<Limits> {
  if (requested === undefined) return DEFAULT_LIMITS;
  if (typeof requested !== "object" || requested === null) {
    throw new WorkspaceToolError("invalid_argument", "limits must be an object");
  }
  const limits: Record<keyof Limits, number> = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(requested)) {
    // hasOwn, not `in`: `constructor` or `__proto__` from a typo'd config must not count as a limit.
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw new WorkspaceToolError("invalid_argument", `unknown limit ${show(name)}`);
    if (!isPositiveInteger(value)) throw new WorkspaceToolError("invalid_argument", `limit ${name} must be a positive integer`);
    limits[name as keyof Limits] = value;
  }
  return limits;
}

/** The options object of a call, which arrives as untyped JSON from the model. */
function callOptions(value: unknown, what: string): Readonly<Record<string, unknown>> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WorkspaceToolError("invalid_argument", `${what} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** A page size the model asked for, never above the trusted limit. */
function pageSize(value: unknown, name: string, limit: number): number {
  if (value === undefined) return limit;
  if (!isPositiveInteger(value)) throw new WorkspaceToolError("invalid_argument", `${name} must be a positive integer`);
  return Math.min(value, limit);
}

/** The name a page starts after: any string, compared as `sort` compares names. */
function cursor(value: unknown): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new WorkspaceToolError("invalid_argument", "after must be a string: the name of the last entry of the page before");
}

/** The index of the first of the sorted `names` that sorts after `after`, or `names.length`. */
function firstAfter(names: readonly string[], after: string): number {
  const index = names.findIndex((name) => name > after);
  return index === -1 ? names.length : index;
}

function startIndex(value: unknown, name: string, first: number): number {
  if (value === undefined) return first;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < first) {
    throw new WorkspaceToolError("invalid_argument", `${name} must be an integer of at least ${first}`);
  }
  return value;
}

/** What one item of a result costs the model: the bytes of its JSON. */
function jsonBytes(item: unknown): number {
  return encoder.encode(JSON.stringify(item)).byteLength;
}

/** A line within `lineLength`, or its head and a note saying how long it was. */
function cutLine(line: string, lineLength: number): string {
  if (line.length <= lineLength) return line;
  // Never split a surrogate pair: the result would not be valid text.
  const end = /[\uD800-\uDBFF]/.test(line.charAt(lineLength - 1)) ? lineLength - 1 : lineLength;
  return `${line.slice(0, end)} [… line cut: ${line.length} characters in all]`;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  // A final line break ends the last line; it does not start an empty one.
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

// ---- errors from the file system ----

function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/**
 * Turns a failed system call into a refusal that names the workspace path, never the host path.
 * An unknown failure (EIO, EMFILE) is not the model's doing: it becomes a plain Error, with the
 * original, host path and all, kept as its cause for the harness's log.
 */
function fromFileSystem(error: unknown, relative: string): Error {
  if (error instanceof WorkspaceToolError) return error;
  const code = errnoCode(error);
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new WorkspaceToolError("not_found", `path ${show(relative)} does not exist`, { cause: error });
    case "ELOOP":
      return new WorkspaceToolError("link_refused", `path ${show(relative)} is a symlink; links are not followed`, {
        cause: error,
      });
    case "EACCES":
    case "EPERM":
      return new WorkspaceToolError("workspace_path_denied", `path ${show(relative)} is not readable`, { cause: error });
    case "ENAMETOOLONG":
      // A system whose PATH_MAX is lower than Linux's (macOS: 1024 bytes) says so itself.
      return new WorkspaceToolError("invalid_path", `path ${show(relative)} is too long for the file system (ENAMETOOLONG)`, {
        cause: error,
      });
    default:
      return new Error(`path ${show(relative)} could not be read (${code ?? "unknown error"})`, { cause: error });
  }
}

/**
 * The flags of every open, for what may be swapped in at the last component after the check:
 * O_NOFOLLOW refuses a symlink; O_NONBLOCK keeps a FIFO or a device from holding the open; O_NOCTTY
 * keeps a terminal from becoming this process's controlling terminal. Such a file is still opened
 * (its driver's open and close run) and then refused by the identity check, before any read.
 * Windows has none of the three.
 */
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOCTTY ?? 0);

/** True for a host path the kernel would refuse with ENAMETOOLONG. */
const tooLongForTheKernel = (host: string) => Buffer.byteLength(host) > MAX_HOST_PATH_BYTES;

const nodeFileSystem: ReadOnlyFileSystem = nodeFs;

const child = (relative: string, name: string) => (relative === "." ? name : `${relative}/${name}`);
const segmentsOf = (prepared: string) => (prepared === "." ? [] : prepared.split("/"));

interface Frame {
  readonly relative: string;
  readonly host: string;
  readonly names: readonly string[];
  next: number;
}

/**
 * list, read and search over one workspace folder. The root, the protected paths and the limits come
 * from trusted startup code; only the arguments of the three calls come from the model.
 */
export class ReadOnlyWorkspace {
  readonly #root: string;
  readonly #protected: ProtectedEntries;
  readonly #limits: Readonly<Limits>;
  readonly #fs: ReadOnlyFileSystem;

  constructor(root: string, options: WorkspaceOptions = {}) {
    if (typeof root !== "string" || !path.isAbsolute(root)) {
      throw new WorkspaceToolError("invalid_path", "the workspace root must be an absolute path");
    }
    this.#root = root;
    this.#protected = new ProtectedEntries(options.protectedPaths ?? []);
    this.#limits = checkLimits(options.limits);
    this.#fs = options.fs ?? nodeFileSystem;
  }

  /**
   * The entries of one folder, sorted by name. A page starts at `offset` (a position among the names
   * as they are now) or just after the name `after` (the `nextAfter` of the page before): then no
   * entry present throughout the paging is skipped or repeated, whatever is created or deleted.
   */
  async list(requested: string, page?: { offset?: number; after?: string; limit?: number }): Promise<ListResult> {
    const prepared = this.#allowed(requested);
    const options = callOptions(page, "page");
    const offset = startIndex(options.offset, "offset", 0);
    const after = cursor(options.after);
    if (after !== undefined && options.offset !== undefined) {
      throw new WorkspaceToolError("invalid_argument", "give offset or after, not both");
    }
    const limit = pageSize(options.limit, "limit", this.#limits.entries);
    const host = await this.#folder(prepared);
    const names = await this.#names(host, prepared);
    const entries: { name: string; kind: EntryKind }[] = [];
    let bytes = 0;
    let index = after === undefined ? offset : firstAfter(names, after);
    for (; index < names.length && entries.length < limit; index += 1) {
      const name = names[index] ?? "";
      const entry = { name, kind: await this.#kind(host, prepared, name) };
      const size = jsonBytes(entry);
      // At least one entry per page, so that paging always moves on.
      if (entries.length > 0 && bytes + size > this.#limits.resultBytes) break;
      bytes += size;
      entries.push(entry);
    }
    const more = index < names.length;
    const last = entries.at(-1);
    return { entries, nextOffset: more ? index : null, nextAfter: more && last !== undefined ? last.name : null };
  }

  /** Whole lines of one UTF-8 file, from `startLine` (1-based), as many as the limits allow. */
  async read(requested: string, page?: { startLine?: number; maxLines?: number }): Promise<ReadResult> {
    const prepared = this.#allowed(requested);
    const options = callOptions(page, "page");
    const startLine = startIndex(options.startLine, "startLine", 1);
    const maxLines = pageSize(options.maxLines, "maxLines", Number.MAX_SAFE_INTEGER);
    const { host, stats } = await this.#walk(prepared);
    const lines = splitLines(await this.#readText(host, prepared, stats));
    const taken: string[] = [];
    let bytes = 0;
    let index = startLine - 1;
    for (; index < lines.length && taken.length < maxLines; index += 1) {
      const line = cutLine(lines[index] ?? "", this.#limits.lineLength);
      const size = jsonBytes(line);
      // At least one line per page, so that paging always moves on.
      if (taken.length > 0 && bytes + size > this.#limits.resultBytes) break;
      bytes += size;
      taken.push(line);
    }
    return { lines: taken, startLine, nextStartLine: index < lines.length ? index + 1 : null };
  }

  /**
   * Every line under a folder that contains `query` as plain text, in path order. Protected entries,
   * links, special files, hard-linked files, files over `fileBytes` and files that are not UTF-8 are
   * skipped. It runs in this process and starts no other.
   */
  async search(query: string, options?: { path?: string; maxMatches?: number }): Promise<SearchResult> {
    const started = performance.now();
    const text = this.#query(query);
    const given = callOptions(options, "search options");
    const start = this.#allowed((given.path ?? ".") as string);
    const maxMatches = pageSize(given.maxMatches, "maxMatches", this.#limits.matches);
    const startHost = await this.#folder(start);
    const matches: SearchMatch[] = [];
    const stop = (limitReason: LimitReason): SearchResult => ({ matches, truncated: true, limitReason });
    const stack: Frame[] = [{ relative: start, host: startHost, names: await this.#names(startHost, start), next: 0 }];
    let visited = 0;
    let bytes = 0;
    for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
      const name = frame.names[frame.next];
      if (name === undefined) {
        stack.pop();
        continue;
      }
      frame.next += 1;
      if (visited === this.#limits.entries) return stop("entries");
      if (performance.now() - started > this.#limits.timeMs) return stop("time");
      visited += 1;
      const relative = child(frame.relative, name);
      const host = path.join(frame.host, name);
      // Skipped, as list shows them blocked: names no path can express, protected entries, and
      // entries too deep for the kernel to look up.
      if (!isAddressable(name) || this.#protected.covers(segmentsOf(relative)) || tooLongForTheKernel(host)) continue;
      try {
        const stats = await this.#lstat(host, relative);
        if (stats.isDirectory()) {
          stack.push({ relative, host, names: await this.#names(host, relative), next: 0 });
          continue;
        }
        // #readText refuses links and special files without opening them; the refusal skips them.
        const lines = splitLines(await this.#readText(host, relative, stats));
        for (const [index, line] of lines.entries()) {
          if (!line.includes(text)) continue;
          if (matches.length === maxMatches) return stop("matches");
          const match = { path: relative, line: index + 1, text: cutLine(line, this.#limits.lineLength) };
          const size = jsonBytes(match);
          if (bytes + size > this.#limits.resultBytes) return stop("result_bytes");
          bytes += size;
          matches.push(match);
        }
      } catch (error) {
        // A refusal only means this entry is skipped; anything else is a real failure.
        if (!(error instanceof WorkspaceToolError)) throw error;
      }
    }
    return { matches, truncated: false, limitReason: null };
  }

  /** The prepared path, unless the protection rule covers it. Decided before any IO. */
  #allowed(requested: string): string {
    const prepared = preparePath(requested);
    if (this.#protected.covers(segmentsOf(prepared))) {
      throw new WorkspaceToolError("workspace_path_denied", `path ${show(prepared)} is protected; the tools do not read it`);
    }
    return prepared;
  }

  #query(query: unknown): string {
    if (typeof query !== "string" || query === "") throw new WorkspaceToolError("invalid_argument", "a search query is required");
    if (/[\r\n]/.test(query)) {
      throw new WorkspaceToolError("invalid_argument", "a search query cannot contain a line break: lines are searched one by one");
    }
    if (query.length > this.#limits.lineLength) {
      throw new WorkspaceToolError("invalid_argument", `a search query is limited to ${this.#limits.lineLength} characters`);
    }
    return query;
  }

  async #lstat(host: string, relative: string): Promise<ReadOnlyStats> {
    try {
      return await this.#fs.lstat(host);
    } catch (error) {
      throw fromFileSystem(error, relative);
    }
  }

  /**
   * Walks a prepared path one real entry at a time from the root: a link anywhere on the way is
   * refused, every segment but the last must be a folder. Returns the last entry's host path and stats.
   */
  async #walk(prepared: string): Promise<{ host: string; stats: ReadOnlyStats | null }> {
    if (tooLongForTheKernel(path.join(this.#root, prepared))) {
      throw invalidPath(prepared, `is too long for the file system: with the workspace root it has more than ${MAX_HOST_PATH_BYTES} bytes`);
    }
    const segments = segmentsOf(prepared);
    let host = this.#root;
    let stats: ReadOnlyStats | null = null;
    for (const [index, segment] of segments.entries()) {
      const relative = segments.slice(0, index + 1).join("/");
      host = path.join(host, segment);
      stats = await this.#lstat(host, relative);
      if (stats.isSymbolicLink()) {
        throw new WorkspaceToolError(
          "link_refused",
          `path ${show(prepared)} goes through the symlink ${show(relative)}; links are not followed`,
        );
      }
      if (index < segments.length - 1 && !stats.isDirectory()) {
        throw new WorkspaceToolError("not_a_directory", `path ${show(prepared)}: ${show(relative)} is not a directory`);
      }
    }
    // `null` is the root itself, which trusted code chose.
    return { host, stats };
  }

  async #folder(prepared: string): Promise<string> {
    const { host, stats } = await this.#walk(prepared);
    if (stats !== null && !stats.isDirectory()) {
      throw new WorkspaceToolError("not_a_directory", `path ${show(prepared)} is not a directory`);
    }
    return host;
  }

  async #names(host: string, relative: string): Promise<string[]> {
    let raw: readonly unknown[];
    try {
      raw = await this.#fs.readdir(host);
    } catch (error) {
      throw fromFileSystem(error, relative);
    }
    const names = raw.filter((name): name is string => typeof name === "string");
    if (names.length !== raw.length) throw new TypeError("the file system's readdir must return names as strings");
    return names.sort();
  }

  async #kind(host: string, relative: string, name: string): Promise<EntryKind> {
    const entry = child(relative, name);
    const entryHost = path.join(host, name);
    if (!isAddressable(name) || this.#protected.covers(segmentsOf(entry)) || tooLongForTheKernel(entryHost)) return "blocked";
    let stats: ReadOnlyStats;
    try {
      stats = await this.#lstat(entryHost, entry);
    } catch (error) {
      // Gone since readdir, unreadable, or a name the system cannot look up again (not UTF-8).
      if (error instanceof WorkspaceToolError) return "blocked";
      throw error;
    }
    if (stats.isSymbolicLink()) return "link";
    if (stats.isDirectory()) return "directory";
    return stats.isFile() ? "file" : "other";
  }

  /**
   * Opens a checked regular file and reads it whole, after proving that the open file is the entry
   * the walk checked: same device and inode, still one link, still a regular file within the limit.
   */
  async #readText(host: string, relative: string, checked: ReadOnlyStats | null): Promise<string> {
    if (checked === null || !checked.isFile()) {
      // A folder, a FIFO, a socket, a device: never opened (opening a FIFO or a tape drive acts).
      throw new WorkspaceToolError("not_a_file", `path ${show(relative)} is not a regular file`);
    }
    let handle: ReadOnlyFileHandle;
    try {
      handle = await this.#fs.open(host, READ_FLAGS);
    } catch (error) {
      throw fromFileSystem(error, relative);
    }
    let content: Uint8Array;
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino) {
        throw new WorkspaceToolError("file_changed", `path ${show(relative)} changed between the check and the open`);
      }
      if (opened.nlink > 1) {
        throw new WorkspaceToolError(
          "hard_link_refused",
          `path ${show(relative)} has ${opened.nlink} hard links; a file with another name may be a protected one`,
        );
      }
      const size = Number(opened.size);
      if (size > this.#limits.fileBytes) {
        throw new WorkspaceToolError(
          "too_large",
          `path ${show(relative)} has ${size} bytes, more than the limit of ${this.#limits.fileBytes}`,
        );
      }
      // One byte more than the file should have, to notice a file that grows while it is read.
      const buffer = new Uint8Array(size + 1);
      let total = 0;
      while (total < buffer.length) {
        const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
        if (bytesRead === 0) break;
        total += bytesRead;
      }
      if (total !== size) throw new WorkspaceToolError("file_changed", `path ${show(relative)} changed size while it was read`);
      content = buffer.subarray(0, total);
    } catch (error) {
      throw fromFileSystem(error, relative);
    } finally {
      await handle.close();
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(content);
    } catch (error) {
      throw new WorkspaceToolError("not_utf8", `path ${show(relative)} is not UTF-8 text`, { cause: error });
    }
  }
}
