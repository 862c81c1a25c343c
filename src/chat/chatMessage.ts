import type { z } from "zod";
import { ConfigurationError } from "../errors";
import { cloneValue } from "../util/cloneValue";
import { describeKind } from "../util/describeValue";
import { formatPath } from "../util/formatPath";
import { registerImmutable } from "../util/immutable";
import { zod } from "../util/lazyZod";
import { currentMessageForm } from "./haystackMessageForms";
import { isPlainObject } from "../util/isPlainObject";
import { jsonCopy } from "../util/jsonCopy";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { setOwn } from "../util/ownProperty";
import { FileContent, type FileContentJSON } from "../media/fileContent";
import { ImageContent, type ImageContentJSON } from "../media/imageContent";
import { mediaLimits } from "../media/mediaLimits";

/** Who a message is from. */
export type ChatRole = "system" | "user" | "assistant" | "tool";

/** A request from the model to run one tool. */
export interface ToolCall {
  /** The provider's id for the call; tool results refer to it. */
  readonly id?: string;
  /** The name of the tool to run. */
  readonly toolName: string;
  /**
   * The parsed arguments. When a provider's arguments were not valid JSON the call is kept and the
   * raw text is here as a string; the tool-calling step answers the model with a JSON error.
   */
  readonly arguments: Readonly<Record<string, unknown>> | string;
  /**
   * What the provider needs to continue the call (Gemini's thought signature), plain JSON, as
   * `ReasoningContent.extra` is: read only by the generator that made it (Haystack's `ToolCall.extra`).
   */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A part of a tool's result: text, an image or a file (Haystack's `TextContent | ImageContent | FileContent`). */
export type ToolResultPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly image: ImageContent }
  | { readonly type: "file"; readonly file: FileContent };

/** The outcome of one tool call, as sent back to the model. */
export interface ToolCallResult {
  /** The text the model sees: the result's text, or the text parts of a result with media, joined by newlines. */
  readonly result: string;
  /** A result with images or files: every part in order, text included (Haystack's list result); undefined for a text result. */
  readonly parts?: readonly ToolResultPart[];
  /** The call this result answers. */
  readonly origin: ToolCall;
  /** True when the call failed (unknown tool, invalid arguments, a throw, a rejected call). */
  readonly error: boolean;
}

/**
 * A model's reasoning, kept so that it goes back to the provider on the next call (Haystack's
 * `ReasoningContent`). `text` is what the provider showed of it (a summary, or nothing); `extra`
 * is what the provider needs to continue it (the Responses API's reasoning item with its id and
 * encrypted content, Anthropic's thinking signature), plain JSON, read only by the generator that
 * made it.
 */
export interface ReasoningContent {
  readonly text: string;
  readonly extra: Readonly<Record<string, unknown>>;
}

/** One part of a message's content. */
export type ChatMessageContent =
  | { readonly type: "reasoning"; readonly reasoning: ReasoningContent }
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly image: ImageContent }
  | { readonly type: "file"; readonly file: FileContent }
  | { readonly type: "toolCall"; readonly toolCall: ToolCall }
  | { readonly type: "toolCallResult"; readonly toolCallResult: ToolCallResult };

/** Optional fields of a message. */
export interface ChatMessageOptions {
  /** Provider data: model, usage, finish reason, … */
  meta?: Record<string, unknown>;
  /** The participant's name. */
  name?: string;
}

/**
 * The JSON form of a tool call (Haystack's dict shape). Arguments kept as raw text (the model sent
 * invalid JSON) are written as `arguments: {}` with the text in `extra.toolwright_raw_arguments`:
 * Haystack sends `json.dumps(arguments)` to the provider, which would encode a string twice.
 * `fromJSON` reads that form back, and a string `arguments` too.
 */
export interface ToolCallJSON {
  tool_name: string;
  arguments: Record<string, unknown> | string;
  id: string | null;
  /** Present when the call has provider data (`ToolCall.extra`) or raw-text arguments. */
  extra?: Record<string, unknown>;
}

