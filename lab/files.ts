// File helpers of the lab engine.
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Temp file beside the target, created exclusively, fsynced, renamed over the target; removed on failure. */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = openSync(temporary, "wx", 0o644);
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
