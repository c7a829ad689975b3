// Stage 12: the harness served over MCP. Stages 01-11 become five tools a real client can call. The
// person who starts the server names the root; a client's absolute paths are converted into the
// workspace's own form by whole segments, never by string prefix (CVE-2025-53110); reads go through
// stage 08, which follows no link (CVE-2025-53109); a write is a stage 03 plan that a person approves
// by its digest through MCP elicitation and stage 07 applies; a command is decided by stage 09, run by
// stage 11 and decoded by stage 10. Every call and every refusal lands in one audit.
import { createHash } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import * as nodeFs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ApprovalGate } from "./approval.js";
import { SideEffectController, previewDigest, type AuditStatus } from "./controller.js";
import { NativeExecutor, type NativeResult, type Platform } from "./executor.js";
import { resolveWorkspacePath } from "./paths.js";
import { DEFAULT_LIMITS, ReadOnlyWorkspace, WorkspaceToolError, preparePath, type Limits, type ReadOnlyFileSystem } from "./readonly.js";
import { ToolRegistry, defineTool, type Capability, type ToolDescriptor } from "./registry.js";
import { decide, type CommandRules, type Decision } from "./scope.js";

// ---------------------------------------------------------------------------------------------------
// The tools and their annotations

export const TOOL_NAMES = ["list_directory", "read_text_file", "search_files", "write_file", "run_command"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * What each tool can do, in stage 01's vocabulary. `write_file` also reads: it hashes the file it
 * replaces. A command can do anything its program can, so it has every capability.
 */
const CAPABILITIES: Readonly<Record<ToolName, readonly Capability[]>> = Object.freeze({
  list_directory: ["read"],
  read_text_file: ["read"],
  search_files: ["read"],
  write_file: ["read", "write"],
  run_command: ["read", "write", "network", "process"],
});

/** The server's tools as stage 01 descriptors: the one source of their capabilities. */
export function forgeTools(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of TOOL_NAMES) registry.register(defineTool(name, CAPABILITIES[name]));
  return registry;
}

/**
 * MCP's hints, derived from capabilities and never written by hand: read-only when reading is all a
 * tool can do, destructive when it can write or run a program, open-world when it can reach the
 * network or run a program (which can reach anything).
 */
export function annotationsFor(tool: ToolDescriptor): ToolAnnotations {
  const can = (capability: Capability) => tool.capabilities.has(capability);
  const readOnly = [...tool.capabilities].every((capability) => capability === "read");
  return {
    readOnlyHint: readOnly,
    destructiveHint: can("write") || can("process"),
    openWorldHint: can("network") || can("process"),
  };
}

// ---------------------------------------------------------------------------------------------------
// Errors the model sees

export type ServerErrorCode =
  | "invalid_arguments"
  | "unknown_tool"
  | "outside_root"
  | "outside_client_roots"
  | "path_escapes"
  | "approval_unavailable"
  | "approval_declined"
  | "approval_cancelled"
  | "approval_required"
  | "file_changed"
  | "command_denied"
  | "commands_unsupported"
  | "commands_refused"
  | "tool_failed";

/** A refusal with a stable code; its message names workspace paths only. */
export class ServerToolError extends Error {
  readonly code: ServerErrorCode | WorkspaceToolError["code"];

  constructor(code: ServerErrorCode | WorkspaceToolError["code"], message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ServerToolError";
    this.code = code;
  }
}

/** JSON quoting shows NUL bytes, tabs and trailing spaces; a long value is shortened. */
function show(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}

// ---------------------------------------------------------------------------------------------------
// The root and the conversion of client paths: strings only, no IO

/** The root as the person who started the server gave it, and its real path, both absolute. */
export interface ServerRoot {
  readonly given: string;
  readonly real: string;
}

/** Takes the real path of the root once, at startup. Refuses a root that is not an absolute folder. */
export async function openRoot(root: string): Promise<ServerRoot> {
  if (!path.isAbsolute(root)) throw new TypeError(`the root must be an absolute path, got ${String(root)}`);
  const real = await nodeFs.realpath(root);
  if (!(await nodeFs.stat(real)).isDirectory()) throw new TypeError(`the root ${show(root)} is not a folder`);
  return Object.freeze({ given: path.resolve(root), real });
}

