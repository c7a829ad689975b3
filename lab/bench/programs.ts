// Where a run's CPU time goes, by program, and how much the machine's host took from it. `time` counts
// only the processes a run reaps: a browser that Playwright ends leaves most of its time uncounted there.
// So this reads /proc while the run goes on (Linux; elsewhere it reports nothing).
import { readdirSync, readFileSync } from "node:fs";

export interface ProgramTimes {
  /** CPU seconds (user and system) by program name, highest first. */
  readonly byProgram: ReadonlyArray<readonly [string, number]>;
  /** CPU seconds the host gave to other guests while this machine wanted them (steal), or null. */
  readonly stealSeconds: number | null;
}

export interface ProgramSampler {
  stop(): ProgramTimes;
}

/** proc(5) counts in clock ticks: USER_HZ, 100 a second on every Linux that Node.js runs on. */
const TICKS_PER_SECOND = 100;

/** One process as /proc shows it: its name, when it started (so a reused pid is a new process), its CPU ticks. */
function readProcess(pid: string): { key: string; name: string; ticks: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null; // It ended between the listing and the read.
  }
  // The name is in parentheses and may itself hold spaces or parentheses: the fields follow the last ")".
  const close = text.lastIndexOf(")");
  const name = text.slice(text.indexOf("(") + 1, close);
  const fields = text.slice(close + 2).split(" ");
  // Fields 14 and 15 of proc(5) are utime and stime (its own time, not its children's: no double count);
  // field 22 is the start time. After the name, field n is at index n - 3.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { key: `${pid}@${fields[19]}`, name, ticks };
}

/**
 * CPU seconds the host has given to other guests while this machine wanted them, since it booted (the
 * steal column of /proc/stat), or null off Linux. A figure taken while it grows is not this code's.
 */
export function stolenSeconds(): number | null {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/);
    const steal = Number(cpu?.[8]);
    return Number.isFinite(steal) ? steal / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * Samples every process every `intervalMs` until `stop()`. What a process had spent before the start is
 * left out; a process that lives shorter than one interval may be missed, and one that ends loses at most
 * its last interval, so the figures are a floor.
 */
export function samplePrograms(intervalMs = 250): ProgramSampler {
  if (process.platform !== "linux") return { stop: () => ({ byProgram: [], stealSeconds: null }) };
  const before = new Map<string, number>();
  const latest = new Map<string, { name: string; ticks: number }>();
  const own = String(process.pid);
  const sample = (into: (key: string, name: string, ticks: number) => void) => {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid) || pid === own) continue;
      const seen = readProcess(pid);
      if (seen) into(seen.key, seen.name, seen.ticks);
    }
  };
  sample((key, _name, ticks) => before.set(key, ticks));
  const stealBefore = stolenSeconds();
  const timer = setInterval(() => sample((key, name, ticks) => latest.set(key, { name, ticks })), intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample((key, name, ticks) => latest.set(key, { name, ticks }));
      const totals = new Map<string, number>();
      for (const [key, { name, ticks }] of latest) {
        const spent = ticks - (before.get(key) ?? 0);
        if (spent > 0) totals.set(name, (totals.get(name) ?? 0) + spent / TICKS_PER_SECOND);
      }
      const stealAfter = stolenSeconds();
      return {
        byProgram: [...totals].sort((a, b) => b[1] - a[1]),
        stealSeconds: stealBefore === null || stealAfter === null ? null : stealAfter - stealBefore,
      };
    },
  };
}
