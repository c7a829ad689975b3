// `forge-lab serve <root>`: the stage 12 server of a tree (the learner's workspace, or the reference) on
// stdio, for a real MCP client. stdout carries JSON-RPC and nothing else; the audit goes to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type * as Server from "forge/tools/server";
import type { Catalog } from "../catalog/catalog.js";
import { dirs } from "../core/layout.js";
import { loadLayered } from "../trees/reference.js";
import type { Target } from "../trees/targets.js";
import { CommandError, UsageError } from "./shared.js";
import type { CliWords } from "./words/index.js";

export interface ServeOptions {
  readonly root: string;
  readonly target: Target;
  readonly fullAccess: boolean;
}

/** Serves until the client closes stdin; resolves when the server has closed. */
export async function serve(catalog: Catalog, options: ServeOptions, text: CliWords): Promise<void> {
  if (options.target !== "workspace" && options.target !== "solution") throw new UsageError(text.cli.serveTarget(options.target));
  const layers = options.target === "workspace" ? [dirs.workspace] : catalog.stages.map((stage) => stage.solutionDir);
  const module = await loadLayered<typeof Server>(layers, "server");
  if (module === null) throw new CommandError(text.cli.serveMissing(options.target));
  const server = await module.createForgeServer({
    root: options.root,
    // The person who starts the server chooses full access; stage 11 refuses every command otherwise.
    commands: {
      policy: () => (options.fullAccess ? "danger-full-access" : undefined),
      nativeEnabled: () => true,
      rules: module.DEFAULT_COMMAND_RULES,
    },
    onAudit: (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  // The client ends the session by closing our stdin.
  process.stdin.once("end", () => void server.close());
  await closed;
}
