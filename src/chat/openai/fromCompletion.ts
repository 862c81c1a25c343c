import type { ChatGeneratorResponse } from "../chatGenerator";
import { completionSchema } from "./completionSchemas";
import { assistantReply, toUsage } from "./openaiConverter";
import { readProviderBody } from "./readProviderValue";
import { providerFault } from "./toChatGeneratorError";

/**
 * Builds the response of a non-streaming call from the body the SDK returned (parsed JSON, the
 * text of a non-JSON body, or nothing). Rejects with a ChatGeneratorError when the body is not a
 * chat completion, has no choices, or has a choice without a message.
 */
export function fromCompletion(body: unknown, model: string): ChatGeneratorResponse {
  const completion = readProviderBody(completionSchema, body, model, "Chat Completions");
  const choices = (completion.choices ?? []).map((choice, position) => ({ ...choice, index: choice.index ?? position })).sort((a, b) => a.index - b.index);
  if (choices.length === 0) throw providerFault(model, "the model answered with no choices, so there is no reply to use.");
  const usage = toUsage(completion.usage);
  const replies = choices.map((choice) => {
    if (!choice.message) throw providerFault(model, `choice ${choice.index} has no message, so there is no reply to use.`);
    const message = choice.message;
    return assistantReply(
      {
        content: message.content ?? null,
        refusal: message.refusal ?? null,
        // Some compatible servers leave out `type`; any call with a function part is kept.
        toolCalls: (message.tool_calls ?? []).flatMap((call) => (call.function ? [{ ...(call.id != null && { id: call.id }), name: call.function.name ?? "", arguments: call.function.arguments ?? "" }] : [])),
      },
      { model: completion.model ?? undefined, index: choice.index, finishReason: choice.finish_reason ?? undefined, usage: choice.index === 0 ? usage : undefined },
    );
  });
  return { replies, meta: { model: completion.model ?? undefined, usage, finishReason: choices[0]!.finish_reason ?? undefined } };
}
