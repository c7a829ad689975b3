// Vitest's threads pool with a spare: in watch mode, when a run's worker thread ends, the next one starts
// at once and waits, so the rerun after the learner's next save finds its thread booted. Booting one costs
// about 110 ms on two cores, a third of a rerun. Every run still gets a fresh thread that has run nothing:
// a spare has only loaded vitest's worker runtime, as every new thread does before its first message.
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, Vitest, WorkerRequest } from "vitest/node";

const THREADS_WITH_SPARE = "threads-with-spare";

/** What a thread is started with; a spare serves only a start that asks for the very same. */
interface ThreadSpec {
  readonly entrypoint: string;
  readonly execArgv: readonly string[];
  readonly env: Partial<NodeJS.ProcessEnv>;
}

const specKey = (spec: ThreadSpec): string => JSON.stringify([spec.entrypoint, spec.execArgv, spec.env]);

function startThread(spec: ThreadSpec): Worker {
  return new Worker(spec.entrypoint, { env: spec.env, execArgv: [...spec.execArgv], stdout: true, stderr: true });
}

/** The one waiting thread of a vitest process, and the vitest instances whose close ends it. */
class Spare {
  #waiting: { readonly key: string; readonly thread: Worker; readonly drop: () => void } | null = null;
  readonly #closed = new WeakSet<Vitest>();
  readonly #watched = new WeakSet<Vitest>();

  /** Starts a thread for the next run, unless one waits already or this vitest is closing. */
  prepare(vitest: Vitest, spec: ThreadSpec): void {
    if (this.#waiting !== null || this.#closed.has(vitest)) return;
    if (!this.#watched.has(vitest)) {
      this.#watched.add(vitest);
      vitest.onClose(async () => {
        this.#closed.add(vitest);
        await this.discard();
      });
    }
    const thread = startThread(spec);
    // A waiting thread must not keep the process alive, and its failure must not reach vitest: a thread
    // that errs or exits before it is taken is dropped, and the next run starts its own.
    thread.unref();
    const drop = () => {
      if (this.#waiting?.thread === thread) this.#waiting = null;
    };
    const failed = () => {
      drop();
      void thread.terminate();
    };
    thread.once("exit", drop);
    thread.once("error", failed);
    this.#waiting = {
      key: specKey(spec),
      thread,
      drop: () => {
        thread.off("exit", drop);
        thread.off("error", failed);
      },
    };
  }

  /**
   * The waiting thread if it was started with this spec. One started with another (the environment
   * changed) is ended, so the next run's end prepares one that fits.
   */
  take(spec: ThreadSpec): Worker | null {
    const waiting = this.#waiting;
    if (waiting === null) return null;
    if (waiting.key !== specKey(spec)) {
      void this.discard();
      return null;
    }
    this.#waiting = null;
    waiting.drop();
    waiting.thread.ref();
    return waiting.thread;
  }

  async discard(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (waiting === null) return;
    waiting.drop();
    await waiting.thread.terminate();
  }

  /** For the lab's tests: the thread id of the waiting thread, or null. */
  get waitingThreadId(): number | null {
    return this.#waiting?.thread.threadId ?? null;
  }
}

export const spare = new Spare();

/** One run's worker: vitest's ThreadsPoolWorker, but its thread may be the spare. */
class SpareThreadsWorker implements PoolWorker {
  readonly name = THREADS_WITH_SPARE;
  readonly #spec: ThreadSpec;
  readonly #vitest: Vitest;
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  #thread: Worker | null = null;

  constructor(options: PoolOptions) {
    this.#spec = { entrypoint: resolve(options.distPath, "workers", "threads.js"), execArgv: options.execArgv, env: options.env };
    this.#vitest = options.project.vitest;
    this.#stdout = this.#vitest.logger.outputStream;
    this.#stderr = this.#vitest.logger.errorStream;
  }

  async start(): Promise<void> {
    if (this.#thread !== null) return;
    const thread = spare.take(this.#spec) ?? startThread(this.#spec);
    this.#thread = thread;
    // Several workers pipe into the same streams at once, as vitest's own do.
    this.#stdout.setMaxListeners(this.#stdout.getMaxListeners() + 1);
    this.#stderr.setMaxListeners(this.#stderr.getMaxListeners() + 1);
    thread.stdout.pipe(this.#stdout, { end: false });
    thread.stderr.pipe(this.#stderr, { end: false });
  }

  async stop(): Promise<void> {
    const thread = this.#thread;
    if (thread === null) return;
    this.#thread = null;
    await thread.terminate();
    thread.stdout.unpipe(this.#stdout);
    thread.stderr.unpipe(this.#stderr);
    this.#stdout.setMaxListeners(this.#stdout.getMaxListeners() - 1);
    this.#stderr.setMaxListeners(this.#stderr.getMaxListeners() - 1);
    // Only a watching vitest runs again; a single run ends with no thread left behind.
    if (this.#vitest.config.watch) spare.prepare(this.#vitest, this.#spec);
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.#live().on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.#live().off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.#live().postMessage(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  #live(): Worker {
    if (this.#thread === null) throw new Error("the test worker's thread is not running");
    return this.#thread;
  }
}

/** The pool the stage projects run in. */
export const threadsWithSpare: PoolRunnerInitializer = {
  name: THREADS_WITH_SPARE,
  createPoolWorker: (options) => new SpareThreadsWorker(options),
};
