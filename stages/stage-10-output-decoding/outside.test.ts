import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { StreamDecoder, type ErrorMode } from "forge/tools/output";

// Outside proof: Markus Kuhn's "UTF-8 decoder capability and stress test" (CC BY 4.0; source, version
// and licence in fixtures/outside/utf8-stress-test/SOURCE.md), a file no one on this project wrote, is
// read through the decoder and compared with the runtime's WHATWG TextDecoder, the oracle for the text
// and for `lossy`: in one chunk, a byte at a time, and cut in two at every byte boundary of every line.
// A line ends with its LF, and LF never sits inside a UTF-8 sequence, so each line decodes as it does
// inside the whole file; cutting each line at every byte is every split point of the file, tested on
// the line it falls in, at a cost of the sum of the squares of the line lengths instead of the square
// of the file's.

const file = new URL("../../fixtures/outside/utf8-stress-test/UTF-8-test.txt", import.meta.url);
const bytes = Uint8Array.from(readFileSync(file));
const SHA256 = "b51cfe9a8d2689c90b10a13a3624092d546e0837c6ff835b6e5d713c5749c8c6";

/** The file's lines, each with its LF. */
function linesOf(data: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let index = 0; index < data.length; index += 1) {
    if (data[index] === 0x0a) {
      lines.push(data.subarray(start, index + 1));
      start = index + 1;
    }
  }
  if (start < data.length) lines.push(data.subarray(start));
  return lines;
}

interface Seen {
  readonly text: string;
  readonly lossy: boolean;
  /** Strict mode: the byte offset the error names; null without an error. */
  readonly errorAt: number | null;
}

/** What TextDecoder makes of `data`: replace mode decodes it whole; strict mode stops where fatal decoding throws. */
function oracle(data: Uint8Array, errors: ErrorMode): Seen {
  let valid = true;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    valid = false;
  }
  if (errors === "replace") return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(data), lossy: !valid, errorAt: null };
  // Fed a byte at a time with { stream: true }, a fatal decoder gives out whole characters only and
  // throws at the byte that shows a sequence is malformed: the text before the throw is every character
  // before that sequence, and the sequence starts where those characters' UTF-8 bytes end.
  const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let text = "";
  try {
    for (let index = 0; index < data.length; index += 1) text += fatal.decode(data.subarray(index, index + 1), { stream: true });
    text += fatal.decode();
  } catch {
    return { text, lossy: true, errorAt: Buffer.byteLength(text, "utf8") };
  }
  return { text, lossy: false, errorAt: null };
}

function seen(errors: ErrorMode, chunks: readonly Uint8Array[]): Seen & { readonly decoder: StreamDecoder } {
  const decoder = new StreamDecoder({ encoding: "utf8", errors });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  const { lossy, error } = decoder.facts();
  const offset = error === null ? null : /at byte offset (\d+) /.exec(error)?.[1];
  return { text: decoder.text, lossy, errorAt: offset === null ? null : Number(offset ?? Number.NaN), decoder };
}

const codePoints = (text: string) =>
  Array.from(text, (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");

/** Every line cut in two at every byte boundary: the first cut that decodes differently from the oracle. */
function firstDisagreement(errors: ErrorMode): string | null {
  const lines = linesOf(bytes);
  for (const [number, line] of lines.entries()) {
    const expected = oracle(line, errors);
    for (let cut = 0; cut <= line.length; cut += 1) {
      const { text, lossy, errorAt } = seen(errors, [line.subarray(0, cut), line.subarray(cut)]);
      if (text !== expected.text || lossy !== expected.lossy || errorAt !== expected.errorAt) {
        return `line ${number + 1} cut after byte ${cut}: ${codePoints(text)} lossy ${lossy} error at ${errorAt}; TextDecoder: ${codePoints(expected.text)} lossy ${expected.lossy} error at ${expected.errorAt}`;
      }
    }
  }
  return null;
}

/** The file is the original, byte for byte: a changed fixture would prove nothing about the decoder. */
function expectOriginalBytes(): void {
  expect(
    { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), lines: linesOf(bytes).length },
    "UTF-8-test.txt as SOURCE.md describes it",
  ).toEqual({ size: 22781, sha256: SHA256, lines: 300 });
}

it("replaces the stress test's malformed sequences as TextDecoder does, at every split point", { timeout: 30_000 }, () => {
  expectOriginalBytes();
  const expected = oracle(bytes, "replace");
  const whole = seen("replace", [bytes]);
  const byteByByte = seen(
    "replace",
    Array.from(bytes, (_, index) => bytes.subarray(index, index + 1)),
  );
  const summary = (outcome: ReturnType<typeof seen>) => ({
    same: outcome.text === expected.text,
    lossy: outcome.lossy,
    facts: outcome.decoder.facts(),
  });
  const clean = {
    sourceComplete: true,
    complete: true,
    capReached: false,
    rawBytes: bytes.length,
    decodedUtf8Bytes: Buffer.byteLength(expected.text, "utf8"),
    error: null,
  };
  expect(
    { whole: summary(whole), byteByByte: summary(byteByByte) },
    "the whole file, in one chunk and a byte at a time, against TextDecoder",
  ).toEqual({
    whole: { same: true, lossy: true, facts: { ...clean, lossy: true } },
    byteByByte: { same: true, lossy: true, facts: { ...clean, lossy: true } },
  });
  expect(expected.lossy, "the oracle finds the file malformed").toBe(true);
  expect(firstDisagreement("replace"), "a line cut in two decoded differently from TextDecoder").toBeNull();
});

it("stops at the stress test's first malformed sequence where TextDecoder's fatal mode does, at every split point", {
  timeout: 30_000,
}, () => {
  expectOriginalBytes();
  const expected = oracle(bytes, "strict");
  const whole = seen("strict", [bytes]);
  const byteByByte = seen(
    "strict",
    Array.from(bytes, (_, index) => bytes.subarray(index, index + 1)),
  );
  const summary = (outcome: ReturnType<typeof seen>) => ({
    same: outcome.text === expected.text,
    lossy: outcome.lossy,
    errorAt: outcome.errorAt,
    rawCursor: outcome.decoder.read().rawCursor,
  });
  const stopped = { same: true, lossy: true, errorAt: expected.errorAt, rawCursor: expected.errorAt };
  expect({ whole: summary(whole), byteByByte: summary(byteByByte) }, "the whole file against fatal TextDecoder").toEqual({
    whole: stopped,
    byteByByte: stopped,
  });
  expect(expected.errorAt, "where the oracle stops: the first malformed byte of section 3").toBe(4461);
  expect(firstDisagreement("strict"), "a line cut in two decoded differently from fatal TextDecoder").toBeNull();
});
