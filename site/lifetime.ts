// How the server of `npm start` ends with whoever started it. npm runs it as npm → sh → tsx → node, and
// ending npm reaches none of the others: a SIGTERM that npm forwards ends sh alone, a SIGKILL ends npm
// alone, and tsx stays to wait for the server. So the server watches the whole chain it was started by:
// itself and each ancestor in its own process group below the group's leader (npm, when a shell started
// `npm start`), each with the parent it had at the start. When a process of the chain ends, the process
// below it is given another parent, and the server stops. A pipe on its standard input that closes says
// the same, where the starter held it; a terminal's does not, and a terminal that closes sends SIGHUP.
import { execFileSync } from "node:child_process";
import { fstatSync, readFileSync } from "node:fs";

/** A process of the chain and the parent it must keep. */
export interface Link {
  readonly pid: number;
  readonly ppid: number;
}

export interface ProcessFacts {
  readonly ppid: number;
  readonly pgid: number;
  /** It has ended and waits only to be reaped. */
  readonly ended: boolean;
}

/**
 * A line of /proc/<pid>/stat: `pid (command) state ppid pgrp …`. The command may hold spaces and
 * parentheses, so the fields are read after its last ")".
 */
export function parseStat(line: string): ProcessFacts | null {
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  const [state, ppid, pgid] = [fields[0], Number(fields[1]), Number(fields[2])];
  if (!state || !Number.isInteger(ppid) || !Number.isInteger(pgid)) return null;
  return { ppid, pgid, ended: state === "Z" || state === "X" };
}

/** What `ps -o ppid=,pgid=,stat= -p <pid>` prints of a process. */
export function parsePs(line: string): ProcessFacts | null {
  const match = /^\s*(\d+)\s+(\d+)\s+(\S+)/.exec(line);
  if (!match) return null;
  return { ppid: Number(match[1]), pgid: Number(match[2]), ended: match[3]?.startsWith("Z") ?? false };
}

/** The parent and group of a live process, or null when it is gone (or the platform cannot say). */
export function factsOf(pid: number): ProcessFacts | null {
  try {
    if (process.platform === "linux") {
      const facts = parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
      return facts && !facts.ended ? facts : null;
    }
    if (process.platform === "win32") return null;
    const facts = parsePs(execFileSync("ps", ["-o", "ppid=,pgid=,stat=", "-p", String(pid)], { encoding: "utf8" }));
    return facts && !facts.ended ? facts : null;
  } catch {
    return null;
  }
}

/**
 * The chain this process lives by: itself with its parent, then each ancestor in its process group
 * that is not the group's leader, with its own parent. A process that leads its own group (started
 * detached), or a platform without groups, watches its parent alone.
 */
export function launchChain(self: number = process.pid, facts: (pid: number) => ProcessFacts | null = factsOf): Link[] {
  const own = facts(self);
  if (!own) return [{ pid: self, ppid: process.ppid }];
  const chain: Link[] = [{ pid: self, ppid: own.ppid }];
  let above = own.ppid;
  // The chain is short (npm start has three processes above the server); the bound guards against a cycle.
  while (chain.length < 64 && above > 1 && above !== own.pgid) {
    const ancestor = facts(above);
    if (!ancestor || ancestor.pgid !== own.pgid) break;
    chain.push({ pid: above, ppid: ancestor.ppid });
    above = ancestor.ppid;
  }
  return chain;
}

/** Whether every process of the chain is there with the parent it started with. */
export function chainHolds(chain: readonly Link[], facts: (pid: number) => ProcessFacts | null = factsOf): boolean {
  return chain.every((link) => facts(link.pid)?.ppid === link.ppid);
}

/** Windows gives an orphan no new parent: whether the parent still exists is what it can tell. */
function parentAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Standard input is a pipe or a socket, whose closing means the other end has gone: not a terminal, a file or /dev/null. */
export function stdinIsPipe(fd = 0): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

export type StopReason =
  | { readonly kind: "signal"; readonly signal: NodeJS.Signals }
  | { readonly kind: "starter" }
  | { readonly kind: "stdin" };

const POLL_MS = 500;

/**
 * Calls `stop` once, on the first of: SIGINT, SIGTERM or SIGHUP; a process of the launch chain ending;
 * standard input closing, when it is a pipe. Nothing it sets up keeps the process alive by itself.
 */
export function endWithStarter(stop: (reason: StopReason) => void): void {
  let stopped = false;
  const once = (reason: StopReason) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    stop(reason);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => once({ kind: "signal", signal }));
  const chain = launchChain();
  const parent = process.ppid;
  const holds = process.platform === "win32" ? () => parentAlive(parent) : () => chainHolds(chain);
  const timer = setInterval(() => {
    if (!holds()) once({ kind: "starter" });
  }, POLL_MS);
  timer.unref();
  if (stdinIsPipe()) {
    process.stdin.on("data", () => {});
    process.stdin.once("end", () => once({ kind: "stdin" }));
    process.stdin.once("error", () => once({ kind: "stdin" }));
    process.stdin.unref?.();
  }
}