const SEPARATORS = /[\\/]/;
/** `/x`, `\x`, `C:…` and `\\server\share`: every form a client may send as absolute. */
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/;

/** The segments of a path, without the empty and `.` ones, which name the same folder. `..` stays. */
function segmentsOf(value: string): string[] {
  return value.split(SEPARATORS).filter((segment) => segment !== "" && segment !== ".");
}

/** The segments of `value` after `prefix`, when every segment of `prefix` equals the one in `value`. */
function after(prefix: readonly string[], value: readonly string[]): string[] | null {
  for (const [index, segment] of prefix.entries()) if (value[index] !== segment) return null;
  return value.slice(prefix.length);
}

/**
 * A client's path in the one form stage 08 works with, or a refusal. A relative path is relative to
 * the root. An absolute one must start with every segment of the root (its real path, or the path it
 * was started with), compared whole: `/srv/allowed_evil` and `/srv/allowed"` are not inside
 * `/srv/allowed`. What follows goes to stage 08's `preparePath`, which refuses `..` and any name
 * Windows would read as another. Links are not looked at here: the tools walk the real entries.
 */
export function toWorkspacePath(root: ServerRoot, requested: string): string {
  if (typeof requested !== "string" || !ABSOLUTE.test(requested)) return preparePath(requested);
  const segments = segmentsOf(requested);
  for (const candidate of [root.real, root.given]) {
    const rest = after(segmentsOf(candidate), segments);
    // The root itself is "", which stage 08 prepares as ".".
    if (rest !== null) return preparePath(rest.join("/"));
  }
  throw new ServerToolError("outside_root", `path ${show(requested)} is outside the root this server was started with`);
}

/**
 * The parts of the root a client's announced roots (file URIs) leave open, in workspace form: `.` for
 * all of it. Roots may narrow the server's root and never widen it: a root outside it opens nothing,
 * and one that contains it opens only the server's root.
 */
export function narrowToClientRoots(root: ServerRoot, uris: readonly string[]): string[] {
  const scopes = new Set<string>();
  for (const uri of uris) {
    let announced: string;
    try {
      announced = fileURLToPath(uri);
    } catch {
      continue; // not a file URI: it names no folder here
    }
    const segments = segmentsOf(announced);
    if ([root.real, root.given].some((candidate) => after(segments, segmentsOf(candidate)) !== null)) {
      scopes.add(".");
      continue;
    }
    try {
      scopes.add(toWorkspacePath(root, announced));
    } catch {
      // outside the root, or a name the tools refuse: it opens nothing
    }
  }
  return [...scopes].sort();
}

/** True when a workspace path lies in one of the scopes; `null` scopes are the whole root. */
function inScopes(scopes: readonly string[] | null, prepared: string): boolean {
  if (scopes === null) return true;
  return scopes.some((scope) => scope === "." || prepared === scope || prepared.startsWith(`${scope}/`));
}

// ---------------------------------------------------------------------------------------------------
// Schemas: what a model may send, and what a client gets back

const pathField = z.string().describe("An absolute path inside the root, or a path relative to it");
const count = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const INPUTS = {
  list_directory: z.strictObject({
    path: pathField,
    after: z.string().optional().describe("The nextAfter of the page before"),
    limit: count.optional().describe("The most entries in this page"),
  }),
  read_text_file: z.strictObject({
    path: pathField,
    startLine: count.optional().describe("The first line to return, 1-based"),
    maxLines: count.optional().describe("The most lines to return"),
  }),
  search_files: z.strictObject({
    path: pathField,
    pattern: z.string().describe("Plain text to find in the lines of the files under path"),
    maxMatches: count.optional().describe("The most matches to return"),
  }),
  write_file: z.strictObject({
    path: pathField,
    content: z.string().describe("The whole new content, as UTF-8 text"),
  }),
  run_command: z.strictObject({
    command: z.string().min(1).max(16_384).describe("A POSIX shell command, run in the root by /bin/sh"),
    timeoutMs: z.number().int().positive().max(600_000).optional().describe("Milliseconds before the command is ended"),
  }),
} as const satisfies Record<ToolName, z.ZodType>;

