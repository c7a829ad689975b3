import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { StreamDecoder, type ErrorMode } from "forge/tools/output";

// Outside proof: Markus Kuhn's "UTF-8 decoder capability and stress test" (CC BY 4.0; source, version
// and licence in fixtures/outside/utf8-stress-test/SOURCE.md), a file no one on this project wrote, is
// read through the decoder and compared with the runtime's WHATWG TextDecoder, the oracle for the text
// and for `lossy`: in one chunk, a byte at a time, and cut in two at every byte boundary.
//
// A cut is tested on the stretch of the file around it that reaches from the last ASCII byte before the
// cut to the next one after it. For the WHATWG UTF-8 decoder an ASCII byte is never part of a sequence:
// it ends one that is not finished (one U+FFFD, as the end of the stream would) and is then read as
// itself, so the file decodes as the concatenation of such stretches, and what a cut can change lies
// inside its stretch. Each stretch is a few bytes long, so all 22,780 cuts cost less than one pass of
// the whole file per cut would.
const file = new URL("../../fixtures/outside/utf8-stress-test/UTF-8-test.txt", import.meta.url);
const bytes = Uint8Array.from(readFileSync(file));
const SHA256 = "b51cfe9a8d2689c90b10a13a3624092d546e0837c6ff835b6e5d713c5749c8c6";

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

const showBytes = (data: Uint8Array) =>
  Buffer.from(data)
    .toString("hex")
    .replace(/(..)(?!$)/g, "$1 ");

const codePoints = (text: string) =>
  Array.from(text, (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");

/** Every cut of the file, on its stretch between ASCII bytes: the first that decodes differently from the oracle. */
function firstDisagreement(errors: ErrorMode): string | null {
  const isAscii = (index: number) => (bytes[index] ?? 0) < 0x80;
  const tried = new Set<string>();
  for (let cut = 1; cut < bytes.length; cut += 1) {
    let start = cut - 1;
    while (start > 0 && !isAscii(start)) start -= 1;
    let end = cut;
    while (end < bytes.length && !isAscii(end)) end += 1;
    const stretch = bytes.subarray(start, end);
    const key = `${Buffer.from(stretch).toString("hex")}/${cut - start}`;
    if (tried.has(key)) continue;
    tried.add(key);
    const expected = oracle(stretch, errors);
    const { text, lossy, errorAt } = seen(errors, [stretch.subarray(0, cut - start), stretch.subarray(cut - start)]);
    if (text !== expected.text || lossy !== expected.lossy || errorAt !== expected.errorAt) {
      return `cut after byte ${cut} (bytes ${start}..${end - 1}, ${showBytes(stretch)}): ${codePoints(text)} lossy ${lossy} error at ${errorAt}; TextDecoder: ${codePoints(expected.text)} lossy ${expected.lossy} error at ${expected.errorAt}`;
    }
  }
  return null;
}

/** The file is the original, byte for byte: a changed fixture would prove nothing about the decoder. */
function expectOriginalBytes(): void {
  expect(
    { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), lines: bytes.filter((byte) => byte === 0x0a).length },
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
  expect(firstDisagreement("replace"), "a cut that decoded differently from TextDecoder").toBeNull();
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
  expect(firstDisagreement("strict"), "a cut that decoded differently from fatal TextDecoder").toBeNull();
});
