// The soak's load and its ending: a busy loop ends once the process that started it is gone, even one
// killed with SIGKILL, and a soak ended with SIGTERM takes its loops and its running verify with it.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { ROOT } from "../../core/layout.js";
import { childEnvironment } from "../support/child.js";
import { copyRepository, SLOW } from "../support/cli.js";

/** Whether a process runs: a zombie (ended, not yet reaped by a parent that is gone) does not. */
function running(pid: number): boolean {
  try {
    return !execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" })
      .trim()
      .startsWith("Z");
  } catch {
    return false; // ps exits with 1 for a pid it does not know
  }
}

/** The ids of a process's children, as ps lists every process with its parent. */
function childrenOf(pid: number): number[] {
  return execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child ?? 0);
}

/** Waits, up to `ms`, until none of the processes runs; returns those still running then. */
async function gone(pids: readonly number[], ms = 10_000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = pids.filter(running);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first line a child prints. */
async function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  let text = "";
  for await (const chunk of child.stdout ?? []) {
    text += String(chunk);
    if (text.includes("\n")) return text.slice(0, text.indexOf("\n"));
  }
  throw new Error(`the child ended before it printed a line; it printed ${JSON.stringify(text)}`);
}

it("a busy loop ends on its own once the process that started it is killed with SIGKILL", SLOW, async () => {
  const load = pathToFileURL(join(ROOT, "lab", "bench", "load.ts")).href;
  const script = `const { busyLoop } = await import(${JSON.stringify(load)}); console.log(busyLoop().pid); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    env: childEnvironment(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const loop = Number(await firstLine(parent));
  expect(running(loop), `the loop (pid ${loop}) while its parent lives`).toBe(true);
  const exited = once(parent, "exit");
  parent.kill("SIGKILL");
  await exited;
  const left = await gone([loop]);
  const shown = left.length > 0 ? execFileSync("ps", ["-o", "pid=,ppid=,stat=,args=", "-p", left.join(",")], { encoding: "utf8" }) : "";
  expect(left, `loops still running 10 s after their parent was killed: ${shown}`).toEqual([]);
});

it("a soak ended with SIGTERM ends the verify it runs and its busy loops, and exits with 143", SLOW, async (context) => {
  // A copy whose `npm run verify` is a stand-in that says it has started and then waits, as a long
  // verify would.
  const copy = copyRepository(context);
  const manifest = JSON.parse(readFileSync(join(copy, "package.json"), "utf8"));
  manifest.scripts.verify = `node -e "require('node:fs').writeFileSync('verify.pid', String(process.pid)); setInterval(() => {}, 1000)"`;
  writeFileSync(join(copy, "package.json"), JSON.stringify(manifest, null, 2));
  const soak = spawn(process.execPath, ["--import", "tsx", join(copy, "lab", "bin", "soak.ts"), "--runs", "1", "--load", "2"], {
    cwd: copy,
    env: childEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  soak.stdout.on("data", (chunk) => void (output += String(chunk)));
  soak.stderr.on("data", (chunk) => void (output += String(chunk)));
  const exited = once(soak, "exit");
  const soakPid = soak.pid ?? 0;
  let verify = Number.NaN;
  for (const until = Date.now() + 60_000; Number.isNaN(verify) && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      verify = Number(readFileSync(join(copy, "verify.pid"), "utf8"));
    } catch {
      // Not started yet.
    }
  }
  expect(verify, `the stand-in verify's pid; the soak printed: ${output}`).not.toBeNaN();
  // The soak's children: the loops and the npm that runs verify.
  const children = childrenOf(soakPid);
  expect(children.length, `children of the soak (${children.join(", ")})`).toBeGreaterThanOrEqual(3);

  // Should the soak leave any behind, the test does not.
  context.onTestFinished(() => {
    for (const pid of [verify, ...children]) if (running(pid)) process.kill(pid, "SIGKILL");
  });
  soak.kill("SIGTERM");
  const [code, signal] = await exited;
  expect({ code, signal }, `how the soak ended; it printed: ${output}`).toEqual({ code: 143, signal: null });
  expect(await gone([verify, ...children]), "processes of the soak still running after it ended").toEqual([]);
});
