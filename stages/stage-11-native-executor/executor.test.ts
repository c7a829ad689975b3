import { spawn as nodeSpawn } from "node:child_process";
import { EventEmitter, getEventListeners } from "node:events";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { stat as fsStat } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it, vi } from "vitest";
import { NativeExecutor, type NativeExecutorOptions, type NativeResult, type Platform, type PreparedRequest } from "forge/tools/executor";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// The software-delivery scenario: an agent on a build machine runs the repository's tools as native
// programs, with exact arguments, through the executor. A user may change the session's policy or turn
// the native switch off at any moment; the executor must notice before it starts anything. Tests
// that start real processes get a generous time limit: a loaded machine starts node slowly.

type Spawn = NonNullable<NativeExecutorOptions["spawn"]>;

const FULL = "danger-full-access";

/** A stand-in for a child process: the test decides what it writes and when it exits. */
class FakeChild extends EventEmitter {
  static #next = 2 ** 30; // above any pid Linux or macOS hands out: a stray signal cannot reach a process
  readonly pid = (FakeChild.#next += 1);
  // Object mode: what the test writes is what a reader gets, so a test can also hand over text.
  readonly stdout = new PassThrough({ objectMode: true });
  readonly stderr = new PassThrough({ objectMode: true });
  readonly kills: string[] = [];
  /** Signals its process group received through process.kill(-pid, …), when it still had a member. */
  readonly groupSignals: string[] = [];
  /**
   * What the program leaves in its process group when it exits: nothing, a helper that ends at SIGTERM,
   * one that ignores SIGTERM, or a zombie, which no signal removes (its parent is gone and no one reaps it).
   */
  leaves: "nothing" | "a helper" | "a stubborn helper" | "a zombie" = "nothing";
  #running = true;
  #helperAlive = true;

  constructor() {
    super();
    this.once("exit", () => {
      this.#running = false;
    });
  }

  /** What process.kill(-pid, name) does to this child's group: false is ESRCH, no member left. */
  signalGroup(name: NodeJS.Signals | number): boolean {
    const members = this.#running || (this.leaves !== "nothing" && this.#helperAlive);
    if (!members) return false;
    if (name !== 0) this.groupSignals.push(`${String(name)} to the group`);
    if (name === "SIGKILL" && this.leaves !== "a zombie") this.#helperAlive = false;
    if (name === "SIGTERM" && this.leaves === "a helper") this.#helperAlive = false;
    return true;
  }

  kill(signal?: NodeJS.Signals | number): boolean {
    this.kills.push(String(signal));
    return true;
  }

  finish(code: number | null, signal: NodeJS.Signals | null): void {
    this.stdout.end();
    this.stderr.end();
    this.emit("exit", code, signal);
  }
}

/** A spawn that starts nothing: it records each call and returns a FakeChild, which exits 0 unless told otherwise. */
function fakeSpawn(options: { autoExit?: boolean; onSpawn?: (child: FakeChild) => void } = {}) {
  const calls: Array<{ file: string; args: string[]; child: FakeChild }> = [];
  const spawn = ((file: string, args: readonly string[]) => {
    const child = new FakeChild();
    calls.push({ file, args: [...args], child });
    options.onSpawn?.(child);
    if (options.autoExit !== false) setImmediate(() => child.finish(0, null));
    return child;
  }) as unknown as Spawn;
  return { spawn, calls };
}

/** A user setting the executor reads through a function: the test changes it whenever it likes. */
function liveSetting<T>(initial: T) {
  const state = { value: initial, read: () => state.value };
  return state;
}

function executorFor(options: Partial<NativeExecutorOptions> & { workspace: string }): NativeExecutor {
  return new NativeExecutor({ platform: "linux", policy: () => FULL, nativeEnabled: () => true, ...options });
}

/**
 * A request to run node with the given argv; the overrides replace fields or add wrong ones. Node reads
 * its arguments as code (`-e`, a script), so the request names the interpreter gate.
 */
function request(argv: unknown[] = [], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: "run the unit tests",
    executable: { kind: "path", value: process.execPath },
    argv,
    entrypoint: "interpreter",
    ...overrides,
  };
}

const literal = (value: string) => ({ kind: "literal", value });
const pathItem = (value: string) => ({ kind: "path", value });

