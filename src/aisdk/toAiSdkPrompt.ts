import type { ResponseFormat, ToolSpec } from "../chat/chatGenerator";
import type { ChatMessage, ReasoningContent, ToolCall, ToolCallResult, ToolResultPart } from "../chat/chatMessage";
import { describeMedia, MediaWarnings } from "../media/describeMedia";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { type AISdkMediaSupport, aiSdkMediaSupport, isUrlSupported } from "./aiSdkMediaSupport";
import { strictFormOf, toStrictSchema } from "../chat/toStrictSchema";
import { ConfigurationError } from "../errors";
import { isPlainObject } from "../util/isPlainObject";
import { truncateForEcho } from "../util/truncate";
import type { AISdkCallOptions, AISdkFilePart, AISdkFunctionTool, AISdkJsonObject, AISdkMessage, AISdkTextPart, AISdkToolResultContentPart, AISdkToolResultPart, AISdkProviderOptions, AISdkReasoningPart, AISdkToolCallPart } from "./languageModel";

/** What `toAiSdkPrompt` needs to send images and files: where to record the parts it describes, and the URLs the provider takes. */
export interface AISdkPromptMedia {
  readonly warnings: MediaWarnings;
  /** The model's `supportedUrls`, read (see readSupportedUrls). */
  readonly supportedUrls: Readonly<Record<string, readonly RegExp[]>>;
}

/**
 * Converts the conversation to a LanguageModel prompt for the model of AI SDK provider `provider`
 * (`anthropic.messages`): an assistant message's parts in the order reasoning, text, tool calls, and
 * one tool message per tool result, its output `error-text` when the result is an error. Reasoning
 * goes only to the provider that made it, with the provider options it came with (Anthropic's
 * thinking signature); a tool call's provider metadata (Gemini's thought signature) goes back as its
 * provider options, to that provider only. Images and files go as the provider takes them (see
 * aiSdkMediaSupport): `file` parts in user messages, `content` tool results (`image-data`,
 * `file-data`, `image-url`, `file-url`) or, for a provider whose tool messages are text, the
 * result's text and a user message with its images and files after the step's tool messages. A
 * part the provider cannot take (one in an assistant or system message, a type it refuses, a URL it
 * does not list in `supportedUrls`) becomes a short description, recorded in `media.warnings`.
 */
export function toAiSdkPrompt(messages: readonly ChatMessage[], provider: string, media: AISdkPromptMedia = { warnings: new MediaWarnings("AISdkChatGenerator"), supportedUrls: {} }): AISdkMessage[] {
  const prompt: AISdkMessage[] = [];
  const support = aiSdkMediaSupport(provider);
  let following: AISdkUserPart[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== "tool" && following.length > 0) {
      prompt.push({ role: "user", content: following });
      following = [];
    }
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: describedText(message, `messages[${index}]`, media.warnings, "the prompt takes no images or files in system messages") });
        break;
      case "user":
        prompt.push({ role: "user", content: userContent(message, `messages[${index}]`, support, media) });
        break;
      case "assistant":
        prompt.push({ role: "assistant", content: assistantContent(message, index, provider, media.warnings) });
        break;
      case "tool":
        for (const part of message.content) {
          if (part.type !== "toolCallResult") continue;
          const { origin } = part.toolCallResult;
          const toolCallId = requireId(origin, `messages[${index}] is the result of a call`);
          const { output, follow } = toolOutput(part.toolCallResult, toolCallId, `messages[${index}]`, support, media);
          prompt.push({ role: "tool", content: [{ type: "tool-result", toolCallId, toolName: origin.toolName, output }] });
          following.push(...follow);
        }
        break;
    }
  }
  if (following.length > 0) prompt.push({ role: "user", content: following });
  return prompt;
}

type AISdkUserPart = AISdkTextPart | AISdkFilePart;

function hasMedia(message: ChatMessage): boolean {
  return message.content.some((part) => part.type === "image" || part.type === "file");
}

