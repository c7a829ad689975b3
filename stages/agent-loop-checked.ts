// The same loop with the harness in the middle: the model's call goes through an MCP client to the
// stage 12 server, which converts its paths, asks a person when it must, audits it, and answers with a
// result or a refusal. The loop itself decides nothing.
import type { Model } from "./agent-loop.js";

export interface Harness {
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<{ content: unknown; isError?: boolean }>;
}

const texts = (content: unknown) =>
  Array.isArray(content) ? content.map((item) => (item?.type === "text" ? String(item.text) : "")).join("\n") : "";

export async function runCheckedAgent(model: Model, harness: Harness, task: string, turns = 8) {
  const transcript = [task];
  for (let turn = 0; turn < turns; turn += 1) {
    const reply = await model(transcript);
    if (reply.kind === "answer") return reply.text;
    const input = typeof reply.input === "object" && reply.input !== null ? (reply.input as Record<string, unknown>) : {};
    // The line stage 12 closes: every call is the harness's to check, refuse or run.
    const result = await harness.callTool({ name: reply.tool, arguments: input });
    transcript.push(result.isError === true ? `refused: ${texts(result.content)}` : texts(result.content));
  }
  throw new Error(`no answer after ${turns} turns`);
}
