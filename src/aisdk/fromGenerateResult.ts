import type { ChatGeneratorResponse } from "../chat/chatGenerator";
import type { ReasoningContent, ToolCall } from "../chat/chatMessage";
import { isRecord } from "./isRecord";
import { ReplySize } from "./replySize";
import { type ModelCall, providerFault } from "./toChatGeneratorError";
import { buildResponse, inputText, optionalString, readFinishReason, readProviderMetadata, readText, readUsage, readWarnings, reasoningContent, toolCallOf } from "./aiSdkReply";

/**
 * Builds the response of a `doGenerate` call: its content parts become one assistant reply (text
 * parts joined, each reasoning part and each tool call for toolwright to run with its provider
 * metadata and origin in `extra`, the warnings in the reply's and the response's meta). Tool calls the provider ran itself (`providerExecuted`), their results, sources, files and
 * approval requests are left out. Rejects with a ChatGeneratorError when the result has no content
 * array or a part's text or tool name is not a string.
 */
export function fromGenerateResult(result: unknown, call: ModelCall): ChatGeneratorResponse {
  if (!isRecord(result) || !Array.isArray(result.content)) {
    throw providerFault(call, `doGenerate returned ${isRecord(result) ? "a result without a content array" : "no result object"}, so there is no reply to use.`);
  }
  const size = new ReplySize(call);
  let text = "";
  const reasoning: ReasoningContent[] = [];
  const toolCalls: ToolCall[] = [];
  for (const [index, part] of result.content.entries()) {
    if (!isRecord(part)) continue;
    const where = () => `content part ${index} (${String(part.type)})`;
    switch (part.type) {
      case "text":
        text += size.count(readText(part, "text", where, call) ?? "");
        break;
      case "reasoning":
        reasoning.push(reasoningContent(size.count(readText(part, "text", where, call) ?? ""), readProviderMetadata(part.providerMetadata, size), call.providerId));
        break;
      case "tool-call": {
        if (part.providerExecuted === true) break;
        const toolName = size.count(readText(part, "toolName", where, call) ?? "");
        const id = size.count(optionalString(part.toolCallId));
        toolCalls.push(toolCallOf(id, toolName, size.count(inputText(part.input)), readProviderMetadata(part.providerMetadata, size), call.providerId));
        break;
      }
    }
  }
  const response = isRecord(result.response) ? result.response : {};
  const info = {
    responseModel: optionalString(response.modelId),
    responseId: optionalString(response.id),
    finishReason: readFinishReason(result.finishReason, call),
    usage: readUsage(result.usage),
    warnings: readWarnings(result.warnings),
  };
  return buildResponse({ text, reasoning, toolCalls }, info, call.modelId);
}
