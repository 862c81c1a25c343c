import type { z } from "zod";
import { ConfigurationError, StateKeyError, StateTypeError } from "../errors";
import { cloneValue } from "../util/cloneValue";
import { describeKind } from "../util/describeValue";
import { formatPath } from "../util/formatPath";
import { isPlainObject } from "../util/isPlainObject";
import { setOwn } from "../util/ownProperty";
import { fromJsonValue, type JsonValue, toJsonValue } from "./jsonCodec";
import { ChatMessage } from "../chat/chatMessage";
import { type MergeHandler, mergeLists } from "./mergeHandlers";
import {
  type NormalizedStateKey,
  normalizeStateSchema,
  type StateInitialValues,
  type StateKey,
  type StateSchema,
  type StateValue,
  type StateValues,
  type StateWriteValue,
} from "./stateSchema";
import type { ZodSchema } from "./zodIntrospection";

/** The JSON form of a State's values (`state.toJSON()`); `State.fromJSON(schema, json)` reverses it. */
export type StateJSON = { [key: string]: JsonValue };

const normalizedSchemas = new WeakMap<object, ReadonlyMap<string, NormalizedStateKey>>();

let withoutSchema: ReadonlyMap<string, NormalizedStateKey> | undefined;

function normalizedFor(schema: StateSchema | undefined): ReadonlyMap<string, NormalizedStateKey> {
  if (schema === undefined) return (withoutSchema ??= normalizeStateSchema(undefined));
  let keys = normalizedSchemas.get(schema);
  if (!keys) {
    keys = normalizeStateSchema(schema);
    normalizedSchemas.set(schema, keys);
  }
  return keys;
}

let peekValue: (state: State<StateSchema>, key: string) => unknown;
let appendMessagesTo: (state: State<StateSchema>, messages: readonly ChatMessage[]) => void;

/**
 * Typed, validated key-value state shared by an agent run and its tools. Every key is declared in
 * the schema with a zod type; every write is merged with the key's handler and checked against
 * that type, so State never holds an ill-typed value. Values going in and out are copies.
 *
 * @example
 * const state = new State({ tickets: { type: z.array(Ticket) } }, { tickets: [] });
 * state.set("tickets", [ticket]);          // appended (mergeLists)
 * state.get("tickets");                    // Ticket[] | undefined
 */
