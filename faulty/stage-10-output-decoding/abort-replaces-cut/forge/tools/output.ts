// Stage 10: a program's output is bytes, not text. Each stream gets its own decoder, told its encoding,
// that decides at ingest where each character begins and ends across chunk boundaries, keeps at most
// `maxBytes` of raw bytes, makes the text from those bytes in bulk, and reports what it knows as facts:
// whether the stream ended, whether everything was kept and decoded, whether the text can be trusted.
// A decoding problem becomes a fact, never a reason to say the command failed.
// TextDecoder is imported, not taken from the globals: without the DOM library the global is a value
// only, and naming it as a type fails with TS2749. node:util exports the class, value and type.
import { TextDecoder } from "node:util";

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

/** What one read returns: a reader keeps its own cursor, and reading takes nothing away from anyone. */
export interface OutputRead {
  /** The text from the cursor to the end of what is decoded so far: whole characters only. */
  readonly text: string;
  /** Where the next read starts: the UTF-8 bytes of all the text so far, the facts' `decodedUtf8Bytes`. */
  readonly decodedCursor: number;
  /** How many of the raw bytes kept the text so far was decoded from: `raw` past it is not text (yet). */
  readonly rawCursor: number;
  /** The text is the stream's whole output, faithfully decoded: `complete` and not `lossy`. */
  readonly reliableText: boolean;
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
// WHATWG decoders' byte rules, and TextDecoder turns runs of decided bytes into text.

/**
 * What the bytes of the character being read are, now that the last of them was read: MORE (0), not a
 * whole character yet; a positive n, one valid character, n bytes long in UTF-8; a negative -n, the
 * first n bytes are not a character, and the bytes after them are read again (they may start the next).
 * A number, not an object: the scanner takes one step per byte and must not allocate for it.
 */
type Step = number;
const MORE = 0;

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

/** UTF-8, read as the WHATWG decoder reads it. A valid character is as long in the text as in the stream. */
function utf8(bytes: Uint8Array, start: number, length: number): Step {
  const lead = bytes[start] ?? 0;
  if (length === 1) {
    if (lead <= 0x7f) return 1;
    // C0, C1 and F5..FF never start a character; 80..BF only continue one.
    return inRange(lead, 0xc2, 0xf4) ? MORE : -1;
  }
  const low = (length === 2 && SECOND_BYTE_LOW.get(lead)) || 0x80;
  const high = (length === 2 && SECOND_BYTE_HIGH.get(lead)) || 0xbf;
  // The sequence so far is invalid; the byte that broke it is read again as a possible start.
  if (!inRange(bytes[start + length - 1] ?? 0, low, high)) return -(length - 1);
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return length === needed ? needed : MORE;
}

/** UTF-16LE: units of two bytes, low byte first; a lead surrogate must be followed by a trail one. */
function utf16le(bytes: Uint8Array, start: number, length: number): Step {
  if (length % 2 === 1) return MORE;
  const end = start + length;
  const unit = (bytes[end - 2] ?? 0) | ((bytes[end - 1] ?? 0) << 8);
  const trail = inRange(unit, 0xdc00, 0xdfff);
  // After a lead surrogate: a trail completes the pair; anything else leaves the lead alone, and
  // that unit is read again on its own.
  if (length === 4) return trail ? 4 : -2;
  if (inRange(unit, 0xd800, 0xdbff)) return MORE;
  if (trail) return -2;
  return unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
}

/** How many two-byte GBK characters there are: 126 lead bytes times 190 trail bytes. */
const GBK_PAIRS = 126 * 190;

/**
 * The UTF-8 length of each two-byte GBK character, by its WHATWG pointer: every pair is one character
 * from U+00A4 up, 2 or 3 bytes. Filled from the runtime's gb18030 decoder when the first GBK decoder is
 * made, so that a GBK stream's `decodedUtf8Bytes` is known at ingest, before its text is made.
 */
let gbkLengths = new Uint8Array(0);

const gbkPointer = (lead: number, trail: number) => (lead - 0x81) * 190 + trail - (trail < 0x7f ? 0x40 : 0x41);

function loadGbkLengths(decoder: TextDecoder): void {
  if (gbkLengths.length === GBK_PAIRS) return;
  const pairs = new Uint8Array(2 * GBK_PAIRS);
  let at = 0;
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) {
      if (trail === 0x7f) continue;
      pairs[at] = lead;
      pairs[at + 1] = trail;
      at += 2;
    }
  }
  const text = decoder.decode(pairs);
  const lengths = new Uint8Array(GBK_PAIRS);
  for (let pointer = 0; pointer < GBK_PAIRS; pointer += 1) lengths[pointer] = text.charCodeAt(pointer) < 0x800 ? 2 : 3;
  gbkLengths = lengths;
}

