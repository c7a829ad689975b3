// The directory-traversal lists of PayloadsAllTheThings (fixtures/outside/payloads-all-the-things/,
// MIT; SOURCE.md there says what was taken), read for the outside tests of stages 02 and 08.
//
// A list line is an attack on a URL: much of it is percent-encoded, some of it twice, some of it in
// encodings only old servers accepted. A path policy never sees a URL, but the harness around it may
// decode one before the path arrives (a file:// URI, an HTTP front end, a proxy that decodes again).
// So each line is tried as it is written and as each decoder below makes it, and the policy must hold
// for every one of them.
import { readFileSync } from "node:fs";

/** The lists, by file name, in the folder fixtures/outside/payloads-all-the-things/. */
export const PAYLOAD_LISTS = [
  "deep_traversal.txt",
  "directory_traversal.txt",
  "dotdotpwn-etc-passwd.txt",
  "traversals-8-deep-exotic-encoding.txt",
] as const;

/** What `{FILE}`, the lists' placeholder for the file to reach, is replaced with. */
export const TARGET = "etc/passwd";

const utf8 = new TextDecoder("utf-8");

/** The bytes of a run of `%XX` escapes. */
const bytesOf = (run: string) => Array.from(run.matchAll(/%([0-9a-fA-F]{2})/g), (escape) => Number.parseInt(escape[1] as string, 16));

/**
 * One round of standard percent-decoding, as a URL parser does it: each run of `%XX` becomes its
 * bytes, read as UTF-8, with U+FFFD for what is not UTF-8 (so the overlong `%c0%ae` is not a dot).
 * A `%` that starts no escape stays as it is.
 */
export function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => utf8.decode(Uint8Array.from(bytesOf(run))));
}

/**
 * UTF-8 read the way servers read it before overlong forms were refused (IIS until 2000, MS00-078):
 * a lead byte says how many bytes follow and their bits are put together, however many bytes the
 * character needed. So `C0 AE` is `.`, `C0 AF` is `/` and `C1 9C` is `\`.
 */
function lenientUtf8(bytes: readonly number[]): string {
  let text = "";
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at] as number;
    const length = lead < 0x80 ? 1 : lead >= 0xfc ? 6 : lead >= 0xf8 ? 5 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    let point = lead & (0x7f >> length);
    let whole = length > 0 && at + length <= bytes.length;
    for (let next = 1; whole && next < length; next += 1) {
      const byte = bytes[at + next] as number;
      whole = (byte & 0xc0) === 0x80;
      point = point * 64 + (byte & 0x3f);
    }
    if (!whole || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) {
      text += "\uFFFD";
      at += 1;
    } else {
      text += String.fromCodePoint(point);
      at += length;
    }
  }
  return text;
}

/** Look-alikes of `/` and `\` that no Unicode normalization folds, folded as a careless filter would. */
const SEPARATOR_LOOKALIKES: Readonly<Record<string, string>> = {
  "\u2044": "/", // FRACTION SLASH
  "\u2215": "/", // DIVISION SLASH
  "\u2216": "\\", // SET MINUS
  "\u29f5": "\\", // REVERSE SOLIDUS OPERATOR
};

/**
 * What the most lenient chain of decoders makes of a line: `%XX` read as lenient UTF-8, IIS's own
 * `%uXXXX` (one UTF-16 unit) and `0xXX` (one byte), again and again until nothing changes (for
 * `%252e`, `%%32%65` and the like; at most eight rounds), then NFKC, which turns the fullwidth `．`
 * and `／` into `.` and `/`, and the separator look-alikes above.
 */
export function leniently(text: string): string {
  let decoded = text;
  for (let round = 0; round < 8; round += 1) {
    const next = decoded.replace(
      /(?:%[0-9a-fA-F]{2})+|%u([0-9a-fA-F]{4})|0x([0-9a-fA-F]{2})/g,
      (run: string, unit: string | undefined, byte: string | undefined) =>
        unit !== undefined
          ? String.fromCharCode(Number.parseInt(unit, 16))
          : byte !== undefined
            ? String.fromCharCode(Number.parseInt(byte, 16))
            : lenientUtf8(bytesOf(run)),
    );
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.normalize("NFKC").replace(/[\u2044\u2215\u2216\u29f5]/g, (character) => SEPARATOR_LOOKALIKES[character] ?? character);
}

export interface Payloads {
  /** Lines read, `{FILE}` replaced with TARGET, over all lists. */
  readonly lines: number;
  /** Every distinct path to try: each line as written, percent-decoded once, and decoded leniently. */
  readonly paths: readonly string[];
}

/** Every list, every line, and what the decoders make of it, without repeats. */
export function payloads(): Payloads {
  const paths = new Set<string>();
  let lines = 0;
  for (const list of PAYLOAD_LISTS) {
    const text = readFileSync(new URL(`../../fixtures/outside/payloads-all-the-things/${list}`, import.meta.url), "utf8");
    for (const line of text.split("\n")) {
      if (line === "") continue;
      lines += 1;
      const written = line.replaceAll("{FILE}", TARGET);
      paths.add(written).add(percentDecoded(written)).add(leniently(written));
    }
  }
  return { lines, paths: [...paths] };
}
