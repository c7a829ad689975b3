// The servers the attack suite measures, one column each: the learner's stage 12 server, the course's
// reference, and two releases of the official filesystem server (@modelcontextprotocol/server-filesystem,
// installed under an alias per version). Each is a command started on a root, as an MCP client's
// configuration starts it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirs, moduleFile } from "../core/layout.js";

export const SERVER_NAMES = ["learner", "reference", "2025.3.28", "2026.8.31"] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export const isServerName = (name: string): name is ServerName => (SERVER_NAMES as readonly string[]).includes(name);

/** A server as a client starts it: a program and its arguments, the root last or named in them. */
export interface ServerCommand {
  readonly name: ServerName;
  readonly command: string;
  readonly args: readonly string[];
}

// Resolved by package name, so the file started is the one npm installed for that alias.
const require = createRequire(import.meta.url);
const OFFICIAL: Readonly<Record<"2025.3.28" | "2026.8.31", () => string>> = {
  "2025.3.28": () => require.resolve("mcp-filesystem-2025-3-28/dist/index.js"),
  "2026.8.31": () => require.resolve("mcp-filesystem-2026-8-31/dist/index.js"),
};

/** The learner's module: without it the learner's column says "not written". */
export const learnerModule = (): string => moduleFile(dirs.workspace, "server");

/** The command of a server on a root; null for the learner while workspace/forge/tools/server.ts does not exist. */
export function serverCommand(name: ServerName, root: string): ServerCommand | null {
  switch (name) {
    case "learner":
      if (!existsSync(learnerModule())) return null;
      return { name, command: process.execPath, args: [dirs.labCommand, "serve", root, "--target", "workspace"] };
    case "reference":
      return { name, command: process.execPath, args: [dirs.labCommand, "serve", root, "--target", "solution"] };
    case "2025.3.28":
    case "2026.8.31":
      return { name, command: process.execPath, args: [OFFICIAL[name](), root] };
  }
}