/**
 * GBK as Windows code page 936 writes it: ASCII, 0x80 (the euro sign), or a lead byte 0x81..0xFE and
 * a trail byte 0x40..0x7E or 0x80..0xFE. 0xFF is never a character. The four-byte sequences of
 * GB18030, which the WHATWG GBK decoder also accepts, are not GBK: code page 936 never writes them.
 */
function gbk(bytes: Uint8Array, start: number, length: number): Step {
  const byte = bytes[start + length - 1] ?? 0;
  if (length === 1) return byte < 0x80 ? 1 : byte === 0x80 ? 3 : byte === 0xff ? -1 : MORE;
  if (inRange(byte, 0x40, 0x7e) || inRange(byte, 0x80, 0xfe)) return gbkLengths[gbkPointer(bytes[start] ?? 0, byte)] ?? 3;
  // As the WHATWG decoder does: an ASCII byte after a lead is read again; a bad 0xFF goes with the lead.
  return byte <= 0x7f ? -1 : -2;
}

/**
 * Bytes [from, to) of a GBK stream, with each invalid sequence written as the one byte 0xFF, which the
 * gb18030 decoder reads as U+FFFD by the Encoding Standard's own rule: one decode then gives the text.
 * Left as they are, some invalid sequences would be read the decoder's own way (`81 30 81 30` is one
 * GB18030 character; in GBK it is two invalid leads and two digits). The copy is never longer than the
 * range.
 */
function withReplacementBytes(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  let length = 0;
  let start = from;
  for (let index = from; index < to; index += 1) {
    const step = gbk(bytes, start, index + 1 - start);
    if (step === MORE) continue;
    if (step > 0) {
      for (; start <= index; start += 1) {
        out[length] = bytes[start] ?? 0;
        length += 1;
      }
      continue;
    }
    out[length] = 0xff;
    length += 1;
    start -= step;
    index = start - 1;
  }
  // The range ends inside a character only where the stream did: that character was replaced too.
  if (start < to) {
    out[length] = 0xff;
    length += 1;
  }
  return out.subarray(0, length);
}

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

/**
 * The language's own test of what a typed array is: the %TypedArray%.prototype[Symbol.toStringTag]
 * getter reads the array's internal kind, so a Buffer or a Uint8Array from another realm passes, and an
 * object that only inherits from Uint8Array.prototype does not. It is cheaper than util.types'
 * isUint8Array, and push, which runs it, runs once per chunk: a chunk may be one byte.
 */
const typedArrayKind = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)?.get;
const isUint8Array = (value: unknown): value is Uint8Array => typedArrayKind?.call(value) === "Uint8Array";

/**
 * From this size on, the raw bytes grow in place: the buffers a doubling copy leaves behind until the
 * collector runs add up to what is kept, and for a stream of 16 MiB of invalid bytes (16 MiB kept, 32 MiB
 * of text) that was the difference between 3 and 4 times the bytes kept.
 */
const IN_PLACE_FROM = 64 * 1024;

/** Chunks up to this length are copied a byte at a time; longer ones with one set() call. */
const SHORT_CHUNK = 64;

