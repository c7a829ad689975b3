// File helpers of the lab engine.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  lstatSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** The SHA-256 of some bytes (text counts as its UTF-8 bytes), in hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The text with every CRLF and lone CR turned into LF. Line endings are not content: a checkout with
 * CRLF endings holds the same lessons, schemas and modules, and every comparison of text goes through here.
 */
export function withLf(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export interface AtomicOptions {
  /** Permission bits of the file; 0o644 unless told. */
  readonly mode?: number;
}

/** Temp file beside the target, created exclusively, fsynced, renamed over the target; removed on failure. */
export function writeFileAtomic(file: string, content: string | Uint8Array, options: AtomicOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString("hex")}.tmp`);
  const mode = options.mode ?? 0o644;
  const handle = openSync(temporary, "wx", mode);
  let open = true;
  let renamed = false;
  try {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(handle, bytes, offset, bytes.length - offset);
    fsyncSync(handle);
    closeSync(handle);
    open = false;
    renameSync(temporary, file);
    renamed = true;
  } finally {
    if (open) closeSync(handle);
    if (!renamed) rmSync(temporary, { force: true });
  }
}

/** What is at a path that is not a regular file, as the messages say it (each edition has its words). */
export type NotAFile = "a symbolic link" | "a folder" | "a FIFO" | "a socket" | "a device";

/** What is at a path where the lab expects a learner's file. */
export type FileState =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly bytes: Buffer; readonly mode: number }
  /** A folder, FIFO, socket, device or symlink: never read, never replaced. */
  | { readonly kind: "other"; readonly what: NotAFile };

// Where the platform has them: a symlink is not followed, and a FIFO opens at once instead of waiting.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function code(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/**
 * Reads a file only if it is a regular one. The type comes from the open handle, so a path swapped
 * between a check and the read cannot make the lab read a FIFO (which would wait forever) or a folder.
 */
export function readFileState(file: string): FileState {
  let handle: number;
  try {
    handle = openSync(file, READ_FLAGS);
  } catch (error) {
    const reason = code(error);
    if (reason === "ENOENT" || reason === "ENOTDIR") return { kind: "missing" };
    if (reason === "ELOOP") return { kind: "other", what: "a symbolic link" };
    if (reason === "EISDIR") return { kind: "other", what: "a folder" }; // Windows cannot open a folder

    throw error;
  }
  try {
    const stat = fstatSync(handle);
    if (stat.isFile()) return { kind: "file", bytes: readFileSync(handle), mode: stat.mode & 0o7777 };
    return { kind: "other", what: notAFile(stat) };
  } finally {
    closeSync(handle);
  }
}

/** What an entry that is not a regular file is. */
function notAFile(stat: Stats): NotAFile {
  return stat.isDirectory() ? "a folder" : stat.isFIFO() ? "a FIFO" : stat.isSocket() ? "a socket" : "a device";
}

/**
 * What a path names, without following a symbolic link: nothing, a regular file, or what stands there
 * instead. Reads nothing, so a FIFO cannot make it wait. A link counts as no file, as it does for
 * readFileState: a module the tests load is one the type-check sees, in the folder it checks.
 */
export function entryKind(path: string): "missing" | "file" | NotAFile {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (code(error) === "ENOTDIR") return "missing";
    throw error;
  }
  if (stat === undefined) return "missing";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return stat.isFile() ? "file" : notAFile(stat);
}
