/**
 * Any Vercel AI SDK provider's LanguageModel as a toolwright ChatGenerator. It loads no AI SDK
 * package itself: the app passes a model object made by its provider package, and errors are
 * recognised by the AI SDK's own marker symbols.
 * @module toolwright/ai-sdk
 */
export { AISdkChatGenerator } from "./aiSdkChatGenerator";
export type { AISdkChatGeneratorOptions } from "./aiSdkChatGenerator";
export type {
  AISdkCallOptions,
  AISdkFilePart,
  AISdkFunctionTool,
  AISdkGenerationKwargs,
  AISdkJsonObject,
  AISdkJsonValue,
  AISdkLanguageModel,
  AISdkMessage,
  AISdkProviderOptions,
  AISdkReasoningEffort,
  AISdkReasoningPart,
  AISdkTextPart,
  AISdkToolResultContentPart,
  AISdkToolCallPart,
  AISdkToolResultPart,
} from "./languageModel";