function mediaOf(part: { type: "image"; image: ImageContent } | { type: "file"; file: FileContent }): ImageContent | FileContent {
  return part.type === "image" ? part.image : part.file;
}

// The media type a part goes under: its own, `image/*` for an image whose type a URL does not tell.
function mediaTypeOf(media: ImageContent | FileContent): string {
  return media.mimeType ?? (media.kind === "image" ? "image/*" : "application/octet-stream");
}

// A message's text parts with its images and files described in their place, one per line; the first text alone when it has none.
function describedText(message: ChatMessage, where: string, warnings: MediaWarnings, reason: string): string {
  if (!hasMedia(message)) return message.text ?? "";
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") lines.push(part.text);
    else if (part.type === "image" || part.type === "file") lines.push(warnings.describe(mediaOf(part), where, reason));
  }
  return lines.join("\n");
}

function userContent(message: ChatMessage, where: string, support: AISdkMediaSupport, media: AISdkPromptMedia): AISdkUserPart[] {
  if (!hasMedia(message)) return [{ type: "text", text: message.text ?? "" }];
  const parts: AISdkUserPart[] = [];
  for (const part of message.content) {
    if (part.type === "text") parts.push({ type: "text", text: part.text });
    else if (part.type === "image" || part.type === "file") parts.push(filePart(mediaOf(part), where, support, media));
  }
  return parts;
}

// An image or a file as a user message's file part, or its description when the provider cannot take it.
function filePart(item: ImageContent | FileContent, where: string, support: AISdkMediaSupport, media: AISdkPromptMedia): AISdkUserPart {
  const mediaType = mediaTypeOf(item);
  const refusal = userRefusal(item, mediaType, support, media);
  if (refusal !== undefined) return { type: "text", text: media.warnings.describe(item, where, refusal) };
  const filename = FileContent.isFileContent(item) && item.filename !== undefined ? { filename: item.filename } : {};
  return { type: "file", data: item.url !== undefined ? new URL(item.url) : base64Of(item), mediaType, ...filename };
}

function base64Of(item: ImageContent | FileContent): string {
  return (ImageContent.isImageContent(item) ? item.base64Image : (item as FileContent).base64Data)!;
}

function userRefusal(item: ImageContent | FileContent, mediaType: string, support: AISdkMediaSupport, media: AISdkPromptMedia): string | undefined {
  if (item.url !== undefined && !isUrlSupported(media.supportedUrls, mediaType, item.url)) return "the provider does not take this URL (its supportedUrls), and toolwright does not download; give the bytes";
  if (!support.userFile(mediaType)) return `the provider takes no ${mediaType} files`;
  return undefined;
}

/**
 * A tool result's output, and what follows the step's tool messages: a text result as text; one
 * with media as `content` parts, or (for a provider whose tool messages are text) as its text with
 * the media described, the media following in a user message.
 */
function toolOutput(result: ToolCallResult, id: string, where: string, support: AISdkMediaSupport, media: AISdkPromptMedia): { output: AISdkToolResultPart["output"]; follow: AISdkUserPart[] } {
  if (result.parts === undefined) return { output: { type: result.error ? "error-text" : "text", value: result.result }, follow: [] };
  if (result.error) {
    const value = result.parts.map((part) => (part.type === "text" ? part.text : media.warnings.describe(mediaOf(part), where, "an error result goes as text"))).join("\n");
    return { output: { type: "error-text", value }, follow: [] };
  }
  if (support.toolContent) return { output: { type: "content", value: result.parts.map((part) => contentPart(part, where, support, media)) }, follow: [] };
  const lines: string[] = [];
  const follow: AISdkUserPart[] = [];
  for (const part of result.parts) {
    if (part.type === "text") {
      lines.push(part.text);
      continue;
    }
    const item = mediaOf(part);
    const sent = filePart(item, where, support, media);
    lines.push(sent.type === "text" ? sent.text : describeMedia(item));
    if (sent.type === "file") follow.push(sent);
  }
  if (follow.length > 0) lines.push(`(${follow.length === 1 ? "This image or file follows" : `These ${follow.length} images and files follow`} in the next user message.)`);
  const intro: AISdkUserPart[] = follow.length > 0 ? [{ type: "text", text: `The images and files of tool '${result.origin.toolName}' (call ${id}):` }] : [];
  return { output: { type: "text", value: lines.join("\n") }, follow: [...intro, ...follow] };
}

