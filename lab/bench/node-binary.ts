// The official Node.js binary of a release line, installed from the npm registry (the
// `node-<platform>-<arch>` packages) into node_modules/.cache/forge-lab/node/<line>/, once. Used by
// `npm run verify:node` and by the comparison of newer tool majors, which must run on a line this
// machine may not have.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { $ } from "zx";
import { dirs } from "../core/layout.js";

/** The name of the npm package that ships this platform's official Node.js binary. */
function binaryPackage(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  return `node-${platform}-${process.arch}`;
}

/** The `node` of a line, installed on first use. */
export async function nodeOf(line: number): Promise<string> {
  const folder = join(dirs.cache, "node", String(line));
  const bin = process.platform === "win32" ? join("bin", "node.exe") : join("bin", "node");
  const node = join(folder, "node_modules", binaryPackage(), bin);
  if (existsSync(node)) return node;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // A manifest of its own, so npm installs here and never walks up into the course's package.json.
  writeFileSync(join(folder, "package.json"), '{ "private": true }\n');
  await $({ cwd: folder, quiet: true })`npm install --no-audit --no-fund --no-save ${`${binaryPackage()}@${line}`}`;
  if (!existsSync(node)) throw new Error(`${binaryPackage()}@${line} installed no ${bin}`);
  return node;
}
