// The scripted model of the cluster tests and benchmarks, deterministic for any run: a run whose first
// user message says "steps:N" calls `record({ n })` with call id `call-<n>` for n = 1..N, one call per
// step, then answers "done N" (followed by " <tag>" when the message also says "tag:<tag>").
import { ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse } from "toolwright";

/** What the run asks for in its first user message: N from "steps:N" (default 1), and its "tag:<tag>". */
function requestOf(messages: readonly ChatMessage[]): { steps: number; tag: string | undefined } {
  const first = messages.find((m) => m.role === "user")?.text ?? "";
  const steps = /steps:(\d+)/.exec(first);
  const tag = /tag:(\S+)/.exec(first);
  return { steps: steps ? Number(steps[1]) : 1, tag: tag?.[1] };
}

/**
 * A deterministic model for any run: it works from the request alone (no per-run memory), so a step
 * run again on another worker after a crash gets the same reply.
 */
export class CountingModel implements ChatGenerator {
  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    request.signal?.throwIfAborted();
    const { steps: wanted, tag } = requestOf(request.messages);
    let done = 0;
    for (const message of request.messages) done += message.toolCallResults.length;
    const reply =
      done < wanted
        ? ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `call-${done + 1}`, toolName: "record", arguments: { n: done + 1 } }] })
        : ChatMessage.fromAssistant(tag === undefined ? `done ${done}` : `done ${done} ${tag}`);
    const callback = request.streamingCallback;
    if (callback) {
      if (reply.text) await callback({ type: "text", delta: reply.text });
      for (const [index, call] of reply.toolCalls.entries()) {
        await callback({ type: "toolCallDelta", index, id: call.id, toolName: call.toolName, argumentsDelta: JSON.stringify(call.arguments) });
      }
      await callback({ type: "finish", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" });
    }
    return { replies: [reply], meta: { model: "counting", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" } };
  }
}
