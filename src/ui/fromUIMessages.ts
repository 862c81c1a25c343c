import { ChatMessage, type ContentInput, type ToolCall } from "../chat/chatMessage";
import { ToolwrightError } from "../errors";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { setOwn } from "../util/ownProperty";
import { truncateForEcho } from "../util/truncate";
import { checkUIRequestSize } from "./checkUIRequestSize";
import { uiFilePart } from "./uiFilePart";
import { UIRequestError } from "./uiRequestError";

/** Options of `fromUIMessages`: the bounds of one request, and what the server knows of the paused run. */
export interface FromUIMessagesOptions {
  /** The most messages a request may hold. Default 200. */
  maxMessages?: number;
  /** The most parts all messages together may hold. Default 2000. */
  maxParts?: number;
  /** The most characters (text, URLs, tool inputs and outputs, keys) the messages may hold together. Default 16 MiB: an image or two as data URLs. */
  maxChars?: number;
  /**
   * The calls the run is waiting on (`result.pendingConfirmations`, `queue.result(runId)`): when
   * given, an approval for any other call is refused with a 409. Without it the agent or the queue
   * checks the decisions when the run resumes.
   */
  pendingConfirmations?: readonly PendingConfirmation[];
  /** Accept `system` messages from the client. Default false: the system prompt is the server's. */
  allowSystemMessages?: boolean;
}

/** What `fromUIMessages` returns: the conversation, and the approvals the user answered. */
export interface FromUIMessagesResult {
  /** The conversation as ChatMessages: user text and files, assistant text and finished tool calls with their results. */
  readonly messages: ChatMessage[];
  /** The user's answers in the last assistant message, by toolCallId: approved → confirm, denied → reject; a reason is the feedback. */
  readonly decisions: Readonly<Record<string, ConfirmationDecision>>;
}

const defaults = { maxMessages: 200, maxParts: 2000, maxChars: 16 * 1024 * 1024 };
const maxIdLength = 256;

/**
 * Turns what `useChat` posts (`body.messages`, AI SDK `UIMessage`s) into ChatMessages and the
 * decisions of the approvals the user answered, checking everything: the browser is hostile. A
 * refused request throws UIRequestError with the HTTP status to answer (400 malformed, 409 an
 * approval for a call that is not waiting, 413 too large, 422 refused content) and a message naming
 * the part at fault. Reasoning, sources and data parts are not history and are left out; tool calls
 * without a final result (waiting, streaming, preliminary) are left out too, since the run that made
 * them resumes from its own snapshot.
 *
 * @example
 * const { messages, decisions } = fromUIMessages(body.messages, { pendingConfirmations });
 */
export function fromUIMessages(uiMessages: unknown, options: FromUIMessagesOptions = {}): FromUIMessagesResult {
  const bounds = { ...defaults, ...definedOnly(options) };
  if (!Array.isArray(uiMessages)) throw new UIRequestError(400, `Chat request messages is ${describeKind(uiMessages)}; send the UIMessage array useChat posts as body.messages.`, { path: "messages" });
  if (uiMessages.length > bounds.maxMessages) throw new UIRequestError(413, `Chat request holds ${uiMessages.length} messages, over the limit of ${bounds.maxMessages}; start a new chat or keep the history on the server.`, { path: "messages" });
  checkUIRequestSize(uiMessages, bounds.maxChars, bounds.maxParts);
  const messages: ChatMessage[] = [];
  const seenCalls = new Set<string>();
  let decisions: Record<string, ConfirmationDecision> = Object.create(null);
  uiMessages.forEach((message: unknown, i) => {
    const path = `messages[${i}]`;
    if (!isPlainObject(message)) throw new UIRequestError(400, `Chat request ${path} is ${describeKind(message)}; a UIMessage is { id, role, parts }.`, { path });
    if (!Array.isArray(message.parts)) throw new UIRequestError(400, `Chat request ${path}.parts is ${describeKind(message.parts)}; a UIMessage has an array of parts.`, { path: `${path}.parts` });
    const parts = message.parts as unknown[];
    parts.forEach((part, j) => {
      if (!isPlainObject(part) || typeof part.type !== "string") throw new UIRequestError(400, `Chat request ${path}.parts[${j}] is ${describeKind(part)}; a part is an object with a type.`, { path: `${path}.parts[${j}]` });
    });
    const typed = parts as Record<string, unknown>[];
    if (message.role === "user") messages.push(...userMessage(typed, path));
    else if (message.role === "system") messages.push(...systemMessage(typed, path, bounds.allowSystemMessages === true));
    else if (message.role === "assistant") {
      const last = i === uiMessages.length - 1;
      const turn = assistantTurn(typed, path, seenCalls, last);
      messages.push(...turn.messages);
      if (last) decisions = turn.decisions;
    } else throw new UIRequestError(400, `Chat request ${path}.role is ${describeValue(message.role)}; a UIMessage's role is "user", "assistant" or "system".`, { path: `${path}.role` });
  });
  if (bounds.pendingConfirmations) checkPending(decisions, bounds.pendingConfirmations);
  return { messages, decisions };
}

