// An agent's tool loop: the model answers with text, or asks for a tool; the harness runs the tool
// and hands its result back, until the model answers with text or the turns run out.
export type Reply = { kind: "answer"; text: string } | { kind: "call"; tool: string; input: unknown };
export type Model = (transcript: readonly string[]) => Promise<Reply>;
export type Tool = (input: unknown) => Promise<string>;

export async function runAgent(model: Model, tools: ReadonlyMap<string, Tool>, task: string, turns = 8) {
  const transcript = [task];
  for (let turn = 0; turn < turns; turn += 1) {
    const reply = await model(transcript);
    if (reply.kind === "answer") return reply.text;
    const tool = tools.get(reply.tool);
    // This course is about this line: whatever the model asked for runs here, unchecked.
    transcript.push(tool ? await tool(reply.input) : `there is no tool named ${reply.tool}`);
  }
  throw new Error(`no answer after ${turns} turns`);
}
