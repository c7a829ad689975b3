// The control of stage 02's walk-cost test: the walk as it is often first written, with a queue of
// segments whose front is taken with Array.prototype.shift and in front of which a link's target is
// put with unshift. Both move every queued segment on each call, so the walk's time grows with the
// square of the segments queued. The test runs it beside the module under test, to prove that its
// measurement sees that growth.
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";

export async function resolveWorkspacePath(workspace: string, requested: string): Promise<string> {
  const root = await realpath(workspace);
  const pending = requested.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  let current = root;
  let hops = 0;
  for (let segment = pending.shift(); segment !== undefined; segment = pending.shift()) {
    if (segment === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    const stats = await lstat(next).catch(() => null);
    if (stats === null || !stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > 40) throw new Error(`path ${JSON.stringify(requested)} cannot be resolved: more than 40 symlinks`);
    const target = await readlink(next);
    if (path.isAbsolute(target)) current = path.parse(target).root;
    pending.unshift(...target.split("/").filter((part) => part !== "" && part !== "."));
  }
  const relative = path.relative(root, current);
  if (relative.split(path.sep)[0] === ".." || path.isAbsolute(relative)) {
    throw new Error(`path ${JSON.stringify(requested)} escapes the workspace`);
  }
  return current;
}
