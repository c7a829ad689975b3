import { spawn } from "node:child_process";
import { Buffer } from "node:buffer";
import { once } from "node:events";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { drain, StreamDecoder, type OutputFacts } from "forge/tools/output";

// The software-delivery scenario again: the harness ran a build step and reads its stdout. The process
// may exit while a grandchild it started (a compiler server, a file watcher) still holds the pipe open,
// so the stream never ends on its own; the harness must stop waiting and say so.

const utf8 = (text: string) => Uint8Array.from(Buffer.from(text, "utf8"));

/**
 * A stream the test drives by hand: `write`, `end` and `fail` settle the reader's pending `next()`.
 * It counts `return()` and `destroy()` calls: how a reader that stops early releases a stream.
 */
function handDrivenStream() {
  type Waiter = { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: Error) => void };
  const queued: Array<(waiter: Waiter) => void> = [];
  const waiting: Waiter[] = [];
  const control = { returned: 0, destroyed: 0 };
  const settle = (action: (waiter: Waiter) => void) => {
    const waiter = waiting.shift();
    if (waiter) action(waiter);
    else queued.push(action);
  };
  const iterator: AsyncIterator<Uint8Array> = {
    next: () =>
      new Promise((resolve, reject) => {
        const action = queued.shift();
        if (action) action({ resolve, reject });
        else waiting.push({ resolve, reject });
      }),
    return: () => {
      control.returned += 1;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return {
    stream: {
      [Symbol.asyncIterator]: () => iterator,
      destroy: () => {
        control.destroyed += 1;
      },
    } as AsyncIterable<Uint8Array>,
    control,
    write: (chunk: Uint8Array) => settle((waiter) => waiter.resolve({ done: false, value: chunk })),
    end: () => settle((waiter) => waiter.resolve({ done: true, value: undefined })),
    fail: (error: Error) => settle((waiter) => waiter.reject(error)),
  };
}

/** A promise with its resolve function: the process's exit, under the test's control. */
function exitSignal() {
  let exit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    exit = resolve;
  });
  return { exited, exit };
}

