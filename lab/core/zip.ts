// Reads the entries of a zip file (a GitHub Actions artifact, say) without extracting anything: names
// are only ever compared, never turned into paths, so an entry named `../../.bashrc` cannot write
// anywhere (zip-slip). Everything is bounded before it is read: the central directory, the number of
// entries, each entry's size before and while it is inflated (a zip bomb stops at the limit), and
// every entry's CRC-32 is checked. Zip64, encryption and methods other than stored and deflate are
// refused with a message: an artifact of a few small JSON files never needs them.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

export class ZipError extends Error {
  override readonly name = "ZipError";
}

export interface ZipEntry {
  /** The name as stored, with forward slashes. */
  readonly name: string;
  /** The size the entry says it has once inflated. */
  readonly size: number;
  /** The entry's bytes: at most `maxBytes` of them, or a ZipError. */
  read(maxBytes: number): Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_ENTRIES = 10_000;
const MAX_CENTRAL_DIRECTORY = 4 * 1024 * 1024;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function readAt(handle: number, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = readSync(handle, buffer, done, length - done, offset + done);
    if (read === 0) throw new ZipError("the file ends before its zip structures do: it is cut off or not a zip");
    done += read;
  }
  return buffer;
}

/** Lists a zip file's entries; each entry is read only when asked, from the file, within a limit. */
export function readZip(file: string): ZipEntry[] {
  const handle = openSync(file, "r");
  try {
    const size = fstatSync(handle).size;
    if (size < 22) throw new ZipError("too small to be a zip file");
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = readAt(handle, size - tailLength, tailLength);
    let end = -1;
    for (let index = tail.length - 22; index >= 0; index -= 1) {
      if (tail.readUInt32LE(index) === EOCD) {
        end = index;
        break;
      }
    }
    if (end < 0) throw new ZipError("no end of central directory: not a zip file");
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff)
      throw new ZipError("a Zip64 file, which is not read");
    if (count > MAX_ENTRIES) throw new ZipError(`${count} entries, more than the ${MAX_ENTRIES} read`);
    if (directorySize > MAX_CENTRAL_DIRECTORY || directoryOffset + directorySize > size)
      throw new ZipError("its central directory lies outside the file");
    const directory = readAt(handle, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) throw new ZipError("its central directory is damaged");
      const flags = directory.readUInt16LE(at + 8);
      const method = directory.readUInt16LE(at + 10);
      const crc = directory.readUInt32LE(at + 16);
      const compressedSize = directory.readUInt32LE(at + 20);
      const size = directory.readUInt32LE(at + 24);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localOffset = directory.readUInt32LE(at + 42);
      if (at + 46 + nameLength > directory.length) throw new ZipError("its central directory is damaged");
      const name = directory.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? "utf8" : "latin1");
      at += 46 + nameLength + extraLength + commentLength;
      entries.push({
        name: name.replaceAll("\\", "/"),
        size,
        read: (maxBytes) => {
          if (flags & 0x1) throw new ZipError(`${name} is encrypted`);
          if (method !== 0 && method !== 8) throw new ZipError(`${name} uses compression method ${method}, which is not read`);
          if (size > maxBytes) throw new ZipError(`${name} is ${size} bytes, more than the ${maxBytes} read`);
          const again = openSync(file, "r");
          try {
            const local = readAt(again, localOffset, 30);
            if (local.readUInt32LE(0) !== LOCAL) throw new ZipError(`${name}: no local header where the directory says`);
            const start = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
            if (method === 0 && compressedSize !== size) throw new ZipError(`${name}: its stored and inflated sizes disagree`);
            if (start + compressedSize > fstatSync(again).size) throw new ZipError(`${name} runs past the end of the file`);
            const stored = readAt(again, start, compressedSize);
            let bytes: Buffer;
            try {
              bytes = method === 0 ? stored : inflateRawSync(stored, { maxOutputLength: maxBytes });
            } catch (error) {
              const code = (error as { code?: string }).code;
              throw new ZipError(
                code === "ERR_BUFFER_TOO_LARGE"
                  ? `${name} inflates past ${maxBytes} bytes`
                  : `${name} does not inflate: ${(error as Error).message}`,
              );
            }
            if (bytes.length !== size) throw new ZipError(`${name} holds ${bytes.length} bytes where the directory says ${size}`);
            if (crc32(bytes) !== crc) throw new ZipError(`${name} fails its CRC-32 check: the zip is damaged`);
            return bytes;
          } finally {
            closeSync(again);
          }
        },
      });
    }
    return entries;
  } finally {
    closeSync(handle);
  }
}

/** A name that would leave the folder it is extracted to, or name a device or an absolute path: never used as a path. */
export function isUnsafeEntryName(name: string): boolean {
  return name.includes("\0") || /^(?:[a-zA-Z]:|\/)/.test(name) || name.split("/").some((segment) => segment === "..");
}
