// The stage projects' threads pool: in watch mode the thread of the next run is started when a run's
// thread ends, and taken by the next run only if it was started the same way; a single run, a closed
// vitest or a spare that fails leaves no thread behind. Driven with a stand-in for vitest's worker
// runtime (a script that answers with its thread id), as vitest's pool runner drives the real one.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { PoolOptions, PoolWorker, WorkerRequest } from "vitest/node";
import { expect, it, type TestContext } from "vitest";
import { temporaryFolder } from "../../testing.js";
import { spare, threadsWithSpare } from "../../vitest/threads-pool.js";

// Threads start in tens of milliseconds alone and in seconds beside verify's other work.
const SLOW = { timeout: 30_000 };

const RUNTIME = `
import { parentPort, threadId } from "node:worker_threads";
if (process.env.FAIL_AT_BOOT === "1") throw new Error("boot failed");
parentPort.on("message", (message) => {
  if (message === "who") parentPort.postMessage({ threadId, mode: process.env.POOL_TEST_MODE ?? "" });
  if (message === "print") console.log("printed by thread " + threadId);
});
`;

interface FakeVitest {
  readonly config: { watch: boolean };
  readonly logger: { readonly outputStream: PassThrough; readonly errorStream: PassThrough };
  readonly closers: Array<() => Promise<void> | void>;
  onClose(fn: () => Promise<void> | void): void;
}

function fakeVitest(watch: boolean): FakeVitest {
  const closers: Array<() => Promise<void> | void> = [];
  return {
    config: { watch },
    logger: { outputStream: new PassThrough(), errorStream: new PassThrough() },
    closers,
    onClose: (fn) => closers.push(fn),
  };
}

function runtimeFolder(): string {
  const dist = temporaryFolder();
  mkdirSync(join(dist, "workers"));
  writeFileSync(join(dist, "workers", "threads.js"), RUNTIME);
  return dist;
}

function poolWorker(dist: string, vitest: FakeVitest, env: Record<string, string> = {}): PoolWorker {
  // The fields the pool worker reads; the rest of vitest's options play no part here.
  const options = { distPath: dist, project: { vitest }, execArgv: [], env: { ...process.env, ...env } };
  return threadsWithSpare.createPoolWorker(options as unknown as PoolOptions);
}

/** What the running thread says of itself. */
function ask(worker: PoolWorker): Promise<{ threadId: number; mode: string }> {
  return new Promise((resolve) => {
    const answer = (message: unknown) => {
      worker.off("message", answer);
      resolve(message as { threadId: number; mode: string });
    };
    worker.on("message", answer);
    worker.send("who" as unknown as WorkerRequest);
  });
}

async function closeAll(vitest: FakeVitest): Promise<void> {
  await Promise.all(vitest.closers.map((fn) => fn()));
}

/** A runtime folder and a watching vitest, closed when the test ends. */
function watching(context: TestContext): { readonly dist: string; readonly vitest: FakeVitest } {
  const vitest = fakeVitest(true);
  context.onTestFinished(() => closeAll(vitest));
  return { dist: runtimeFolder(), vitest };
}

it("gives a watching vitest's next run the thread started when the last run's thread ended", SLOW, async (context) => {
  const { dist, vitest } = watching(context);

  const first = poolWorker(dist, vitest);
  await first.start();
  const firstThread = (await ask(first)).threadId;
  expect(spare.waitingThreadId, "a thread waiting while the first run goes on").toBe(null);
  await first.stop();
  const waiting = spare.waitingThreadId;
  expect(waiting, "a thread waiting once the first run's thread ended").not.toBe(null);
  expect(waiting, "the waiting thread is a new one, not the first run's").not.toBe(firstThread);

  const second = poolWorker(dist, vitest);
  await second.start();
  expect((await ask(second)).threadId, "the second run's thread").toBe(waiting);
  expect(spare.waitingThreadId, "a thread waiting while the second run goes on").toBe(null);
  await second.stop();
  expect(spare.waitingThreadId, "a thread waiting after the second run").not.toBe(waiting);
});

