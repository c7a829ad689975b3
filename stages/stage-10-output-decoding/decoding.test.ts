import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { TextDecoder } from "node:util";
import { runInNewContext } from "node:vm";
import { expect, it, vi } from "vitest";
import { StreamDecoder, type Encoding, type OutputFacts, type OutputRead, type StreamDecoderOptions } from "forge/tools/output";

// The software-delivery scenario: an agent runs a project's build tools and reads what they print. On
// a Windows runner a tool may write its messages in GBK (code page 936), another one UTF-16LE; the
// harness is told which encoding each stream uses and must turn the bytes into text it can trust.

/** Bytes written as hex, spaces allowed: `hex("e4 b8 ad")`. */
const hex = (text: string) => Uint8Array.from(Buffer.from(text.replaceAll(" ", ""), "hex"));
const utf8 = (text: string) => Uint8Array.from(Buffer.from(text, "utf8"));
const utf16le = (text: string) => Uint8Array.from(Buffer.from(text, "utf16le"));
const showBytes = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString("hex")
    .replace(/(..)(?!$)/g, "$1 ");

/** "构建失败：2 个测试未通过\n" ("build failed: 2 tests did not pass") as a Chinese Windows tool writes it. */
const BUILD_FAILED_GBK = hex("b9b9 bda8 caa7 b0dc a3ba 32 20 b8f6 b2e2 cad4 ceb4 cda8 b9fd 0a");
const BUILD_FAILED = "构建失败：2 个测试未通过\n";

/**
 * "用户刘䶮：α = 25 ± 0.1 °C – 合格\n" ("user 刘䶮: α = 25 ± 0.1 °C – pass") in GBK: α, ± and ° are 2 bytes
 * of UTF-8, the others 3, and 䶮 has the last lead byte, 0xFE. Some sit next to a pair of the other UTF-8
 * length (A842 ˙ before the dash A843), so a pair counted as its neighbour shows in the facts. The table
 * of GBK lengths is built once, by the first GBK decoder made: the first test below, which decodes this.
 */
const MEASURED_GBK = hex("d3c3 bba7 c1f5 fe9f a3ba a6c1 20 3d 20 32 35 20 a1c0 20 30 2e 31 20 a1e3 43 20 a843 20 bacf b8f1 0a");
const MEASURED = "用户刘䶮：α = 25 ± 0.1 °C – 合格\n";

interface Outcome {
  readonly text: string;
  readonly facts: OutputFacts;
}

/** Pushes the chunks, ends the stream, and returns what the decoder made of it. */
function decode(options: StreamDecoderOptions, chunks: readonly Uint8Array[]): Outcome {
  const decoder = new StreamDecoder(options);
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { text: decoder.text, facts: decoder.facts() };
}

/** The facts of a stream that ended and was decoded without loss. */
function cleanFacts(rawBytes: number, text: string): OutputFacts {
  return {
    sourceComplete: true,
    complete: true,
    lossy: false,
    capReached: false,
    rawBytes,
    decodedUtf8Bytes: Buffer.byteLength(text, "utf8"),
    error: null,
  };
}