/** How an error reads in a table: its class and its code. */
function refusal(error: unknown): string {
  if (!(error instanceof Error)) return `threw ${String(error)}, which is not an Error`;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${error.name} (${code})` : `${error.name}: ${error.message}`;
}

/** Runs a scenario and says how it ended, and how many processes it started. */
async function stoppedAt(calls: readonly unknown[], scenario: () => Promise<NativeResult>): Promise<string> {
  const outcome = await scenario().then(
    (result) => `ran: exit code ${String(result.exitCode)}`,
    (error: unknown) => `refused: ${refusal(error)}`,
  );
  return `${outcome}; processes started: ${calls.length}`;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it("refuses every policy but danger-full-access on win32 before anything else happens", async () => {
  const policies: Record<string, string | undefined> = {
    "read-only": "read-only",
    "workspace-write": "workspace-write",
    "a missing policy": undefined,
    "an empty policy": "",
    "Danger-Full-Access, in other case": "Danger-Full-Access",
    "danger-full-access with a trailing space": "danger-full-access ",
    "the inherited name toString": "toString",
  };
  const { spawn, calls } = fakeSpawn();
  const outcomes: Record<string, string> = {};
  for (const [name, policy] of Object.entries(policies)) {
    const executor = new NativeExecutor({
      platform: "win32",
      policy: () => policy,
      nativeEnabled: () => true,
      workspace: "C:\\work\\shop",
      spawn,
    });
    // A request that is wrong in every field and a folder that does not exist: the policy must refuse first.
    outcomes[name] = await executor.prepare({ env: { PATH: "" }, cwd: "relative" }).then(
      () => "prepared",
      (error: unknown) => refusal(error),
    );
  }
  const refused = "SandboxUnavailableError (SANDBOX_UNAVAILABLE)";
  expect(outcomes, "prepare on win32 under each policy other than danger-full-access").toEqual(
    Object.fromEntries(Object.keys(policies).map((name) => [name, refused])),
  );
  expect(calls.length, "processes started").toBe(0);

  // The message says why, and who may choose otherwise: the user, not the agent.
  const readOnly = new NativeExecutor({ platform: "win32", policy: () => "read-only", nativeEnabled: () => true, workspace: "C:\\work" });
  expect(await readOnly.prepare(request()).catch((error: unknown) => String(error)), "the refusal of read-only on win32").toBe(
    'SandboxUnavailableError: no sandbox can fence a native process on Windows, so the policy "read-only" is refused before ' +
      "anything runs. Only danger-full-access runs native programs here: a user, not the agent, can choose it in the session's " +
      "access mode. The agent must stop and say so, not retry with another tool.",
  );
  const missing = new NativeExecutor({ platform: "win32", policy: () => undefined, nativeEnabled: () => true, workspace: "C:\\work" });
  expect(await missing.prepare(request()).catch((error: unknown) => String(error)), "the refusal of a missing policy").toContain(
    "so a missing policy is refused before anything runs",
  );

  // danger-full-access passes the gate: the same wrong request now gets the request's own error.
  const full = new NativeExecutor({ platform: "win32", policy: () => FULL, nativeEnabled: () => true, workspace: "C:\\work" });
  expect(await full.prepare({ env: {} }).catch(refusal), "prepare under danger-full-access").toBe(
    "NativeRequestError (NATIVE_REQUEST_INVALID)",
  );
});

it("refuses a restricted policy on linux and darwin too: this executor has no sandbox backend", async () => {
  const outcomes: Record<string, string> = {};
  for (const platform of ["linux", "darwin"] as const) {
    for (const policy of ["read-only", "workspace-write", undefined]) {
      const executor = new NativeExecutor({ platform, policy: () => policy, nativeEnabled: () => true, workspace: "/srv/shop" });
      outcomes[`${platform}, ${String(policy)}`] = await executor.prepare(request()).then(() => "prepared", refusal);
    }
  }
  const refused = "SandboxUnavailableError (SANDBOX_UNAVAILABLE)";
  expect(outcomes, "prepare under a restricted or missing policy, by platform").toEqual({
    "linux, read-only": refused,
    "linux, workspace-write": refused,
    "linux, undefined": refused,
    "darwin, read-only": refused,
    "darwin, workspace-write": refused,
    "darwin, undefined": refused,
  });
  const linux = new NativeExecutor({ platform: "linux", policy: () => "workspace-write", nativeEnabled: () => true, workspace: "/srv" });
  expect(await linux.prepare(request()).catch((error: unknown) => (error as Error).message), "the refusal on linux").toBe(
    "this executor has no sandbox backend on linux (a real harness hands a restricted policy to the platform's sandbox), " +
      'so the policy "workspace-write" is refused before anything runs. Only danger-full-access runs native programs here: ' +
      "a user, not the agent, can choose it in the session's access mode. The agent must stop and say so, not retry with another tool.",
  );
});

it("refuses to prepare or execute while the native switch is off, whatever the policy", async () => {
  const workspace = temporaryFolder();
  const { spawn, calls } = fakeSpawn();
  const outcomes: Record<string, string> = {};
  for (const policy of [FULL, "read-only", undefined]) {
    for (const platform of ["win32", "linux"] as const) {
      const executor = new NativeExecutor({
        platform,
        policy: () => policy,
        nativeEnabled: () => false,
        workspace: platform === "win32" ? "C:\\work" : workspace,
        spawn,
      });
      outcomes[`${platform}, ${String(policy)}`] = await executor.prepare(request()).then(() => "prepared", refusal);
    }
  }
  const off = "NativeDisabledError (NATIVE_DISABLED)";
  expect(outcomes, "prepare with the switch off, by platform and policy").toEqual({
    "win32, danger-full-access": off,
    "linux, danger-full-access": off,
    "win32, read-only": off,
    "linux, read-only": off,
    "win32, undefined": off,
    "linux, undefined": off,
  });
  const message = await executorFor({ workspace, nativeEnabled: () => false })
    .prepare(request())
    .catch((error: unknown) => (error as Error).message);
  expect(message, "the refusal with the switch off").toBe(
    "native execution is turned off: no process is started. A user can turn the native switch back on in the settings; " +
      "the agent must not get around it with another tool.",
  );
  expect(calls.length, "processes started").toBe(0);
});

it("takes a switch with no value as on, as a configuration without the key, and any other value but true as off", async () => {
  const workspace = temporaryFolder();
  // What a settings reader returns for the native switch. A configuration written before the switch
  // existed has no key for it: the switch is on by default. A value that is there but not a boolean
  // (a string from a hand-edited file, a number) is not trusted to mean on.
  const values: Record<string, unknown> = {
    "no value (a configuration without the key)": undefined,
    true: true,
    false: false,
    '"true"': "true",
    '"false"': "false",
    1: 1,
    null: null,
    '""': "",
  };
  const outcomes: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const { spawn, calls } = fakeSpawn();
    const executor = executorFor({ workspace, nativeEnabled: () => value as boolean, spawn });
    outcomes[name] = await stoppedAt(calls, async () => executor.execute(await executor.prepare(request())));
  }
  const ran = "ran: exit code 0; processes started: 1";
  const off = "refused: NativeDisabledError (NATIVE_DISABLED); processes started: 0";
  expect(outcomes, "a run with each value of the native switch").toEqual({
    "no value (a configuration without the key)": ran,
    true: ran,
    false: off,
    '"true"': off,
    '"false"': off,
    1: off,
    null: off,
    '""': off,
  });
});

it("reads the policy again at every phase, so a change after prepare starts no process", async () => {
  const workspace = temporaryFolder();
  type Scenario = (executor: NativeExecutor, policy: { value: string | undefined }) => Promise<NativeResult>;
  const scenarios: Record<string, Scenario> = {
    "changed between prepare and execute": async (executor, policy) => {
      const prepared = await executor.prepare(request());
      policy.value = "read-only";
      return executor.execute(prepared);
    },
    "changed while prepare checked its paths": async (executor, policy) => {
      const preparing = executor.prepare(request()); // read the policy at entry, now checks the disk
      policy.value = "workspace-write";
      const prepared = await preparing;
      policy.value = FULL;
      return executor.execute(prepared);
    },
    "removed while execute checked the working folder": async (executor, policy) => {
      const prepared = await executor.prepare(request());
      const running = executor.execute(prepared); // read the policy at entry, now checks the folder
      policy.value = undefined;
      return running;
    },
    "changed once the process had started (not stopped: the change is for later calls)": async (executor) => {
      return executor.execute(await executor.prepare(request()));
    },
  };
  const outcomes: Record<string, string> = {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    const policy = liveSetting<string | undefined>(FULL);
    const { spawn, calls } = fakeSpawn({
      onSpawn: () => {
        policy.value = "read-only";
      },
    });
    const executor = executorFor({ workspace, policy: policy.read, spawn });
    outcomes[name] = await stoppedAt(calls, () => scenario(executor, policy));
  }
  const refused = "refused: SandboxUnavailableError (SANDBOX_UNAVAILABLE); processes started: 0";
  expect(outcomes, "what each change of the policy did to the run").toEqual({
    "changed between prepare and execute": refused,
    "changed while prepare checked its paths": refused,
    "removed while execute checked the working folder": refused,
    "changed once the process had started (not stopped: the change is for later calls)": "ran: exit code 0; processes started: 1",
  });
});

it("reads the native switch again at every phase, so turning it off starts no process", async () => {
  const workspace = temporaryFolder();
  type Scenario = (executor: NativeExecutor, enabled: { value: boolean }) => Promise<NativeResult>;
  const scenarios: Record<string, Scenario> = {
    "turned off between prepare and execute": async (executor, enabled) => {
      const prepared = await executor.prepare(request());
      enabled.value = false;
      return executor.execute(prepared);
    },
    "turned off while prepare checked its paths": async (executor, enabled) => {
      const preparing = executor.prepare(request());
      enabled.value = false;
      const prepared = await preparing;
      enabled.value = true;
      return executor.execute(prepared);
    },
    "turned off while execute checked the working folder": async (executor, enabled) => {
      const prepared = await executor.prepare(request());
      const running = executor.execute(prepared);
      enabled.value = false;
      return running;
    },
    "turned off and on again before execute": async (executor, enabled) => {
      const prepared = await executor.prepare(request());
      enabled.value = false;
      enabled.value = true;
      return executor.execute(prepared);
    },
  };
  const outcomes: Record<string, string> = {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    const enabled = liveSetting(true);
    const { spawn, calls } = fakeSpawn();
    const executor = executorFor({ workspace, nativeEnabled: enabled.read, spawn });
    outcomes[name] = await stoppedAt(calls, () => scenario(executor, enabled));
  }
  const refused = "refused: NativeDisabledError (NATIVE_DISABLED); processes started: 0";
  expect(outcomes, "what each change of the switch did to the run").toEqual({
    "turned off between prepare and execute": refused,
    "turned off while prepare checked its paths": refused,
    "turned off while execute checked the working folder": refused,
    "turned off and on again before execute": "ran: exit code 0; processes started: 1",
  });
});

it("accepts only a request this executor prepared, and only once", async () => {
  const workspace = temporaryFolder();
  const { spawn, calls } = fakeSpawn();
  const executor = executorFor({ workspace, spawn });
  const other = executorFor({ workspace, spawn });
  const prepared = await executor.prepare(request([literal("--ci")]));
  expect(
    { frozen: Object.isFrozen(prepared), argsFrozen: Object.isFrozen(prepared.args), shown: { ...prepared } },
    "the prepared request: what will run, frozen",
  ).toEqual({
    frozen: true,
    argsFrozen: true,
    shown: {
      description: "run the unit tests",
      executable: process.execPath,
      args: ["--ci"],
      cwd: workspace,
      entrypoint: "interpreter",
      timeoutMs: 120_000,
    },
  });

  const impostors: Record<string, unknown> = {
    "a spread copy": { ...prepared },
    "a structuredClone": structuredClone(prepared),
    "an object that inherits from it": Object.create(prepared),
    "a look-alike built by hand": { description: "x", executable: process.execPath, args: ["-e", "0"], cwd: workspace, timeoutMs: 1 },
    "another executor's prepared request": await other.prepare(request()),
    null: null,
    "a string": "prepared",
  };
  const outcomes: Record<string, string> = {};
  for (const [name, impostor] of Object.entries(impostors)) {
    outcomes[name] = await executor.execute(impostor as PreparedRequest).then(
      () => "ran",
      (error: unknown) =>
        String(error).includes("not prepared by this executor") ? 'error containing "not prepared by this executor"' : String(error),
    );
  }
  expect(outcomes, "execute with something other than this executor's own prepared request").toEqual(
    Object.fromEntries(Object.keys(impostors).map((name) => [name, 'error containing "not prepared by this executor"'])),
  );
  expect(calls.length, "processes started by impostors").toBe(0);

  // The real one runs once. Again, or twice at once, it is spent.
  const first = await executor.execute(prepared);
  const again = await executor.execute(prepared).catch((error: unknown) => String(error));
  const twin = await executor.prepare(request());
  const both = await Promise.allSettled([executor.execute(twin), executor.execute(twin)]);
  expect(
    {
      first: first.exitCode,
      again,
      both: both.map((outcome) => (outcome.status === "fulfilled" ? "ran" : String(outcome.reason))),
      started: calls.length,
    },
    "a prepared request used once, twice, and twice at once",
  ).toEqual({
    first: 0,
    again: "Error: this prepared request was already used: prepare the request again to run it again",
    both: ["ran", "Error: this prepared request was already used: prepare the request again to run it again"],
    started: 2,
  });
});

it("passes /c, /all, empty strings, spaces, quotes and $HOME to the program unchanged", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  writeTree(workspace, {
    "tools/echo-argv.js": "process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\n",
  });
  const literals = [
    "/c", // MSYS would turn this into C:/
    "/all", // and this into a path under its install folder
    "",
    "two words",
    'say "hi"',
    "$HOME",
    "%PATH%",
    "*.docx",
    "; echo injected",
    "C:\\Users\\ana\\",
    'a\\"b',
    "中文 ✓",
  ];
  const seen: Array<Record<string, unknown>> = [];
  const spawn = ((file: string, args: string[], options: Record<string, unknown>) => {
    const { shell, detached, stdio, windowsHide, windowsVerbatimArguments } = options;
    seen.push({ shell, detached, stdio, windowsHide, windowsVerbatimArguments });
    return nodeSpawn(file, args, options);
  }) as unknown as Spawn;
  const executor = executorFor({ workspace, spawn });
  // The script is a typed path, written with a doubled separator and a `.` the request normalizes.
  const prepared = await executor.prepare(request([pathItem(`${workspace}//tools/./echo-argv.js`), ...literals.map(literal)]));
  const result = await executor.execute(prepared);
  expect(
    { exitCode: result.exitCode, stderr: result.stderr, received: JSON.parse(result.stdout) as unknown, spawnedWith: seen },
    "what the program received, and how it was started",
  ).toEqual({
    exitCode: 0,
    stderr: "",
    received: { argv: literals, cwd: workspace },
    spawnedWith: [{ shell: false, detached: true, stdio: ["ignore", "pipe", "pipe"], windowsHide: true, windowsVerbatimArguments: false }],
  });
  expect(prepared.args[0], "the typed path, normalized").toBe(join(workspace, "tools", "echo-argv.js"));
});

