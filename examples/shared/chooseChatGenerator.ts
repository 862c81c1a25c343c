import type { ChatGenerator } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";

/**
 * A real model when OPENAI_API_KEY or OPENAI_BASE_URL is set (model from OPENAI_MODEL, default
 * gpt-4o-mini), otherwise the example's scripted stand-in, so every example runs offline.
 */
export function chooseChatGenerator(scripted: () => ChatGenerator): { chatGenerator: ChatGenerator; label: string } {
  if (process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL) {
    const model = process.env.OPENAI_MODEL ?? "gpt-4o-mini";
    return { chatGenerator: new OpenAIChatGenerator({ model }), label: `${model} at ${process.env.OPENAI_BASE_URL ?? "api.openai.com"}` };
  }
  return { chatGenerator: scripted(), label: "the scripted model (set OPENAI_API_KEY or OPENAI_BASE_URL for a real one)" };
}
