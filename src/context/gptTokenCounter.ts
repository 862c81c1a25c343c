import type { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import { mediaTokens, openAiImageTokens } from "./mediaTokens";
import { cachedCounter, type TokenCounter } from "./tokenCounter";

/** The encodings `gptTokenCounter` can count with: `o200k_base` (GPT-4o, GPT-4.1, o-series, GPT-5) and `cl100k_base` (GPT-4, GPT-3.5). */
export type GptEncoding = "o200k_base" | "cl100k_base";

// Every message costs a few tokens of framing (role, separators): 3–4 in OpenAI's chat format.
const framingTokens = 4;

/**
 * Counts tokens exactly as OpenAI's models do, with `gpt-tokenizer` (an optional peer dependency:
 * `npm i gpt-tokenizer`; its encodings are ~30 MB, loaded on the first count). For other vendors
 * it is an estimate (their tokenizers differ); `estimateTokenCounter` needs nothing installed.
 * An image counts as OpenAI's tile formula gives for its `detail` and pixel size (read from its
 * header; 1,445, the formula's most, when unknown), a file as its bytes would as text. Counts are
 * cached per message.
 */
export function gptTokenCounter(options: { readonly encoding?: GptEncoding } = {}): TokenCounter {
  const encoding = options.encoding ?? "o200k_base";
  if (encoding !== "o200k_base" && encoding !== "cl100k_base") {
    throw new ConfigurationError("gptTokenCounter", `gptTokenCounter has encoding '${String(encoding).slice(0, 64)}'; use "o200k_base" (GPT-4o and later) or "cl100k_base" (GPT-4, GPT-3.5).`);
  }
  let encode: ((text: string) => readonly number[]) | undefined;
  const tokens = (text: string): number => (text.length === 0 ? 0 : (encode ??= load(encoding))(text).length);
  return cachedCounter((message: ChatMessage) => {
    let count = framingTokens + mediaTokens(message, openAiImageTokens);
    for (const part of message.content) {
      if (part.type === "text") count += tokens(part.text);
      else if (part.type === "reasoning") count += tokens(part.reasoning.text);
      else if (part.type === "toolCall") {
        const call = part.toolCall;
        count += tokens(call.toolName) + tokens(typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments));
      } else if (part.type === "toolCallResult") count += tokens(part.toolCallResult.result);
    }
    return count;
  });
}

function load(encoding: GptEncoding): (text: string) => readonly number[] {
  let loaded: { encode(text: string): number[] };
  try {
    loaded = require(`gpt-tokenizer/encoding/${encoding}`) as { encode(text: string): number[] };
  } catch (error) {
    throw new ConfigurationError("gptTokenCounter", `gptTokenCounter needs the gpt-tokenizer package, which is not installed; run npm i gpt-tokenizer (or count with estimateTokenCounter, which needs nothing).`, { cause: error });
  }
  return (text) => loaded.encode(text);
}