const kind = z.enum(["file", "directory", "link", "other", "blocked"]);
const facts = z.object({
  sourceComplete: z.boolean(),
  complete: z.boolean(),
  lossy: z.boolean(),
  capReached: z.boolean(),
  rawBytes: z.number(),
  decodedUtf8Bytes: z.number(),
  error: z.string().nullable(),
});

const OUTPUTS = {
  list_directory: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), kind })),
    nextAfter: z.string().nullable(),
  }),
  read_text_file: z.object({
    path: z.string(),
    lines: z.array(z.string()),
    startLine: z.number(),
    nextStartLine: z.number().nullable(),
  }),
  search_files: z.object({
    path: z.string(),
    matches: z.array(z.object({ path: z.string(), line: z.number(), text: z.string() })),
    truncated: z.boolean(),
    limitReason: z.enum(["matches", "result_bytes", "time", "entries"]).nullable(),
  }),
  write_file: z.object({ path: z.string(), bytes: z.number(), planDigest: z.string(), replaced: z.string() }),
  run_command: z.object({
    action: z.enum(["auto_approve", "require_approval", "deny"]),
    authorizedBy: z.string().nullable(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    aborted: z.boolean(),
    stdout: z.string(),
    stderr: z.string(),
    stdoutFacts: facts,
    stderrFacts: facts,
  }),
} as const satisfies Record<ToolName, z.ZodType>;

type Output<T extends ToolName> = z.output<(typeof OUTPUTS)[T]>;

const DESCRIPTIONS: Readonly<Record<ToolName, string>> = Object.freeze({
  list_directory: "List one folder inside the root, sorted by name, a page at a time. Links are shown, never followed.",
  read_text_file: "Read whole lines of one UTF-8 file inside the root, from startLine, within the server's limits.",
  search_files: "Find plain text in the lines of the files under a folder inside the root.",
  write_file: "Create or replace one file inside the root. A person approves the exact bytes by their plan digest first.",
  run_command: "Run a shell command in the root. Commands that stay in the root run; others ask a person; denied ones never run.",
});

/** A JSON Schema object, as MCP requires of every input and output schema. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return { ...rest, type: "object" };
}

/** The tools as `tools/list` shows them, annotations derived from their capabilities. */
export function toolList(registry: ToolRegistry): Tool[] {
  const position = (name: string) => TOOL_NAMES.findIndex((known) => known === name);
  return registry
    .supporting([])
    .sort((first, second) => position(first.name) - position(second.name))
    .map((descriptor) => {
      const name = descriptor.name as ToolName;
      return {
        name,
        description: DESCRIPTIONS[name],
        inputSchema: jsonSchema(INPUTS[name], "input"),
        outputSchema: jsonSchema(OUTPUTS[name], "output"),
        annotations: annotationsFor(descriptor),
      };
    });
}

/** Every problem of the arguments, one per field, in one message. */
function argumentProblems(tool: ToolName, error: z.ZodError): ServerToolError {
  const problems = error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return `${issue.keys.map((key) => JSON.stringify(key)).join(", ")}: unknown field`;
    return `${issue.path.map(String).join(".")}: ${issue.message}`;
  });
  return new ServerToolError("invalid_arguments", `invalid arguments for ${tool}: ${problems.join("; ")}`);
}

// ---------------------------------------------------------------------------------------------------
// The audit

export type ServerAuditStatus = AuditStatus | "completed";

/** One call: stage 07's statuses, plus `completed` for a read or a command that ran. */
export interface ServerAuditEntry {
  /** The name the client asked for, cut to 120 characters. */
  readonly tool: string;
  readonly status: ServerAuditStatus;
  /** The refusal's code; null when nothing was refused. */
  readonly code: string | null;
  /** The server's root, the allow pattern of stage 09, or `person` for an approval; null for a refusal. */
  readonly authorizedBy: string | null;
  /** The digest a person was asked to approve, when one was asked. */
  readonly planDigest: string | null;
  /** The root every entry is decided against (seed 002's event: which root authorized it). */
  readonly root: string;
  readonly at: string;
}

