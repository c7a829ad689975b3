import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { StreamDecoder, type StreamDecoderOptions } from "forge/tools/output";

// Transfer: the same decoder in a music-creation session. An agent renders the tracks of an EP with a
// Windows batch renderer and checks each track's loudness in the report it prints. The renderer runs on
// a Chinese Windows system, so its stdout is GBK (code page 936), and the track titles are Chinese.
interface Report {
  readonly encoding: string;
  readonly tracks: readonly { readonly file: string; readonly loudness: string }[];
}

const folder = new URL("../../fixtures/scenarios/music-creation/", import.meta.url);
const reportBytes = Uint8Array.from(readFileSync(new URL("render-report.gbk", folder)));
const report = JSON.parse(readFileSync(new URL("render-report.json", folder), "utf8")) as Report;

/** The report as the renderer wrote it: one write per line, each ending in CRLF. */
function linesAsWritten(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    if (bytes[index] === 0x0a) {
      lines.push(bytes.subarray(start, index + 1));
      start = index + 1;
    }
  }
  return lines;
}

/** The tracks the agent reads from the report: `[n/5] <file>  <loudness>  OK`. */
function tracksIn(text: string) {
  return [...text.matchAll(/^\[\d\/\d\] (.+?\.wav) {2}(-?\d+\.\d LUFS) {2}OK\r$/gm)].map(([, file, loudness]) => ({ file, loudness }));
}

function render(options: StreamDecoderOptions) {
  const decoder = new StreamDecoder(options);
  for (const line of linesAsWritten(reportBytes)) decoder.push(line);
  decoder.end();
  return decoder;
}

it("decodes the batch renderer's GBK track titles", () => {
  const decoder = render({ encoding: "gbk" });
  expect(tracksIn(decoder.text), "the tracks the agent reads from the report").toEqual(report.tracks);
  expect(decoder.text.split("\r\n").slice(-2), "the last line, and nothing after its CRLF").toEqual([
    "Done: 5 files written to D:\\Renders\\夜行 EP",
    "",
  ]);
  expect(decoder.facts(), "a clean, complete report").toEqual({
    sourceComplete: true,
    complete: true,
    lossy: false,
    capReached: false,
    rawBytes: reportBytes.length,
    decodedUtf8Bytes: Buffer.byteLength(decoder.text, "utf8"),
    error: null,
  });
});

it("reports the titles read as utf8 as lossy, not the render as failed", () => {
  const decoder = render({ encoding: "utf8" });
  const tracks = tracksIn(decoder.text);
  expect(
    {
      loudness: tracks.map((track) => track.loudness),
      titlesReadable: tracks.filter((track) => report.tracks.some((expected) => expected.file === track.file)).length,
      replaced: decoder.text.includes("\uFFFD"),
      complete: decoder.facts().complete,
      lossy: decoder.facts().lossy,
    },
    "wrong encoding: the ASCII survives, the titles do not, and the facts say so",
  ).toEqual({
    loudness: report.tracks.map((track) => track.loudness),
    titlesReadable: 0,
    replaced: true,
    complete: true,
    lossy: true,
  });
});

it("reports a render cancelled mid-title as incomplete, with no replacement character", () => {
  const lines = linesAsWritten(reportBytes);
  const decoder = new StreamDecoder({ encoding: "gbk" });
  for (const line of lines.slice(0, 4)) decoder.push(line);
  // The fifth line stops after the first byte of 晚: the user cancelled the render right there.
  const fifth = lines[4] ?? new Uint8Array(0);
  const cut = fifth.indexOf(0xcd) + 1;
  decoder.push(fifth.subarray(0, cut));
  decoder.abort("render cancelled by the user");
  expect(
    { lastLine: decoder.text.split("\n").at(-1), tracksRead: tracksIn(decoder.text).length, rawBytes: decoder.raw.length },
    "the text ends with the last whole character",
  ).toEqual({ lastLine: "[4/5] 04 ", tracksRead: 3, rawBytes: lines.slice(0, 4).reduce((sum, line) => sum + line.length, 0) + cut });
  expect(decoder.facts(), "cancelled: the stream did not end, and what arrived is not lossy").toEqual({
    sourceComplete: false,
    complete: false,
    lossy: false,
    capReached: false,
    rawBytes: decoder.raw.length,
    decodedUtf8Bytes: Buffer.byteLength(decoder.text, "utf8"),
    error: null,
  });
});
