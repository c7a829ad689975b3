// Busy loops that hold the CPUs while `npm run verify:soak` runs verify beside them. Each loop ends when
// it is killed, and also when the process that started it is gone: a soak ended by SIGKILL (or by a
// crash) cannot run its own clean-up, and a loop left behind would hold a core until someone finds it.
import { spawn, type ChildProcess } from "node:child_process";

/**
 * The loop's program. It asks for its parent now and then: a process whose parent is gone is handed to
 * another (init, or a subreaper), so a parent id other than the one that started it means that one has
 * ended. The id is written into the program rather than read when the loop starts, since a parent killed
 * while the loop's Node.js is still starting would otherwise be missed. Asking every ten million turns
 * costs nothing next to the turns themselves (a few times a second).
 */
const loop = (parent: number) => `for (let turn = 1; ; turn += 1) if (turn % 1e7 === 0 && process.ppid !== ${parent}) process.exit(0);`;

/** A process that keeps one CPU busy until it is killed or the process that started it ends. */
export function busyLoop(): ChildProcess {
  return spawn(process.execPath, ["-e", loop(process.pid)], { stdio: "ignore" });
}