// ---------------------------------------------------------------------------------------------------
// The server

/**
 * The rules `serve` starts with: programs that reach the network, raise privileges or rewrite history
 * are denied outright; nothing is allowed by rule, so only stage 09's scope runs a command unasked.
 */
export const DEFAULT_COMMAND_RULES: CommandRules = Object.freeze({
  deny: Object.freeze(["sudo", "su", "curl", "wget", "ssh", "scp", "rm -rf /", "git push --force", "git reset --hard"]),
  allow: Object.freeze([]),
});

export interface CommandOptions {
  /** Stage 11's standing policy, read at every phase: only "danger-full-access" runs a command. */
  readonly policy: () => string | undefined;
  /** Stage 11's native switch, read at every phase. */
  readonly nativeEnabled: () => boolean | undefined;
  /** Stage 09's rules. */
  readonly rules: CommandRules;
}

export interface ForgeServerOptions {
  /** Set by the person who starts the server, never by a client. */
  readonly root: string;
  /** Without it, run_command refuses every command before deciding anything. */
  readonly commands?: CommandOptions;
  readonly protectedPaths?: readonly string[];
  readonly limits?: Partial<Limits>;
  /** The file system the read tools walk; `node:fs/promises` unless given (a test injects one). */
  readonly fs?: ReadOnlyFileSystem;
  readonly platform?: Platform;
  readonly now?: () => Date;
  /** Called with each audit entry as it lands, for a log on stderr. */
  readonly onAudit?: (entry: ServerAuditEntry) => void;
}

export interface ForgeServer {
  readonly root: ServerRoot;
  /** Every call so far, oldest first: a frozen snapshot. */
  readonly audit: readonly ServerAuditEntry[];
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

const SHELL = "/bin/sh";
/** How long a question may wait for a person: a day, not the SDK's default minute. */
const APPROVAL_WAIT_MS = 86_400_000;

/** A refusal's audit status: before a plan or a decision it is rejected, after one it is denied. */
type Refusal = {
  readonly status: "rejected" | "denied" | "rolled_back";
  readonly error: ServerToolError;
  readonly planDigest: string | null;
};

/** What a handler returns: a result and the entry it leaves in the audit. */
interface Handled {
  readonly result: CallToolResult;
  readonly status: ServerAuditStatus;
  readonly authorizedBy: string | null;
  readonly planDigest: string | null;
}

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.error.message);
  }
}

const reject = (error: ServerToolError, planDigest: string | null = null) => new Refused({ status: "rejected", error, planDigest });
const deny = (error: ServerToolError, planDigest: string | null) => new Refused({ status: "denied", error, planDigest });