it("decodes each stream with its declared encoding through stage 10's decoders", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  // A Windows build tool writes GBK on stdout and UTF-16LE on stderr.
  const gbk = "b9b9bda8b3c9b9a6a3ba3320b8f6c4bfb1ea0a"; // 构建成功：3 个目标\n
  const utf16 = Buffer.from("警告：磁盘空间不足\n", "utf16le").toString("hex");
  const script = `process.stdout.write(Buffer.from("${gbk}", "hex")); process.stderr.write(Buffer.from("${utf16}", "hex"));`;
  const run = async (fields: Record<string, unknown>) => {
    const executor = executorFor({ workspace });
    return executor.execute(await executor.prepare(request([literal("-e"), literal(script)], fields)));
  };
  const clean = { sourceComplete: true, complete: true, lossy: false, capReached: false, error: null };

  const declared = await run({ stdoutEncoding: "gbk", stderrEncoding: "utf16le" });
  expect(declared, "GBK stdout and UTF-16LE stderr, each declared").toEqual({
    exitCode: 0,
    signal: null,
    aborted: false,
    timedOut: false,
    descendantsEnded: false,
    stdout: "构建成功：3 个目标\n",
    stderr: "警告：磁盘空间不足\n",
    stdoutFacts: { ...clean, rawBytes: 19, decodedUtf8Bytes: 27 },
    stderrFacts: { ...clean, rawBytes: 20, decodedUtf8Bytes: 28 },
  });

  // The same bytes read as utf8 (the default) in strict mode: the run succeeded, the reading did not.
  const strict = await run({ errors: "strict" });
  expect(
    { exitCode: strict.exitCode, stdout: strict.stdout, stdoutError: strict.stdoutFacts.error, lossy: strict.stdoutFacts.lossy },
    "GBK stdout read as utf8, strict",
  ).toEqual({
    exitCode: 0,
    stdout: "",
    stdoutError: "invalid utf8 at byte offset 0 (b9): strict decoding stopped there",
    lossy: true,
  });
});

