// The shapes toolwright uses of the AI SDK's LanguageModel specification, written out here rather
// than imported from @ai-sdk/provider: its version 3 package has no V4 types and its version 4
// package needs Node 22, and the declarations toolwright ships must not need either. Only the
// parts the generator sends are listed; a real LanguageModelV3 or LanguageModelV4 is assignable to
// `AISdkLanguageModel` (test/aisdk/languageModel.types.test.ts checks V3 against the real types).

/** A JSON value as the AI SDK's provider options and metadata carry it. */
export type AISdkJsonValue = null | string | number | boolean | AISdkJsonObject | AISdkJsonValue[];

/** A JSON object as the AI SDK's provider options and metadata carry it. */
export interface AISdkJsonObject {
  [key: string]: AISdkJsonValue | undefined;
}

/** Provider-specific options, keyed by provider (`{ anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } }`). */
export type AISdkProviderOptions = Record<string, AISdkJsonObject>;

/** A text part of a prompt message. */
export interface AISdkTextPart {
  type: "text";
  text: string;
}

/** A reasoning part of an assistant message; `providerOptions` carries what the provider needs to continue it (Anthropic's signature). */
export interface AISdkReasoningPart {
  type: "reasoning";
  text: string;
  providerOptions?: AISdkProviderOptions;
}

/** A tool call of an assistant message; `providerOptions` carries what the provider needs to continue it (Gemini's thought signature). */
export interface AISdkToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: AISdkJsonObject;
  providerOptions?: AISdkProviderOptions;
}

/** An image or a file of a user message: base64 data or a URL the provider takes as it is (`supportedUrls`). */
export interface AISdkFilePart {
  type: "file";
  data: string | URL;
  mediaType: string;
  filename?: string;
}

/** A part of a tool result with media (`output: { type: "content" }`). */
export type AISdkToolResultContentPart =
  | { type: "text"; text: string }
  | { type: "image-data"; data: string; mediaType: string }
  | { type: "image-url"; url: string }
  | { type: "file-data"; data: string; mediaType: string; filename?: string }
  | { type: "file-url"; url: string; mediaType?: string };

/** The result of a tool call, in a tool message. */
export interface AISdkToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: { type: "text" | "error-text"; value: string } | { type: "content"; value: AISdkToolResultContentPart[] };
}

/** One message of the prompt toolwright sends. */
export type AISdkMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: Array<AISdkTextPart | AISdkFilePart> }
  | { role: "assistant"; content: Array<AISdkTextPart | AISdkReasoningPart | AISdkToolCallPart> }
  | { role: "tool"; content: AISdkToolResultPart[] };

/** A function tool as the model sees it. */
export interface AISdkFunctionTool {
  type: "function";
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  strict?: boolean;
}

/** The reasoning effort of a V4 model (`reasoning` in generationKwargs); V3 models have no such option. */
export type AISdkReasoningEffort = "provider-default" | "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** The call settings toolwright passes through from `generationKwargs`, under the specification's own names. */
export interface AISdkGenerationKwargs {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  /** Provider-specific options, keyed by provider: `{ anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } }`. */
  providerOptions?: AISdkProviderOptions;
  /** Extra HTTP headers for the provider's request. */
  headers?: Record<string, string | undefined>;
  /** V4 models only (AI SDK 7): the reasoning effort. */
  reasoning?: AISdkReasoningEffort;
}

/** What toolwright passes to `doGenerate` and `doStream`: the LanguageModelV3/V4 call options it uses. */
export interface AISdkCallOptions extends AISdkGenerationKwargs {
  prompt: AISdkMessage[];
  tools?: AISdkFunctionTool[];
  toolChoice?: { type: "auto" };
  responseFormat?: { type: "json"; schema?: Record<string, unknown>; name?: string; description?: string };
  abortSignal?: AbortSignal;
}

/**
 * A language model of an AI SDK provider package: a `LanguageModelV3` (AI SDK 6: `@ai-sdk/anthropic`
 * 3.x, `@ai-sdk/google` 3.x, `@ai-sdk/openai-compatible` 2.x, …) or a `LanguageModelV4` (AI SDK 7).
 * What its methods return is read as untrusted input.
 */
export interface AISdkLanguageModel {
  readonly specificationVersion: "v3" | "v4";
  /** The provider id, e.g. `anthropic.messages`, `openai.chat`, `google.generative-ai`. */
  readonly provider: string;
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly modelId: string;
  /** The URLs the provider takes as they are, by media type (`{ "image/*": [/^https?:\/\/.*$/] }`); others it would download. */
  readonly supportedUrls?: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  /** Generates one reply (the provider's LanguageModel method). */
  doGenerate(options: AISdkCallOptions): PromiseLike<unknown>;
  /** Streams one reply (the provider's LanguageModel method). */
  doStream(options: AISdkCallOptions): PromiseLike<unknown>;
}
