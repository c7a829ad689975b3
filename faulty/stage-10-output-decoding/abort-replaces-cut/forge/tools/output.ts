// Stage 10: a program's output is bytes, not text. Each stream gets its own decoder, told its encoding,
// that decodes at ingest across chunk boundaries, keeps at most `maxBytes` of raw bytes, and reports
// what it knows as facts: whether the stream ended, whether everything was kept and decoded, whether
// the text can be trusted. A decoding problem becomes a fact, never a reason to say the command failed.
import { Buffer } from "node:buffer";
import { types } from "node:util";

export const ENCODINGS = ["utf8", "gbk", "utf16le", "raw"] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const ERROR_MODES = ["replace", "strict"] as const;
export type ErrorMode = (typeof ERROR_MODES)[number];

/** 8 MiB of raw bytes per stream unless told otherwise. */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** How long `drain` waits for a stream to end once its process has exited. */
export const DEFAULT_AFTER_EXIT_MS = 250;

export interface OutputFacts {
  /** The stream reached its natural end (EOF). */
  readonly sourceComplete: boolean;
  /** Every byte received was kept and decoded: no cap, no cut-off, no strict failure. */
  readonly complete: boolean;
  /** Replacement characters were produced, or the text cannot be trusted (raw, strict failure). */
  readonly lossy: boolean;
  readonly capReached: boolean;
  /** Bytes received from the stream, all of them, even past the cap. */
  readonly rawBytes: number;
  /** UTF-8 bytes of the text kept. */
  readonly decodedUtf8Bytes: number;
  /** A strict decoding failure, in words. */
  readonly error: string | null;
}

export interface StreamDecoderOptions {
  readonly encoding?: Encoding;
  readonly errors?: ErrorMode;
  readonly maxBytes?: number;
}

// ---------------------------------------------------------------------------------------------------
// Scanning: where characters begin and end, and which byte sequences are not characters at all.
//
// TextDecoder can decode across chunks with `{ stream: true }`, but it cannot say where an invalid
// sequence starts (`fatal: true` throws without an offset) or whether a U+FFFD in its output was made
// by it or was in the data, and Node 20's `gbk` decoder turns the byte 0xFF into U+F8F5, a private-use
// character, even with `fatal: true`. So the decoder finds character boundaries itself, following the
// WHATWG decoders' byte rules, and TextDecoder only maps whole, valid characters to text.

/**
 * What the bytes of the character being read are, now that the last of them was read: `"more"`, not
 * a whole character yet; `"char"`, one valid character; `{ invalid: n }`, the first n bytes are not a
 * character, and the bytes after them are read again (they may start the next character).
 */
type Step = "more" | "char" | { readonly invalid: number };

/**
 * Decides a step from the `length` bytes at `start`, the character being read. The bytes before its
 * last one were accepted already, so only the last one needs a look.
 */
type Classify = (bytes: Uint8Array, start: number, length: number) => Step;

const inRange = (byte: number, low: number, high: number) => byte >= low && byte <= high;

/** Where a UTF-8 sequence's second byte must lie after a lead: no overlongs, surrogates, > U+10FFFF. */
const SECOND_BYTE_LOW = new Map([
  [0xe0, 0xa0],
  [0xf0, 0x90],
]);
const SECOND_BYTE_HIGH = new Map([
  [0xed, 0x9f],
  [0xf4, 0x8f],
]);

/** UTF-8, read as the WHATWG decoder reads it. */
function utf8(bytes: Uint8Array, start: number, length: number): Step {
  const lead = bytes[start] ?? 0;
  if (length === 1) {
    if (lead <= 0x7f) return "char";
    // C0, C1 and F5..FF never start a character; 80..BF only continue one.
    return inRange(lead, 0xc2, 0xf4) ? "more" : { invalid: 1 };
  }
  const low = (length === 2 && SECOND_BYTE_LOW.get(lead)) || 0x80;
  const high = (length === 2 && SECOND_BYTE_HIGH.get(lead)) || 0xbf;
  // The sequence so far is invalid; the byte that broke it is read again as a possible start.
  if (!inRange(bytes[start + length - 1] ?? 0, low, high)) return { invalid: length - 1 };
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return length === needed ? "char" : "more";
}