function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What a write would replace: `absent`, or the SHA-256 of the file's bytes now. Follows no link. */
async function currentState(target: string, display: string): Promise<string> {
  let handle: nodeFs.FileHandle;
  try {
    handle = await nodeFs.open(target, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "absent";
    throw new ServerToolError("not_a_file", `path ${show(display)} cannot be opened (${String(code)})`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new ServerToolError("not_a_file", `path ${show(display)} is not a file`);
    const hash = createHash("sha256");
    const buffer = new Uint8Array(65_536);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return `sha256:${hash.digest("hex")}`;
  } finally {
    await handle.close();
  }
}

/** A stage error as a refusal the model may read, with that stage's code. */
function asRefusal(error: unknown): ServerToolError {
  if (error instanceof ServerToolError) return error;
  if (error instanceof WorkspaceToolError) return new ServerToolError(error.code, error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (/escapes the workspace/.test(message)) return new ServerToolError("path_escapes", message);
  return new ServerToolError("tool_failed", message);
}

/** A refusal from stage 11, named by its class: the policy, the switch, or the request. */
function commandRefusal(error: unknown): ServerToolError {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return new ServerToolError("commands_refused", `${name}: ${message}`);
}

function text(result: NativeResult): string {
  const ending = result.timedOut ? "timed out" : result.signal !== null ? `ended by ${result.signal}` : `exit code ${result.exitCode}`;
  return `${ending}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** Starts the server's logic on a root; `connect` then serves it on a transport (stdio for `serve`). */
export async function createForgeServer(options: ForgeServerOptions): Promise<ForgeServer> {
  const root = await openRoot(options.root);
  const limits: Readonly<Limits> = { ...DEFAULT_LIMITS, ...options.limits };
  const registry = forgeTools();
  const tools = toolList(registry);
  const workspace = new ReadOnlyWorkspace(root.real, {
    protectedPaths: options.protectedPaths,
    limits,
    fs: options.fs,
  });
  const now = options.now ?? (() => new Date());
  const controller = new SideEffectController(root.real);
  const gate = new ApprovalGate();
  const platform: Platform =
    options.platform ?? (process.platform === "win32" ? "win32" : process.platform === "darwin" ? "darwin" : "linux");
  const commands = options.commands;
  const executor =
    commands === undefined || platform === "win32"
      ? null
      : new NativeExecutor({ platform, policy: commands.policy, nativeEnabled: commands.nativeEnabled, workspace: root.real });

  const server = new Server(
    { name: "forge-lab", version: "12.0.0" },
    { capabilities: { tools: {} }, instructions: `Tools over the folder ${root.given}. Paths are absolute inside it, or relative to it.` },
  );

  // Appended in place, and frozen into a snapshot only when read: copying the whole audit on every
  // call would make a long session quadratic.
  const entries: ServerAuditEntry[] = [];
  let snapshot: readonly ServerAuditEntry[] | null = null;
  const record = (tool: string, status: ServerAuditStatus, code: string | null, authorizedBy: string | null, planDigest: string | null) => {
    const entry: ServerAuditEntry = Object.freeze({
      tool: tool.length > 120 ? `${tool.slice(0, 120)}…` : tool,
      status,
      code,
      authorizedBy,
      planDigest,
      root: root.real,
      at: now().toISOString(),
    });
    entries.push(entry);
    snapshot = null;
    options.onAudit?.(entry);
  };

  // Writes check and apply one at a time: a failed one does not stop the next.
  let writing: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = writing.then(work, work);
    writing = run.catch(() => undefined);
    return run;
  };

  // The client's roots, asked for when first needed and again after it says they changed.
  let clientScopes: Promise<string[] | null> | null = null;
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    clientScopes = null;
  });
  const scopes = (): Promise<string[] | null> => {
    if (server.getClientCapabilities()?.roots === undefined) return Promise.resolve(null);
    clientScopes ??= server.listRoots().then(
      (answer) =>
        narrowToClientRoots(
          root,
          answer.roots.map((announced) => announced.uri),
        ),
      // A client that says it has roots and cannot list them leaves nothing open.
      () => [],
    );
    return clientScopes;
  };

  const convert = async (requested: string): Promise<string> => {
    let prepared: string;
    try {
      prepared = toWorkspacePath(root, requested);
    } catch (error) {
      throw reject(asRefusal(error));
    }
    if (!inScopes(await scopes(), prepared)) {
      throw reject(new ServerToolError("outside_client_roots", `path ${show(prepared)} is outside the roots the client announced`));
    }
    return prepared;
  };

  /** Asks a person through elicitation; only an accept that names `digest` comes back as the answer. */
  const ask = async (message: string, digest: string, signal: AbortSignal): Promise<string> => {
    if (server.getClientCapabilities()?.elicitation?.form === undefined) {
      throw deny(new ServerToolError("approval_unavailable", "this client cannot ask a person (no elicitation); nothing was done"), digest);
    }
    let answer: Awaited<ReturnType<Server["elicitInput"]>>;
    try {
      answer = await server.elicitInput(
        {
          mode: "form",
          message,
          requestedSchema: {
            type: "object",
            properties: {
              planDigest: { type: "string", title: "Plan digest", description: "The digest of the plan you approve", default: digest },
            },
            required: ["planDigest"],
          },
        },
        { signal, timeout: APPROVAL_WAIT_MS },
      );
    } catch (error) {
      throw deny(
        new ServerToolError(
          "approval_unavailable",
          `no answer from the person: ${error instanceof Error ? error.message : String(error)}; nothing was done`,
        ),
        digest,
      );
    }
    if (answer.action === "decline") throw deny(new ServerToolError("approval_declined", "the person declined; nothing was done"), digest);
    if (answer.action !== "accept") throw deny(new ServerToolError("approval_cancelled", "the person cancelled; nothing was done"), digest);
    // The SDK checked the answer against the form, whose one field is a required string.
    return String(answer.content?.planDigest);
  };

  const ok = <T extends ToolName>(tool: T, body: Output<T>, shown: string): CallToolResult => ({
    content: [{ type: "text", text: shown }],
    structuredContent: OUTPUTS[tool].parse(body) as Record<string, unknown>,
  });
  const completed = (result: CallToolResult, authorizedBy: string | null = root.real): Handled => ({
    result,
    status: "completed",
    authorizedBy,
    planDigest: null,
  });

  const handlers: { readonly [T in ToolName]: (args: z.output<(typeof INPUTS)[T]>, signal: AbortSignal) => Promise<Handled> } = {
    list_directory: async (args) => {
      const prepared = await convert(args.path);
      const page = await workspace.list(prepared, {
        after: args.after,
        limit: args.limit,
      });
      const shown = page.entries.map((entry) => `[${entry.kind}] ${entry.name}`).join("\n");
      return completed(ok("list_directory", { path: prepared, entries: page.entries, nextAfter: page.nextAfter }, shown));
    },
    read_text_file: async (args) => {
      const prepared = await convert(args.path);
      const read = await workspace.read(prepared, {
        startLine: args.startLine,
        maxLines: args.maxLines,
      });
      return completed(ok("read_text_file", { path: prepared, ...read }, read.lines.join("\n")));
    },
    search_files: async (args) => {
      const prepared = await convert(args.path);
      const found = await workspace.search(args.pattern, {
        path: prepared,
        maxMatches: args.maxMatches,
      });
      const shown = found.matches.map((match) => `${match.path}:${match.line}: ${match.text}`).join("\n");
      return completed(ok("search_files", { path: prepared, ...found }, shown));
    },
    write_file: async (args, signal) => {
      const prepared = await convert(args.path);
      const bytes = new TextEncoder().encode(args.content);
      if (bytes.byteLength > limits.fileBytes) {
        throw reject(new ServerToolError("too_large", `content of ${bytes.byteLength} bytes is over the limit of ${limits.fileBytes}`));
      }
      const writes = { [prepared]: bytes };
      const digest = previewDigest(writes);
      // Checked before a person is asked: a path that escapes through a link never reaches them.
      const state = async () => {
        try {
          return await currentState(await resolveWorkspacePath(root.real, prepared), prepared);
        } catch (error) {
          throw reject(asRefusal(error), digest);
        }
      };
      const before = await state();
      const operationId = `write_file ${prepared} over ${before}`;
      const replaces = before === "absent" ? "creates it" : `replaces the file whose content has ${before}`;
      const answered = await ask(
        `write_file asks to write ${bytes.byteLength} bytes to ${prepared} (${replaces}).\nTargets: ${prepared}\nPlan digest: ${digest}\nAccept only if this is the change you want.`,
        digest,
        signal,
      );
      // The file the person saw is the one replaced, or nothing is written. The check and the write run
      // one at a time in this server, so two approved writes to one file cannot both pass the check.
      await exclusive(async () => {
        const after = await state();
        if (after !== before) {
          throw deny(
            new ServerToolError("file_changed", `${prepared} changed while the approval was pending; nothing was written`),
            digest,
          );
        }
        try {
          await controller.apply(operationId, writes, { operationId, planDigest: answered });
        } catch (error) {
          const status = controller.audit.at(-1)?.status ?? "rejected";
          // Stage 07 audits a refusal of its gate as denied: the answer approved another plan.
          const refusal =
            status === "denied"
              ? new ServerToolError(
                  "approval_required",
                  `the answer approved ${show(answered)}, not this plan (${digest}); nothing was written`,
                )
              : asRefusal(error);
          throw new Refused({ status: status === "committed" ? "denied" : status, error: refusal, planDigest: digest });
        }
      });
      return {
        result: ok("write_file", { path: prepared, bytes: bytes.byteLength, planDigest: digest, replaced: before }, `wrote ${prepared}`),
        status: "committed",
        authorizedBy: "person",
        planDigest: digest,
      };
    },
    run_command: async (args, signal) => {
      if (commands === undefined || executor === null) {
        const why =
          platform === "win32" ? "this server runs commands with /bin/sh, which Windows lacks" : "this server was started without commands";
        throw reject(new ServerToolError("commands_unsupported", `${why}; nothing ran`));
      }
      const decision: Decision = decide(args.command, { cwd: root.real, root: root.real }, commands.rules);
      if (decision.action === "deny") throw deny(new ServerToolError("command_denied", decision.reason), null);
      let prepared: Awaited<ReturnType<NativeExecutor["prepare"]>>;
      try {
        prepared = await executor.prepare({
          description: "run_command",
          executable: { kind: "path", value: SHELL },
          argv: [
            { kind: "literal", value: "-c" },
            { kind: "literal", value: args.command },
          ],
          entrypoint: "interpreter",
          timeoutMs: args.timeoutMs,
        });
      } catch (error) {
        throw reject(commandRefusal(error));
      }
      let authorizedBy = decision.authorizedBy;
      let digest: string | null = null;
      if (decision.action === "require_approval") {
        const operationId = `run_command in ${root.real}`;
        digest = sha256(JSON.stringify([root.real, args.command]));
        const answered = await ask(
          `run_command asks to run, in ${root.given}:\n${args.command}\nWhy it asks: ${decision.reason}\nPlan digest: ${digest}\nAccept only if this is the command you want run.`,
          digest,
          signal,
        );
        if (!gate.authorize({ risk: "irreversible", operationId, planDigest: digest, approval: { operationId, planDigest: answered } })) {
          throw deny(
            new ServerToolError("approval_required", `the answer approved ${show(answered)}, not this command (${digest}); nothing ran`),
            digest,
          );
        }
        authorizedBy = "person";
      }
      let result: NativeResult;
      try {
        result = await executor.execute(prepared, { signal });
      } catch (error) {
        throw deny(commandRefusal(error), digest);
      }
      const body: Output<"run_command"> = {
        action: decision.action,
        authorizedBy,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        aborted: result.aborted,
        stdout: result.stdout,
        stderr: result.stderr,
        stdoutFacts: result.stdoutFacts,
        stderrFacts: result.stderrFacts,
      };
      return { result: ok("run_command", body, text(result)), status: "completed", authorizedBy, planDigest: digest };
    },
  };

  const call = async <T extends ToolName>(tool: T, input: unknown, signal: AbortSignal): Promise<Handled> => {
    const parsed = INPUTS[tool].safeParse(input ?? {});
    if (!parsed.success) throw reject(argumentProblems(tool, parsed.error));
    // The handler table is typed per tool; the cast only joins the table's entry to its own schema.
    const handler = handlers[tool] as (args: z.output<(typeof INPUTS)[T]>, signal: AbortSignal) => Promise<Handled>;
    return handler(parsed.data as z.output<(typeof INPUTS)[T]>, signal);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = TOOL_NAMES.find((known) => known === name);
    try {
      if (tool === undefined)
        throw reject(new ServerToolError("unknown_tool", `there is no tool ${show(name)}; use one of ${TOOL_NAMES.join(", ")}`));
      const handled = await call(tool, request.params.arguments, extra.signal);
      record(name, handled.status, null, handled.authorizedBy, handled.planDigest);
      return handled.result;
    } catch (thrown) {
      const refusal: Refusal =
        thrown instanceof Refused ? thrown.refusal : { status: "rejected", error: asRefusal(thrown), planDigest: null };
      record(name, refusal.status, refusal.error.code, null, refusal.planDigest);
      return { content: [{ type: "text", text: `${refusal.error.code}: ${refusal.error.message}` }], isError: true };
    }
  });

  return {
    root,
    get audit() {
      snapshot ??= Object.freeze([...entries]);
      return snapshot;
    },
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  };
}