function userMessage(parts: Record<string, unknown>[], path: string): ChatMessage[] {
  const content: ContentInput[] = [];
  parts.forEach((part, j) => {
    const at = `${path}.parts[${j}]`;
    if (part.type === "text") content.push(textOf(part, at));
    else if (part.type === "file") content.push(uiFilePart(part, at));
    else if (!isIgnored(part.type as string)) throw new UIRequestError(422, `Chat request ${at} is a '${truncateForEcho(part.type as string)}' part in a user message, which holds text and file parts only.`, { path: at });
  });
  if (content.length === 0) return [];
  return [build(() => ChatMessage.fromUser(content), path)];
}

function systemMessage(parts: Record<string, unknown>[], path: string, allowed: boolean): ChatMessage[] {
  if (!allowed) throw new UIRequestError(422, `Chat request ${path} is a system message, which clients may not send; set the system prompt on the server (or pass allowSystemMessages: true).`, { path });
  const text = parts.flatMap((part, j) => (part.type === "text" ? [textOf(part, `${path}.parts[${j}]`)] : [])).join("\n");
  return text === "" ? [] : [ChatMessage.fromSystem(text)];
}

interface FinishedCall {
  readonly call: ToolCall;
  readonly result: string;
  readonly error: boolean;
}

// One assistant UIMessage holds every step of a response; each step (split at step-start) becomes
// an assistant message with its text and calls, followed by one tool message per finished call.
function assistantTurn(parts: Record<string, unknown>[], path: string, seenCalls: Set<string>, last: boolean): { messages: ChatMessage[]; decisions: Record<string, ConfirmationDecision> } {
  const messages: ChatMessage[] = [];
  const decisions: Record<string, ConfirmationDecision> = Object.create(null);
  let texts: string[] = [];
  let calls: FinishedCall[] = [];
  const flush = () => {
    if (texts.length > 0 || calls.length > 0) {
      messages.push(build(() => ChatMessage.fromAssistant(texts.length > 0 ? texts.join("\n") : undefined, { toolCalls: calls.map((c) => c.call) }), path));
      for (const c of calls) messages.push(build(() => ChatMessage.fromTool(c.result, c.call, { error: c.error }), path));
    }
    texts = [];
    calls = [];
  };
  parts.forEach((part, j) => {
    const at = `${path}.parts[${j}]`;
    const type = part.type as string;
    if (type === "step-start") flush();
    else if (type === "text") texts.push(textOf(part, at));
    else if (type === "dynamic-tool" || type.startsWith("tool-")) {
      const toolName = type === "dynamic-tool" ? part.toolName : type.slice("tool-".length);
      if (typeof toolName !== "string" || toolName === "") throw new UIRequestError(400, `Chat request ${at} is a tool part without a tool name; send the part useChat made.`, { path: at });
      const toolCallId = part.toolCallId;
      if (typeof toolCallId !== "string" || toolCallId === "" || toolCallId.length > maxIdLength) {
        throw new UIRequestError(400, `Chat request ${at}.toolCallId is ${describeValue(toolCallId)}; a tool part needs the call's id (1 to ${maxIdLength} characters).`, { path: `${at}.toolCallId` });
      }
      if (seenCalls.has(toolCallId)) throw new UIRequestError(422, `Chat request ${at} repeats tool call '${truncateForEcho(toolCallId)}', which an earlier part already holds; each call appears once.`, { path: at });
      seenCalls.add(toolCallId);
      const finished = toolPart(part, at, toolName, toolCallId, last);
      if (finished === "decision") {
        const approval = part.approval as { approved: boolean; reason?: string };
        setOwn(decisions, toolCallId, Object.freeze({ action: approval.approved ? "confirm" : "reject", ...(approval.reason !== undefined && { feedback: approval.reason }) }));
      } else if (finished) calls.push(finished);
    } else if (type !== "file" && type !== "reasoning" && !isIgnored(type)) {
      throw new UIRequestError(422, `Chat request ${at} is a '${truncateForEcho(type)}' part, which an assistant message does not hold; send the parts useChat made.`, { path: at });
    }
  });
  flush();
  return { messages, decisions };
}