/** Where toJSON keeps a tool call's arguments that are raw text (see ToolCallJSON). */
export const rawArgumentsKey = "toolwright_raw_arguments";

/** The JSON form of a message (Haystack's dict shape), as produced by `toJSON()`. */
export interface ChatMessageJSON {
  role: ChatRole;
  meta: Record<string, unknown>;
  name: string | null;
  content: Array<
    | { reasoning: { reasoning_text: string; extra: Record<string, unknown> } }
    | { text: string }
    | { image: ImageContentJSON }
    | { file: FileContentJSON }
    | { tool_call: ToolCallJSON }
    | { tool_call_result: { result: string | ToolResultPartJSON[]; origin: ToolCallJSON; error: boolean } }
  >;
}

/** A part of a tool result with media, as JSON (Haystack's serialized `TextContent`, `ImageContent`, `FileContent`). */
export type ToolResultPartJSON = { text: string } | { image: ImageContentJSON } | { file: FileContentJSON };

/** What a user message or a tool result may hold: text, images and files, in order. */
export type ContentInput = string | ImageContent | FileContent;

// The zod form of the JSON form, made on the first fromJSON (see lazyZod).
let jsonSchemas: ReturnType<typeof buildJsonSchemas> | undefined;

function buildJsonSchemas(z: typeof import("zod").z) {
  // z.record drops a `__proto__` key; a plain-object check keeps the object (copied later) as it is.
  const jsonObject = z.custom<Record<string, unknown>>(isPlainObject, { message: "Invalid input: expected an object" });
  const toolCall = z.object({
    tool_name: z.string(),
    arguments: z.union([jsonObject, z.string()]),
    id: z.string().nullable().optional(),
    extra: jsonObject.nullable().optional(),
  });
  // Shape only: ImageContent.fromJSON and FileContent.fromJSON check the data.
  const image = z.object({ image: jsonObject });
  const file = z.object({ file: jsonObject });
  const message = z.object({
    role: z.enum(["system", "user", "assistant", "tool"]),
    meta: jsonObject.optional(),
    name: z.string().nullable().optional(),
    content: z.array(
      z.union([
        z.object({ reasoning: z.object({ reasoning_text: z.string(), extra: jsonObject.optional() }) }),
        z.object({ text: z.string() }),
        image,
        file,
        z.object({ tool_call: toolCall }),
        z.object({
          tool_call_result: z.object({ result: z.union([z.string(), z.array(z.union([z.object({ text: z.string() }), image, file]))]), origin: toolCall, error: z.boolean() }),
        }),
      ]),
    ),
  });
  return { toolCall, message };
}

type ToolCallJsonInput = z.infer<ReturnType<typeof buildJsonSchemas>["toolCall"]>;

/**
 * One message of a conversation. Messages are immutable: build them with the static constructors
 * (`fromUser`, `fromSystem`, `fromAssistant`, `fromTool`) and read them with the getters.
 */
export class ChatMessage {
  readonly role: ChatRole;
  readonly content: readonly ChatMessageContent[];
  readonly meta: Readonly<Record<string, unknown>>;
  readonly name: string | undefined;
  // The brand copies may rely on: only a message built by this constructor has it (see registerImmutable).
  readonly #immutable = true;

