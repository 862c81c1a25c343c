import { ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse } from "toolwright";

/**
 * A deterministic stand-in for a real model that answers by looking at the conversation, so it
 * works across requests and resumed runs: look the order up, refund it, then report. Streams its
 * text word by word like a real model.
 */
export class RefundDeskModel implements ChatGenerator {
  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const last = request.messages.at(-1)!;
    const orderId = /A-\d+/.exec(request.messages.find((m) => m.role === "user")?.text ?? "")?.[0] ?? "A-100";
    let reply: ChatMessage;
    if (last.role === "user") {
      reply = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_lookup", toolName: "lookup_order", arguments: { orderId } }] });
    } else if (last.toolCallResult?.origin.toolName === "lookup_order" && !last.toolCallResult.error) {
      const order = JSON.parse(last.toolCallResult.result) as { paid: number };
      reply = ChatMessage.fromAssistant("Let me refund that for you.", { toolCalls: [{ id: "call_refund", toolName: "issue_refund", arguments: { orderId, amount: order.paid } }] });
    } else {
      const result = last.toolCallResult;
      reply = ChatMessage.fromAssistant(result && !result.error ? `Done: your refund of ${JSON.parse(result.result.replace(/^.*Result: /, "")).amount} for ${orderId} is on its way.` : `I could not refund ${orderId}: ${result?.result ?? "unknown error"}`);
    }
    if (request.streamingCallback) {
      for (const piece of reply.text?.match(/\S+\s*/g) ?? []) await request.streamingCallback({ type: "text", delta: piece });
      for (const [index, call] of reply.toolCalls.entries()) {
        await request.streamingCallback({ type: "toolCallDelta", index, id: call.id, toolName: call.toolName, argumentsDelta: JSON.stringify(call.arguments) });
      }
      await request.streamingCallback({ type: "finish", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" });
    }
    return { replies: [reply] };
  }
}