it("ends a process that outlives timeoutMs and says timedOut, never exit code 0", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  const executor = executorFor({ workspace });
  const sleeper = await executor.prepare(request([literal("-e"), literal("setInterval(() => {}, 1000)")], { timeoutMs: 200 }));
  const quick = await executor.prepare(request([literal("-e"), literal("process.exitCode = 0")], { timeoutMs: 600_000 }));
  const [late, inTime] = await Promise.all([executor.execute(sleeper), executor.execute(quick)]);
  const ending = (result: NativeResult) => ({
    exitCode: result.exitCode,
    signal: result.signal,
    aborted: result.aborted,
    timedOut: result.timedOut,
  });
  expect({ late: ending(late), inTime: ending(inTime) }, "a process past its deadline, and one within it").toEqual({
    late: { exitCode: null, signal: "SIGTERM", aborted: true, timedOut: true },
    inTime: { exitCode: 0, signal: null, aborted: false, timedOut: false },
  });
});

it("sends SIGTERM to the process group at the deadline, then SIGKILL after the grace period", async () => {
  const workspace = temporaryFolder();
  // process.kill on a fake child's group answers as the kernel would: ESRCH once no member is left.
  const children = new Map<number, FakeChild>();
  vi.spyOn(process, "kill").mockImplementation((pid: number, name?: string | number) => {
    const child = children.get(-pid);
    if (child !== undefined && !child.signalGroup((name ?? "SIGTERM") as NodeJS.Signals | number)) {
      throw Object.assign(new Error(`kill ESRCH`), { code: "ESRCH" });
    }
    return true;
  });
  let spawned: (child: FakeChild) => void = () => {};
  const { spawn } = fakeSpawn({
    autoExit: false,
    onSpawn: (child) => {
      children.set(child.pid, child);
      spawned(child);
    },
  });
  const executor = executorFor({ workspace, spawn });
  vi.useFakeTimers();

  /** Starts a run and returns its child once it exists, how the run ended, and the signals sent so far. */
  async function start(timeoutMs: number, signal?: AbortSignal) {
    const prepared = await executor.prepare(request([], { timeoutMs }));
    const child = new Promise<FakeChild>((resolve) => {
      spawned = resolve;
    });
    const state: { result?: NativeResult; error?: string } = {};
    void executor.execute(prepared, { signal }).then(
      (result) => {
        state.result = result;
      },
      (error: unknown) => {
        state.error = String(error);
      },
    );
    const running = await child;
    return { child: running, state, signals: () => [...running.groupSignals] };
  }
  const text = (value: string) => Buffer.from(value);

  // A converter that ignores SIGTERM gets SIGKILL 2000 ms later. A cancel after the deadline changes
  // nothing: the first cause was the deadline.
  const cancel = new AbortController();
  const stubborn = await start(1000, cancel.signal);
  stubborn.child.stdout.write(text("converting…\n"));
  await vi.advanceTimersByTimeAsync(999);
  const at999 = stubborn.signals();
  await vi.advanceTimersByTimeAsync(1);
  const at1000 = stubborn.signals();
  cancel.abort();
  await vi.advanceTimersByTimeAsync(1999);
  const at2999 = stubborn.signals();
  await vi.advanceTimersByTimeAsync(1);
  const at3000 = stubborn.signals();
  stubborn.child.finish(null, "SIGKILL");
  await vi.advanceTimersByTimeAsync(0);
  expect(
    { at999, at1000, at2999, at3000, result: stubborn.state.result, timers: vi.getTimerCount(), childKills: stubborn.child.kills },
    "timeoutMs 1000, a process that ignores SIGTERM, cancelled after the deadline",
  ).toEqual({
    at999: [],
    at1000: ["SIGTERM to the group"],
    at2999: ["SIGTERM to the group"],
    at3000: ["SIGTERM to the group", "SIGKILL to the group"],
    result: expect.objectContaining({ exitCode: null, signal: "SIGKILL", aborted: true, timedOut: true, stdout: "converting…\n" }),
    timers: 0,
    childKills: [],
  });

  // A process that obeys SIGTERM, slowly: it exits 1900 ms later, and a helper still holds its stdout
  // for a moment. It gets nothing more: once the process is gone, no SIGKILL goes to its group.
  const obedient = await start(500);
  await vi.advanceTimersByTimeAsync(500 + 1900);
  obedient.child.emit("exit", null, "SIGTERM");
  await vi.advanceTimersByTimeAsync(200);
  const afterGrace = obedient.signals();
  obedient.child.stdout.end();
  obedient.child.stderr.end();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(
    { afterGrace, signals: obedient.signals(), result: obedient.state.result, timers: vi.getTimerCount() },
    "timeoutMs 500, a process that exits 1900 ms after SIGTERM",
  ).toEqual({
    afterGrace: ["SIGTERM to the group"],
    signals: ["SIGTERM to the group"],
    result: expect.objectContaining({ exitCode: null, signal: "SIGTERM", aborted: true, timedOut: true }),
    timers: 0,
  });

  // A process that exits in time: its deadline is cleared and nothing is ever sent. An error event
  // once it runs (a failed signal from elsewhere) does not end the run.
  const punctual = await start(1000);
  punctual.child.emit("error", new Error("kill EPERM"));
  await vi.advanceTimersByTimeAsync(999);
  punctual.child.finish(0, null);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(
    { signals: punctual.signals(), result: punctual.state.result, timers: vi.getTimerCount() },
    "timeoutMs 1000, a process that exits at 999 ms",
  ).toEqual({
    signals: [],
    result: expect.objectContaining({ exitCode: 0, signal: null, aborted: false, timedOut: false }),
    timers: 0,
  });

  // A cancel that comes after the exit, while the last output is read, ends nothing and is not reported.
  const late = new AbortController();
  const finished = await start(1000, late.signal);
  finished.child.emit("exit", 0, null);
  late.abort();
  finished.child.stdout.end(text("done\n"));
  finished.child.stderr.end();
  await vi.advanceTimersByTimeAsync(0);
  expect(
    { signals: finished.signals(), result: finished.state.result, timers: vi.getTimerCount() },
    "a cancel after the process exited",
  ).toEqual({
    signals: [],
    result: expect.objectContaining({ exitCode: 0, aborted: false, timedOut: false, stdout: "done\n" }),
    timers: 0,
  });

  // Reading fails while the process runs (a stream that yields text): nobody will wait for the
  // process any more, so it is killed at once, and no timer is left behind, not even when it exits
  // later with a zombie still in its group.
  const broken = await start(1000);
  broken.child.leaves = "a zombie";
  broken.child.stdout.write("text, not bytes");
  await vi.advanceTimersByTimeAsync(0);
  const failed = { error: broken.state.error, signals: broken.signals(), timers: vi.getTimerCount() };
  broken.child.finish(null, "SIGKILL");
  await vi.advanceTimersByTimeAsync(0);
  expect({ ...failed, afterExit: { signals: broken.signals(), timers: vi.getTimerCount() } }, "a run whose output cannot be read").toEqual({
    error: "TypeError: a chunk must be bytes (a Uint8Array), got string",
    signals: ["SIGKILL to the group"],
    timers: 0,
    afterExit: { signals: ["SIGKILL to the group"], timers: 0 },
  });

  // A program that exits on its own and leaves a helper that ignores SIGTERM: the helper's group gets
  // SIGTERM at the exit and SIGKILL 2000 ms later, and the run ends only then.
  const leaving = await start(600_000);
  leaving.child.leaves = "a stubborn helper";
  await vi.advanceTimersByTimeAsync(300);
  leaving.child.finish(0, null);
  await vi.advanceTimersByTimeAsync(0);
  const atExit = { signals: leaving.signals(), ended: leaving.state.result !== undefined };
  await vi.advanceTimersByTimeAsync(1999);
  const at1999 = { signals: leaving.signals(), ended: leaving.state.result !== undefined };
  await vi.advanceTimersByTimeAsync(1);
  expect(
    { atExit, at1999, at2000: leaving.signals(), result: leaving.state.result, timers: vi.getTimerCount() },
    "a program that exits 0 at 300 ms and leaves a helper that ignores SIGTERM",
  ).toEqual({
    atExit: { signals: ["SIGTERM to the group"], ended: false },
    at1999: { signals: ["SIGTERM to the group"], ended: false },
    at2000: ["SIGTERM to the group", "SIGKILL to the group"],
    result: expect.objectContaining({ exitCode: 0, signal: null, aborted: false, timedOut: false, descendantsEnded: true }),
    timers: 0,
  });

  // At the deadline the program ends at SIGTERM, but its helper ignores it: SIGKILL still comes when the
  // grace period is over. A helper that obeys SIGTERM is gone by then, and nothing more is sent.
  const outlived = await start(1000);
  outlived.child.leaves = "a stubborn helper";
  await vi.advanceTimersByTimeAsync(1000 + 100);
  outlived.child.finish(null, "SIGTERM");
  await vi.advanceTimersByTimeAsync(1900);
  const obeying = await start(1000);
  obeying.child.leaves = "a helper";
  await vi.advanceTimersByTimeAsync(1000 + 100);
  obeying.child.finish(null, "SIGTERM");
  await vi.advanceTimersByTimeAsync(1900);
  expect(
    {
      stubborn: { signals: outlived.signals(), result: outlived.state.result },
      obeying: { signals: obeying.signals(), result: obeying.state.result },
      timers: vi.getTimerCount(),
    },
    "timeoutMs 1000, a program that ends at SIGTERM and leaves a helper",
  ).toEqual({
    stubborn: {
      signals: ["SIGTERM to the group", "SIGKILL to the group"],
      result: expect.objectContaining({ exitCode: null, signal: "SIGTERM", aborted: true, timedOut: true, descendantsEnded: true }),
    },
    obeying: {
      signals: ["SIGTERM to the group"],
      result: expect.objectContaining({ exitCode: null, signal: "SIGTERM", aborted: true, timedOut: true, descendantsEnded: false }),
    },
    timers: 0,
  });
});