/** Tracks whether a promise has settled, without awaiting it. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

const cutOffFacts = (rawBytes: number, decodedUtf8Bytes: number): OutputFacts => ({
  sourceComplete: false,
  complete: false,
  lossy: false,
  capReached: false,
  rawBytes,
  decodedUtf8Bytes,
  error: null,
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

it("drain decodes a stream to its end and reports it complete", async () => {
  const { stream, control, write, end } = handDrivenStream();
  const { exited, exit } = exitSignal();
  const decoder = new StreamDecoder({ encoding: "utf8" });
  const facts = watch(drain(stream, decoder, { exited }));
  write(utf8("building 中"));
  write(utf8("文 docs\n"));
  end();
  await vi.advanceTimersByTimeAsync(0);
  // The exit is often reported after the end of the output: a drain that is over arms no timer.
  exit(0);
  await vi.advanceTimersByTimeAsync(0);
  expect(
    { settled: facts.settled, value: facts.value, text: decoder.text, released: { ...control }, timers: vi.getTimerCount() },
    "a stream that ends: complete facts, no iterator left to release, no timer left",
  ).toEqual({
    settled: true,
    value: { sourceComplete: true, complete: true, lossy: false, capReached: false, rawBytes: 21, decodedUtf8Bytes: 21, error: null },
    text: "building 中文 docs\n",
    released: { returned: 0, destroyed: 0 },
    timers: 0,
  });
});

it("drain waits at most afterExitMs after the process exits, then reports the stream cut off", async () => {
  // The default window, 250 ms: a grandchild holds the pipe open and the stream never ends.
  const held = handDrivenStream();
  const decoder = new StreamDecoder();
  const facts = watch(drain(held.stream, decoder, { exited: Promise.resolve(0) }));
  held.write(utf8("watching for changes…\n"));
  await vi.advanceTimersByTimeAsync(249);
  const at249 = { settled: facts.settled, released: { ...held.control } };
  await vi.advanceTimersByTimeAsync(1);
  expect(
    {
      at249,
      at250: { settled: facts.settled, released: { ...held.control } },
      facts: facts.value,
      abortReason: decoder.abortReason,
      text: decoder.text,
      timers: vi.getTimerCount(),
    },
    "default window: still waiting at 249 ms, cut off at 250 ms, stream released once, no timer left",
  ).toEqual({
    at249: { settled: false, released: { returned: 0, destroyed: 0 } },
    at250: { settled: true, released: { returned: 1, destroyed: 1 } },
    facts: cutOffFacts(24, 24),
    abortReason: "the stream did not end within 250 ms after the process exited",
    text: "watching for changes…\n",
    timers: 0,
  });

  // A window the caller chose.
  const slow = handDrivenStream();
  const longer = watch(drain(slow.stream, new StreamDecoder(), { exited: Promise.resolve(0), afterExitMs: 1000 }));
  await vi.advanceTimersByTimeAsync(999);
  const at999 = longer.settled;
  await vi.advanceTimersByTimeAsync(1);
  expect({ at999, at1000: longer.settled, facts: longer.value }, "afterExitMs 1000").toEqual({
    at999: false,
    at1000: true,
    facts: cutOffFacts(0, 0),
  });

  // A bare iterator, with neither return() nor destroy(): nothing to release, and no error either.
  const bare = { [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<Uint8Array>>(() => {}) }) };
  const plain = watch(drain(bare, new StreamDecoder(), { exited: Promise.resolve(0), afterExitMs: 10 }));
  await vi.advanceTimersByTimeAsync(10);
  expect({ settled: plain.settled, error: plain.error, facts: plain.value }, "a bare iterator cut off").toEqual({
    settled: true,
    error: undefined,
    facts: cutOffFacts(0, 0),
  });

  // No window at all: the stream is cut off as soon as the timer can fire.
  const none = handDrivenStream();
  const immediate = watch(drain(none.stream, new StreamDecoder(), { exited: Promise.resolve(0), afterExitMs: 0 }));
  await vi.advanceTimersByTimeAsync(0);
  expect({ settled: immediate.settled, released: { ...none.control } }, "afterExitMs 0").toEqual({
    settled: true,
    released: { returned: 1, destroyed: 1 },
  });
});

it("drain keeps what arrives after exit within the window and clears its timer", async () => {
  const { stream, control, write, end } = handDrivenStream();
  const { exited, exit } = exitSignal();
  const decoder = new StreamDecoder();
  const facts = watch(drain(stream, decoder, { exited }));
  write(utf8("tests: 12 passed\n"));
  exit(0);
  await vi.advanceTimersByTimeAsync(100);
  write(utf8("coverage: 91%\n")); // flushed by the process just before it exited
  const timersInWindow = vi.getTimerCount();
  await vi.advanceTimersByTimeAsync(100);
  end();
  await vi.advanceTimersByTimeAsync(0);
  const atEnd = { settled: facts.settled, timers: vi.getTimerCount() };
  await vi.advanceTimersByTimeAsync(1000);
  expect(
    { timersInWindow, atEnd, facts: facts.value, text: decoder.text, abortReason: decoder.abortReason, released: { ...control } },
    "output within the window is kept; the end clears the timer and nothing is cut off later",
  ).toEqual({
    timersInWindow: 1,
    atEnd: { settled: true, timers: 0 },
    facts: { sourceComplete: true, complete: true, lossy: false, capReached: false, rawBytes: 31, decodedUtf8Bytes: 31, error: null },
    text: "tests: 12 passed\ncoverage: 91%\n",
    abortReason: null,
    released: { returned: 0, destroyed: 0 },
  });
});

it("drain does not start the window before the process exits", async () => {
  const { stream, control } = handDrivenStream();
  const { exited, exit } = exitSignal();
  const facts = watch(drain(stream, new StreamDecoder(), { exited }));
  // A long build: ten minutes without output, and no exit yet.
  await vi.advanceTimersByTimeAsync(600_000);
  const running = { settled: facts.settled, timers: vi.getTimerCount() };
  exit(0);
  await vi.advanceTimersByTimeAsync(0);
  const exitedNow = { settled: facts.settled, timers: vi.getTimerCount() };
  await vi.advanceTimersByTimeAsync(250);
  expect({ running, exitedNow, settled: facts.settled, released: { ...control } }, "the window opens at exit").toEqual({
    running: { settled: false, timers: 0 },
    exitedNow: { settled: false, timers: 1 },
    settled: true,
    released: { returned: 1, destroyed: 1 },
  });

  // A process that could not be started or waited on also counts as gone.
  const orphan = handDrivenStream();
  const failed = watch(drain(orphan.stream, new StreamDecoder(), { exited: Promise.reject(new Error("spawn ENOENT")) }));
  await vi.advanceTimersByTimeAsync(250);
  expect({ settled: failed.settled, facts: failed.value }, "exited rejected").toEqual({ settled: true, facts: cutOffFacts(0, 0) });
});

it("drain reports a failed stream in the facts instead of throwing", async () => {
  const { stream, control, write, fail } = handDrivenStream();
  const decoder = new StreamDecoder({ encoding: "utf8" });
  const facts = watch(drain(stream, decoder, { exited: Promise.resolve(0) }));
  write(utf8("linking app"));
  fail(new Error("read EIO"));
  await vi.advanceTimersByTimeAsync(0);
  expect(
    {
      settled: facts.settled,
      error: facts.error,
      facts: facts.value,
      reason: decoder.abortReason,
      released: { ...control },
      timers: vi.getTimerCount(),
    },
    "a failed stream: facts that say it did not end, and the reason",
  ).toEqual({
    settled: true,
    error: undefined,
    facts: cutOffFacts(11, 11),
    reason: "the stream failed: read EIO",
    released: { returned: 1, destroyed: 1 },
    timers: 0,
  });
});

it("drain releases the iterator and its timer when a chunk is not bytes", async () => {
  const { stream, control, write } = handDrivenStream();
  const decoder = new StreamDecoder();
  const facts = watch(drain(stream, decoder, { exited: Promise.resolve(0) }));
  // A stream with setEncoding() called on it yields strings: decoding twice is a bug to report.
  write("already text" as unknown as Uint8Array);
  await vi.advanceTimersByTimeAsync(0);
  expect(
    { settled: facts.settled, error: String(facts.error), released: { ...control }, timers: vi.getTimerCount() },
    "drain rejects and releases everything",
  ).toEqual({
    settled: true,
    error: "TypeError: a chunk must be bytes (a Uint8Array), got string",
    released: { returned: 1, destroyed: 1 },
    timers: 0,
  });
  // The decoder is free again: a second drain is not refused as a concurrent one.
  const again = handDrivenStream();
  const second = watch(drain(again.stream, decoder, { exited: Promise.resolve(0) }));
  again.end();
  await vi.advanceTimersByTimeAsync(0);
  expect(second.value, "a second drain of the same decoder").toEqual({
    sourceComplete: true,
    complete: true,
    lossy: false,
    capReached: false,
    rawBytes: 0,
    decodedUtf8Bytes: 0,
    error: null,
  });
});

it("drain refuses bad arguments, a closed decoder and a decoder already being drained", async () => {
  const ended = new StreamDecoder();
  ended.end();
  const aborted = new StreamDecoder();
  aborted.abort("cancelled");
  const busy = new StreamDecoder();
  const first = handDrivenStream();
  const running = watch(drain(first.stream, busy, { exited: Promise.resolve(0) }));
  const stream = handDrivenStream().stream;
  const exited = Promise.resolve(0);
  const attempts: Record<string, () => Promise<unknown>> = {
    "a stream that is not async iterable": () =>
      drain([utf8("x")] as unknown as AsyncIterable<Uint8Array>, new StreamDecoder(), { exited }),
    "no stream": () => drain(null as unknown as AsyncIterable<Uint8Array>, new StreamDecoder(), { exited }),
    "a decoder that is not a StreamDecoder": () => drain(stream, { push() {} } as unknown as StreamDecoder, { exited }),
    "no options": () => drain(stream, new StreamDecoder(), undefined as unknown as { exited: Promise<unknown> }),
    "exited is not a promise": () => drain(stream, new StreamDecoder(), { exited: 0 as unknown as Promise<unknown> }),
    "afterExitMs -1": () => drain(stream, new StreamDecoder(), { exited, afterExitMs: -1 }),
    "afterExitMs NaN": () => drain(stream, new StreamDecoder(), { exited, afterExitMs: Number.NaN }),
    "afterExitMs Infinity": () => drain(stream, new StreamDecoder(), { exited, afterExitMs: Number.POSITIVE_INFINITY }),
    'afterExitMs "250"': () => drain(stream, new StreamDecoder(), { exited, afterExitMs: "250" as unknown as number }),
    "afterExitMs 2^31": () => drain(stream, new StreamDecoder(), { exited, afterExitMs: 2 ** 31 }),
    "afterExitMs 2^31 - 1, the longest timer": () => {
      const ended = handDrivenStream();
      ended.end();
      return drain(ended.stream, new StreamDecoder(), { exited, afterExitMs: 2 ** 31 - 1 });
    },
    "an ended decoder": () => drain(stream, ended, { exited }),
    "an aborted decoder": () => drain(stream, aborted, { exited }),
    "a decoder another drain is reading into": () => drain(stream, busy, { exited }),
  };
  const outcomes: Record<string, string> = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    outcomes[name] = await attempt().then(
      () => "accepted",
      (error: unknown) => String(error),
    );
  }
  const window = "RangeError: drain: afterExitMs must be a number of milliseconds from 0 to 2147483647, got";
  expect(outcomes, "each bad call refused with one clear error").toEqual({
    "a stream that is not async iterable": "TypeError: drain: the stream must be async iterable",
    "no stream": "TypeError: drain: the stream must be async iterable",
    "a decoder that is not a StreamDecoder": "TypeError: drain: the decoder must be a StreamDecoder",
    "no options": "TypeError: drain: exited must be a promise that settles when the process exits",
    "exited is not a promise": "TypeError: drain: exited must be a promise that settles when the process exits",
    "afterExitMs -1": `${window} -1`,
    "afterExitMs NaN": `${window} NaN`,
    "afterExitMs Infinity": `${window} Infinity`,
    'afterExitMs "250"': `${window} "250"`,
    "afterExitMs 2^31": `${window} 2147483648`,
    "afterExitMs 2^31 - 1, the longest timer": "accepted",
    "an ended decoder": "Error: drain: the decoder is already closed",
    "an aborted decoder": "Error: drain: the decoder is already closed",
    "a decoder another drain is reading into": "Error: drain: the decoder is already being drained",
  });
  // The refusals touched nothing: the first drain still owns its decoder and finishes normally.
  first.write(utf8("ok\n"));
  first.end();
  await vi.advanceTimersByTimeAsync(0);
  expect({ facts: running.value, text: busy.text }, "the drain that was already running").toEqual({
    facts: { sourceComplete: true, complete: true, lossy: false, capReached: false, rawBytes: 3, decodedUtf8Bytes: 3, error: null },
    text: "ok\n",
  });
});

it("drain stops waiting for a pipe a grandchild holds open, and closes its end", { timeout: 30_000 }, async ({ onTestFinished }) => {
  vi.useRealTimers();
  // The child starts a grandchild that inherits its stdout and lives for a minute, prints the
  // grandchild's pid and exits at once. The pipe stays open as long as the grandchild lives.
  const script = [
    'const { spawn } = require("node:child_process");',
    'const grandchild = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: ["ignore", "inherit", "ignore"], detached: true });',
    "grandchild.unref();",
    "process.stdout.write(`watcher ${grandchild.pid}\\n`);",
  ].join("\n");
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  const decoder = new StreamDecoder();
  const facts = await drain(child.stdout, decoder, { exited: once(child, "exit"), afterExitMs: 1000 });
  const pid = Number(/^watcher (\d+)\n$/.exec(decoder.text)?.[1]);
  onTestFinished(() => {
    if (pid > 0) process.kill(pid);
  });
  expect(
    { line: decoder.text.replace(/\d+/, "<pid>"), facts, abortReason: decoder.abortReason, destroyed: child.stdout.destroyed },
    "the grandchild still holds the pipe: cut off after the window, our end of the pipe closed",
  ).toEqual({
    line: "watcher <pid>\n",
    facts: cutOffFacts(decoder.text.length, decoder.text.length),
    abortReason: "the stream did not end within 1000 ms after the process exited",
    destroyed: true,
  });
});

it("decodes a real child's GBK stdout and UTF-16LE stderr", async () => {
  vi.useRealTimers();
  // The child writes bytes, as a Windows tool would: GBK on stdout, UTF-16LE on stderr.
  const gbk = "b9b9bda8b3c9b9a6a3ba3320b8f6c4bfb1ea0a"; // 构建成功：3 个目标\n
  const utf16 = Buffer.from("警告：磁盘空间不足 🎵\n", "utf16le").toString("hex");
  const script = `process.stdout.write(Buffer.from("${gbk}", "hex")); process.stderr.write(Buffer.from("${utf16}", "hex"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = once(child, "exit");
  const stdout = new StreamDecoder({ encoding: "gbk" });
  const stderr = new StreamDecoder({ encoding: "utf16le" });
  // A generous window: this test is about decoding, and a loaded machine may deliver EOF late.
  const [stdoutFacts, stderrFacts, [code]] = await Promise.all([
    drain(child.stdout, stdout, { exited, afterExitMs: 10_000 }),
    drain(child.stderr, stderr, { exited, afterExitMs: 10_000 }),
    exited,
  ]);
  expect({ code, stdout: stdout.text, stderr: stderr.text, stdoutFacts, stderrFacts }, "each stream decoded with its own encoding").toEqual(
    {
      code: 0,
      stdout: "构建成功：3 个目标\n",
      stderr: "警告：磁盘空间不足 🎵\n",
      stdoutFacts: {
        sourceComplete: true,
        complete: true,
        lossy: false,
        capReached: false,
        rawBytes: 19,
        decodedUtf8Bytes: 27,
        error: null,
      },
      stderrFacts: {
        sourceComplete: true,
        complete: true,
        lossy: false,
        capReached: false,
        rawBytes: 26,
        decodedUtf8Bytes: 33,
        error: null,
      },
    },
  );
});