  static {
    registerImmutable((value) => #immutable in value);
  }

  private constructor(role: ChatRole, content: ChatMessageContent[], options: ChatMessageOptions = {}) {
    this.role = role;
    this.content = Object.freeze(content);
    checkMediaBytes(content);
    this.meta = options.meta === undefined ? emptyMeta : frozenCopy(checkDepth(options.meta, () => "meta"));
    this.name = options.name;
    Object.freeze(this);
  }

  /** A message from the user: text, or text, images and files in order (`["What is in this picture?", image]`). */
  static fromUser(content: string | readonly ContentInput[], options?: ChatMessageOptions): ChatMessage {
    if (typeof content === "string") return new ChatMessage("user", [textPart(content)], options);
    return new ChatMessage("user", contentParts("ChatMessage.fromUser", content), options);
  }

  /** A system instruction. */
  static fromSystem(text: string, options?: ChatMessageOptions): ChatMessage {
    return new ChatMessage("system", [textPart(text)], options);
  }

  /**
   * A reply from the model: text, tool calls, or both, with the model's reasoning when the
   * provider returns it. Parts are stored in the order reasoning, text, tool calls.
   */
  static fromAssistant(text?: string, options: ChatMessageOptions & { toolCalls?: readonly ToolCall[]; reasoning?: ReasoningContent | readonly ReasoningContent[] } = {}): ChatMessage {
    const content: ChatMessageContent[] = [];
    const reasoning = options.reasoning;
    if (reasoning !== undefined) for (const item of Array.isArray(reasoning) ? reasoning : [reasoning as ReasoningContent]) content.push(reasoningPart(item));
    if (text !== undefined) content.push(textPart(text));
    for (const call of options.toolCalls ?? []) content.push({ type: "toolCall", toolCall: freezeToolCall(call) });
    return new ChatMessage("assistant", content, options);
  }

  /** The result of running a tool call: text, or text, images and files in order. */
  static fromTool(result: string | readonly ContentInput[], origin: ToolCall, options: ChatMessageOptions & { error?: boolean } = {}): ChatMessage {
    const parts = typeof result === "string" ? undefined : toolResultParts(result);
    if (typeof result !== "string" && parts === undefined) throw new ConfigurationError("ChatMessage", `ChatMessage.fromTool needs the result as a string or an array of strings, ImageContent and FileContent, got ${describeKind(result)}.`);
    const toolCallResult = Object.freeze({ ...resultFields(typeof result === "string" ? result : "", parts), origin: freezeToolCall(origin), error: options.error ?? false });
    return new ChatMessage("tool", [Object.freeze({ type: "toolCallResult" as const, toolCallResult })], options);
  }

  /**
   * Rebuilds a message from its JSON form: `toJSON()`'s, or a Haystack ChatMessage dict in any form
   * Haystack reads (the current one, the pre-2.9 `content` string, the 2.9–2.12 `_role`/`_content`
   * form, and parts without their wrapping key).
   */
  static fromJSON(json: unknown): ChatMessage {
    const parsed = (jsonSchemas ??= buildJsonSchemas(zod())).message.safeParse(currentMessageForm(json));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ConfigurationError(
        "ChatMessage.fromJSON",
        `ChatMessage.fromJSON received a value that is not a ChatMessage JSON object: ${formatPath(issue.path)}: ${issue.message}. ` +
          `Pass what ChatMessage.toJSON() produced ({ role, meta, name, content: [...] }).`,
      );
    }
    const { role, meta, name, content } = parsed.data;
    const parts: ChatMessageContent[] = content.map((part, i) => {
      if ("reasoning" in part) return reasoningPart({ text: part.reasoning.reasoning_text, extra: part.reasoning.extra ?? {} });
      if ("text" in part) return textPart(part.text);
      if ("image" in part) return Object.freeze({ type: "image" as const, image: ImageContent.fromJSON(part.image, `ChatMessage.fromJSON content[${i}].image`) });
      if ("file" in part) return Object.freeze({ type: "file" as const, file: FileContent.fromJSON(part.file, `ChatMessage.fromJSON content[${i}].file`) });
      if ("tool_call" in part) return { type: "toolCall", toolCall: freezeToolCall(toolCallFromJSON(part.tool_call)) };
      const r = part.tool_call_result;
      const resultParts = typeof r.result === "string" ? undefined : r.result.map((p, j) => partFromJSON(p, `ChatMessage.fromJSON content[${i}].tool_call_result.result[${j}]`));
      return {
        type: "toolCallResult",
        toolCallResult: Object.freeze({ ...resultFields(r.result as string, resultParts && Object.freeze(resultParts)), origin: freezeToolCall(toolCallFromJSON(r.origin)), error: r.error }),
      };
    });
    return new ChatMessage(role, parts, { meta, name: name ?? undefined });
  }

