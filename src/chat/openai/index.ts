/**
 * OpenAI's Chat Completions and Responses APIs as `ChatGenerator`s, through the official `openai`
 * SDK (an optional peer dependency).
 * @module toolwright/openai
 */
import { registerOpenAIGeneratorTypes } from "./openaiGeneratorTypes";
export { OpenAIChatGenerator } from "./openaiChatGenerator";
export type { OpenAIChatGeneratorOptions } from "./openaiChatGenerator";
export { OpenAIResponsesChatGenerator } from "./openaiResponsesChatGenerator";
export type { OpenAIResponsesChatGeneratorOptions } from "./openaiResponsesChatGenerator";
export type { OpenAIConnectionOptions } from "./openaiConnection";
export type { OpenAIClient, OpenAIRequestOptions } from "./openaiClient";
export { toStrictSchema } from "../toStrictSchema";
export { openaiChatGeneratorFromDefinition, openaiResponsesChatGeneratorFromDefinition } from "./generatorDefinition";

registerOpenAIGeneratorTypes();
