import { createHash } from "node:crypto";
import type { ChatMessage } from "../chat/chatMessage";
import { ChatMessage as ChatMessageClass } from "../chat/chatMessage";
import type { ConversationAppendOptions, ConversationListOptions, ConversationMetadataUpdate } from "./conversationStore";
import { ConversationLimitError } from "./errors";

/** The bounds a store enforces; every store takes them as `limits` and defaults each one. */
export interface ConversationLimits {
  /** Most messages one append may carry (default 1,000). */
  readonly maxMessagesPerAppend?: number;
  /** Largest message, as UTF-8 bytes of its `toJSON()` form: images and files count by their base64 (default 8 MiB). */
  readonly maxMessageBytes?: number;
  /** Largest stored thread state, as UTF-8 bytes of its JSON (default 1 MiB). */
  readonly maxStateBytes?: number;
}

/** The limits with their defaults filled in. */
export interface ResolvedConversationLimits {
  readonly maxMessagesPerAppend: number;
  readonly maxMessageBytes: number;
  readonly maxStateBytes: number;
}

/** Thread ids, run ids and owners: 1 to 256 characters. */
export const MAX_ID_LENGTH = 256;
/** Titles: at most 1,000 characters. */
export const MAX_TITLE_LENGTH = 1000;

// Control characters (NUL above all, which Postgres text refuses) and lone surrogates.
const unsafeText = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nulInJson = /\\u0000/;

/** The limits with their defaults; a limit that is not a positive whole number is refused. */
export function resolveLimits(limits: ConversationLimits | undefined): ResolvedConversationLimits {
  const resolved = { maxMessagesPerAppend: limits?.maxMessagesPerAppend ?? 1000, maxMessageBytes: limits?.maxMessageBytes ?? 8 * 1024 * 1024, maxStateBytes: limits?.maxStateBytes ?? 1024 * 1024 };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new ConversationLimitError("", "limit", `Conversation store option limits.${name} is ${String(value)}, not a positive whole number. Pass a whole number of at least 1.`);
  }
  return resolved;
}

/** Checks an id (thread, run or owner): a string of 1 to 256 characters with no control characters. */
export function checkId(threadId: string, kind: "threadId" | "runId" | "owner", value: unknown): string {
  const label = kind === "threadId" ? "thread id" : kind === "runId" ? "run id" : "owner";
  const shown = String(value);
  const subject = kind === "threadId" ? `Conversation thread id ${JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown)}` : `Conversation '${threadId}'`;
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new ConversationLimitError(typeof value === "string" ? (kind === "threadId" ? value : threadId) : "", kind, `${subject}: the ${label} must be a string of 1 to ${MAX_ID_LENGTH} characters, got ${typeof value === "string" ? `${value.length} characters` : typeof value}. Pass a shorter ${label}.`);
  }
  if (unsafeText.test(value)) throw new ConversationLimitError(kind === "threadId" ? value : threadId, kind, `${subject}: the ${label} contains a control character or a lone surrogate. Pass a ${label} of printable characters.`);
  return value;
}

/** Checks a metadata update: title up to 1,000 characters without NUL, owner like an id. */
export function checkMetadata(threadId: string, update: ConversationMetadataUpdate): void {
  if (update.title !== undefined && update.title !== null) {
    if (typeof update.title !== "string" || update.title.length > MAX_TITLE_LENGTH || update.title.includes("\u0000")) {
      throw new ConversationLimitError(threadId, "title", `Conversation '${threadId}': the title must be a string of at most ${MAX_TITLE_LENGTH} characters without NUL. Pass a shorter title.`);
    }
  }
  if (update.owner !== undefined && update.owner !== null) checkId(threadId, "owner", update.owner);
}

/** An append checked, in the order every store checks it: the ids, `expectedVersion`, the messages (as JSON rows, with the digest that makes a retry recognisable), the state (JSON, or undefined). */
export function checkAppend(threadId: string, runId: string, messages: readonly ChatMessage[], options: ConversationAppendOptions | undefined, limits: ResolvedConversationLimits): { rows: string[]; digest: string; expected: number | undefined; state: string | undefined } {
  checkId(threadId, "threadId", threadId);
  checkId(threadId, "runId", runId);
  const expected = checkExpectedVersion(threadId, options?.expectedVersion);
  const { rows, digest } = checkMessages(threadId, runId, messages, limits);
  return { rows, digest, expected, state: checkState(threadId, runId, options?.state, limits) };
}