  /** The first text part, or `undefined`. */
  get text(): string | undefined {
    for (const part of this.content) if (part.type === "text") return part.text;
    return undefined;
  }

  /** Every image in this message (a tool result's included), in order. */
  get images(): ImageContent[] {
    return this.#media("image");
  }

  /** Every file in this message (a tool result's included), in order. */
  get files(): FileContent[] {
    return this.#media("file");
  }

  #media<K extends "image" | "file">(kind: K): Array<K extends "image" ? ImageContent : FileContent> {
    const found: Array<ImageContent | FileContent> = [];
    for (const part of this.content) {
      if (part.type === "image" && kind === "image") found.push(part.image);
      else if (part.type === "file" && kind === "file") found.push(part.file);
      else if (part.type === "toolCallResult") for (const p of part.toolCallResult.parts ?? []) if (p.type === kind) found.push(p.type === "image" ? p.image : (p as { file: FileContent }).file);
    }
    return found as Array<K extends "image" ? ImageContent : FileContent>;
  }

  /** The first reasoning part, or `undefined`. */
  get reasoning(): ReasoningContent | undefined {
    for (const part of this.content) if (part.type === "reasoning") return part.reasoning;
    return undefined;
  }

  /** Every tool call in this message, in order. */
  get toolCalls(): ToolCall[] {
    const calls: ToolCall[] = [];
    for (const part of this.content) if (part.type === "toolCall") calls.push(part.toolCall);
    return calls;
  }

  /** The first tool call, or `undefined`. */
  get toolCall(): ToolCall | undefined {
    for (const part of this.content) if (part.type === "toolCall") return part.toolCall;
    return undefined;
  }

  /** Every tool result in this message, in order. */
  get toolCallResults(): ToolCallResult[] {
    const results: ToolCallResult[] = [];
    for (const part of this.content) if (part.type === "toolCallResult") results.push(part.toolCallResult);
    return results;
  }

  /** The first tool result, or `undefined`. */
  get toolCallResult(): ToolCallResult | undefined {
    for (const part of this.content) if (part.type === "toolCallResult") return part.toolCallResult;
    return undefined;
  }

  /** The message in Haystack's dict shape; `ChatMessage.fromJSON` reverses it. */
  toJSON(): ChatMessageJSON {
    return {
      role: this.role,
      meta: jsonCopy(this.meta) as Record<string, unknown>,
      name: this.name ?? null,
      content: this.content.map((part) => {
        if (part.type === "text") return { text: part.text };
        if (part.type === "image") return { image: part.image.toJSON() };
        if (part.type === "file") return { file: part.file.toJSON() };
        if (part.type === "reasoning") return { reasoning: { reasoning_text: part.reasoning.text, extra: jsonCopy(part.reasoning.extra) as Record<string, unknown> } };
        if (part.type === "toolCall") return { tool_call: toolCallToJSON(part.toolCall) };
        const r = part.toolCallResult;
        return { tool_call_result: { result: r.parts ? r.parts.map(partToJSON) : r.result, origin: toolCallToJSON(r.origin), error: r.error } };
      }),
    };
  }
}

const emptyMeta: Readonly<Record<string, unknown>> = Object.freeze({});

// Strings, images and files as content parts, in order.
function contentParts(subject: string, content: readonly ContentInput[]): ChatMessageContent[] {
  if (!Array.isArray(content)) throw new ConfigurationError("ChatMessage", `${subject} needs text, or an array of strings, ImageContent and FileContent, got ${describeKind(content)}.`);
  return content.map((item: unknown, i) => {
    if (typeof item === "string") return textPart(item);
    if (ImageContent.isImageContent(item)) return Object.freeze({ type: "image" as const, image: item });
    if (FileContent.isFileContent(item)) return Object.freeze({ type: "file" as const, file: item });
    throw new ConfigurationError("ChatMessage", `${subject} was given ${describeKind(item)} at [${i}]; give strings, ImageContent (ImageContent.fromFile, fromBytes, fromBase64, fromUrl) and FileContent.`);
  });
}

