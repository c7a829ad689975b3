// `npm start` ends with whoever started it. npm runs the server as npm → sh → tsx → node, and ending
// npm's process reaches none of the others by itself: each test here starts that very chain in a
// process group of its own, on a free port, ends it the way a learner or an editor does, and waits for
// the events that say every process of the chain is gone (npm's exit, and every holder of its output
// pipes closing them), with a generous limit, never a fixed sleep. Whatever happens, the group is
// killed when the test ends. Process groups and signals are POSIX: on Windows this file does not run.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../lab/core/layout.js";
import { npmCommand } from "../../lab/core/npm.js";
import { chainHolds, launchChain, parsePs, parseStat, type ProcessFacts } from "../lifetime.js";

/** A build and a start on a loaded two-core machine take seconds; these limits are far above that. */
const STARTED_WITHIN_MS = 180_000;
const GONE_WITHIN_MS = 60_000;
const CASE_TIMEOUT_MS = STARTED_WITHIN_MS + GONE_WITHIN_MS + 30_000;

let scratch = "";
/** Process groups started by the tests, killed whole when each test ends. */
const groups = new Set<number>();

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "forge-site-lifetime-"));
  mkdirSync(join(scratch, "evidence"));
});

afterEach(() => {
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // the group is already gone
    }
  }
  groups.clear();
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Member {
  readonly pid: number;
  readonly ppid: number;
  readonly state: string;
  readonly command: string;
}

/** The live processes of a process group (a zombie has ended: it only waits to be reaped). */
function membersOf(group: number): Member[] {
  const listing = execFileSync("ps", ["-A", "-o", "pid=,ppid=,pgid=,stat=,args="], { encoding: "utf8" });
  const members: Member[] = [];
  for (const line of listing.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match || Number(match[3]) !== group || match[4]?.startsWith("Z")) continue;
    members.push({ pid: Number(match[1]), ppid: Number(match[2]), state: match[4] ?? "", command: match[5] ?? "" });
  }
  return members;
}

const shown = (members: readonly Member[]) => members.map((member) => `${member.pid} (parent ${member.ppid}) ${member.command}`);

/** What the server at `url` answers: its HTTP status, or the error of a connection nobody answers. */
function answer(url: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const asked = request(url, { agent: false, headers: { host: new URL(url).host } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    asked.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    asked.end();
  });
}