function checkMessages(threadId: string, runId: string, messages: readonly ChatMessage[], limits: ResolvedConversationLimits): { rows: string[]; digest: string } {
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > limits.maxMessagesPerAppend) {
    throw new ConversationLimitError(threadId, "messagesPerAppend", `Conversation '${threadId}': run '${runId}' appends ${Array.isArray(messages) ? messages.length : "no array of"} messages; an append takes 1 to ${limits.maxMessagesPerAppend}. Split the append or raise limits.maxMessagesPerAppend.`);
  }
  const rows = messages.map((message, i) => {
    if (!(message instanceof ChatMessageClass)) throw new ConversationLimitError(threadId, "messagesPerAppend", `Conversation '${threadId}': run '${runId}' message ${i} is not a ChatMessage. Build messages with ChatMessage.fromUser / fromAssistant / fromTool / fromJSON.`);
    const json = JSON.stringify(message.toJSON());
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > limits.maxMessageBytes) throw new ConversationLimitError(threadId, "messageBytes", `Conversation '${threadId}': run '${runId}' message ${i} is ${bytes} bytes as JSON, more than limits.maxMessageBytes (${limits.maxMessageBytes}). Send smaller media or raise the limit.`);
    if (nulInJson.test(json)) throw new ConversationLimitError(threadId, "messageText", `Conversation '${threadId}': run '${runId}' message ${i} contains a NUL character (U+0000), which Postgres JSONB cannot store. Remove NUL characters before appending.`);
    return json;
  });
  const digest = createHash("sha256").update(`[${rows.join(",")}]`).digest("hex");
  return { rows, digest };
}

/** Checks an append's `state`: a plain JSON object within limits.maxStateBytes; returns its JSON text, or undefined when none was given. */
export function checkState(threadId: string, runId: string, state: unknown, limits: ResolvedConversationLimits): string | undefined {
  if (state === undefined) return undefined;
  if (typeof state !== "object" || state === null || Array.isArray(state) || (Object.getPrototypeOf(state) !== Object.prototype && Object.getPrototypeOf(state) !== null)) {
    throw new ConversationLimitError(threadId, "state", `Conversation '${threadId}': run '${runId}' appends a state that is not a plain object of JSON values. Pass { key: value } or leave state out.`);
  }
  let json: string;
  try {
    json = JSON.stringify(state);
  } catch (error) {
    throw new ConversationLimitError(threadId, "state", `Conversation '${threadId}': run '${runId}' appends a state that is not JSON (${(error as Error).message}). Pass plain JSON values.`);
  }
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > limits.maxStateBytes) throw new ConversationLimitError(threadId, "stateBytes", `Conversation '${threadId}': run '${runId}' appends a state of ${bytes} bytes as JSON, more than limits.maxStateBytes (${limits.maxStateBytes}). Persist fewer state keys or raise the limit.`);
  if (nulInJson.test(json)) throw new ConversationLimitError(threadId, "state", `Conversation '${threadId}': run '${runId}' appends a state that contains a NUL character (U+0000), which Postgres JSONB cannot store. Remove NUL characters first.`);
  return json;
}

/** A stored state read back: a plain object, else the thread row is corrupt. */
export function storedState(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return {};
  return typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Checks an `expectedVersion`: a whole number of at least 0. */
export function checkExpectedVersion(threadId: string, expectedVersion: unknown): number | undefined {
  if (expectedVersion === undefined) return undefined;
  if (typeof expectedVersion !== "number" || !Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new ConversationLimitError(threadId, "expectedVersion", `Conversation '${threadId}': expectedVersion ${String(expectedVersion)} is not a whole number of at least 0. Pass the version load returned.`);
  }
  return expectedVersion;
}

/** A page position: the last thread's updatedAt (ms) and id. */
export interface ListCursor {
  readonly updatedAt: number;
  readonly threadId: string;
}

/** Checks `listThreads` options; returns the page size and the decoded cursor. */
export function checkList(options: ConversationListOptions | undefined): { limit: number; owner: string | undefined; cursor: ListCursor | undefined } {
  const limit = options?.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new ConversationLimitError("", "limit", `Conversation listThreads: limit ${String(limit)} is not a whole number from 1 to 1000. Pass a page size in that range.`);
  const owner = options?.owner === undefined ? undefined : checkId("", "owner", options.owner);
  if (options?.cursor === undefined) return { limit, owner, cursor: undefined };
  return { limit, owner, cursor: decodeCursor(options.cursor) };
}

/** The opaque `nextCursor` string of a page position. */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.threadId]), "utf8").toString("base64url");
}

function decodeCursor(text: unknown): ListCursor {
  try {
    if (typeof text !== "string" || text.length > 2048) throw new Error("not a short string");
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === "string") return { updatedAt: value[0] as number, threadId: value[1] as string };
  } catch {
    // Falls through to the error below.
  }
  throw new ConversationLimitError("", "cursor", `Conversation listThreads: the cursor is not a nextCursor this store returned. Pass the nextCursor of the previous page, or no cursor for the first page.`);
}