// A tool result given as an array: its parts, or undefined when it is not an array of parts.
function toolResultParts(result: unknown): readonly ToolResultPart[] | undefined {
  if (!Array.isArray(result)) return undefined;
  return Object.freeze(contentParts("ChatMessage.fromTool", result) as ToolResultPart[]);
}

// A tool result's fields: the text of a text result; the text parts joined and every part, for one with media.
function resultFields(result: string, parts: readonly ToolResultPart[] | undefined): { result: string; parts?: readonly ToolResultPart[] } {
  if (parts === undefined) return { result };
  const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
  return { result: text, parts };
}

function partFromJSON(part: Record<string, unknown>, subject: string): ToolResultPart {
  if ("text" in part) return textPart(part.text as string) as ToolResultPart;
  if ("image" in part) return Object.freeze({ type: "image" as const, image: ImageContent.fromJSON(part.image, subject + ".image") });
  return Object.freeze({ type: "file" as const, file: FileContent.fromJSON(part.file, subject + ".file") });
}

function partToJSON(part: ToolResultPart): ToolResultPartJSON {
  if (part.type === "text") return { text: part.text };
  if (part.type === "image") return { image: part.image.toJSON() };
  return { file: part.file.toJSON() };
}

// The images and files of one message together stay under mediaLimits.maxMessageBytes.
function checkMediaBytes(content: readonly ChatMessageContent[]): void {
  let total = 0;
  for (const part of content) {
    if (part.type === "image") total += part.image.byteLength;
    else if (part.type === "file") total += part.file.byteLength;
    else if (part.type === "toolCallResult") for (const p of part.toolCallResult.parts ?? []) total += p.type === "image" ? p.image.byteLength : p.type === "file" ? p.file.byteLength : 0;
  }
  if (total > mediaLimits.maxMessageBytes) {
    throw new ConfigurationError("ChatMessage", `ChatMessage holds ${total} bytes of images and files, over the limit of ${mediaLimits.maxMessageBytes} bytes per message; send fewer or smaller ones.`);
  }
}

function textPart(text: string): ChatMessageContent {
  if (typeof text !== "string") throw new ConfigurationError("ChatMessage", `ChatMessage text must be a string, got ${describeKind(text)}.`);
  return Object.freeze({ type: "text" as const, text });
}

function reasoningPart(reasoning: ReasoningContent): ChatMessageContent {
  const shape = reasoning as Partial<Record<keyof ReasoningContent, unknown>> | null;
  if (typeof shape !== "object" || shape === null || typeof shape.text !== "string" || !isPlainObject(shape.extra)) {
    throw new ConfigurationError("ChatMessage", `ChatMessage received reasoning that is not { text: string, extra: object }, got ${describeKind(reasoning)}.`);
  }
  const extra = frozenCopy(checkDepth(shape.extra as Record<string, unknown>, () => "reasoning"));
  return Object.freeze({ type: "reasoning" as const, reasoning: Object.freeze({ text: shape.text, extra }) });
}

// Returns the object it is given, so that a subclass's fields are installed on that object.
class Stamp {
  constructor(target: object) {
    return target;
  }
}

/**
 * The mark of a tool call this module checked and froze: such a call is shared as it is (a tool
 * result's origin is the assistant message's own call). A private field stamped onto the plain
 * object (it keeps `Object.prototype`, and no key shows): no other object can pass the check. A
 * `WeakSet` of checked calls cost ~4× as much per call and gave the collector weak references.
 */
class CheckedToolCall extends Stamp {
  readonly #checked = true;

  static mark<T extends object>(call: T): T {
    new CheckedToolCall(call);
    return call;
  }

  static has(value: object): boolean {
    return #checked in value;
  }
}