it("leaves no thread waiting after a single run, nor after a watching vitest closes", SLOW, async () => {
  const dist = runtimeFolder();
  const single = fakeVitest(false);
  const once = poolWorker(dist, single);
  await once.start();
  await ask(once);
  await once.stop();
  expect(spare.waitingThreadId, "a thread waiting after a run that does not watch").toBe(null);

  const watching = fakeVitest(true);
  const early = poolWorker(dist, watching);
  const late = poolWorker(dist, watching);
  await early.start();
  await late.start();
  await early.stop();
  expect(spare.waitingThreadId, "a thread waiting once the first of two threads ended").not.toBe(null);
  // Vitest ends its pool and calls its close hooks at once: a run's thread that ends after the close
  // hooks ran must not start a new one.
  await closeAll(watching);
  expect(spare.waitingThreadId, "a thread waiting after the close").toBe(null);
  await late.stop();
  expect(spare.waitingThreadId, "a thread waiting after a run's thread ended past the close").toBe(null);
});

it("starts a fresh thread for a run whose environment differs from the waiting one's, and ends that one", SLOW, async (context) => {
  const { dist, vitest } = watching(context);
  const first = poolWorker(dist, vitest, { POOL_TEST_MODE: "a" });
  await first.start();
  await first.stop();
  const waiting = spare.waitingThreadId;
  expect(waiting, "a thread waiting after a run in mode a").not.toBe(null);

  const other = poolWorker(dist, vitest, { POOL_TEST_MODE: "b" });
  await other.start();
  const answer = await ask(other);
  expect(answer.mode, "the mode the thread of a run in mode b was started in").toBe("b");
  expect(answer.threadId, "the thread of a run in mode b is not the one started for mode a").not.toBe(waiting);
  expect(spare.waitingThreadId, "the thread started for mode a, once a run in mode b started").toBe(null);
  await other.stop();
  const next = poolWorker(dist, vitest, { POOL_TEST_MODE: "b" });
  await next.start();
  expect((await ask(next)).mode, "the next run's thread, started after the run in mode b").toBe("b");
  await next.stop();
});

it("drops a waiting thread that fails as it boots, and the next run starts its own", SLOW, async (context) => {
  const { dist, vitest } = watching(context);
  const failing = poolWorker(dist, vitest, { FAIL_AT_BOOT: "1" });
  await failing.start();
  // The run's own thread fails too; vitest's pool runner listens for that, as this test does.
  const failed = new Promise<unknown>((resolve) => failing.on("error", resolve));
  expect(String(await failed), "the run's own thread").toContain("boot failed");
  await failing.stop();
  // The spare is started in the same turn as the run's thread ends; its own failure comes later.
  const doomed = spare.waitingThreadId;
  expect(doomed, "a thread waiting once the failing run's thread ended").not.toBe(null);
  await expect.poll(() => spare.waitingThreadId, { message: "a thread waiting after it failed as it booted", timeout: 20_000 }).toBe(null);

  const next = poolWorker(dist, vitest);
  await next.start();
  const answer = await ask(next);
  expect(answer.mode, "the next run's thread answers").toBe("");
  expect(answer.threadId, "the next run's thread is not the one that failed").not.toBe(doomed);
  await next.stop();
});

it("passes a thread's output to vitest's streams and leaves them open when the thread ends", SLOW, async (context) => {
  const { dist, vitest } = watching(context);
  let printed = "";
  vitest.logger.outputStream.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const listeners = vitest.logger.outputStream.getMaxListeners();
  for (const round of [1, 2]) {
    const worker = poolWorker(dist, vitest);
    await worker.start();
    const { threadId } = await ask(worker);
    worker.send("print" as unknown as WorkerRequest);
    await expect.poll(() => printed, { message: `the output of round ${round}` }).toContain(`printed by thread ${threadId}\n`);
    await worker.stop();
  }
  expect(vitest.logger.outputStream.writable, "vitest's output stream, after two threads ended").toBe(true);
  expect(vitest.logger.outputStream.getMaxListeners(), "the stream's listener limit, back where it was").toBe(listeners);
});