/** `promise`, or a failure naming `what` once `ms` have passed: a limit, not a wait. */
function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what()} (after ${ms / 1000} s)`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

interface Started {
  readonly npm: ChildProcess;
  /** npm's pid, which is also the process group's. */
  readonly group: number;
  readonly url: string;
  /** The node process that serves, at the end of the chain. */
  readonly server: Member;
  readonly output: () => string;
  /** Settles once npm has exited and every process that shared its output pipes has closed them. */
  readonly ended: Promise<void>;
}

/**
 * `npm start` on a free port, building into a folder of its own, in a new process group. Its standard
 * input is /dev/null, as a background job's is, unless `stdin` asks for a pipe: Node closes the pipe
 * to a child that exits, which would end the server through its standard input rather than through
 * the chain a terminal leaves as the only sign.
 */
async function startNpm(out: string, stdin: "ignore" | "pipe" = "ignore"): Promise<Started> {
  const [node, args] = npmCommand(["start", "--", "--out", out]);
  const npm = spawn(node, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", FORGE_EVIDENCE: join(scratch, "evidence"), NO_COLOR: "1" },
    detached: true,
    stdio: [stdin, "pipe", "pipe"],
  });
  const group = npm.pid;
  if (group === undefined) throw new Error("npm start did not start");
  groups.add(group);
  let output = "";
  npm.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // "close" comes after npm's exit and after the last holder of its stdio pipes (sh, tsx, the server
  // and its esbuild service inherit them) has gone.
  const ended = new Promise<void>((resolve) => npm.once("close", () => resolve()));
  const url = await within(
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const found = /http:\/\/localhost:\d+\//.exec(output)?.[0];
        if (found) resolve(found);
      };
      npm.stdout?.on("data", look);
      npm.once("exit", (code, signal) => reject(new Error(`npm start ended (${code ?? signal}) before serving:\n${output}`)));
    }),
    STARTED_WITHIN_MS,
    () => `npm start printed no address:\n${output}`,
  );
  const members = membersOf(group);
  // sh's command line and tsx's name serve.ts too: the server is the one that none of them is a parent of.
  const serving = members.filter((member) => member.command.includes("site/bin/serve.ts"));
  const server = serving.find((member) => !serving.some((child) => child.ppid === member.pid));
  if (!server) throw new Error(`no server process in the group:\n${shown(members).join("\n")}`);
  expect(await answer(url), "the server's answer before anything is ended").toEqual({ status: 200 });
  return { npm, group, url, server, output: () => output, ended };
}

/** Waits until the whole chain has ended, then checks that the port no longer answers and nothing of the group lives. */
async function expectAllGone(started: Started, how: string): Promise<void> {
  await within(started.ended, GONE_WITHIN_MS, () => {
    const left = shown(membersOf(started.group));
    return `after ${how}, these processes of npm start are still running:\n${left.join("\n")}\noutput:\n${started.output()}`;
  });
  const reply = await answer(started.url);
  expect("status" in reply ? `answered ${reply.status}` : "no answer", `the port after ${how}`).toBe("no answer");
  expect(shown(membersOf(started.group)), `processes of npm start left after ${how}`).toEqual([]);
}

it("reads a process's parent and group from its /proc stat line and from ps, whatever its command is called", () => {
  expect(parseStat("4321 (tsx) (x) S 1200 1100 1100 0 -1 4194560"), "a command with a parenthesis and a space").toEqual({
    ppid: 1200,
    pgid: 1100,
    ended: false,
  });
  expect(parseStat("4321 (sh) Z 1 1100 1100"), "a zombie").toEqual({ ppid: 1, pgid: 1100, ended: true });
  expect(parseStat("garbage"), "a line that is not a stat line").toBe(null);
  expect(parsePs("  1200  1100 Ss+\n"), "ps's line").toEqual({ ppid: 1200, pgid: 1100, ended: false });
  expect(parsePs(""), "ps naming no process").toBe(null);
});

it("watches the server and each ancestor in its process group below the leader, and notices an orphan", () => {
  // npm (1100, the group's leader, started by a shell, 1000) → sh (1200) → tsx (1300) → node (1400).
  const tree = new Map<number, ProcessFacts>([
    [1000, { ppid: 900, pgid: 1000, ended: false }],
    [1100, { ppid: 1000, pgid: 1100, ended: false }],
    [1200, { ppid: 1100, pgid: 1100, ended: false }],
    [1300, { ppid: 1200, pgid: 1100, ended: false }],
    [1400, { ppid: 1300, pgid: 1100, ended: false }],
  ]);
  const facts = (pid: number) => tree.get(pid) ?? null;
  const chain = launchChain(1400, facts);
  expect(chain, "the links watched").toEqual([
    { pid: 1400, ppid: 1300 },
    { pid: 1300, ppid: 1200 },
    { pid: 1200, ppid: 1100 },
  ]);
  expect(chainHolds(chain, facts), "the chain while npm runs").toBe(true);
  expect(launchChain(1100, facts), "a process that leads its own group watches its parent alone").toEqual([{ pid: 1100, ppid: 1000 }]);
  tree.delete(1100);
  tree.set(1200, { ppid: 1, pgid: 1100, ended: false });
  expect(chainHolds(chain, facts), "the chain once npm has ended and sh was given to init").toBe(false);
});

it("takes its port from --port, and answers a port in use or one that is no number in one line", { timeout: CASE_TIMEOUT_MS }, async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  try {
    const address = busy.address();
    const taken = typeof address === "object" && address ? address.port : 0;
    const start = (args: readonly string[]) =>
      new Promise<{ status: number | null; output: string }>((resolve) => {
        const [node, npmArgs] = npmCommand(["start", "--silent", "--", "--out", join(scratch, "ports"), ...args]);
        execFile(
          node,
          npmArgs,
          { cwd: ROOT, env: { ...process.env, PORT: "4173", NO_COLOR: "1" }, timeout: STARTED_WITHIN_MS },
          (error, stdout, stderr) =>
            resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, output: `${stdout}${stderr}`.trim() }),
        );
      });
    const inUse = await start(["--port", String(taken)]);
    expect(inUse.status, `exit status with port ${taken} in use:\n${inUse.output}`).toBe(1);
    expect(inUse.output.split("\n").at(-1), "the last line").toBe(
      `Port ${taken} is in use: choose another one, e.g. npm start -- --port ${taken + 1}.`,
    );
    const word = await start(["--port", "web"]);
    expect({ status: word.status, output: word.output }, "a port that is no number").toEqual({
      status: 2,
      output: '--port="web" is not a port number (0 to 65535). Usage: npm start [-- [--port <number>] [--out <folder>]]',
    });
  } finally {
    busy.close();
  }
});

describe.skipIf(process.platform === "win32")("npm start's lifetime", () => {
  it(
    "ends the server when npm's process is sent SIGTERM",
    async () => {
      const started = await startNpm(join(scratch, "sigterm"));
      process.kill(started.npm.pid ?? 0, "SIGTERM");
      await expectAllGone(started, "SIGTERM to npm");
      expect(started.output(), "what the server says as it stops").toMatch(/Stopping: the process that started this server has ended\./);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "ends the server when npm's process is killed outright (SIGKILL, which no handler sees)",
    async () => {
      const started = await startNpm(join(scratch, "sigkill"));
      process.kill(started.npm.pid ?? 0, "SIGKILL");
      await expectAllGone(started, "SIGKILL to npm");
      expect(started.output(), "what the server says as it stops").toMatch(/Stopping: the process that started this server has ended\./);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "stops the server gracefully on SIGHUP, as when its terminal closes",
    async () => {
      const started = await startNpm(join(scratch, "sighup"));
      process.kill(started.server.pid, "SIGHUP");
      await expectAllGone(started, "SIGHUP to the server");
      expect(started.output(), "what the server says as it stops").toMatch(/Stopping: SIGHUP received\./);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "ends the server when the pipe that is its standard input closes",
    async () => {
      const started = await startNpm(join(scratch, "stdin"), "pipe");
      started.npm.stdin?.end();
      await expectAllGone(started, "closing npm's standard input");
      expect(started.output(), "what the server says as it stops").toMatch(/Stopping: its standard input was closed\./);
    },
    CASE_TIMEOUT_MS,
  );
});