/**
 * A folder and a program at Windows paths, for a win32 executor on this machine. On Windows they are
 * real paths. Elsewhere a Windows path is a relative name (a backslash is an ordinary character
 * there), so `C:\forge-lab-test-…` is looked up in the current folder: both are made there, under
 * names only this test uses, and removed when it ends.
 */
function windowsPaths(onFinished: (cleanup: () => void) => void): { workspace: string; executable: string } {
  if (process.platform === "win32") {
    const workspace = temporaryFolder();
    writeTree(workspace, { "docconv.exe": "" });
    return { workspace, executable: join(workspace, "docconv.exe") };
  }
  const workspace = mkdtempSync("C:\\forge-lab-test-");
  const executable = `${workspace}\\docconv.exe`;
  onFinished(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(executable, { force: true });
  });
  writeFileSync(executable, "");
  return { workspace, executable };
}

it("on win32 starts the program attached and ends it with one forceful child.kill: Windows has no graceful SIGTERM", async ({
  onTestFinished,
}) => {
  const { workspace, executable } = windowsPaths(onTestFinished);
  const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
  const spawnedDetached: boolean[] = [];
  let spawned: (child: FakeChild) => void = () => {};
  const child = new Promise<FakeChild>((resolve) => {
    spawned = resolve;
  });
  const spawn = ((_file: string, _args: string[], options: { detached?: boolean }) => {
    spawnedDetached.push(options.detached === true);
    const started = new FakeChild();
    spawned(started);
    return started;
  }) as unknown as Spawn;
  const executor = new NativeExecutor({ platform: "win32", policy: () => FULL, nativeEnabled: () => true, workspace, spawn });
  const prepared = await executor.prepare({
    description: "convert the manual",
    executable: { kind: "path", value: executable },
    argv: [literal("/c")],
    timeoutMs: 1000,
  });
  vi.useFakeTimers();
  const running = executor.execute(prepared);
  const converter = await child;
  await vi.advanceTimersByTimeAsync(1000);
  const atDeadline = [...converter.kills];
  // TerminateProcess returns before the process is gone: the converter exits a while later. The one
  // kill was already forceful, so the grace period brings no second one.
  await vi.advanceTimersByTimeAsync(2000 + 500);
  const afterGrace = [...converter.kills];
  converter.finish(null, "SIGKILL");
  const result = await running;
  expect(
    {
      spawnedDetached,
      atDeadline,
      afterGrace,
      "signals sent with process.kill": kill.mock.calls
        .filter(([pid]) => Math.abs(pid) === converter.pid)
        .map(([pid, name]) => `${String(name)} to ${pid < 0 ? "the group" : "the process"}`),
      ending: {
        exitCode: result.exitCode,
        signal: result.signal,
        aborted: result.aborted,
        timedOut: result.timedOut,
        descendantsEnded: result.descendantsEnded,
      },
      timers: vi.getTimerCount(),
    },
    "a converter on win32 that outlives its 1000 ms",
  ).toEqual({
    spawnedDetached: [false],
    atDeadline: ["SIGKILL"],
    afterGrace: ["SIGKILL"],
    "signals sent with process.kill": [],
    ending: { exitCode: null, signal: "SIGKILL", aborted: true, timedOut: true, descendantsEnded: false },
    timers: 0,
  });
});

