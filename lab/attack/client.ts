// The attack suite's MCP client: the official SDK's Client over stdio, as any client drives a server.
// It reads every answer loosely (whatever came back is judged, valid to the tool's schema or not), and
// it accepts every elicitation a server sends with the value the server offers: the suite measures
// containment, not consent.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
import type { ServerCommand } from "./servers.js";

/** What a call answers, loosely: the suite reads whatever came back, valid to the tool's schema or not. */
const RawResult = z.looseObject({
  content: z.optional(z.array(z.unknown())),
  structuredContent: z.optional(z.unknown()),
  isError: z.optional(z.boolean()),
});
const ToolList = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string(), description: z.optional(z.string()) })),
  nextCursor: z.optional(z.string()),
});

export interface Answer {
  readonly isError: boolean;
  /** Every text of the answer: content, structured content, decoded base64, an error's message. */
  readonly text: string;
}

/** Every string of a value, base64 fields (`data`, `blob`) decoded as well. */
function texts(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) texts(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, field] of Object.entries(value)) {
      into.push(key);
      texts(field, into);
      if ((key === "data" || key === "blob") && typeof field === "string") into.push(Buffer.from(field, "base64").toString("utf8"));
    }
  }
}

export class AttackClient {
  calls = 0;
  /** Per tool: the calls answered and the milliseconds from each request to its answer, summed (calls in flight overlap). */
  readonly timings = new Map<string, { calls: number; ms: number }>();
  approvals = 0;
  private stderr = "";

  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  static async open(command: ServerCommand, cwd: string): Promise<AttackClient> {
    const client = new Client({ name: "forge-lab-attack", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    const transport = new StdioClientTransport({
      command: command.command,
      args: [...command.args],
      cwd,
      env: Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      stderr: "pipe",
    });
    const session = new AttackClient(client, transport);
    // Read, or a server that logs every call (stage 12's audit) fills the pipe and stops.
    transport.stderr?.on("data", (chunk: Buffer) => {
      session.stderr = (session.stderr + chunk.toString()).slice(-4_000);
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      session.approvals += 1;
      const params = request.params;
      const offered = "requestedSchema" in params ? params.requestedSchema.properties.planDigest : undefined;
      const value = offered !== undefined && "default" in offered ? offered.default : undefined;
      return { action: "accept", content: typeof value === "string" ? { planDigest: value } : {} };
    });
    try {
      await client.connect(transport);
    } catch (error) {
      await session.close();
      throw new Error(`${error instanceof Error ? error.message : String(error)}${session.stderrTail()}`);
    }
    return session;
  }

  stderrTail(): string {
    const tail = this.stderr.trim().split("\n").slice(-5).join("\n");
    return tail === "" ? "" : `; its stderr ended with: ${tail}`;
  }

  async tools(): Promise<{ name: string; description: string }[]> {
    const tools: { name: string; description: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, ToolList);
      tools.push(...page.tools.map((tool) => ({ name: tool.name, description: tool.description ?? "" })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** A tool call; a JSON-RPC error is an answer too (its message is judged), a lost server is not. */
  async call(tool: string, args: Readonly<Record<string, unknown>>): Promise<Answer> {
    this.calls += 1;
    const started = performance.now();
    const timing = this.timings.get(tool) ?? { calls: 0, ms: 0 };
    this.timings.set(tool, timing);
    try {
      const result = await this.client.request({ method: "tools/call", params: { name: tool, arguments: { ...args } } }, RawResult, {
        timeout: 30_000,
      });
      timing.calls += 1;
      timing.ms += performance.now() - started;
      const into: string[] = [];
      texts(result.content, into);
      texts(result.structuredContent, into);
      return { isError: result.isError === true, text: into.join("\n") };
    } catch (error) {
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout) {
        timing.calls += 1;
        timing.ms += performance.now() - started;
        const into = [error.message];
        texts(error.data, into);
        return { isError: true, text: into.join("\n") };
      }
      throw new Error(`${tool} ${JSON.stringify(args)}: ${error instanceof Error ? error.message : String(error)}${this.stderrTail()}`);
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}
