// Test support for stage 12: the server of this run's tree and the official SDK client, joined by an
// in-memory transport (the same JSON-RPC messages as stdio, without a process). The client plays the
// person: its elicitation handler answers each approval and keeps every question it was asked.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { onTestFinished } from "vitest";
import { createForgeServer, type ForgeServer, type ForgeServerOptions } from "forge/tools/server";

/** The form an approval request carries: its message and the digest it offers as the default answer. */
export interface Question {
  readonly message: string;
  readonly digest: string;
  /** The form the person is shown, as the request gives it. */
  readonly form: unknown;
}

export interface ClientOptions {
  /** How the person answers; without it the client has no elicitation capability at all. */
  readonly answer?: (question: Question) => ElicitResult | Promise<ElicitResult>;
  /** File URIs the client announces as its roots; without it the client has no roots capability. */
  readonly roots?: readonly string[];
}

/** What a call returned, read the way a model reads it. */
export interface Outcome {
  readonly isError: boolean;
  /** The text of the first content item. */
  readonly text: string;
  /** The refusal's code (the text before the first colon), or null for a result. */
  readonly code: string | null;
  readonly structured: Record<string, unknown> | undefined;
}

export interface Session {
  readonly server: ForgeServer;
  readonly client: Client;
  /** Every approval the person was asked for, in order: the clicks. */
  readonly questions: Question[];
  call(name: string, args?: Record<string, unknown>): Promise<Outcome>;
  /** Replaces the roots the client announces and tells the server they changed. */
  announceRoots(uris: readonly string[]): Promise<void>;
}

/** Accepts with the digest the request offers: a person who approves what they were shown. */
export const acceptShown = (question: Question): ElicitResult => ({ action: "accept", content: { planDigest: question.digest } });

function questionOf(request: ElicitRequest): Question {
  const params = request.params;
  if (!("requestedSchema" in params)) throw new Error("an approval must be a form elicitation with a requested schema");
  const field = params.requestedSchema.properties.planDigest;
  const digest = field !== undefined && "default" in field && typeof field.default === "string" ? field.default : "";
  return { message: params.message, digest, form: params.requestedSchema };
}

export function outcomeOf(result: CallToolResult): Outcome {
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  const isError = result.isError === true;
  return { isError, text, code: isError ? (text.split(":")[0] ?? "") : null, structured: result.structuredContent };
}

/** A server on `options.root`, a connected client, both closed when the test ends. */
export async function session(options: ForgeServerOptions, clientOptions: ClientOptions = {}): Promise<Session> {
  const server = await createForgeServer(options);
  let roots = clientOptions.roots;
  const client = new Client(
    { name: "forge-lab-test", version: "1.0.0" },
    {
      capabilities: {
        ...(clientOptions.answer === undefined ? {} : { elicitation: { form: {} } }),
        ...(roots === undefined ? {} : { roots: { listChanged: true } }),
      },
    },
  );
  const questions: Question[] = [];
  const answer = clientOptions.answer;
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const question = questionOf(request);
      questions.push(question);
      return answer(question);
    });
  }
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: (roots ?? []).map((uri) => ({ uri })) }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  // Listing the tools first makes the SDK client check every structuredContent against its outputSchema.
  await client.listTools();
  onTestFinished(async () => {
    await client.close();
    await server.close();
  });
  return {
    server,
    client,
    questions,
    call: async (name, args = {}) => outcomeOf((await client.callTool({ name, arguments: args })) as CallToolResult),
    announceRoots: async (uris) => {
      roots = uris;
      await client.sendRootsListChanged();
    },
  };
}