it("refuses on win32 a command line longer than the 32767 UTF-16 units Windows takes, counted as Node quotes it", async ({
  onTestFinished,
}) => {
  const { workspace, executable } = windowsPaths(onTestFinished);
  const { spawn, calls } = fakeSpawn();
  const windows = new NativeExecutor({ platform: "win32", policy: () => FULL, nativeEnabled: () => true, workspace, spawn });
  // A Windows process gets one string: the program's path, then each argument quoted by the C runtime's
  // rules, joined by spaces, and a terminating NUL. "" takes 2 units; `say "hi"` is "say \"hi\"" (12);
  // `C:\out dir\` is "C:\out dir\\" (14); 😀 is one character and 2 UTF-16 units; `"hi" x`, a quote
  // first, is "\"hi\" x" (10); `a\"b c` is "a\\\"b c" (10), the backslash before the quote doubled.
  const quoted = ["", 'say "hi"', "C:\\out dir\\", "😀", '"hi" x', 'a\\"b c'];
  const fixed = executable.length + 2 + 12 + 14 + 2 + 10 + 10 + quoted.length + 1 + 1; // + a space before each argument, and the NUL
  const argv = (filler: number) => [...quoted, "x".repeat(filler)].map(literal);
  const atLimit = 32_767 - fixed;
  const problemsOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "prepared",
      (error: unknown) => (error instanceof Error && "problems" in error ? (error.problems as string[]).join(" | ") : String(error)),
    );
  const convert = (value: string, filler: number) => ({
    description: "convert the manual",
    executable: { kind: "path", value },
    argv: argv(filler),
  });
  const linux = executorFor({ workspace: temporaryFolder(), spawn });
  const outcomes = {
    "32767 units, the NUL included": await problemsOf(windows.prepare(convert(executable, atLimit))),
    "32768 units": await problemsOf(windows.prepare(convert(executable, atLimit + 1))),
    "40000 more units, for a program that does not exist": await problemsOf(windows.prepare(convert("C:\\Tools\\docconv.exe", 40_000))),
    "the same arguments on linux": await problemsOf(linux.prepare(request(argv(40_000)))),
  };
  const over = (units: number) =>
    `argv: the Windows command line would be ${units} UTF-16 units with its terminating NUL, more than the 32767 that CreateProcess takes: pass fewer or shorter arguments`;
  expect(outcomes, "prepare with command lines at and past the Windows limit").toEqual({
    "32767 units, the NUL included": "prepared",
    "32768 units": over(32_768),
    // Refused before the disk is asked: there is no "does not exist" for the program.
    "40000 more units, for a program that does not exist": over(40_000 + fixed - executable.length + "C:\\Tools\\docconv.exe".length),
    "the same arguments on linux": "prepared",
  });
  expect(calls.length, "processes started").toBe(0);
});

/** Waits for a condition by polling, up to a generous limit: never a fixed sleep. */
async function eventually<T>(what: string, probe: () => T | undefined): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > 30_000) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

