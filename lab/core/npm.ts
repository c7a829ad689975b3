// How the lab starts npm in a child process, on every platform. `npm` is a shell script on POSIX and
// `npm.cmd` on Windows, which Node refuses to start without a shell (CVE-2024-27980); npm's own
// JavaScript entry point, run by this very Node, needs neither a shell nor a lookup on PATH.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/** npm's command-line script: the one running this process, or the one installed beside this Node. */
export function npmCli(env: Readonly<Record<string, string | undefined>> = process.env, node: string = process.execPath): string {
  const candidates = [
    // Set by npm for the scripts it runs (`npm test`, `npm run verify`): the npm that started us.
    env.npm_execpath,
    // Beside the Node binary: node_modules/npm on Windows, lib/node_modules/npm on POSIX installs.
    join(dirname(node), "node_modules", "npm", "bin", "npm-cli.js"),
    join(dirname(node), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"),
  ];
  const found = candidates.find((file) => file !== undefined && /npm-cli\.js$/.test(file) && existsSync(file));
  if (!found) throw new Error(`npm's npm-cli.js was not found beside ${node}; install npm with this Node.js`);
  return found;
}

/** The file and arguments that run `npm <args>` in a child process: `execFile(...npmCommand(["test"]))`. */
export function npmCommand(args: readonly string[]): [string, string[]] {
  return [process.execPath, [npmCli(), ...args]];
}