// A finished call for the history, "decision" for an answered approval, undefined for a call
// without a final result.
function toolPart(part: Record<string, unknown>, at: string, toolName: string, toolCallId: string, last: boolean): FinishedCall | "decision" | undefined {
  const state = part.state;
  const input = part.input === undefined ? {} : part.input;
  const args = (): ToolCall["arguments"] => {
    if (!isPlainObject(input)) throw new UIRequestError(400, `Chat request ${at}.input is ${describeKind(input)}; a tool call's input is an object.`, { path: `${at}.input` });
    if (nestingDepthExceeds(input, limits.maxArgumentDepth)) throw new UIRequestError(422, `Chat request ${at}.input nests deeper than ${limits.maxArgumentDepth} levels, the limit.`, { path: `${at}.input` });
    return input;
  };
  const call = (): ToolCall => ({ id: toolCallId, toolName, arguments: args() });
  switch (state) {
    case "input-streaming":
    case "input-available":
    case "approval-requested":
      return undefined;
    case "approval-responded": {
      checkApproval(part.approval, at, toolCallId);
      if (!last) throw new UIRequestError(409, `Chat request ${at} answers the approval of tool call '${truncateForEcho(toolCallId)}' in an earlier message; only the last assistant message's approvals resume a run.`, { path: `${at}.approval` });
      return "decision";
    }
    case "output-available":
      if (part.preliminary === true) return undefined;
      return { call: call(), result: outputText(part.output, at), error: false };
    case "output-error":
      if (typeof part.errorText !== "string") throw new UIRequestError(400, `Chat request ${at}.errorText is ${describeKind(part.errorText)}; an output-error part has the error's text.`, { path: `${at}.errorText` });
      return { call: call(), result: part.errorText, error: true };
    case "output-denied": {
      const reason = isPlainObject(part.approval) && typeof part.approval.reason === "string" ? ` Reason: ${part.approval.reason}` : "";
      return { call: call(), result: `The user rejected this call of tool '${toolName}'.${reason}`, error: true };
    }
    default:
      throw new UIRequestError(400, `Chat request ${at}.state is ${describeValue(state)}; a tool part's state is one of input-streaming, input-available, approval-requested, approval-responded, output-available, output-error, output-denied.`, { path: `${at}.state` });
  }
}

function checkApproval(approval: unknown, at: string, toolCallId: string): void {
  if (!isPlainObject(approval) || typeof approval.id !== "string" || typeof approval.approved !== "boolean" || (approval.reason !== undefined && typeof approval.reason !== "string")) {
    throw new UIRequestError(400, `Chat request ${at}.approval is ${describeKind(approval)}; an answered approval is { id, approved: boolean, reason?: string }.`, { path: `${at}.approval` });
  }
  // The server's approval requests carry the call's id as the approval id (toUIMessageStream).
  if (approval.id !== toolCallId) {
    throw new UIRequestError(422, `Chat request ${at}.approval.id '${truncateForEcho(approval.id)}' is not the approval the server requested for tool call '${truncateForEcho(toolCallId)}'; answer the approval request as it came.`, { path: `${at}.approval.id` });
  }
}

function checkPending(decisions: Record<string, ConfirmationDecision>, pending: readonly PendingConfirmation[]): void {
  for (const key of Object.keys(decisions)) {
    if (!pending.some((p) => p.toolCallId === key)) {
      throw new UIRequestError(409, `Chat request answers the approval of tool call '${truncateForEcho(key)}', which is not waiting for one; calls waiting: ${pending.map((p) => truncateForEcho(p.toolCallId)).join(", ") || "none"}.`, { path: "messages" });
    }
  }
}

// A tool's output as the model saw it: text as it is, anything else as JSON.
function outputText(output: unknown, at: string): string {
  if (typeof output === "string") return output;
  if (nestingDepthExceeds(output, limits.maxArgumentDepth)) throw new UIRequestError(422, `Chat request ${at}.output nests deeper than ${limits.maxArgumentDepth} levels, the limit.`, { path: `${at}.output` });
  return JSON.stringify(output) ?? "null";
}

function textOf(part: Record<string, unknown>, at: string): string {
  if (typeof part.text !== "string") throw new UIRequestError(400, `Chat request ${at}.text is ${describeKind(part.text)}; a text part has a string.`, { path: `${at}.text` });
  return part.text;
}

// Parts that are for display only: sources, data parts (state the server sent), step boundaries in user messages.
function isIgnored(type: string): boolean {
  return type === "source-url" || type === "source-document" || type === "step-start" || type.startsWith("data-");
}

function build(make: () => ChatMessage, path: string): ChatMessage {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof ToolwrightError)) throw error;
    throw new UIRequestError(422, `Chat request ${path} is refused: ${error.message}`, { path, cause: error });
  }
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? `'${truncateForEcho(value)}'` : describeKind(value);
}

function definedOnly(options: FromUIMessagesOptions): Partial<FromUIMessagesOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