/** UTF-16LE: units of two bytes, low byte first; a lead surrogate must be followed by a trail one. */
function utf16le(bytes: Uint8Array, start: number, length: number): Step {
  if (length % 2 === 1) return "more";
  const end = start + length;
  const unit = (bytes[end - 2] ?? 0) | ((bytes[end - 1] ?? 0) << 8);
  const trail = inRange(unit, 0xdc00, 0xdfff);
  // After a lead surrogate: a trail completes the pair; anything else leaves the lead alone, and
  // that unit is read again on its own.
  if (length === 4) return trail ? "char" : { invalid: 2 };
  if (inRange(unit, 0xd800, 0xdbff)) return "more";
  return trail ? { invalid: 2 } : "char";
}

/**
 * GBK as Windows code page 936 writes it: ASCII, 0x80 (the euro sign), or a lead byte 0x81..0xFE and
 * a trail byte 0x40..0x7E or 0x80..0xFE. 0xFF is never a character. The four-byte sequences of
 * GB18030, which the WHATWG GBK decoder also accepts, are not GBK: code page 936 never writes them.
 */
function gbk(bytes: Uint8Array, start: number, length: number): Step {
  const byte = bytes[start + length - 1] ?? 0;
  if (length === 1) return byte <= 0x80 ? "char" : byte === 0xff ? { invalid: 1 } : "more";
  if (inRange(byte, 0x40, 0x7e) || inRange(byte, 0x80, 0xfe)) return "char";
  // As the WHATWG decoder does: an ASCII byte after a lead is read again; a bad 0xFF goes with the lead.
  return byte <= 0x7f ? { invalid: 1 } : { invalid: 2 };
}

const TEXT_ENCODINGS: Readonly<Record<Exclude<Encoding, "raw">, { readonly label: string; readonly classify: Classify }>> = {
  // TextDecoder takes WHATWG labels: "utf16le" (Node's Buffer name) and "cp936" are not among them.
  utf8: { label: "utf-8", classify: utf8 },
  gbk: { label: "gbk", classify: gbk },
  utf16le: { label: "utf-16le", classify: utf16le },
};

// ---------------------------------------------------------------------------------------------------
// Options

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string, fallback: T): T {
  if (value === undefined) return fallback;
  // Compared by value, so "__proto__" or "toString" never match something inherited.
  const found = allowed.find((name) => name === value);
  if (found === undefined) throw new TypeError(`unknown ${what} ${describe(value)}: use one of ${allowed.join(", ")}`);
  return found;
}

const OPTION_NAMES: readonly string[] = ["encoding", "errors", "maxBytes"];

