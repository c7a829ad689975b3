// `forge-lab serve` as a real MCP client starts it: stdout carries JSON-RPC and nothing else (a stray
// line breaks every client's parser), the audit goes to stderr, and the official Inspector's CLI lists
// the five tools and calls one.
import { execFile, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, it } from "vitest";
import { dirs } from "../../core/layout.js";
import { temporaryFolder } from "../../testing.js";
import { childEnvironment } from "../support/child.js";

// Each test starts Node processes (tsx, the server, the Inspector): seconds on a loaded machine.
const STARTS_PROCESSES = { timeout: 60_000 };
const TOOLS = ["list_directory", "read_text_file", "search_files", "write_file", "run_command"];

const serveArgs = (root: string) => [dirs.labCommand, "serve", root, "--target", "solution"];
const env = () => ({ ...childEnvironment(), FORGE_LANG: "en", NO_COLOR: "1" });

interface Message {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

it("serve writes only JSON-RPC 2.0 messages to stdout and its audit lines to stderr", STARTS_PROCESSES, async (context) => {
  const root = temporaryFolder({ onFinished: context.onTestFinished });
  writeFileSync(join(root, "notes.md"), "inside\n");
  const child = spawn(process.execPath, serveArgs(root), { cwd: dirs.root, env: env(), stdio: ["pipe", "pipe", "pipe"] });
  context.onTestFinished(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  const answered = new Set<unknown>();
  let waiting: { ids: readonly number[]; resolve: () => void } | null = null;
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const line of stdout.split("\n").slice(0, -1)) {
      try {
        answered.add((JSON.parse(line) as Message).id);
      } catch {
        // judged below, with every other line
      }
    }
    if (waiting?.ids.every((id) => answered.has(id))) waiting.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const answers = (ids: readonly number[]) =>
    new Promise<void>((resolve) => {
      waiting = { ids, resolve };
      if (ids.every((id) => answered.has(id))) resolve();
    });

  send({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
  await answers([1]);
  send({ method: "notifications/initialized" });
  send({ id: 2, method: "tools/list", params: {} });
  send({ id: 3, method: "tools/call", params: { name: "read_text_file", arguments: { path: "notes.md" } } });
  send({ id: 4, method: "tools/call", params: { name: "read_text_file", arguments: { path: "../outside.txt" } } });
  // No elicitation capability: refused before anything is written, and audited.
  send({ id: 5, method: "tools/call", params: { name: "write_file", arguments: { path: "new.txt", content: "x" } } });
  send({ id: 6, method: "no/such/method", params: {} });
  await answers([2, 3, 4, 5, 6]);
  child.stdin.end();
  const status = await exited;

  const lines = stdout.split("\n").filter((line) => line !== "");
  const notJsonRpc = lines.filter((line) => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return true;
    }
    const response = message.id !== undefined && (message.result !== undefined) !== (message.error !== undefined);
    const notification = typeof message.method === "string";
    return message.jsonrpc !== "2.0" || !(response || notification);
  });
  expect(notJsonRpc, "stdout lines that are not a JSON-RPC 2.0 response or notification").toEqual([]);
  expect(stdout.endsWith("\n"), "stdout ends with the newline that ends its last message").toBe(true);
  expect([...answered].sort(), "the requests answered on stdout").toEqual([1, 2, 3, 4, 5, 6]);
  const audit = stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => {
      const entry = JSON.parse(line) as { tool?: unknown; status?: unknown; code?: unknown };
      return `${String(entry.tool)} ${String(entry.status)} ${String(entry.code)}`;
    })
    // The server answers requests as they come, concurrently: the order of their audit lines is not the order sent.
    .sort();
  expect(audit, "the audit lines on stderr: tool, status, code").toEqual([
    "read_text_file completed null",
    "read_text_file rejected invalid_path",
    "write_file denied approval_unavailable",
  ]);
  expect(stdout.includes('"status"'), "stdout carries no audit entry").toBe(false);
  expect(status, `serve's exit status once stdin closed (stderr: ${stderr.slice(-500)})`).toBe(0);
});

// The Inspector's own command, as `npx mcp-inspector` runs it (its CLI runs on Node 20, whatever its engines say).
const require = createRequire(import.meta.url);
const inspector = require.resolve("@modelcontextprotocol/inspector/cli/build/cli.js");

function inspect(
  args: readonly string[],
  extra: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inspector, ...args],
      { cwd: dirs.root, env: { ...env(), ...extra }, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

it("the MCP Inspector's CLI lists the reference server's five tools and reads a file through it", STARTS_PROCESSES, async (context) => {
  const root = temporaryFolder({ onFinished: context.onTestFinished });
  const file = join(root, "notes.md");
  writeFileSync(file, "read through the Inspector\n");
  const server = ["--cli", process.execPath, ...serveArgs(root)];
  const [listed, called] = await Promise.all([
    inspect([...server, "--method", "tools/list"]),
    inspect([...server, "--method", "tools/call", "--tool-name", "read_text_file", "--tool-arg", `path=${file}`]),
  ]);
  expect(listed.status, `mcp-inspector --method tools/list exit status (stderr: ${listed.stderr.slice(-500)})`).toBe(0);
  const tools = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  expect(tools, "the tools the Inspector lists").toEqual(TOOLS);
  expect(called.status, `mcp-inspector --method tools/call exit status (stderr: ${called.stderr.slice(-500)})`).toBe(0);
  const result = JSON.parse(called.stdout) as { isError?: boolean; content: { type: string; text: string }[] };
  expect({ isError: result.isError ?? false, content: result.content }, "what read_text_file answered the Inspector").toEqual({
    isError: false,
    content: [{ type: "text", text: "read through the Inspector" }],
  });
});

it(
  "serves a learner's workspace that lives outside the checkout, its packages found in the checkout",
  STARTS_PROCESSES,
  async (context) => {
    // A folder with no package.json and no node_modules above it: the modules still load as ES modules.
    const workspace = temporaryFolder({ onFinished: context.onTestFinished });
    const tools = join(workspace, "forge", "tools");
    mkdirSync(tools, { recursive: true });
    for (const stage of readdirSync(dirs.solutions)) {
      const folder = join(dirs.solutions, stage, "forge", "tools");
      for (const name of readdirSync(folder)) copyFileSync(join(folder, name), join(tools, name));
    }
    const root = temporaryFolder({ onFinished: context.onTestFinished });
    const listed = await inspect(["--cli", process.execPath, dirs.labCommand, "serve", root, "--method", "tools/list"], {
      FORGE_WORKSPACE: workspace,
    });
    expect(listed.status, `mcp-inspector --method tools/list exit status (stderr: ${listed.stderr.slice(-500)})`).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(TOOLS);
  },
);