// A part of a `content` tool result, or its description as a text part when the provider cannot take it.
function contentPart(part: ToolResultPart, where: string, support: AISdkMediaSupport, media: AISdkPromptMedia): AISdkToolResultContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  const item = mediaOf(part);
  const mediaType = mediaTypeOf(item);
  let refusal: string | undefined;
  if (item.url !== undefined) {
    if (!isUrlSupported(media.supportedUrls, mediaType, item.url)) refusal = "the provider does not take this URL (its supportedUrls), and toolwright does not download; give the bytes";
    else return part.type === "image" ? { type: "image-url", url: item.url } : { type: "file-url", url: item.url, ...(item.mimeType !== undefined && { mediaType: item.mimeType }) };
  } else if (part.type === "file" && !support.toolFile(mediaType)) refusal = `the provider takes no ${mediaType} files in tool results`;
  if (refusal !== undefined) return { type: "text", text: media.warnings.describe(item, where, refusal) };
  const data = part.type === "image" ? part.image.base64Image! : part.file.base64Data!;
  return part.type === "image" ? { type: "image-data", data, mediaType } : { type: "file-data", data, mediaType, ...(part.file.filename !== undefined && { filename: part.file.filename }) };
}

// One pass over the parts, which go out in the order reasoning, text (the first, as `text` reads it), tool calls.
function assistantContent(message: ChatMessage, index: number, provider: string, warnings: MediaWarnings): Extract<AISdkMessage, { role: "assistant" }>["content"] {
  const reasoning: AISdkReasoningPart[] = [];
  const calls: AISdkToolCallPart[] = [];
  const described: string[] = [];
  let text: string | undefined;
  for (const part of message.content) {
    if (part.type === "image" || part.type === "file") described.push(warnings.describe(mediaOf(part), `messages[${index}]`, "toolwright sends no images or files in assistant messages"));
    else if (part.type === "reasoning") {
      const own = ownReasoning(part.reasoning, provider);
      if (own) reasoning.push(own);
    } else if (part.type === "text") text ??= part.text;
    else if (part.type === "toolCall") {
      const call = part.toolCall;
      const providerOptions = ownMetadata(call.extra, provider);
      calls.push({ type: "tool-call", toolCallId: requireId(call, `messages[${index}].toolCalls[${calls.length}] is a call`), toolName: call.toolName, input: inputOf(call), ...(providerOptions && { providerOptions }) });
    }
  }
  if (described.length > 0) text = [...(text ? [text] : []), ...described].join("\n");
  if (reasoning.length === 0 && calls.length === 0) return text ? [{ type: "text", text }] : [];
  return [...reasoning, ...(text ? [{ type: "text" as const, text }] : []), ...calls];
}

// Reasoning this adapter made records its provider in `extra.provider` (see aiSdkReply); parts
// from before it did are known by their metadata's provider key (`anthropic` for
// `anthropic.messages`). Any other reasoning (the Responses API's items, another provider's, one
// written by hand) is left out: a provider cannot check it, and may reject it or take it as its own.
function ownReasoning(reasoning: ReasoningContent, provider: string): AISdkReasoningPart | undefined {
  const { extra } = reasoning;
  const metadata = usableMetadata(extra.providerMetadata);
  const origin = extra.provider;
  const own = typeof origin === "string" ? origin === provider : metadata !== undefined && Object.hasOwn(metadata, provider.split(".")[0]!);
  if (!own) return undefined;
  return metadata ? { type: "reasoning", text: reasoning.text, providerOptions: metadata } : { type: "reasoning", text: reasoning.text };
}