export class State<S extends StateSchema = any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- an untyped State accepts any key, and every State<S> is assignable to it
  readonly #keys: ReadonlyMap<string, NormalizedStateKey>;
  readonly #values = new Map<string, unknown>();

  static {
    peekValue = (state, key) => state.#values.get(key);
    appendMessagesTo = (state, messages) => state.#appendMessages(messages);
  }

  /**
   * @param schema The state schema; `messages` is always added.
   * @param data Initial values, checked against their keys' types (no merge handler is applied).
   */
  constructor(schema?: S, data?: StateInitialValues<S>) {
    this.#keys = normalizedFor(schema);
    for (const [key, value] of Object.entries(data ?? {})) {
      if (value === undefined) continue;
      const entry = this.#entry(key);
      this.#store(key, parseOrThrow(entry.type, cloneValue(value), key, []));
    }
  }

  /**
   * Rebuilds a State from `toJSON()` output, or from Haystack's `State.to_dict()` form
   * (`{ schema, data: { serialization_schema, serialized_data } }`, whose values are read as JSON
   * and checked against this schema: Haystack's schema and type names are not used). `Date`s and
   * `ChatMessage`s (in any form `ChatMessage.fromJSON` reads) are revived from the schema.
   */
  static fromJSON<S extends StateSchema>(schema: S, json: StateJSON): State<S> {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new ConfigurationError("State.fromJSON", `State.fromJSON expects the object State.toJSON() produced, got ${describeKind(json)}.`);
    }
    const keys = normalizedFor(schema);
    const values = keys.has("schema") ? json : (haystackStateData(json) ?? json);
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const entry = keys.get(key);
      setOwn(data, key, entry ? fromJsonValue(entry.type, value) : value);
    }
    return new State(schema, data as StateInitialValues<S>);
  }

  /** The value of `key` (a copy), or `undefined` when it has none. */
  get<K extends StateKey<S>>(key: K): StateValue<S, K> | undefined;
  /** The value of `key` (a copy), or `defaultValue` when it has none. */
  get<K extends StateKey<S>>(key: K, defaultValue: StateValue<S, K>): StateValue<S, K>;
  get(key: string, defaultValue?: unknown): unknown {
    const value = this.#values.get(key);
    return value === undefined ? defaultValue : cloneValue(value);
  }

  /**
   * Merges `value` into `key` with the key's handler (or `handlerOverride`, for this write only)
   * and stores the result after checking it against the key's zod type.
   *
   * @throws StateKeyError when the key is not in the schema.
   * @throws StateTypeError when the merged value does not match the key's type; nothing is stored.
   */
  set<K extends StateKey<S>>(key: K, value: StateWriteValue<S, K>, handlerOverride?: MergeHandler): void {
    const entry = this.#entry(key);
    const incoming = cloneValue(value as unknown);
    const handler = handlerOverride ?? entry.handler;
    const current = this.#values.get(key);
    if (handler === mergeLists && entry.appendElement && (current === undefined || current === null || Array.isArray(current))) {
      this.#append(entry, entry.appendElement, current as unknown[] | null | undefined, incoming);
      return;
    }
    const merged = handler(cloneValue(current), incoming);
    this.#store(key, parseOrThrow(entry.type, merged, key, []));
  }

  /** True when `key` has a value. */
  has(key: StateKey<S>): boolean {
    return this.#values.get(key) !== undefined;
  }

  /** The keys the schema declares, `messages` included. */
  get keys(): string[] {
    return [...this.#keys.keys()];
  }

  /** A copy of every value, by key (keys without a value are absent). */
  get data(): Partial<StateValues<S>> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of this.#values) setOwn(out, key, cloneValue(value));
    return out as Partial<StateValues<S>>;
  }

  /** Plain JSON of every value: `Date`s as ISO strings, messages in their JSON shape. */
  toJSON(): StateJSON {
    const out: StateJSON = {};
    for (const [key, value] of this.#values) setOwn(out, key, toJsonValue(value, [key], "keep only JSON-representable values in State to serialize it"));
    return out;
  }

  // Appends item by item: each new item is validated against the element type, so a write costs
  // O(items written), not O(list length).
  #append(entry: NormalizedStateKey, element: ZodSchema, current: unknown[] | null | undefined, incoming: unknown): void {
    const items = Array.isArray(incoming) ? incoming : [incoming];
    const parsed = items.map((item, i) => parseOrThrow(element, item, entry.key, Array.isArray(incoming) ? [i] : []));
    if (Array.isArray(current)) {
      for (const item of parsed) current.push(item);
    } else {
      this.#values.set(entry.key, parsed);
    }
  }

  // The run's own appends to the history. When `messages` has its built-in type and merge, a
  // ChatMessage is valid by construction and immutable, so it is pushed as it is: no copy, no
  // parse (the agent appends twice per step). Any other schema for the key takes the checked path.
  #appendMessages(messages: readonly ChatMessage[]): void {
    const entry = this.#entry("messages");
    const current = this.#values.get("messages");
    if (entry.builtInMessages && entry.handler === mergeLists && (current === undefined || Array.isArray(current)) && allChatMessages(messages)) {
      if (current === undefined) this.#values.set("messages", [...messages]);
      else for (const message of messages) current.push(message);
      return;
    }
    this.set("messages", messages as never);
  }

  // An undefined value means "no value": storing it would list the key in `data` and break `toJSON`.
  #store(key: string, value: unknown): void {
    if (value === undefined) this.#values.delete(key);
    else this.#values.set(key, value);
  }

  #entry(key: string): NormalizedStateKey {
    const entry = this.#keys.get(key);
    if (!entry) throw new StateKeyError(key, [...this.#keys.keys()]);
    return entry;
  }
}

function allChatMessages(messages: readonly unknown[]): boolean {
  for (let i = 0; i < messages.length; i++) if (!(messages[i] instanceof ChatMessage)) return false;
  return true;
}

/** Appends the run's new messages to the history (see `State#appendMessages`). For the runtime's own use. */
export function appendMessages<S extends StateSchema>(state: State<S>, messages: readonly ChatMessage[]): void {
  appendMessagesTo(state as unknown as State<StateSchema>, messages);
}

/** The stored value of a key without copying it. For the runtime's own read-only use. */
export function peekStateValue<S extends StateSchema>(state: State<S>, key: string): unknown {
  return peekValue(state as unknown as State<StateSchema>, key);
}

function parseOrThrow(type: ZodSchema, value: unknown, key: string, prefix: PropertyKey[]): unknown {
  const result = type.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const shown = issues.slice(0, 3).map((issue) => `${formatPath([key, ...prefix, ...issue.path])}: ${issue.message}`);
  if (issues.length > 3) shown.push(`and ${issues.length - 3} more`);
  const first = issues[0] as z.core.$ZodIssue & { expected?: string };
  const got = describeKind(valueAt(value, first.path));
  throw new StateTypeError(key, shown.join("; "), first.expected ?? first.message, got, { cause: result.error });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

// The values of Haystack's State.to_dict() form ({ schema, data: { serialization_schema,
// serialized_data } }), or undefined for any other object. A schema with its own `schema` key is
// never read this way (its toJSON output could look the same).
function haystackStateData(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const data = json.data;
  if (!("schema" in json) || !isPlainObject(data) || !("serialization_schema" in data)) return undefined;
  const values = data.serialized_data;
  if (!isPlainObject(values)) {
    throw new ConfigurationError("State.fromJSON", `State.fromJSON received Haystack's State.to_dict() form, but its data.serialized_data is ${describeKind(values)}, not an object of state values.`);
  }
  return values;
}
