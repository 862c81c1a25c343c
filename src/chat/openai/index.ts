export { OpenAIChatGenerator } from "./openaiChatGenerator";
export type { OpenAIChatGeneratorOptions } from "./openaiChatGenerator";
export { toStrictSchema } from "./strictSchema";