/** Whether a process is still running. A zombie (ended, not yet reaped) counts as gone. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc (macOS): kill(pid, 0) said it exists
  }
}

it("ends the whole process group when the caller cancels, and says aborted", { timeout: 60_000 }, async ({ onTestFinished }) => {
  const workspace = temporaryFolder();
  // A build step that starts a helper (a compiler server), says where both are, and waits.
  const script = [
    'const { spawn } = require("node:child_process");',
    'const { renameSync, writeFileSync } = require("node:fs");',
    'const helper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });',
    "const [file] = process.argv.slice(1);", // node -e <script> <file>: the file comes right after node
    "writeFileSync(file + '.tmp', `${process.pid} ${helper.pid}`);",
    "renameSync(file + '.tmp', file);",
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const pidFile = join(workspace, "pids.txt");
  const executor = executorFor({ workspace });
  const prepared = await executor.prepare(request([literal("-e"), literal(script), pathItem(pidFile)], { timeoutMs: 600_000 }));
  const cancel = new AbortController();
  const running = executor.execute(prepared, { signal: cancel.signal });
  const early: { result?: NativeResult } = {};
  void running.then((result) => {
    early.result = result;
  });
  const pids = await eventually("the build step to start its helper", () => {
    if (early.result) throw new Error(`the build step ended before it started its helper: ${JSON.stringify(early.result)}`);
    return existsSync(pidFile) ? readFileSync(pidFile, "utf8").split(" ").map(Number) : undefined;
  });
  onTestFinished(() => {
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  });
  cancel.abort();
  const result = await running;
  const helperGone = await eventually("the helper to end", () => (isRunning(pids[1] ?? 0) ? undefined : true));
  expect(
    {
      exitCode: result.exitCode,
      signal: result.signal,
      aborted: result.aborted,
      timedOut: result.timedOut,
      helperGone,
      listenersLeft: getEventListeners(cancel.signal, "abort").length,
    },
    "a cancelled build step and the helper it started",
  ).toEqual({ exitCode: null, signal: "SIGTERM", aborted: true, timedOut: false, helperGone: true, listenersLeft: 0 });
});

it("ends what a program leaves running in its process group when it exits, so nothing outlives the run", {
  timeout: 60_000,
}, async ({ onTestFinished }) => {
  const workspace = temporaryFolder();
  // A build step that starts a file watcher in the background and exits at once, as `sh -c 'watch &'`
  // does: the watcher stays in the step's process group, holds no pipe, and would run on forever.
  const script = [
    'const { spawn } = require("node:child_process");',
    'const { renameSync, writeFileSync } = require("node:fs");',
    'const watcher = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });',
    "watcher.unref();",
    "const [file] = process.argv.slice(1);",
    "writeFileSync(file + '.tmp', String(watcher.pid));",
    "renameSync(file + '.tmp', file);",
  ].join("\n");
  const pidFile = join(workspace, "watcher.pid");
  const executor = executorFor({ workspace });
  const prepared = await executor.prepare(request([literal("-e"), literal(script), pathItem(pidFile)], { timeoutMs: 600_000 }));
  const result = await executor.execute(prepared);
  const watcher = Number(readFileSync(pidFile, "utf8"));
  onTestFinished(() => {
    if (isRunning(watcher)) process.kill(watcher, "SIGKILL");
  });
  // Waited for by polling, with a generous limit: a loaded machine may take its time to reap.
  const watcherFate = await eventually("the watcher the build step left behind to end", () =>
    isRunning(watcher) ? undefined : "ended",
  ).catch((error: unknown) => String(error));
  expect(
    {
      exitCode: result.exitCode,
      signal: result.signal,
      aborted: result.aborted,
      timedOut: result.timedOut,
      descendantsEnded: result.descendantsEnded,
      watcher: watcherFate,
    },
    "a build step that exited 0 and left a watcher in its group",
  ).toEqual({ exitCode: 0, signal: null, aborted: false, timedOut: false, descendantsEnded: true, watcher: "ended" });
});

it("reports a process killed from outside as killed, and a failing exit code as it is", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  const executor = executorFor({ workspace });
  const run = async (script: string) => {
    const result = await executor.execute(await executor.prepare(request([literal("-e"), literal(script)])));
    return { exitCode: result.exitCode, signal: result.signal, aborted: result.aborted, timedOut: result.timedOut };
  };
  expect(
    {
      "killed by SIGKILL, not by the executor": await run('process.kill(process.pid, "SIGKILL")'),
      "tests failed: exit code 3": await run("process.exit(3)"),
      "a clean exit": await run(""),
    },
    "how each process ended, as reported",
  ).toEqual({
    "killed by SIGKILL, not by the executor": { exitCode: null, signal: "SIGKILL", aborted: false, timedOut: false },
    "tests failed: exit code 3": { exitCode: 3, signal: null, aborted: false, timedOut: false },
    "a clean exit": { exitCode: 0, signal: null, aborted: false, timedOut: false },
  });
});

it("bounds the checks before a process starts at 5000 ms, so a disk that never answers starts nothing", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  const { spawn, calls } = fakeSpawn();
  // A network share that stops answering: while `answering` is false, each look at the disk waits
  // until the test releases it, as a stat on a hung mount waits in the kernel.
  let answering = true;
  // A look that fails in a way the check cannot even describe: reading the error's code throws.
  let breaking = false;
  const unreadable = () =>
    Object.defineProperty(new Error("the disk is gone"), "code", {
      get() {
        throw new Error("a code that cannot be read");
      },
    });
  const held: Array<() => Promise<void>> = [];
  const stat = (file: string) =>
    breaking
      ? Promise.reject(unreadable())
      : answering
        ? fsStat(file)
        : new Promise<Awaited<ReturnType<typeof fsStat>>>((resolve, reject) => {
            held.push(() => fsStat(file).then(resolve, reject));
          });
  const executor = executorFor({ workspace, spawn, stat } as Partial<NativeExecutorOptions> & { workspace: string });
  /** How a call has ended so far: "pending", what it returned, or the error it threw. */
  const watch = (promise: Promise<unknown>) => {
    const state = { now: "pending" };
    promise.then(
      () => {
        state.now = "settled without an error";
      },
      (error: unknown) => {
        state.now = String(error);
      },
    );
    return state;
  };
  vi.useFakeTimers();

  answering = false;
  const preparing = watch(executor.prepare(request()));
  await vi.advanceTimersByTimeAsync(4999);
  const prepareAt4999 = preparing.now;
  await vi.advanceTimersByTimeAsync(1);
  const prepareAt5000 = preparing.now;
  answering = true;
  await Promise.all(held.splice(0).map((release) => release())); // the disk answers at last: too late to prepare anything

  const prepared = await executor.prepare(request());
  answering = false;
  const running = watch(executor.execute(prepared));
  await vi.advanceTimersByTimeAsync(4999);
  const executeAt4999 = running.now;
  await vi.advanceTimersByTimeAsync(1);
  const executeAt5000 = running.now;

  // A cancel while the folder check waits ends the wait at once.
  answering = true;
  const second = await executor.prepare(request());
  answering = false;
  const cancel = new AbortController();
  const cancelling = watch(executor.execute(second, { signal: cancel.signal }));
  await vi.advanceTimersByTimeAsync(0);
  cancel.abort();
  await vi.advanceTimersByTimeAsync(0);
  const cancelled = cancelling.now;

  // A check that fails ends prepare with its own failure at once: the bound waits only for an answer.
  answering = true;
  breaking = true;
  const failing = watch(executor.prepare(request()));
  await vi.advanceTimersByTimeAsync(0);
  const failedAt0 = failing.now;
  breaking = false;

  await Promise.all(held.splice(0).map((release) => release()));
  await vi.runAllTimersAsync();
  expect(
    { prepareAt4999, prepareAt5000, executeAt4999, executeAt5000, cancelled, failedAt0, started: calls.length, timers: vi.getTimerCount() },
    "prepare and execute while the disk does not answer",
  ).toEqual({
    prepareAt4999: "pending",
    prepareAt5000: "TimeoutError: prepare's checks on the disk took more than 5000 ms: nothing was prepared",
    executeAt4999: "pending",
    executeAt5000: "TimeoutError: the check of the working folder took more than 5000 ms: nothing ran",
    cancelled: "AbortError: cancelled before the process started: nothing ran",
    failedAt0: "Error: a code that cannot be read",
    started: 0,
    timers: 0,
  });
});