/** The code points of a string, so an invisible or replacement character shows in a diff. */
const codePoints = (text: string) =>
  Array.from(text, (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");

/** A small deterministic PRNG (mulberry32): the same seed gives the same splits on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every way to cut `length` bytes once, every way to cut them twice (short inputs), then random cuts. */
function splits(length: number, next: () => number, randomSplits: number): number[][] {
  const all: number[][] = [];
  for (let cut = 1; cut < length; cut += 1) all.push([cut]);
  if (length <= 16) {
    for (let first = 1; first < length; first += 1) {
      for (let second = first + 1; second < length; second += 1) all.push([first, second]);
    }
  }
  for (let round = 0; round < randomSplits; round += 1) {
    const cuts = new Set<number>();
    const count = 1 + Math.floor(next() * Math.min(length - 1, 12));
    for (let index = 0; index < count; index += 1) cuts.add(1 + Math.floor(next() * (length - 1)));
    all.push([...cuts].sort((a, b) => a - b));
  }
  return all;
}

function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const edges = [0, ...cuts, bytes.length];
  return edges.slice(1).map((end, index) => bytes.slice(edges[index], end));
}

it("decodes utf8, gbk and utf16le output into the same text", () => {
  const outcomes = {
    utf8: decode({ encoding: "utf8" }, [utf8(BUILD_FAILED)]),
    gbk: decode({ encoding: "gbk" }, [BUILD_FAILED_GBK]),
    utf16le: decode({ encoding: "utf16le" }, [utf16le(BUILD_FAILED)]),
  };
  expect(outcomes, "each stream decoded with the encoding it was given").toEqual({
    utf8: { text: BUILD_FAILED, facts: cleanFacts(utf8(BUILD_FAILED).length, BUILD_FAILED) },
    gbk: { text: BUILD_FAILED, facts: cleanFacts(BUILD_FAILED_GBK.length, BUILD_FAILED) },
    utf16le: { text: BUILD_FAILED, facts: cleanFacts(utf16le(BUILD_FAILED).length, BUILD_FAILED) },
  });
  // The facts count the text's UTF-8 bytes at ingest, by each encoding's own rules: 2-byte characters
  // of UTF-8 among 3-byte ones, and in UTF-16LE the code units on each side of a UTF-8 length step.
  const boundaries = "\u007F\u0080 \u07FF\u0800";
  expect(
    {
      gbk: decode({ encoding: "gbk" }, [MEASURED_GBK]),
      utf16le: decode({ encoding: "utf16le" }, [utf16le(MEASURED + boundaries)]),
    },
    "characters of 2 and 3 UTF-8 bytes, each counted at its own length",
  ).toEqual({
    gbk: { text: MEASURED, facts: cleanFacts(MEASURED_GBK.length, MEASURED) },
    utf16le: { text: MEASURED + boundaries, facts: cleanFacts(utf16le(MEASURED + boundaries).length, MEASURED + boundaries) },
  });
  // utf8 and replace are the defaults; 0x80 is the euro sign in code page 936, 3 bytes of UTF-8.
  expect(decode({}, [utf8("ok ✓\n")]), "the default encoding is utf8").toEqual({ text: "ok ✓\n", facts: cleanFacts(7, "ok ✓\n") });
  expect(decode({ encoding: "gbk" }, [hex("80 20 39")]), "gbk byte 0x80").toEqual({ text: "€ 9", facts: cleanFacts(3, "€ 9") });
});

interface SplitOutcome {
  readonly split: string;
  readonly text: string;
  readonly lossy: boolean;
  readonly error: string | null;
  readonly decodedUtf8Bytes: number;
}

function splitOutcome(split: string, { text, facts }: Outcome): SplitOutcome {
  return { split, text, lossy: facts.lossy, error: facts.error, decodedUtf8Bytes: facts.decodedUtf8Bytes };
}

it("decodes a character split across chunks exactly as in one chunk", () => {
  const next = random(0x5eed10);
  const longUtf8 = utf8("构建 ok ✓ — 🎵 tests: 12 passed\r\n" + "警告：磁盘空间不足 🎉\n".repeat(4));
  const longGbk = new Uint8Array([...BUILD_FAILED_GBK, ...hex("d5fd d4da c1b4 bdd3 20 61 70 70 2e 65 78 65 0a"), ...BUILD_FAILED_GBK]);
  const longUtf16 = utf16le("tests passed ✓ 🎵\n警告：磁盘空间不足 🎉\n".repeat(3));
  const cases: Record<string, { readonly options: StreamDecoderOptions; readonly bytes: Uint8Array }> = {
    "utf8, a 3-byte character": { options: { encoding: "utf8" }, bytes: utf8("a中b") },
    "utf8, a 4-byte character": { options: { encoding: "utf8" }, bytes: utf8("a🎵b") },
    "utf8, a byte order mark": { options: { encoding: "utf8" }, bytes: hex("ef bb bf 6f 6b") },
    "utf8, an invalid sequence": { options: { encoding: "utf8" }, bytes: hex("61 e4 b8 41 f0 9f 8e") },
    "utf8 strict, the offset of an invalid sequence": { options: { encoding: "utf8", errors: "strict" }, bytes: hex("61 62 e4 b8 63") },
    "gbk, a 2-byte character": { options: { encoding: "gbk" }, bytes: hex("61 d6 d0 62") },
    "gbk strict, a lead byte without its trail": { options: { encoding: "gbk", errors: "strict" }, bytes: hex("61 d6 d0 81 20") },
    "utf16le, a code unit split on an odd byte": { options: { encoding: "utf16le" }, bytes: utf16le("A中") },
    "utf16le, a surrogate pair split in two": { options: { encoding: "utf16le" }, bytes: utf16le("A🎵") },
    "utf16le, a lead surrogate without its trail": { options: { encoding: "utf16le" }, bytes: hex("3d d8 3d d8 00 de 41") },
    "utf16le strict, a lone trail surrogate": { options: { encoding: "utf16le", errors: "strict" }, bytes: hex("41 00 00 dc 42 00") },
    "utf8, a long mixed text": { options: { encoding: "utf8" }, bytes: longUtf8 },
    "gbk, a long build log": { options: { encoding: "gbk" }, bytes: longGbk },
    "utf16le, a long mixed text": { options: { encoding: "utf16le" }, bytes: longUtf16 },
  };
  // Per case: the outcome of the first split that decoded differently from one chunk, or of one chunk.
  const results: Record<string, SplitOutcome> = {};
  const expected: Record<string, SplitOutcome> = {};
  for (const [name, { options, bytes }] of Object.entries(cases)) {
    const whole = splitOutcome("every split", decode(options, [bytes]));
    expected[name] = whole;
    results[name] = whole;
    for (const cuts of splits(bytes.length, next, 200)) {
      const parts = splitOutcome(`cut after byte ${cuts.join(", ")}`, decode(options, cutAt(bytes, cuts)));
      if (JSON.stringify({ ...parts, split: whole.split }) !== JSON.stringify(whole)) {
        results[name] = parts;
        break;
      }
    }
  }
  // A case whose every split matched still holds its one-chunk outcome, the very same object.
  const names = Object.keys(cases);
  const differing = names.filter((name) => results[name] !== expected[name]);
  const where = differing.length === 0 ? "" : `, first: ${differing[0]}`;
  expect(results, `a split changed what was decoded (${differing.length} of ${names.length} cases${where})`).toEqual(expected);
});

it("replaces invalid bytes as the WHATWG decoders do, and is lossy only when it replaced", () => {
  const cases: Record<string, readonly [Encoding, Uint8Array]> = {
    "utf8 overlong C0 80": ["utf8", hex("c0 80")],
    "utf8 overlong E0 80 80": ["utf8", hex("e0 80 80")],
    "utf8 surrogate ED A0 80": ["utf8", hex("ed a0 80")],
    "utf8 above U+10FFFF": ["utf8", hex("f4 90 80 80")],
    "utf8 F5": ["utf8", hex("f5 41")],
    "utf8 lone continuation": ["utf8", hex("41 80 42")],
    "utf8 3-byte cut short": ["utf8", hex("e4 b8 41")],
    "utf8 ends inside a character": ["utf8", hex("41 f0 9f 8e")],
    "utf8 U+FFFD written by the program": ["utf8", hex("41 ef bf bd")],
    "utf8 highest code point": ["utf8", hex("f4 8f bf bf")],
    "utf16le lone trail surrogate": ["utf16le", hex("00 dc 41 00")],
    "utf16le lead, lead, trail": ["utf16le", hex("3d d8 3d d8 00 de")],
    "utf16le odd byte at the end": ["utf16le", hex("41 00 42")],
    "gbk lead then ASCII": ["gbk", hex("81 30 41")],
    "gbk lead then DEL": ["gbk", hex("a1 7f")],
    "gbk lead then 0xFF": ["gbk", hex("81 ff 41")],
    // One GB18030 character to the gb18030 decoder; in code page 936, two leads that each lost their trail.
    "gbk lead, digit, lead, digit": ["gbk", hex("81 30 81 30")],
    "gbk lead at the end": ["gbk", hex("41 d6")],
    "gbk lowest lead and trail, highest trail": ["gbk", hex("81 40 f7 fe")],
  };
  const results: Record<string, { text: string; lossy: boolean }> = {};
  for (const [name, [encoding, bytes]] of Object.entries(cases)) {
    const { text, facts } = decode({ encoding }, [bytes]);
    results[name] = { text: codePoints(text), lossy: facts.lossy };
  }
  const R = "U+FFFD";
  expect(results, "text and lossy for each malformed input").toEqual({
    "utf8 overlong C0 80": { text: `${R} ${R}`, lossy: true },
    "utf8 overlong E0 80 80": { text: `${R} ${R} ${R}`, lossy: true },
    "utf8 surrogate ED A0 80": { text: `${R} ${R} ${R}`, lossy: true },
    "utf8 above U+10FFFF": { text: `${R} ${R} ${R} ${R}`, lossy: true },
    "utf8 F5": { text: `${R} U+0041`, lossy: true },
    "utf8 lone continuation": { text: `U+0041 ${R} U+0042`, lossy: true },
    "utf8 3-byte cut short": { text: `${R} U+0041`, lossy: true },
    "utf8 ends inside a character": { text: `U+0041 ${R}`, lossy: true },
    // A replacement character the program wrote is data, not a loss.
    "utf8 U+FFFD written by the program": { text: `U+0041 ${R}`, lossy: false },
    "utf8 highest code point": { text: "U+10FFFF", lossy: false },
    "utf16le lone trail surrogate": { text: `${R} U+0041`, lossy: true },
    "utf16le lead, lead, trail": { text: `${R} U+1F600`, lossy: true },
    "utf16le odd byte at the end": { text: `U+0041 ${R}`, lossy: true },
    "gbk lead then ASCII": { text: `${R} U+0030 U+0041`, lossy: true },
    "gbk lead then DEL": { text: `${R} U+007F`, lossy: true },
    "gbk lead then 0xFF": { text: `${R} U+0041`, lossy: true },
    "gbk lead, digit, lead, digit": { text: `${R} U+0030 ${R} U+0030`, lossy: true },
    "gbk lead at the end": { text: `U+0041 ${R}`, lossy: true },
    "gbk lowest lead and trail, highest trail": { text: "U+4E02 U+9F44", lossy: false },
  });

  // Random bytes near every boundary, compared with the runtime's own decoders: GBK with the gb18030
  // decoder, the one the reference uses. The GBK bytes leave out digits: that decoder reads
  // "81 30 81 30" as one GB18030 character, which code page 936 never writes.
  const next = random(0xdec0de);
  const pools: Record<string, readonly [string, readonly number[]]> = {
    utf8: [
      "utf-8",
      [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe4, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff],
    ],
    utf16le: ["utf-16le", [0x00, 0x41, 0xd7, 0xd8, 0xdb, 0xdc, 0xdf, 0xe0, 0x3d, 0xfe, 0xff]],
    gbk: ["gb18030", [0x00, 0x3f, 0x40, 0x41, 0x7e, 0x7f, 0x80, 0x81, 0xa2, 0xa6, 0xd0, 0xd6, 0xe3, 0xfe, 0xff]],
  };
  const disagreements: string[] = [];
  for (const [encoding, [label, pool]] of Object.entries(pools)) {
    for (let round = 0; round < 3000; round += 1) {
      const bytes = Uint8Array.from({ length: Math.floor(next() * 9) }, () => pool[Math.floor(next() * pool.length)] ?? 0);
      const { text, facts } = decode({ encoding: encoding as Encoding }, [bytes]);
      const expectedText = new TextDecoder(label, { ignoreBOM: true }).decode(bytes);
      let invalid = false;
      try {
        new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        invalid = true;
      }
      if (text !== expectedText || facts.lossy !== invalid) {
        disagreements.push(
          `${encoding} ${showBytes(bytes)}: ${codePoints(text)} lossy ${facts.lossy}, expected ${codePoints(expectedText)} lossy ${invalid}`,
        );
      }
    }
  }
  expect(disagreements.slice(0, 5), "inputs decoded differently from the runtime's decoder").toEqual([]);
});

it("keeps a byte order mark as the character U+FEFF", () => {
  const outcomes = {
    utf8: decode({ encoding: "utf8" }, [hex("ef bb bf 7b 7d")]),
    utf16le: decode({ encoding: "utf16le" }, [hex("ff fe 7b 00 7d 00")]),
    "utf8, a second one mid-stream": decode({ encoding: "utf8" }, [hex("ef bb bf 61"), hex("ef bb bf 62")]),
  };
  expect(outcomes, "a BOM is data the program wrote, not something to strip").toEqual({
    utf8: { text: "\uFEFF{}", facts: cleanFacts(5, "\uFEFF{}") },
    utf16le: { text: "\uFEFF{}", facts: cleanFacts(6, "\uFEFF{}") },
    "utf8, a second one mid-stream": { text: "\uFEFFa\uFEFFb", facts: cleanFacts(8, "\uFEFFa\uFEFFb") },
  });
});

it("treats 0xFF as invalid GBK in both error modes", () => {
  const bytes = hex("d6d0 ff ce c4");
  const replace = decode({ encoding: "gbk" }, [bytes]);
  const strict = decode({ encoding: "gbk", errors: "strict" }, [bytes]);
  expect({ replace: codePoints(replace.text), strict: codePoints(strict.text) }, "0xFF is not a character").toEqual({
    replace: "U+4E2D U+FFFD U+6587",
    strict: "U+4E2D",
  });
  expect(replace.facts, "replace: a replacement was made").toEqual({ ...cleanFacts(5, "中\uFFFD文"), lossy: true });
  expect(strict.facts, "strict: the error names the offset of 0xFF").toEqual({
    sourceComplete: true,
    complete: false,
    lossy: true,
    capReached: false,
    rawBytes: 5,
    decodedUtf8Bytes: 3,
    error: "invalid gbk at byte offset 2 (ff): strict decoding stopped there",
  });
});

/**
 * The pairs whose character Node 20's own "gbk" decoder gets wrong: it gives a private-use character
 * (A2E3 is U+E76C there) where the WHATWG gb18030 index has the one below. Node 22, 24 and 26 agree
 * with the index on every pair.
 */
const NODE20_GBK_PRIVATE_USE =
  "A2E3 20AC, A3A0 3000, A6D9 FE10, A6DA FE12, A6DB FE11, A6DC FE13, A6DD FE14, A6DE FE15, A6DF FE16, A6EC FE17, " +
  "A6ED FE18, A6F3 FE19, A8BC 1E3F, A8BF 01F9, A989 303E, A98A 2FF0, A98B 2FF1, A98C 2FF2, A98D 2FF3, A98E 2FF4, " +
  "A98F 2FF5, A990 2FF6, A991 2FF7, A992 2FF8, A993 2FF9, A994 2FFA, A995 2FFB, FE50 2E81, FE54 2E84, FE55 3473, " +
  "FE56 3447, FE57 2E88, FE58 2E8B, FE59 9FB4, FE5A 359E, FE5B 361A, FE5C 360E, FE5D 2E8C, FE5E 2E97, FE5F 396E, " +
  "FE60 3918, FE61 9FB5, FE62 39CF, FE63 39DF, FE64 3A73, FE65 39D0, FE66 9FB6, FE67 9FB7, FE68 3B4E, FE69 3C6E, " +
  "FE6A 3CE0, FE6B 2EA7, FE6D 9FB8, FE6E 2EAA, FE6F 4056, FE70 415F, FE71 2EAE, FE72 4337, FE73 2EB3, FE74 2EB6, " +
  "FE75 2EB7, FE77 43B1, FE78 43AC, FE79 2EBB, FE7A 43DD, FE7B 44D6, FE7C 4661, FE7D 464C, FE7E 9FB9, FE80 4723, " +
  "FE81 4729, FE82 477C, FE83 478D, FE84 2ECA, FE85 4947, FE86 497A, FE87 497D, FE88 4982, FE89 4983, FE8A 4985, " +
  "FE8B 4986, FE8C 499F, FE8D 499B, FE8E 49B7, FE8F 49B6, FE90 9FBA, FE92 4CA3, FE93 4C9F, FE94 4CA0, FE95 4CA1, " +
  "FE96 4C77, FE97 4CA2, FE98 4D13, FE99 4D14, FE9A 4D15, FE9B 4D16, FE9C 4D17, FE9D 4D18, FE9E 4D19, FE9F 4DAE, FEA0 9FBB";

/**
 * SHA-256 of the 23,940 characters of the WHATWG index-gb18030 (https://encoding.spec.whatwg.org/,
 * file index-gb18030.txt, commit a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a), in pointer order, as UTF-8:
 * pointer (lead - 0x81) * 190 + (trail - (trail < 0x7f ? 0x40 : 0x41)) is the pair lead, trail. Computed with
 * `node -e 'const lines = require("fs").readFileSync("index-gb18030.txt", "utf8").split("\n");
 * const text = lines.filter((line) => /^ *\d/.test(line)).map((line) => String.fromCodePoint(Number(line.split("\t")[1]))).join("");
 * console.log(require("crypto").createHash("sha256").update(text).digest("hex"))'`.
 */
const WHATWG_GB18030_TWO_BYTE_SHA256 = "85373408efe24c652c0a2f37997df8c657b0e8a654d07d9f9d97f1ad16609bc6";

it("decodes every two-byte GBK character as the WHATWG gb18030 index does, on every Node", () => {
  const pairs: number[] = [];
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) if (trail !== 0x7f) pairs.push(lead, trail);
  }
  const bytes = Uint8Array.from(pairs);
  const { text, facts } = decode({ encoding: "gbk" }, [bytes]);
  const characters = Array.from(text);
  const pointer = (pair: string) => {
    const lead = Number.parseInt(pair.slice(0, 2), 16);
    const trail = Number.parseInt(pair.slice(2), 16);
    return (lead - 0x81) * 190 + trail - (trail < 0x7f ? 0x40 : 0x41);
  };
  const decoded = NODE20_GBK_PRIVATE_USE.split(", ").map((entry) => {
    const pair = entry.slice(0, 4);
    const char = characters[pointer(pair)] ?? "";
    return `${pair} ${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  });
  expect(decoded.join(", "), "the 101 pairs Node 20's gbk decoder turns into private-use characters").toBe(NODE20_GBK_PRIVATE_USE);
  expect(
    { characters: characters.length, sha256: createHash("sha256").update(text, "utf8").digest("hex"), facts },
    "all 23,940 pairs: one character each, the WHATWG index's, clean facts",
  ).toEqual({
    characters: 23_940,
    sha256: WHATWG_GB18030_TWO_BYTE_SHA256,
    facts: cleanFacts(bytes.length, text),
  });
});

it("stops at the first invalid sequence in strict mode and names its byte offset", () => {
  const strictOutcome = (encoding: Encoding, chunks: readonly Uint8Array[]) => {
    const decoder = new StreamDecoder({ encoding, errors: "strict" });
    for (const chunk of chunks) decoder.push(chunk);
    // A valid line after the failure: kept as raw bytes, never claimed as text.
    decoder.push(encoding === "utf16le" ? utf16le("more\n") : utf8("more\n"));
    decoder.end();
    const { error, complete, lossy, rawBytes } = decoder.facts();
    return { text: decoder.text, error, complete, lossy, rawBytes, raw: showBytes(decoder.raw) };
  };
  expect(
    {
      "utf8, 0xFF": strictOutcome("utf8", [utf8("ok "), hex("ff"), utf8("x")]),
      "utf8, a sequence broken off by another character": strictOutcome("utf8", [utf8("ab"), hex("e4 b8 41")]),
      "utf16le, a lone trail surrogate": strictOutcome("utf16le", [utf16le("ok"), hex("00 dc")]),
      "gbk, a lead byte then a space": strictOutcome("gbk", [BUILD_FAILED_GBK.subarray(0, 4), hex("81 20")]),
    },
    "strict mode: the text before the first invalid sequence, and where it was",
  ).toEqual({
    "utf8, 0xFF": {
      text: "ok ",
      error: "invalid utf8 at byte offset 3 (ff): strict decoding stopped there",
      complete: false,
      lossy: true,
      rawBytes: 10,
      raw: "6f 6b 20 ff 78 6d 6f 72 65 0a",
    },
    "utf8, a sequence broken off by another character": {
      text: "ab",
      error: "invalid utf8 at byte offset 2 (e4 b8): strict decoding stopped there",
      complete: false,
      lossy: true,
      rawBytes: 10,
      raw: "61 62 e4 b8 41 6d 6f 72 65 0a",
    },
    "utf16le, a lone trail surrogate": {
      text: "ok",
      error: "invalid utf16le at byte offset 4 (00 dc): strict decoding stopped there",
      complete: false,
      lossy: true,
      rawBytes: 16,
      raw: "6f 00 6b 00 00 dc 6d 00 6f 00 72 00 65 00 0a 00",
    },
    "gbk, a lead byte then a space": {
      text: "构建",
      error: "invalid gbk at byte offset 4 (81): strict decoding stopped there",
      complete: false,
      lossy: true,
      rawBytes: 11,
      raw: "b9 b9 bd a8 81 20 6d 6f 72 65 0a",
    },
  });

  // A stream that ends inside a character is an error too, at the offset where that character began.
  const cutShort = decode({ encoding: "utf8", errors: "strict" }, [utf8("done "), hex("f0 9f")]);
  expect(cutShort, "strict mode at the end of the stream").toEqual({
    text: "done ",
    facts: {
      sourceComplete: true,
      complete: false,
      lossy: true,
      capReached: false,
      rawBytes: 7,
      decodedUtf8Bytes: 5,
      error: "incomplete utf8 character at byte offset 5 (f0 9f) at the end of the stream: strict decoding stopped there",
    },
  });
  // Valid input in strict mode is simply complete.
  expect(decode({ encoding: "gbk", errors: "strict" }, [BUILD_FAILED_GBK]), "strict mode, valid input").toEqual({
    text: BUILD_FAILED,
    facts: cleanFacts(BUILD_FAILED_GBK.length, BUILD_FAILED),
  });
});

it("keeps raw bytes and promises no text in raw mode", () => {
  const decoder = new StreamDecoder({ encoding: "raw" });
  decoder.push(hex("89 50 4e 47 0d 0a"));
  decoder.push(hex("1a 0a ff"));
  decoder.end();
  expect(
    { text: decoder.text, raw: showBytes(decoder.raw), facts: decoder.facts() },
    "raw: every byte kept, no text, and the facts say the text cannot be trusted",
  ).toEqual({
    text: "",
    raw: "89 50 4e 47 0d 0a 1a 0a ff",
    facts: { sourceComplete: true, complete: true, lossy: true, capReached: false, rawBytes: 9, decodedUtf8Bytes: 0, error: null },
  });
});

it("stops keeping bytes past maxBytes and keeps counting them", () => {
  const capped = (total: number) => {
    const decoder = new StreamDecoder({ maxBytes: 10 });
    const line = utf8("0123456789abcdef".slice(0, total));
    // In three chunks, so the cap can fall inside a chunk as well as between two.
    for (const part of cutAt(
      line,
      [4, 8].filter((cut) => cut < total),
    ))
      decoder.push(part);
    decoder.end();
    const { capReached, complete, rawBytes } = decoder.facts();
    return { text: decoder.text, kept: decoder.raw.length, capReached, complete, rawBytes };
  };
  expect({ 9: capped(9), 10: capped(10), 11: capped(11), 16: capped(16) }, "maxBytes 10: what is kept and counted").toEqual({
    9: { text: "012345678", kept: 9, capReached: false, complete: true, rawBytes: 9 },
    10: { text: "0123456789", kept: 10, capReached: false, complete: true, rawBytes: 10 },
    11: { text: "0123456789", kept: 10, capReached: true, complete: false, rawBytes: 11 },
    16: { text: "0123456789", kept: 10, capReached: true, complete: false, rawBytes: 16 },
  });

  // Chunks that arrive after the cap are counted, never kept.
  const decoder = new StreamDecoder({ maxBytes: 0 });
  decoder.push(utf8("abc"));
  decoder.push(new Uint8Array(0));
  decoder.push(utf8("de"));
  expect({ text: decoder.text, kept: decoder.raw.length, facts: decoder.facts() }, "maxBytes 0 keeps nothing").toEqual({
    text: "",
    kept: 0,
    facts: { sourceComplete: false, complete: false, lossy: false, capReached: true, rawBytes: 5, decodedUtf8Bytes: 0, error: null },
  });

  // The default cap is 8 MiB, whatever the encoding: raw here, so that only the keeping is at work.
  // Each MiB holds its own letter, so a byte lost or moved as the storage grows would show.
  const MiB = 1024 * 1024;
  const letters = "abcdefgh";
  const defaults = new StreamDecoder({ encoding: "raw" });
  for (const letter of letters) defaults.push(new Uint8Array(MiB).fill(letter.charCodeAt(0)));
  const atCap = defaults.facts();
  defaults.push(utf8("b"));
  const expected = Array.from(letters, (letter) => letter.repeat(MiB)).join("");
  const kept = Buffer.from(defaults.raw).toString("latin1");
  expect(
    { atCap: atCap.capReached, past: defaults.facts().capReached, kept: kept.length, inOrder: kept === expected },
    "the default maxBytes is 8 MiB, and the 8 MiB are kept in order",
  ).toEqual({ atCap: false, past: true, kept: 8 * MiB, inOrder: true });
  // Text made from storage that moved, past 64 KiB, into address space reserved for the cap; and from
  // storage that could not, because the cap is more than the runtime can reserve.
  const KiB = 1024;
  const moved = new StreamDecoder();
  const unreserved = new StreamDecoder({ maxBytes: Number.MAX_SAFE_INTEGER });
  for (const decoder of [moved, unreserved]) {
    decoder.push(new Uint8Array(64 * KiB).fill(0x61));
    decoder.push(utf8("中b"));
  }
  const grown = (decoder: StreamDecoder) => ({
    kept: decoder.raw.length,
    text: decoder.text === `${"a".repeat(64 * KiB)}中b`,
    decodedUtf8Bytes: decoder.facts().decodedUtf8Bytes,
  });
  expect({ moved: grown(moved), unreserved: grown(unreserved) }, "64 KiB and 4 more bytes, past the first move of the storage").toEqual({
    moved: { kept: 64 * KiB + 4, text: true, decodedUtf8Bytes: 64 * KiB + 4 },
    unreserved: { kept: 64 * KiB + 4, text: true, decodedUtf8Bytes: 64 * KiB + 4 },
  });
  // Under a cap that large, storage that grew at every push, needed or not, would double 64 times and
  // fail to allocate: it grows only when the bytes kept need it.
  const bytePerPush = new StreamDecoder({ maxBytes: Number.MAX_SAFE_INTEGER });
  let refused = "nothing";
  try {
    for (let push = 0; push < 64; push += 1) bytePerPush.push(utf8("x"));
  } catch (error) {
    refused = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  expect({ refused, text: bytePerPush.text }, "64 one-byte pushes under a cap the runtime cannot reserve").toEqual({
    refused: "nothing",
    text: "x".repeat(64),
  });
});

it("makes text in bulk: one-byte pushes and invalid bytes cost no TextDecoder call each", ({ onTestFinished }) => {
  // A pipe fed a byte per write delivers chunks of a byte or two, and random output is half invalid
  // bytes. Text made per push or per replacement costs a call and a string each: time and memory grow
  // with the number of pushes, not with the bytes kept. Counted here as work, not as time.
  const next = random(0xb01c);
  const noise = Uint8Array.from({ length: 4096 }, () => Math.floor(next() * 256));
  const clean = {
    utf8: utf8("构建 ok ✓ 🎵\n".repeat(64)),
    utf16le: utf16le("tests passed ✓ 🎵\n".repeat(64)),
    gbk: Uint8Array.from(Array.from({ length: 64 }, () => [...BUILD_FAILED_GBK]).flat()),
  };
  const encodings = ["utf8", "utf16le", "gbk"] as const;
  const expected = Object.fromEntries(
    encodings.map((encoding) => [encoding, { noise: decode({ encoding }, [noise]), clean: decode({ encoding }, [clean[encoding]]) }]),
  );
  const decoders = Object.fromEntries(
    encodings.map((encoding) => [encoding, { noise: new StreamDecoder({ encoding }), clean: new StreamDecoder({ encoding }) }]),
  );
  const spy = vi.spyOn(TextDecoder.prototype, "decode");
  onTestFinished(() => spy.mockRestore());
  const bytesDecoded = () => spy.mock.calls.reduce((sum, [input]) => sum + ((input as Uint8Array | undefined)?.byteLength ?? 0), 0);
  const outcomes: Record<string, unknown> = {};
  const counts: Record<string, unknown> = {};
  for (const encoding of encodings) {
    const { noise: noisy, clean: tidy } = decoders[encoding] ?? {};
    if (noisy === undefined || tidy === undefined) continue;
    // Noise, a byte per push, then the text read twice.
    spy.mockClear();
    for (let index = 0; index < noise.length; index += 1) noisy.push(noise.subarray(index, index + 1));
    noisy.end();
    const first = noisy.text;
    const noiseCalls = spy.mock.calls.length;
    const again = noisy.text;
    const rereadCalls = spy.mock.calls.length - noiseCalls;
    // Clean output, 7 bytes per push, read after every push: each byte reaches TextDecoder at most once.
    spy.mockClear();
    const bytes = clean[encoding];
    for (let start = 0; start < bytes.length; start += 7) {
      tidy.push(bytes.subarray(start, start + 7));
      void tidy.text;
    }
    tidy.end();
    const cleanText = tidy.text;
    counts[encoding] = { noiseCalls, rereadCalls, cleanBytesDecoded: bytesDecoded(), cleanBytes: bytes.length };
    outcomes[encoding] = {
      noiseCallsAtMost4: noiseCalls <= 4,
      rereadCalls,
      eachCleanByteAtMostOnce: bytesDecoded() <= bytes.length,
      noise: { text: first === expected[encoding]?.noise.text && again === first, facts: noisy.facts() },
      clean: { text: cleanText === expected[encoding]?.clean.text, facts: tidy.facts() },
    };
  }
  const same = (encoding: (typeof encodings)[number]) => ({
    noiseCallsAtMost4: true,
    rereadCalls: 0,
    eachCleanByteAtMostOnce: true,
    noise: { text: true, facts: expected[encoding]?.noise.facts },
    clean: { text: true, facts: expected[encoding]?.clean.facts },
  });
  expect(outcomes, `TextDecoder calls and bytes handed to it: ${JSON.stringify(counts)}`).toEqual({
    utf8: same("utf8"),
    utf16le: same("utf16le"),
    gbk: same("gbk"),
  });
});

it("leaves a character cut by the cap out of the text instead of replacing it", () => {
  const cut = (options: StreamDecoderOptions, bytes: Uint8Array) => {
    const decoder = new StreamDecoder(options);
    decoder.push(bytes);
    decoder.end();
    return { text: decoder.text, raw: showBytes(decoder.raw), facts: decoder.facts() };
  };
  const capFacts = (rawBytes: number, decodedUtf8Bytes: number) => ({
    sourceComplete: true,
    complete: false,
    lossy: false,
    capReached: true,
    rawBytes,
    decodedUtf8Bytes,
    error: null,
  });
  expect(
    {
      "utf8, 中 cut after 2 of 3 bytes": cut({ encoding: "utf8", maxBytes: 4 }, utf8("ab中")),
      "gbk, 中 cut after its lead byte": cut({ encoding: "gbk", maxBytes: 2 }, hex("61 d6 d0")),
      "utf16le, a surrogate pair cut in two": cut({ encoding: "utf16le", maxBytes: 4 }, utf16le("A🎵")),
      "utf8 strict, cut inside a character": cut({ encoding: "utf8", errors: "strict", maxBytes: 3 }, utf8("a中")),
    },
    "a cap inside a character: the whole characters before it, and no replacement",
  ).toEqual({
    "utf8, 中 cut after 2 of 3 bytes": { text: "ab", raw: "61 62 e4 b8", facts: capFacts(5, 2) },
    "gbk, 中 cut after its lead byte": { text: "a", raw: "61 d6", facts: capFacts(3, 1) },
    "utf16le, a surrogate pair cut in two": { text: "A", raw: "41 00 3c d8", facts: capFacts(6, 1) },
    "utf8 strict, cut inside a character": { text: "a", raw: "61 e4 b8", facts: capFacts(4, 1) },
  });
  // The same bytes without a cap: the program itself ended inside a character, and that is a loss.
  expect(decode({ encoding: "utf8" }, [hex("61 62 e4 b8")]), "a stream that really ends inside a character").toEqual({
    text: "ab\uFFFD",
    facts: { ...cleanFacts(4, "ab\uFFFD"), lossy: true },
  });
});

it("reports an aborted stream as incomplete and keeps the text that arrived", () => {
  const decoder = new StreamDecoder({ encoding: "utf8" });
  decoder.push(utf8("compiling 中"));
  decoder.push(hex("e6 96")); // the first two bytes of 文: the process was killed mid-character
  decoder.abort("killed after the 120000 ms timeout");
  const afterAbort = { text: decoder.text, abortReason: decoder.abortReason, facts: decoder.facts() };
  expect(afterAbort, "an aborted stream: whole characters only, and the facts say it did not end").toEqual({
    text: "compiling 中",
    abortReason: "killed after the 120000 ms timeout",
    facts: { sourceComplete: false, complete: false, lossy: false, capReached: false, rawBytes: 15, decodedUtf8Bytes: 13, error: null },
  });
  // Facts are a snapshot nobody can edit on the way to the agent.
  expect(() => Object.assign(decoder.facts(), { sourceComplete: true }), "writing to the facts").toThrow(TypeError);
  // Closing again changes nothing: the first close is the truth.
  decoder.end();
  decoder.abort("cancelled by the user");
  expect({ text: decoder.text, abortReason: decoder.abortReason, facts: decoder.facts() }, "end() or abort() after abort()").toEqual(
    afterAbort,
  );

  // An abort after the natural end does not make the stream incomplete.
  const ended = new StreamDecoder();
  ended.push(utf8("done\n"));
  ended.end();
  ended.abort("the process was killed after its output ended");
  expect({ abortReason: ended.abortReason, facts: ended.facts() }, "abort() after end()").toEqual({
    abortReason: null,
    facts: cleanFacts(5, "done\n"),
  });

  // Before the stream closes, nothing is claimed complete.
  const open = new StreamDecoder({ encoding: "gbk" });
  open.push(BUILD_FAILED_GBK);
  expect(open.facts(), "an open stream").toEqual({
    ...cleanFacts(BUILD_FAILED_GBK.length, BUILD_FAILED),
    sourceComplete: false,
    complete: false,
  });
});

it("says not lossy for a valid decoding in the wrong encoding: facts do not guess encodings", () => {
  // UTF-8 "你好世界" read as GBK is valid GBK: other characters, no replacement.
  const wrongButValid = decode({ encoding: "gbk" }, [utf8("你好世界")]);
  expect(wrongButValid, "UTF-8 bytes decoded as gbk").toEqual({ text: "浣犲ソ涓栫晫", facts: cleanFacts(12, "浣犲ソ涓栫晫") });
  // GBK "你好" read as UTF-8 is invalid UTF-8, so this mistake at least shows.
  const wrongAndInvalid = decode({ encoding: "utf8" }, [hex("c4 e3 ba c3")]);
  expect(wrongAndInvalid, "GBK bytes decoded as utf8").toEqual({
    text: "\uFFFD\uFFFD\uFFFD",
    facts: { ...cleanFacts(4, "\uFFFD\uFFFD\uFFFD"), lossy: true },
  });
});

it("refuses unknown encodings, error modes, sizes and options", () => {
  const attempts: Record<string, unknown> = {
    'encoding "cp936"': { encoding: "cp936" },
    'encoding "auto"': { encoding: "auto" },
    'encoding "utf-8"': { encoding: "utf-8" },
    'encoding "UTF8"': { encoding: "UTF8" },
    'encoding "__proto__"': { encoding: "__proto__" },
    'encoding "toString"': { encoding: "toString" },
    "encoding 936": { encoding: 936 },
    "encoding null": { encoding: null },
    'errors "ignore"': { errors: "ignore" },
    'errors "fatal"': { errors: "fatal" },
    "maxBytes -1": { maxBytes: -1 },
    "maxBytes 1.5": { maxBytes: 1.5 },
    "maxBytes NaN": { maxBytes: Number.NaN },
    "maxBytes Infinity": { maxBytes: Number.POSITIVE_INFINITY },
    'maxBytes "10"': { maxBytes: "10" },
    "maxBytes 2^53": { maxBytes: 2 ** 53 },
    "a misspelt option": { maxbytes: 10 },
    "an unknown option": { encoding: "utf8", env: {} },
    "options null": null,
    'options "gbk"': "gbk",
    "options []": [],
    "no options": undefined,
    "options {}": {},
    "encoding undefined": { encoding: undefined },
    "maxBytes 0, strict, utf16le": { maxBytes: 0, errors: "strict", encoding: "utf16le" },
  };
  const outcomes: Record<string, string> = {};
  for (const [name, options] of Object.entries(attempts)) {
    try {
      new StreamDecoder(options as StreamDecoderOptions);
      outcomes[name] = "accepted";
    } catch (error) {
      outcomes[name] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  const encodings = "use one of utf8, gbk, utf16le, raw";
  const size = "RangeError: maxBytes must be a whole number of bytes, 0 or more, got";
  expect(outcomes, "each bad option refused with one clear error").toEqual({
    'encoding "cp936"': `TypeError: unknown encoding "cp936": ${encodings}`,
    'encoding "auto"': `TypeError: unknown encoding "auto": ${encodings}`,
    'encoding "utf-8"': `TypeError: unknown encoding "utf-8": ${encodings}`,
    'encoding "UTF8"': `TypeError: unknown encoding "UTF8": ${encodings}`,
    'encoding "__proto__"': `TypeError: unknown encoding "__proto__": ${encodings}`,
    'encoding "toString"': `TypeError: unknown encoding "toString": ${encodings}`,
    "encoding 936": `TypeError: unknown encoding 936: ${encodings}`,
    "encoding null": `TypeError: unknown encoding null: ${encodings}`,
    'errors "ignore"': 'TypeError: unknown error mode "ignore": use one of replace, strict',
    'errors "fatal"': 'TypeError: unknown error mode "fatal": use one of replace, strict',
    "maxBytes -1": `${size} -1`,
    "maxBytes 1.5": `${size} 1.5`,
    "maxBytes NaN": `${size} NaN`,
    "maxBytes Infinity": `${size} Infinity`,
    'maxBytes "10"': `${size} "10"`,
    "maxBytes 2^53": `${size} 9007199254740992`,
    "a misspelt option": 'TypeError: unknown option "maxbytes": use encoding, errors, maxBytes',
    "an unknown option": 'TypeError: unknown option "env": use encoding, errors, maxBytes',
    "options null": "TypeError: options must be an object, got null",
    'options "gbk"': "TypeError: options must be an object, got string",
    "options []": "TypeError: options must be an object, got an array",
    "no options": "accepted",
    "options {}": "accepted",
    "encoding undefined": "accepted",
    "maxBytes 0, strict, utf16le": "accepted",
  });
});

it("refuses chunks that are not bytes, and pushes after the stream closed", () => {
  const decoder = new StreamDecoder();
  const chunks: Record<string, unknown> = {
    "a string": "text",
    "a number": 65,
    null: null,
    undefined: undefined,
    "an ArrayBuffer": new ArrayBuffer(2),
    "an array of numbers": [0x41],
    "a DataView": new DataView(new ArrayBuffer(1)),
    "a Uint8ClampedArray": new Uint8ClampedArray(1),
    "an object that inherits from Uint8Array.prototype": Object.create(Uint8Array.prototype),
  };
  const outcomes: Record<string, string> = {};
  for (const [name, chunk] of Object.entries(chunks)) {
    try {
      decoder.push(chunk as Uint8Array);
      outcomes[name] = "accepted";
    } catch (error) {
      outcomes[name] = error instanceof Error ? error.message : String(error);
    }
  }
  const not = (what: string) => `a chunk must be bytes (a Uint8Array), got ${what}`;
  expect(outcomes, "each non-byte chunk refused").toEqual({
    "a string": not("string"),
    "a number": not("number"),
    null: not("null"),
    undefined: not("undefined"),
    "an ArrayBuffer": not("object"),
    "an array of numbers": not("object"),
    "a DataView": not("object"),
    "a Uint8ClampedArray": not("object"),
    "an object that inherits from Uint8Array.prototype": not("object"),
  });
  expect(decoder.facts().rawBytes, "refused chunks are not counted").toBe(0);
  // A Buffer is a Uint8Array: what a child process's stream delivers. So is a Uint8Array made in
  // another realm (a vm context), which instanceof would refuse.
  decoder.push(Buffer.from("o"));
  decoder.push(runInNewContext("Uint8Array.of(0x6b)") as Uint8Array);
  decoder.end();
  expect(() => decoder.push(utf8("late")), "push after end()").toThrow(
    "the decoder is closed (ended): push nothing after end() or abort()",
  );
  const aborted = new StreamDecoder();
  aborted.abort("cancelled");
  expect(() => aborted.push(utf8("late")), "push after abort()").toThrow("the decoder is closed (aborted)");
  for (const reason of ["", "   ", undefined, 7]) {
    expect(() => new StreamDecoder().abort(reason as string), `abort(${String(reason)})`).toThrow("abort needs a reason, in words");
  }
  expect(decoder.text, "the text of the accepted chunk").toBe("ok");
});

it("copies the bytes it keeps, so a reused buffer cannot change them", () => {
  const decoder = new StreamDecoder({ encoding: "utf8" });
  const buffer = Uint8Array.from(utf8("abc"));
  decoder.push(buffer);
  buffer.set(utf8("xyz")); // a reader that reuses its buffer for the next chunk
  decoder.push(buffer.subarray(0, 2));
  const raw = decoder.raw;
  raw.fill(0x21); // a caller that writes into what it got back
  decoder.end();
  expect({ text: decoder.text, raw: showBytes(decoder.raw) }, "the kept bytes are the ones pushed, at the time they were pushed").toEqual({
    text: "abcxy",
    raw: "61 62 63 78 79",
  });
});

it("reads from a cursor without consuming: each reader gets every character once", () => {
  // Two readers of one GBK stream: an agent polling the output of a running build, and a log that
  // copies it. A cursor counts UTF-8 bytes of the text, not raw bytes: 构 is 2 bytes of GBK, 3 of text.
  const decoder = new StreamDecoder({ encoding: "gbk" });
  const empty = decoder.read();
  decoder.push(hex("b9b9 bda8 ca")); // 构建 and the first byte of 失
  const agent1 = decoder.read();
  decoder.push(hex("a7 b0dc a3ba 32 0a")); // the rest: 失败：2\n
  const agent2 = decoder.read(agent1.decodedCursor);
  const agentAgain = decoder.read(agent1.decodedCursor);
  const log = decoder.read(0);
  decoder.end();
  const agent3 = decoder.read(agent2.decodedCursor);
  const view = (read: OutputRead) => ({ ...read });
  expect(
    {
      empty: view(empty),
      agent1: view(agent1),
      agent2: view(agent2),
      agentAgain: view(agentAgain),
      log: view(log),
      agent3: view(agent3),
      joined: agent1.text + agent2.text + agent3.text,
      text: decoder.text,
    },
    "each read: the text from its cursor, the next cursor, how far the raw bytes became text, and whether the text is reliable",
  ).toEqual({
    empty: { text: "", decodedCursor: 0, rawCursor: 0, reliableText: false },
    agent1: { text: "构建", decodedCursor: 6, rawCursor: 4, reliableText: false },
    agent2: { text: "失败：2\n", decodedCursor: 17, rawCursor: 12, reliableText: false },
    agentAgain: { text: "失败：2\n", decodedCursor: 17, rawCursor: 12, reliableText: false },
    log: { text: "构建失败：2\n", decodedCursor: 17, rawCursor: 12, reliableText: false },
    agent3: { text: "", decodedCursor: 17, rawCursor: 12, reliableText: true },
    joined: "构建失败：2\n",
    text: "构建失败：2\n",
  });
  expect(Object.isFrozen(agent1), "a read is a snapshot nobody can edit").toBe(true);
  // A cursor after a four-byte character, in the middle of a long text.
  const emoji = new StreamDecoder();
  emoji.push(utf8(`${"x".repeat(100)}🎵${"y".repeat(100)}`));
  expect(
    { after: emoji.read(104).text.length, before: emoji.read(100).text.slice(0, 2), end: emoji.read(204).text },
    "cursors on both sides of 🎵",
  ).toEqual({ after: 100, before: "🎵", end: "" });
});

it("refuses a read cursor that is not a character boundary of the text so far", () => {
  const decoder = new StreamDecoder({ encoding: "utf8" });
  decoder.push(utf8("a中🎵b"));
  const attempts: Record<string, unknown> = {
    "-1": -1,
    "1.5": 1.5,
    NaN: Number.NaN,
    '"3"': "3",
    null: null,
    "past the end, 10": 10,
    "inside 中, 2": 2,
    "inside 🎵, 6": 6,
    "inside 🎵, 7": 7,
    "before 中, 1": 1,
    "after 🎵, 8": 8,
    "the end, 9": 9,
    "no cursor": undefined,
  };
  const outcomes: Record<string, string> = {};
  for (const [name, cursor] of Object.entries(attempts)) {
    try {
      outcomes[name] = `text ${JSON.stringify(decoder.read(cursor as number).text)}`;
    } catch (error) {
      outcomes[name] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  const range = "RangeError: read: the cursor must be a whole number of UTF-8 bytes from 0 to 9, got";
  const inside = (cursor: number) =>
    `RangeError: read: cursor ${cursor} is inside a character: start at 0 or at a decodedCursor a read returned`;
  expect(outcomes, "each bad cursor refused with one clear error").toEqual({
    "-1": `${range} -1`,
    "1.5": `${range} 1.5`,
    NaN: `${range} NaN`,
    '"3"': `${range} "3"`,
    null: `${range} null`,
    "past the end, 10": `${range} 10`,
    "inside 中, 2": inside(2),
    "inside 🎵, 6": inside(6),
    "inside 🎵, 7": inside(7),
    "before 中, 1": 'text "中🎵b"',
    "after 🎵, 8": 'text "b"',
    "the end, 9": 'text ""',
    "no cursor": 'text "a中🎵b"',
  });
  // A 2-byte character of UTF-8: é is 2 bytes of the text, so 1 and 3 are boundaries and 2 is not.
  const accented = new StreamDecoder({ encoding: "utf16le" });
  accented.push(utf16le("aéb"));
  const around: Record<string, string> = {};
  for (const cursor of [1, 2, 3]) {
    try {
      around[cursor] = `text ${JSON.stringify(accented.read(cursor).text)}`;
    } catch (error) {
      around[cursor] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  expect(around, "cursors around é, 2 bytes of UTF-8").toEqual({ 1: 'text "éb"', 2: inside(2), 3: 'text "b"' });
});

it("says reliableText only for the whole output, faithfully decoded", () => {
  const outcome = (options: StreamDecoderOptions, chunks: readonly Uint8Array[], close: "end" | "abort" | "open") => {
    const decoder = new StreamDecoder(options);
    for (const chunk of chunks) decoder.push(chunk);
    if (close === "end") decoder.end();
    if (close === "abort") decoder.abort("killed after the timeout");
    const { complete, lossy } = decoder.facts();
    const { reliableText, rawCursor, decodedCursor } = decoder.read();
    return { complete, lossy, reliableText, rawCursor, decodedCursor, raw: decoder.raw.length };
  };
  expect(
    {
      "ended, clean": outcome({ encoding: "gbk" }, [BUILD_FAILED_GBK], "end"),
      "still open": outcome({ encoding: "gbk" }, [BUILD_FAILED_GBK], "open"),
      "cap inside 中": outcome({ maxBytes: 4 }, [utf8("ab中")], "end"),
      "a replacement": outcome({}, [hex("61 ff 62")], "end"),
      "strict failure": outcome({ errors: "strict" }, [hex("61 62 e4 b8 63 64")], "end"),
      "raw mode": outcome({ encoding: "raw" }, [hex("89 50 4e 47")], "end"),
      "aborted inside 文": outcome({}, [utf8("中"), hex("e6 96")], "abort"),
      "ended inside 文": outcome({}, [utf8("中"), hex("e6 96")], "end"),
    },
    "reliableText is complete and not lossy; rawCursor is where the text stops in the raw bytes",
  ).toEqual({
    "ended, clean": { complete: true, lossy: false, reliableText: true, rawCursor: 25, decodedCursor: 36, raw: 25 },
    "still open": { complete: false, lossy: false, reliableText: false, rawCursor: 25, decodedCursor: 36, raw: 25 },
    "cap inside 中": { complete: false, lossy: false, reliableText: false, rawCursor: 2, decodedCursor: 2, raw: 4 },
    "a replacement": { complete: true, lossy: true, reliableText: false, rawCursor: 3, decodedCursor: 5, raw: 3 },
    "strict failure": { complete: false, lossy: true, reliableText: false, rawCursor: 2, decodedCursor: 2, raw: 6 },
    "raw mode": { complete: true, lossy: true, reliableText: false, rawCursor: 0, decodedCursor: 0, raw: 4 },
    "aborted inside 文": { complete: false, lossy: false, reliableText: false, rawCursor: 3, decodedCursor: 3, raw: 5 },
    "ended inside 文": { complete: true, lossy: true, reliableText: false, rawCursor: 5, decodedCursor: 6, raw: 5 },
  });
});
