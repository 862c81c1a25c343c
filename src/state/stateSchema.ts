import type { z } from "zod";
import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { zod } from "../util/lazyZod";
import { type MergeHandler, mergeLists, replaceValues } from "./mergeHandlers";
import { appendableElement, isZodArray, isZodSchema, type ZodSchema, unwrapZod, zodDef, zodVersionProblem } from "./zodIntrospection";

/** One state key: its zod type and, optionally, how writes merge into it. */
export interface StateKeySchema<T extends ZodSchema = ZodSchema> {
  /** The zod schema every value of this key must satisfy (checked on every write). */
  type: T;
  /** Merge handler; default `mergeLists` for array types, `replaceValues` otherwise. */
  handler?: MergeHandler<z.output<T>>;
}

/**
 * A state schema: key → `{ type, handler? }`. Write it with `satisfies StateSchema` so that
 * `State<typeof schema>` keeps each key's type.
 *
 * @example
 * const supportState = {
 *   tickets: { type: z.array(Ticket) },            // list: mergeLists by default
 *   customer_id: { type: z.string() },             // other: replaceValues by default
 * } satisfies StateSchema;
 */
export type StateSchema = { [key: string]: StateKeySchema<any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- each key keeps its own zod type

let chatMessageType: z.ZodCustom<ChatMessage, ChatMessage> | undefined;
let messagesType: z.ZodArray<z.ZodCustom<ChatMessage, ChatMessage>> | undefined;

/** `chatMessageSchema`, made on first use (see lazyZod). */
export function chatMessageSchemaOf(): z.ZodCustom<ChatMessage, ChatMessage> {
  return (chatMessageType ??= zod().custom<ChatMessage>((value) => value instanceof ChatMessage, {
    message: "expected a ChatMessage (build one with ChatMessage.fromUser and friends)",
  }));
}

/**
 * The zod schema of a `ChatMessage` value; use it in your own state keys that hold messages. Made
 * the first time it is read, so that importing toolwright does not load zod (an ES module that
 * imports toolwright reads every export at import, and so loads zod then).
 */
export declare const chatMessageSchema: z.ZodCustom<ChatMessage, ChatMessage>;
Object.defineProperty(exports, "chatMessageSchema", { enumerable: true, get: chatMessageSchemaOf });

/**
 * The `messages` key every State has: a list of ChatMessage merged with `handler` (default
 * `mergeLists`). Its zod type is made when something needs it (a checked write, a snapshot); the
 * run's own appends of ChatMessages need none (see `State#appendMessages`).
 */
function messagesKey(handler: MergeHandler | undefined): NormalizedStateKey {
  return {
    key: "messages",
    get type() {
      return (messagesType ??= zod().array(chatMessageSchemaOf()));
    },
    handler: handler ?? mergeLists,
    get appendElement() {
      return chatMessageSchemaOf();
    },
    builtInMessages: true,
  };
}

/** The keys of a state schema, `messages` included. */
export type StateKey<S extends StateSchema> = (keyof S & string) | "messages";

/** The type of a key's value (zod output type). */
export type StateValue<S extends StateSchema, K extends string> = K extends "messages"
  ? ChatMessage[]
  : K extends keyof S
    ? z.output<S[K]["type"]>
    : never;

/** What `set` accepts for a key: its value, or for list keys also one item (merged as a one-item list). */
export type StateWriteValue<S extends StateSchema, K extends string> =
  StateValue<S, K> extends infer V ? V | (V extends readonly (infer E)[] ? E : never) : never;

/** Every key with its value type. */
export type StateValues<S extends StateSchema> = { [K in StateKey<S>]: StateValue<S, K> };

/** Initial values a State (or an agent run) accepts: each key's zod input type, all optional. */
export type StateInitialValues<S extends StateSchema> = {
  [K in StateKey<S>]?: K extends "messages" ? ChatMessage[] : K extends keyof S ? z.input<S[K]["type"]> : never;
};

/** A state key after checking: its type, its handler, and whether items can be appended one by one. */
export interface NormalizedStateKey {
  readonly key: string;
  readonly type: ZodSchema;
  readonly handler: MergeHandler;
  /** Element schema when writes through `mergeLists` can be validated item by item. */
  readonly appendElement: ZodSchema | undefined;
  /** True for the built-in `messages` key (a list of ChatMessage). */
  readonly builtInMessages?: true;
}

/**
 * Checks a state schema and fills in defaults. Throws `ConfigurationError` naming the key, the
 * rule and the fix.
 */
export function normalizeStateSchema(schema: StateSchema | undefined): ReadonlyMap<string, NormalizedStateKey> {
  const keys = new Map<string, NormalizedStateKey>();
  const entries = Object.entries(schema ?? {});
  if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    throw new ConfigurationError("stateSchema", `stateSchema must be an object of { key: { type, handler? } }, got ${describeKind(schema)}.`);
  }
  for (const [key, entry] of entries) {
    const subject = `stateSchema.${key}`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new ConfigurationError(subject, `State key '${key}' must be declared as { type: <zod schema>, handler? }, got ${describeKind(entry)}.`);
    }
    if (!isZodSchema(entry.type)) {
      const version = zodVersionProblem(entry.type);
      throw new ConfigurationError(
        subject,
        version
          ? `State key '${key}' has a type toolwright cannot read: ${version}.`
          : `State key '${key}' has no zod type: 'type' must be a zod schema such as z.string() or z.array(Ticket), got ${describeKind(entry.type)}.`,
      );
    }
    if (entry.handler !== undefined && typeof entry.handler !== "function") {
      throw new ConfigurationError(
        subject,
        `State key '${key}' has a handler that is not a function: pass (current, incoming) => merged, or leave it out for the default, got ${describeKind(entry.handler)}.`,
      );
    }
    if (key === "messages") {
      if (!acceptsChatMessages(entry.type)) {
        throw new ConfigurationError(
          subject,
          `State key 'messages' is reserved for the conversation and must be a list of ChatMessage; leave it out of stateSchema or declare it as { type: z.array(chatMessageSchema) }.`,
        );
      }
      keys.set(key, messagesKey(entry.handler));
      continue;
    }
    keys.set(key, normalizeKey(key, entry));
  }
  if (!keys.has("messages")) keys.set("messages", messagesKey(undefined));
  return keys;
}

function normalizeKey(key: string, entry: StateKeySchema): NormalizedStateKey {
  const handler: MergeHandler = entry.handler ?? (isZodArray(entry.type) ? mergeLists : replaceValues);
  return { key, type: entry.type, handler, appendElement: appendableElement(entry.type) };
}

function acceptsChatMessages(type: ZodSchema): boolean {
  const inner = zodDef(unwrapZod(type));
  if (inner.type !== "array" || !inner.element) return false;
  return inner.element.safeParse(ChatMessage.fromUser("probe")).success && !inner.element.safeParse("probe").success;
}

