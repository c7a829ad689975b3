// The bench's account of CPU time by program: a child that spends a known amount of CPU shows up under
// its program's name, and what a process spent before the sampler started is left out.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";
import { samplePrograms } from "../../bench/programs.js";

/**
 * A child named `title` (the name /proc shows) that spends `cpuMs` of CPU time, user and system, however long
 * that takes on a busy machine, says "spent", then stays alive `idleMs` so a sampler sees its last ticks.
 */
function busy(title: string, cpuMs: number, idleMs: number) {
  const script = `process.title = ${JSON.stringify(title)}; const spent = () => { const { user, system } = process.cpuUsage(); return user + system; }; while (spent() < ${cpuMs * 1000}) {} console.log("spent"); setTimeout(() => {}, ${idleMs});`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const spent = once(child.stdout, "data");
  return { spent, exited: once(child, "exit") };
}

it("counts a child's CPU time under its program's name, and leaves out what came before the start", { timeout: 60_000 }, async () => {
  // One child spends its time before the sampler starts, and another after.
  const before = busy("forge-before", 800, 3000);
  await before.spent;
  const sampler = samplePrograms(50);
  const after = busy("forge-after", 800, 600);
  const [code] = await after.exited;
  expect(code, "the busy child's exit code").toBe(0);
  const { byProgram, stealSeconds } = sampler.stop();
  await before.exited;
  if (process.platform !== "linux") {
    expect({ byProgram, stealSeconds }, "off Linux, there is no /proc to read").toEqual({ byProgram: [], stealSeconds: null });
    return;
  }
  const counted = (name: string) => byProgram.find(([program]) => program === name)?.[1] ?? 0;
  expect(counted("forge-after"), `CPU seconds of the child run after the start, of ${JSON.stringify(byProgram)}`).toBeGreaterThanOrEqual(
    0.7,
  );
  expect(counted("forge-after"), "…and no more than it can have spent").toBeLessThan(1.5);
  expect(counted("forge-before"), "CPU seconds of the child that spent its time before the start").toBeLessThan(0.2);
  expect(stealSeconds, "the host's steal, read from /proc/stat").toBeGreaterThanOrEqual(0);
});