function readOptions(options: unknown): { encoding: Encoding; errors: ErrorMode; maxBytes: number } {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    const got = options === null ? "null" : Array.isArray(options) ? "an array" : typeof options;
    throw new TypeError(`options must be an object, got ${got}`);
  }
  for (const key of Object.keys(options)) {
    // A misspelt `maxbytes` must not silently leave the default cap in place.
    if (!OPTION_NAMES.includes(key)) throw new TypeError(`unknown option ${JSON.stringify(key)}: use ${OPTION_NAMES.join(", ")}`);
  }
  const given = options as { encoding?: unknown; errors?: unknown; maxBytes?: unknown };
  const maxBytes = given.maxBytes ?? DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a whole number of bytes, 0 or more, got ${describe(given.maxBytes)}`);
  }
  return {
    encoding: oneOf(given.encoding, ENCODINGS, "encoding", "utf8"),
    errors: oneOf(given.errors, ERROR_MODES, "error mode", "replace"),
    maxBytes,
  };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");

// ---------------------------------------------------------------------------------------------------
// The decoder

/** How one text encoding is read: its character boundaries, and the TextDecoder for whole characters. */
interface Codec {
  readonly classify: Classify;
  readonly textDecoder: InstanceType<typeof TextDecoder>;
}

/** Decodes one stream of a process: bytes in; text, raw bytes and facts out. */
export class StreamDecoder {
  readonly #encoding: Encoding;
  readonly #strict: boolean;
  readonly #maxBytes: number;
  /** Null for raw: no text is promised. */
  readonly #codec: Codec | null;

  #state: "open" | "ended" | "aborted" = "open";
  #abortReason: string | null = null;
  #rawParts: Uint8Array[] = [];
  #keptBytes = 0;
  #rawBytes = 0;
  #capReached = false;
  /** False once the cap cut the stream or strict decoding failed: nothing more becomes text. */
  #decoding = true;
  #text = "";
  #decodedUtf8Bytes = 0;
  #replaced = false;
  #error: string | null = null;

  // The only state that crosses a chunk boundary: the bytes of a character that is not whole yet (at
  // most 3, plus the one being read) and the stream offset of the first of them.
  readonly #held = new Uint8Array(4);
  #heldLength = 0;
  #heldAt = 0;

  constructor(options: StreamDecoderOptions = {}) {
    const { encoding, errors, maxBytes } = readOptions(options);
    this.#encoding = encoding;
    this.#strict = errors === "strict";
    this.#maxBytes = maxBytes;
    if (encoding === "raw") {
      this.#codec = null;
    } else {
      const { label, classify } = TEXT_ENCODINGS[encoding];
      // Built now, before any process starts: a runtime without this encoding fails here, not mid-run.
      // It only ever sees whole, valid characters, so it never replaces anything. ignoreBOM keeps a
      // byte order mark as the character U+FEFF: the text says what the program wrote.
      this.#codec = { classify, textDecoder: new TextDecoder(label, { ignoreBOM: true }) };
    }
  }

  /** The text decoded so far: whole characters only, nothing past a strict failure or the cap. */
  get text(): string {
    return this.#text;
  }

  /** A copy of the raw bytes kept: the first `maxBytes` bytes the stream delivered. */
  get raw(): Uint8Array {
    if (this.#rawParts.length > 1) this.#rawParts = [Buffer.concat(this.#rawParts, this.#keptBytes)];
    const kept = this.#rawParts[0];
    return kept === undefined ? new Uint8Array(0) : new Uint8Array(kept);
  }

  /** Why the stream was cut off before its end, or null. */
  get abortReason(): string | null {
    return this.#abortReason;
  }

  push(chunk: Uint8Array): void {
    if (!types.isUint8Array(chunk)) {
      throw new TypeError(`a chunk must be bytes (a Uint8Array), got ${chunk === null ? "null" : typeof chunk}`);
    }
    if (this.#state !== "open") throw new Error(`the decoder is closed (${this.#state}): push nothing after end() or abort()`);
    this.#rawBytes += chunk.length;
    const at = this.#keptBytes;
    // A copy: the caller may reuse its buffer once push returns.
    const kept = new Uint8Array(chunk.subarray(0, this.#maxBytes - at));
    if (kept.length > 0) {
      this.#rawParts.push(kept);
      this.#keptBytes += kept.length;
    }
    if (this.#decoding && this.#codec !== null) this.#decode(this.#codec, kept, at);
    if (kept.length < chunk.length) {
      this.#capReached = true;
      // A character the cap cut in two stays in `raw` but never becomes text, not even U+FFFD: its
      // bytes were not invalid, they were not kept.
      this.#decoding = false;
    }
  }

  /** The stream reached its natural end. Ignored once the decoder is closed. */
  end(): void {
    if (this.#state !== "open") return;
    this.#state = "ended";
    if (!this.#decoding || this.#heldLength === 0) return;
    // The stream ended inside a character: the program wrote an incomplete sequence.
    this.#reject(this.#heldAt, this.#held.slice(0, this.#heldLength), true);
    this.#heldLength = 0;
  }

  /** The stream was cut off before its end (killed, cancelled, not drained in time). Ignored once closed. */
  abort(reason: string): void {
    if (typeof reason !== "string" || reason.trim() === "") throw new TypeError("abort needs a reason, in words");
    if (this.#state !== "open") return;
    this.#state = "aborted";
    this.#abortReason = reason;
    if (this.#decoding && this.#heldLength > 0) this.#reject(this.#heldAt, this.#held.slice(0, this.#heldLength), true);
  }

  facts(): OutputFacts {
    const sourceComplete = this.#state === "ended";
    return Object.freeze({
      sourceComplete,
      complete: sourceComplete && !this.#capReached && this.#error === null,
      lossy: this.#codec === null || this.#replaced || this.#error !== null,
      capReached: this.#capReached,
      rawBytes: this.#rawBytes,
      decodedUtf8Bytes: this.#decodedUtf8Bytes,
      error: this.#error,
    });
  }

  /** Decodes `bytes`, which start at stream offset `at`, continuing the character the last chunk began. */
  #decode(codec: Codec, bytes: Uint8Array, at: number): void {
    let index = 0;
    // First the character the last chunk began, a byte at a time: its first bytes are in #held.
    for (; this.#heldLength > 0 && index < bytes.length; index += 1) {
      if (!this.#takeHeld(codec, bytes[index] ?? 0, at + index)) return;
    }
    // A chunk too short to finish it (a 4-byte character may come a byte at a time): keep waiting.
    if (this.#heldLength > 0) return;
    // Then the rest in place: runs of whole, valid characters become text in one call.
    let run = index; // the first byte not yet turned into text
    let start = index; // the first byte of the character being read
    for (; index < bytes.length; index += 1) {
      const step = codec.classify(bytes, start, index + 1 - start);
      if (step === "more") continue;
      if (step === "char") {
        start = index + 1;
        continue;
      }
      this.#appendText(codec, bytes.subarray(run, start));
      if (!this.#reject(at + start, bytes.subarray(start, start + step.invalid), false)) return;
      start += step.invalid;
      run = start;
      index = start - 1; // read the bytes after the invalid ones again
    }
    this.#appendText(codec, bytes.subarray(run, start));
    // A character that is not whole yet waits for the next chunk.
    this.#held.set(bytes.subarray(start));
    this.#heldLength = bytes.length - start;
    this.#heldAt = at + start;
  }

  /** Reads one more byte of the held character. False when strict decoding stopped. */
  #takeHeld(codec: Codec, byte: number, offset: number): boolean {
    if (this.#heldLength === 0) this.#heldAt = offset;
    this.#held[this.#heldLength] = byte;
    this.#heldLength += 1;
    const step = codec.classify(this.#held, 0, this.#heldLength);
    if (step === "more") return true;
    const held = this.#held.slice(0, this.#heldLength);
    const heldAt = this.#heldAt;
    this.#heldLength = 0;
    if (step === "char") {
      this.#appendText(codec, held);
      return true;
    }
    if (!this.#reject(heldAt, held.subarray(0, step.invalid), false)) return false;
    // The bytes after the invalid ones may start the next character: they are read again.
    for (let index = step.invalid; index < held.length; index += 1) {
      if (!this.#takeHeld(codec, held[index] ?? 0, heldAt + index)) return false;
    }
    return true;
  }

  /** An invalid sequence: U+FFFD in replace mode; in strict mode, the end of the text. False to stop. */
  #reject(offset: number, bytes: Uint8Array, atEnd: boolean): boolean {
    if (this.#strict) {
      const what = atEnd ? `incomplete ${this.#encoding} character` : `invalid ${this.#encoding}`;
      const where = atEnd ? " at the end of the stream" : "";
      this.#error = `${what} at byte offset ${offset} (${hex(bytes)})${where}: strict decoding stopped there`;
      this.#decoding = false;
      return false;
    }
    this.#replaced = true;
    this.#append("\uFFFD");
    return true;
  }

  #appendText(codec: Codec, bytes: Uint8Array): void {
    if (bytes.length > 0) this.#append(codec.textDecoder.decode(bytes));
  }

  #append(text: string): void {
    this.#text += text;
    this.#decodedUtf8Bytes += Buffer.byteLength(text, "utf8");
  }
}

// ---------------------------------------------------------------------------------------------------
// Draining a stream

/** The longest delay setTimeout honours (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** Decoders being drained right now: two drains feeding one decoder would interleave their bytes. */
const draining = new WeakSet<StreamDecoder>();

export interface DrainOptions {
  /** How long to wait for the stream to end once the process has exited. Default 250 ms. */
  readonly afterExitMs?: number;
  /** Settles when the process has exited; a rejection counts as exited too. */
  readonly exited: PromiseLike<unknown>;
}

type Next = { readonly kind: "item"; readonly result: IteratorResult<Uint8Array> } | { readonly kind: "failed"; readonly error: unknown };

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator] === "function";
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** Tells the stream we stopped reading. Nothing here is awaited: a pipe a grandchild holds may never answer. */
function release(stream: AsyncIterable<Uint8Array>, iterator: AsyncIterator<Uint8Array>): void {
  try {
    Promise.resolve(iterator.return?.()).catch(() => {});
    // A Node stream's iterator is an async generator: its return() waits behind the read still
    // pending, which never completes while a grandchild holds the pipe. Destroying the stream closes
    // our end now.
    const { destroy } = stream as { destroy?: unknown };
    if (typeof destroy === "function") destroy.call(stream);
  } catch {
    // Best effort: a stream that throws while being released has nothing more for us to close.
  }
}

/**
 * Reads `stream` into `decoder` until the stream ends, then returns the decoder's facts. Once `exited`
 * settles it waits at most `afterExitMs` more: a grandchild that inherited the pipe can keep it open
 * long after the process itself is gone. A stream cut off or failed is reported in the facts, never
 * thrown. The timer and the stream are released on every path: when drain stops before the end, it
 * calls the iterator's return() and destroys a stream that can be destroyed (a Node Readable).
 */
export async function drain(stream: AsyncIterable<Uint8Array>, decoder: StreamDecoder, options: DrainOptions): Promise<OutputFacts> {
  if (!isAsyncIterable(stream)) throw new TypeError("drain: the stream must be async iterable");
  if (!(decoder instanceof StreamDecoder)) throw new TypeError("drain: the decoder must be a StreamDecoder");
  const given = options as Partial<DrainOptions> | null | undefined;
  if (!isPromiseLike(given?.exited)) throw new TypeError("drain: exited must be a promise that settles when the process exits");
  const exited = given.exited;
  const afterExitMs = given.afterExitMs ?? DEFAULT_AFTER_EXIT_MS;
  // Above MAX_TIMER_MS, setTimeout fires after 1 ms instead: a long window would become none.
  if (typeof afterExitMs !== "number" || !(afterExitMs >= 0 && afterExitMs <= MAX_TIMER_MS)) {
    throw new RangeError(`drain: afterExitMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${describe(afterExitMs)}`);
  }
  if (draining.has(decoder)) throw new Error("drain: the decoder is already being drained");
  if (decoder.facts().sourceComplete || decoder.abortReason !== null) throw new Error("drain: the decoder is already closed");

  draining.add(decoder);
  let iterator: AsyncIterator<Uint8Array> | undefined;
  let finished = false; // the iterator said done: nothing left to release
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cutOff = () => {};
  const deadline = new Promise<"deadline">((resolve) => {
    cutOff = () => resolve("deadline");
  });
  // The window opens when the process exits, not before: a process still running is not cut off here.
  const onExit = () => {
    if (!settled) timer = setTimeout(cutOff, afterExitMs);
  };
  // Promise.resolve: a thenable that throws counts as settled, and never throws here.
  Promise.resolve(exited).then(onExit, onExit);

  try {
    iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      // A rejected next() becomes a value, so a stream that fails after the deadline is never unhandled.
      const next: Promise<Next> = Promise.resolve(iterator.next()).then(
        (result) => ({ kind: "item", result }),
        (error: unknown) => ({ kind: "failed", error }),
      );
      const outcome = await Promise.race([next, deadline]);
      if (outcome === "deadline") {
        decoder.abort(`the stream did not end within ${afterExitMs} ms after the process exited`);
        return decoder.facts();
      }
      if (outcome.kind === "failed") {
        const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
        decoder.abort(`the stream failed: ${message}`);
        return decoder.facts();
      }
      if (outcome.result.done === true) {
        finished = true;
        decoder.end();
        return decoder.facts();
      }
      decoder.push(outcome.result.value);
    }
  } finally {
    settled = true;
    clearTimeout(timer);
    draining.delete(decoder);
    if (iterator !== undefined && !finished) release(stream, iterator);
  }
}