function freezeToolCall(call: ToolCall): ToolCall {
  if (typeof call === "object" && call !== null && CheckedToolCall.has(call)) return call;
  const shape = call as Partial<Record<keyof ToolCall, unknown>> | null;
  const argsOk = typeof shape?.arguments === "string" || (typeof shape?.arguments === "object" && shape.arguments !== null && !Array.isArray(shape.arguments));
  const extraOk = shape?.extra === undefined || isPlainObject(shape.extra);
  if (typeof shape?.toolName !== "string" || !(shape.id === undefined || typeof shape.id === "string") || !argsOk || !extraOk) {
    throw new ConfigurationError("ChatMessage", `ChatMessage received a tool call that is not { id?: string, toolName: string, arguments: object or JSON text, extra?: object }, got ${describeKind(call)}.`);
  }
  if (typeof call.arguments !== "string") checkDepth(call.arguments, () => `the arguments of tool call '${String(call.toolName).slice(0, limits.maxEchoedNameLength)}'`);
  if (call.extra !== undefined) checkDepth(call.extra, () => `the extra of tool call '${String(call.toolName).slice(0, limits.maxEchoedNameLength)}'`);
  // Always a copy of our own: the mark goes on before freezing.
  return Object.freeze(CheckedToolCall.mark(copyToolCall(call)));
}

function copyToolCall(call: ToolCall): ToolCall {
  const args = typeof call.arguments === "string" ? call.arguments : frozenCopy(call.arguments);
  const copy: { id?: string; toolName: string; arguments: ToolCall["arguments"]; extra?: ToolCall["extra"] } = call.id === undefined ? { toolName: call.toolName, arguments: args } : { id: call.id, toolName: call.toolName, arguments: args };
  if (call.extra !== undefined) copy.extra = frozenCopy(call.extra);
  return copy;
}

function toolCallToJSON(call: ToolCall): ToolCallJSON {
  const raw = typeof call.arguments === "string";
  const args = raw ? {} : (jsonCopy(call.arguments) as Record<string, unknown>);
  const json: ToolCallJSON = { tool_name: call.toolName, arguments: args, id: call.id ?? null };
  if (call.extra !== undefined || raw) json.extra = { ...(call.extra === undefined ? {} : (jsonCopy(call.extra) as Record<string, unknown>)), ...(raw ? { [rawArgumentsKey]: call.arguments } : {}) };
  return json;
}

// Haystack writes `extra: null` for a call without provider data.
function toolCallFromJSON(json: ToolCallJsonInput): ToolCall {
  let { arguments: args, extra } = json;
  const raw = extra?.[rawArgumentsKey];
  if (typeof raw === "string" && isPlainObject(args) && Object.keys(args).length === 0) {
    args = raw;
    const { [rawArgumentsKey]: _raw, ...rest } = extra!;
    extra = Object.keys(rest).length > 0 ? rest : undefined;
  }
  const call: { id?: string; toolName: string; arguments: ToolCall["arguments"]; extra?: ToolCall["extra"] } = json.id == null ? { toolName: json.tool_name, arguments: args } : { id: json.id, toolName: json.tool_name, arguments: args };
  if (extra != null) call.extra = extra;
  return call;
}

// Copies plain objects and arrays into frozen copies. A part is shared only when it is deeply
// frozen: one frozen at the top can still change underneath. Other objects (Date, class
// instances) are copied or kept as cloneValue does, and never frozen in place.
function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== "object" || isDeepFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return cloneValue(value);
  const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) setOwn(copy, key, frozenCopy((value as Record<string, unknown>)[key]));
  return Object.freeze(copy) as T;
}

// Copies and JSON forms walk these values recursively; the limit keeps that far from the stack's end.
function checkDepth<T>(value: T, what: () => string): T {
  if (nestingDepthExceeds(value, limits.maxArgumentDepth)) {
    throw new ConfigurationError(
      "ChatMessage",
      `ChatMessage received ${what()} nested deeper than ${limits.maxArgumentDepth} levels, the limit; a chat generator should pass such tool-call arguments as their raw JSON text, which the tool-calling step answers with an error the model can act on.`,
    );
  }
  return value;
}

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  return Object.isFrozen(value) && Object.keys(value).every((key) => isDeepFrozen((value as Record<string, unknown>)[key]));
}
