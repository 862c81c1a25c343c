/** The size of a run: `steps` model calls, each asking for `callsPerStep` tool calls (then one closing text reply). */
export interface BareShape {
  readonly steps: number;
  readonly callsPerStep: number;
  /** Tools defined (the start-up workload defines 50 and calls one). Default 1. */
  readonly tools?: number;
}

interface BareCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: { readonly a: number; readonly b: number };
}

type BareMessage = { readonly role: "user" | "assistant"; readonly text?: string; readonly toolCalls?: readonly BareCall[] } | { readonly role: "tool"; readonly id: string; readonly text: string };

/**
 * The floor every figure is compared with: the least an agent loop must do with a scripted,
 * in-process model — call the model with the history, run the calls it asks for (concurrently),
 * append the results, repeat until it answers with text. No validation, no state, no abort.
 */
export async function runBare(shape: BareShape): Promise<BareMessage[]> {
  const tools = new Map<string, (args: BareCall["arguments"]) => number>();
  for (let i = 0; i < (shape.tools ?? 1); i++) tools.set(i === 0 ? "add" : `add${i}`, ({ a, b }) => a + b);
  const messages: BareMessage[] = [{ role: "user", text: "go" }];
  for (let step = 0; ; step++) {
    const reply = await bareModel(messages, step, shape);
    messages.push(reply);
    if (!reply.toolCalls) return messages;
    const results = await Promise.all(reply.toolCalls.map(async (call) => ({ role: "tool" as const, id: call.id, text: String(tools.get(call.name)!(call.arguments)) })));
    messages.push(...results);
  }
}

async function bareModel(_history: readonly BareMessage[], step: number, shape: BareShape): Promise<BareMessage & { role: "assistant" }> {
  if (step >= shape.steps) return { role: "assistant", text: "done" };
  const toolCalls: BareCall[] = [];
  for (let i = 0; i < shape.callsPerStep; i++) toolCalls.push({ id: `c${step}_${i}`, name: "add", arguments: { a: step, b: i } });
  return { role: "assistant", toolCalls };
}