// A tool call's provider metadata, when this provider made it.
function ownMetadata(extra: ToolCall["extra"], provider: string): AISdkProviderOptions | undefined {
  return extra !== undefined && extra.provider === provider ? usableMetadata(extra.providerMetadata) : undefined;
}

function usableMetadata(metadata: unknown): AISdkProviderOptions | undefined {
  return isPlainObject(metadata) && Object.values(metadata).every(isPlainObject) ? (metadata as AISdkProviderOptions) : undefined;
}

// Arguments the model sent as text that is not a JSON object go back as `{}`: providers need an
// object here (Anthropic refuses anything else), and the tool result already tells the model what
// was wrong with what it sent.
function inputOf(call: ToolCall): AISdkJsonObject {
  return typeof call.arguments === "string" ? {} : (call.arguments as AISdkJsonObject);
}

function requireId(call: ToolCall, subject: string): string {
  if (call.id) return call.id;
  throw new ConfigurationError(
    "AISdkChatGenerator",
    `AISdkChatGenerator cannot send the conversation: ${subject} to '${truncateForEcho(call.toolName)}' without an id; the LanguageModel prompt pairs tool results with calls by id, so give every ToolCall an id.`,
  );
}

/** Converts tool specs to function tools: with `strict`, a strict-compatible schema goes in strict form with `strict: true`. */
export function toAiSdkTools(tools: readonly ToolSpec[], strict: boolean, provider: string): AISdkFunctionTool[] {
  const saysNotStrict = strictUnlessTold(provider);
  return tools.map((tool) => {
    const useStrict = strict && tool.strict;
    return {
      type: "function",
      name: tool.name,
      description: tool.description,
      inputSchema: (useStrict ? toStrictSchema(tool.parameters) : tool.parameters) as Record<string, unknown>,
      ...(useStrict ? { strict: true } : saysNotStrict && { strict: false }),
    };
  });
}

// OpenAI's Responses API (`@ai-sdk/openai`'s `openai.responses`, and Azure's through the same
// package) takes a function tool without `strict` as strict, and refuses a schema that cannot be:
// those providers are told `strict: false`. Others are not, as some of them warn about any
// `strict` they do not support.
function strictUnlessTold(provider: string): boolean {
  return provider.endsWith(".responses");
}

/**
 * The call's `responseFormat`: JSON with the run's output schema, its name and description. A
 * strict-compatible schema goes in its strict form (optional properties required and nullable,
 * every object closed), as `@ai-sdk/openai` sends it with `strict: true` unless told otherwise.
 */
export function toAiSdkResponseFormat(format: ResponseFormat): NonNullable<AISdkCallOptions["responseFormat"]> {
  return {
    type: "json",
    schema: (format.strict ? strictFormOf(format.schema) : format.schema) as Record<string, unknown>,
    name: format.name,
    ...(format.description !== undefined && { description: format.description }),
  };
}

/**
 * The call's provider options for a run's answer format: for a schema that is not
 * strict-compatible, `openai.strictJsonSchema: false`, since `@ai-sdk/openai` sends every answer
 * schema with `strict: true` by default and OpenAI refuses such a schema in strict mode; a
 * `strictJsonSchema` the caller set is kept. Other providers ignore the `openai` key.
 */
export function responseFormatProviderOptions(providerOptions: AISdkProviderOptions | undefined, format: ResponseFormat): AISdkProviderOptions | undefined {
  if (format.strict || (providerOptions?.openai !== undefined && Object.hasOwn(providerOptions.openai, "strictJsonSchema"))) return providerOptions;
  return { ...providerOptions, openai: { ...providerOptions?.openai, strictJsonSchema: false } };
}