/** ES2024's resizable ArrayBuffer, in Node since 20; the repository's TypeScript library is ES2023's. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
type ResizableArrayBufferConstructor = new (byteLength: number, options: { readonly maxByteLength: number }) => ResizableArrayBuffer;

/**
 * Address space for up to `maxBytes` bytes, committed only as it is resized: a buffer that grows in
 * place, copying nothing and leaving nothing behind for the collector. Null when the runtime cannot
 * reserve that much (Node 20 stops near 4 GiB).
 */
function reserveRoom(maxBytes: number): ResizableArrayBuffer | null {
  try {
    return new (ArrayBuffer as unknown as ResizableArrayBufferConstructor)(0, { maxByteLength: maxBytes });
  } catch {
    return null;
  }
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");

// ---------------------------------------------------------------------------------------------------
// Text from decided bytes

/** How one text encoding is read: its character boundaries, and how a run of decided bytes becomes text. */
interface Codec {
  readonly classify: Classify;
  /** Bytes [from, to) as text: whole characters and invalid sequences, `replacements` of them in the stream. */
  readonly render: (bytes: Uint8Array, from: number, to: number, replacements: number) => string;
}

function codecFor(encoding: Exclude<Encoding, "raw">): Codec {
  // TextDecoder takes WHATWG labels: "utf16le" (Node's Buffer name) and "cp936" are not among them.
  // Built now, before any process starts: a runtime without this encoding fails here, not mid-run.
  // ignoreBOM keeps a byte order mark as the character U+FEFF: the text says what the program wrote.
  if (encoding === "gbk") {
    // "gb18030", not "gbk": on Node 20 the "gbk" decoder has a table of its own, with 101 pairs (A2E3, the
    // euro sign, among them) as private-use characters; the gb18030 decoder has the WHATWG index on every
    // supported Node. Code page 936 is its two-byte part.
    const decoder = new TextDecoder("gb18030", { ignoreBOM: true });
    loadGbkLengths(decoder);
    return {
      classify: gbk,
      render: (bytes, from, to, replacements) =>
        decoder.decode(replacements === 0 ? bytes.subarray(from, to) : withReplacementBytes(bytes, from, to)),
    };
  }
  // The scanner follows the WHATWG rules of these two decoders byte for byte, so the decoder's own
  // replacement of an invalid sequence is exactly the one the scanner counted.
  const decoder = new TextDecoder(encoding === "utf8" ? "utf-8" : "utf-16le", { ignoreBOM: true });
  return { classify: encoding === "utf8" ? utf8 : utf16le, render: (bytes, from, to) => decoder.decode(bytes.subarray(from, to)) };
}

/**
 * Where the first `cursor` UTF-8 bytes of `text` end, as an index into the string, or -1 when that is
 * inside a character. `end` is the UTF-8 length of the whole text. It counts back from the end, so a
 * reader pays for the text it gets and nothing more. The text holds no lone surrogates: every invalid
 * sequence became U+FFFD.
 */
function indexAtUtf8(text: string, cursor: number, end: number): number {
  let bytes = end;
  let index = text.length;
  while (bytes > cursor) {
    const unit = text.charCodeAt(index - 1);
    const pair = inRange(unit, 0xdc00, 0xdfff);
    bytes -= pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    index -= pair ? 2 : 1;
  }
  return bytes === cursor ? index : -1;
}

// ---------------------------------------------------------------------------------------------------
// The decoder

/** Decodes one stream of a process: bytes in; text, raw bytes and facts out. */
export class StreamDecoder {
  readonly #encoding: Encoding;
  readonly #strict: boolean;
  readonly #maxBytes: number;
  /** Null for raw: no text is promised. */
  readonly #codec: Codec | null;

  #state: "open" | "ended" | "aborted" = "open";
  #abortReason: string | null = null;
  #rawBytes = 0;
  #capReached = false;
  /** False once the cap cut the stream or strict decoding failed (and from the start for raw). */
  #decoding: boolean;
  #decodedUtf8Bytes = 0;
  #replacements = 0;
  #error: string | null = null;

  // The bytes kept, in one buffer that doubles as it fills and never grows past maxBytes: no object
  // per push, and a copy only a logarithmic number of times. Past IN_PLACE_FROM it moves once into
  // `#room`, address space reserved for the whole cap, and grows there in place.
  #room: ResizableArrayBuffer | null = null;
  #raw = new Uint8Array(0);
  #kept = 0;
  /**
   * Bytes before this offset are decided: whole characters, or invalid sequences. The bytes after it,
   * at most 3, are the character being read: the only state that crosses a chunk boundary.
   */
  #decided = 0;
  /** The text of the bytes before `#rendered`, made when the text is asked for, not at each push. */
  #text = "";
  #rendered = 0;

  constructor(options: StreamDecoderOptions = {}) {
    const { encoding, errors, maxBytes } = readOptions(options);
    this.#encoding = encoding;
    this.#strict = errors === "strict";
    this.#maxBytes = maxBytes;
    this.#codec = encoding === "raw" ? null : codecFor(encoding);
    this.#decoding = this.#codec !== null;
  }

  /** The text decoded so far: whole characters only, nothing past a strict failure or the cap. */
  get text(): string {
    return this.#render();
  }

  /** A copy of the raw bytes kept: the first `maxBytes` bytes the stream delivered. */
  get raw(): Uint8Array {
    return this.#raw.slice(0, this.#kept);
  }

  /** Why the stream was cut off before its end, or null. */
  get abortReason(): string | null {
    return this.#abortReason;
  }

  push(chunk: Uint8Array): void {
    if (!isUint8Array(chunk)) {
      throw new TypeError(`a chunk must be bytes (a Uint8Array), got ${chunk === null ? "null" : typeof chunk}`);
    }
    if (this.#state !== "open") throw new Error(`the decoder is closed (${this.#state}): push nothing after end() or abort()`);
    this.#rawBytes += chunk.length;
    const from = this.#kept;
    const taken = Math.min(chunk.length, this.#maxBytes - from);
    if (taken > 0) {
      this.#reserve(from + taken);
      // A copy: the caller may reuse its buffer once push returns. A short chunk byte by byte: a pipe fed
      // a byte per write delivers chunks of a byte or two, and for those a set() call costs far more.
      const raw = this.#raw;
      if (taken > SHORT_CHUNK) raw.set(chunk.subarray(0, taken), from);
      else for (let index = 0; index < taken; index += 1) raw[from + index] = chunk[index] ?? 0;
      this.#kept = from + taken;
    }
    if (this.#decoding && this.#codec !== null) this.#scan(this.#codec, from);
    if (taken < chunk.length) {
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
    this.#finishHeld();
  }

  /** The stream was cut off before its end (killed, cancelled, not drained in time). Ignored once closed. */
  abort(reason: string): void {
    if (typeof reason !== "string" || reason.trim() === "") throw new TypeError("abort needs a reason, in words");
    if (this.#state !== "open") return;
    this.#state = "aborted";
    this.#abortReason = reason;
    this.#finishHeld();
  }

  facts(): OutputFacts {
    const sourceComplete = this.#state === "ended";
    return Object.freeze({
      sourceComplete,
      complete: sourceComplete && !this.#capReached && this.#error === null,
      lossy: this.#codec === null || this.#replacements > 0 || this.#error !== null,
      capReached: this.#capReached,
      rawBytes: this.#rawBytes,
      decodedUtf8Bytes: this.#decodedUtf8Bytes,
      error: this.#error,
    });
  }

  /**
   * The text from `cursor` on, a number of UTF-8 bytes of the text: 0, or a `decodedCursor` an earlier
   * read returned. Reading consumes nothing: any number of readers, each with its own cursor.
   */
  read(cursor = 0): OutputRead {
    const text = this.#render();
    const end = this.#decodedUtf8Bytes;
    if (typeof cursor !== "number" || !Number.isSafeInteger(cursor) || cursor < 0 || cursor > end) {
      throw new RangeError(`read: the cursor must be a whole number of UTF-8 bytes from 0 to ${end}, got ${describe(cursor)}`);
    }
    const index = indexAtUtf8(text, cursor, end);
    if (index < 0) throw new RangeError(`read: cursor ${cursor} is inside a character: start at 0 or at a decodedCursor a read returned`);
    const { complete, lossy } = this.facts();
    return Object.freeze({ text: text.slice(index), decodedCursor: end, rawCursor: this.#decided, reliableText: complete && !lossy });
  }

  /** Makes room for `size` bytes kept: double the buffer, or more if one chunk needs it, never past the cap. */
  #reserve(size: number): void {
    if (size <= this.#raw.length) return;
    const capacity = Math.min(this.#maxBytes, Math.max(size, 2 * this.#raw.length));
    // Most outputs are small, and a reservation costs more than a small copy: only a large one moves.
    if (this.#room === null && capacity > IN_PLACE_FROM) this.#room = reserveRoom(this.#maxBytes);
    const room = this.#room;
    room?.resize(capacity);
    const grown = room === null ? new Uint8Array(capacity) : new Uint8Array(room, 0, capacity);
    if (grown.buffer !== this.#raw.buffer) grown.set(this.#raw.subarray(0, this.#kept));
    this.#raw = grown;
  }

  /**
   * Decides the bytes kept from `from` on: each one is one step of the character being read, which
   * began at `#decided`, possibly in an earlier chunk. Nothing becomes text here; only the facts move.
   */
  #scan(codec: Codec, from: number): void {
    const bytes = this.#raw;
    const end = this.#kept;
    let start = this.#decided;
    let decoded = 0; // UTF-8 bytes of the characters decided here
    let replacements = 0;
    for (let index = from; index < end; index += 1) {
      const step = codec.classify(bytes, start, index + 1 - start);
      if (step === MORE) continue;
      if (step > 0) {
        decoded += step;
        start = index + 1;
        continue;
      }
      if (this.#strict) {
        this.#fail(start, -step, false);
        break;
      }
      replacements += 1;
      start -= step;
      index = start - 1; // read the bytes after the invalid ones again
    }
    // Each replacement is one U+FFFD, 3 bytes in UTF-8.
    this.#decodedUtf8Bytes += decoded + 3 * replacements;
    this.#replacements += replacements;
    if (this.#error === null) this.#decided = start;
  }

  /** At the stream's end, a character still held is one the program never finished: it is invalid. */
  #finishHeld(): void {
    const held = this.#kept - this.#decided;
    if (!this.#decoding || held === 0) return;
    if (this.#strict) {
      this.#fail(this.#decided, held, true);
      return;
    }
    this.#replacements += 1;
    this.#decodedUtf8Bytes += 3; // U+FFFD
    this.#decided = this.#kept;
  }

  /** Strict mode met an invalid sequence: the text ends before it, and the error says where and what. */
  #fail(offset: number, length: number, atEnd: boolean): void {
    const what = atEnd ? `incomplete ${this.#encoding} character` : `invalid ${this.#encoding}`;
    const where = atEnd ? " at the end of the stream" : "";
    this.#error = `${what} at byte offset ${offset} (${hex(this.#raw.subarray(offset, offset + length))})${where}: strict decoding stopped there`;
    this.#decoding = false;
    this.#decided = offset;
  }

  /** The text so far: the decided bytes not turned into text yet become text now, in one call. */
  #render(): string {
    const codec = this.#codec;
    if (codec !== null && this.#rendered < this.#decided) {
      this.#text += codec.render(this.#raw, this.#rendered, this.#decided, this.#replacements);
      this.#rendered = this.#decided;
    }
    return this.#text;
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