it("starts nothing when cancelled first or when the working folder is gone, and reports a program that cannot start", {
  timeout: 60_000,
}, async () => {
  const workspace = temporaryFolder();
  writeTree(workspace, { "build/out/.keep": "", "bin/lint": "#!/bin/sh\necho lint\n" });
  chmodSync(join(workspace, "bin", "lint"), 0o755);
  const { spawn, calls } = fakeSpawn();
  const executor = executorFor({ workspace, spawn });
  const outcomes: Record<string, string> = {};

  const cancelled = new AbortController();
  cancelled.abort();
  const first = await executor.prepare(request());
  outcomes["cancelled before execute"] = await executor.execute(first, { signal: cancelled.signal }).then(() => "ran", String);

  const late = new AbortController();
  const second = await executor.prepare(request());
  const cancelling = executor.execute(second, { signal: late.signal });
  late.abort(); // while execute checks the working folder
  outcomes["cancelled while execute checked the folder"] = await cancelling.then(() => "ran", String);

  const inBuild = await executor.prepare(request([], { cwd: pathItem(join(workspace, "build", "out")) }));
  rmSync(join(workspace, "build"), { recursive: true });
  outcomes["working folder removed after prepare"] = await executor.execute(inBuild).then(() => "ran", String);

  const third = await executor.prepare(request());
  outcomes["a signal that is not an AbortSignal"] = await executor
    .execute(third, { signal: { aborted: false } as AbortSignal })
    .then(() => "ran", String);
  outcomes["options that are null"] = await executor.execute(third, null as unknown as { signal?: AbortSignal }).then(() => "ran", String);
  expect(calls.length, "processes started by the fake spawn").toBe(0);

  const throwing = executorFor({
    workspace,
    spawn: (() => {
      throw new Error("spawn EAGAIN");
    }) as unknown as Spawn,
  });
  outcomes["spawn throws"] = await throwing.execute(await throwing.prepare(request())).then(() => "ran", String);

  const real = executorFor({ workspace });
  const lint = await real.prepare({ description: "lint", executable: pathItem(join(workspace, "bin", "lint")), argv: [] });
  rmSync(join(workspace, "bin", "lint"));
  const signal = new AbortController().signal;
  outcomes["program deleted after prepare"] = await real.execute(lint, { signal }).then(() => "ran", String);
  expect(getEventListeners(signal, "abort").length, "listeners left on the caller's signal").toBe(0);

  const bin = JSON.stringify(join(workspace, "bin", "lint"));
  expect(outcomes, "what execute did in each case").toEqual({
    "cancelled before execute": "AbortError: cancelled before the process started: nothing ran",
    "cancelled while execute checked the folder": "AbortError: cancelled before the process started: nothing ran",
    "working folder removed after prepare": `NativeRequestError: invalid native request: cwd: ${JSON.stringify(join(workspace, "build", "out"))} does not exist`,
    "a signal that is not an AbortSignal": "TypeError: signal must be an AbortSignal",
    "options that are null": "TypeError: execute options must be an object: { signal? }",
    "spawn throws": `Error: could not start ${JSON.stringify(process.execPath)}: spawn EAGAIN`,
    "program deleted after prepare": `Error: could not start ${bin}: spawn ${join(workspace, "bin", "lint")} ENOENT`,
  });
});

it("keeps the system's error as the cause when a program cannot start", { timeout: 60_000 }, async () => {
  const workspace = temporaryFolder();
  writeTree(workspace, { "bin/lint": "#!/bin/sh\necho lint\n" });
  chmodSync(join(workspace, "bin", "lint"), 0o755);
  /** The code of the error's cause: what a harness reads to tell a missing program from a busy system. */
  const causeOf = (error: unknown) => {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return cause === undefined ? `no cause on ${String(error)}` : String(cause.code);
  };
  const busy = executorFor({
    workspace,
    spawn: (() => {
      throw Object.assign(new Error("spawn EAGAIN"), { code: "EAGAIN" });
    }) as unknown as Spawn,
  });
  const real = executorFor({ workspace });
  const lint = await real.prepare({ description: "lint", executable: pathItem(join(workspace, "bin", "lint")), argv: [] });
  rmSync(join(workspace, "bin", "lint"));
  expect(
    {
      "spawn throws EAGAIN": await busy.execute(await busy.prepare(request())).then(() => "ran", causeOf),
      "program deleted after prepare": await real.execute(lint).then(() => "ran", causeOf),
    },
    "the code of the cause of each could not start",
  ).toEqual({ "spawn throws EAGAIN": "EAGAIN", "program deleted after prepare": "ENOENT" });
});

it("refuses options that are not an object, for the executor and for execute, and starts nothing", async () => {
  const workspace = temporaryFolder();
  const { spawn, calls } = fakeSpawn();
  const executor = executorFor({ workspace, spawn });
  const prepared = await executor.prepare(request());
  const execute = (options: unknown) =>
    executor.execute(prepared, options as Parameters<NativeExecutor["execute"]>[1]).then(() => "ran", String);
  let constructed: string;
  try {
    new NativeExecutor(null as unknown as NativeExecutorOptions);
    constructed = "accepted";
  } catch (error) {
    constructed = String(error);
  }
  expect(
    { "new NativeExecutor(null)": constructed, 'execute with "fast"': await execute("fast"), "execute with 5": await execute(5) },
    "options that are not objects",
  ).toEqual({
    "new NativeExecutor(null)": "TypeError: NativeExecutor needs { platform, policy, nativeEnabled, workspace }",
    'execute with "fast"': "TypeError: execute options must be an object: { signal? }",
    "execute with 5": "TypeError: execute options must be an object: { signal? }",
  });
  expect(calls.length, "processes started").toBe(0);
});

it("refuses executor options that are not live readers, a known platform and an absolute workspace", () => {
  const good = { platform: "linux" as Platform, policy: () => FULL, nativeEnabled: () => true, workspace: "/srv/shop" };
  const attempts: Record<string, unknown> = {
    "no options": undefined,
    'platform "windows"': { ...good, platform: "windows" },
    'platform "__proto__"': { ...good, platform: "__proto__" },
    "a platform read by a function": { ...good, platform: () => "linux" },
    "a policy that is a string, read once": { ...good, policy: FULL },
    "a switch that is a boolean, read once": { ...good, nativeEnabled: true },
    'a relative workspace "shop"': { ...good, workspace: "shop" },
    "a Windows workspace on linux": { ...good, workspace: "C:\\shop" },
    "a POSIX workspace on win32": { ...good, platform: "win32", workspace: "/srv/shop" },
    "spawn that is not a function": { ...good, spawn: "node" },
    "stat that is not a function": { ...good, stat: {} },
    "every option right": good,
    "win32 with a Windows workspace": { ...good, platform: "win32", workspace: "C:\\work\\shop" },
  };
  const outcomes: Record<string, string> = {};
  for (const [name, options] of Object.entries(attempts)) {
    try {
      new NativeExecutor(options as NativeExecutorOptions);
      outcomes[name] = "accepted";
    } catch (error) {
      outcomes[name] = String(error);
    }
  }
  expect(outcomes, "new NativeExecutor(options) for each set of options").toEqual({
    "no options": "TypeError: NativeExecutor needs { platform, policy, nativeEnabled, workspace }",
    'platform "windows"': 'TypeError: platform must be one of win32, linux, darwin, got "windows"',
    'platform "__proto__"': 'TypeError: platform must be one of win32, linux, darwin, got "__proto__"',
    "a platform read by a function": "TypeError: platform must be one of win32, linux, darwin, got a function",
    "a policy that is a string, read once": "TypeError: policy must be a function that reads the standing policy",
    "a switch that is a boolean, read once": "TypeError: nativeEnabled must be a function that reads the native switch",
    'a relative workspace "shop"': 'TypeError: workspace must be an absolute path on linux, got "shop"',
    "a Windows workspace on linux": 'TypeError: workspace must be an absolute path on linux, got "C:\\\\shop"',
    "a POSIX workspace on win32": 'TypeError: workspace must be an absolute path on win32, got "/srv/shop"',
    "spawn that is not a function": "TypeError: spawn must be a function like child_process.spawn",
    "stat that is not a function": "TypeError: stat must be a function like fs.promises.stat",
    "every option right": "accepted",
    "win32 with a Windows workspace": "accepted",
  });
});
