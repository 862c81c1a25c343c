import { z } from "zod";
import {
  ChatMessage,
  chatMessageSchema,
  ConfigurationError,
  JsonFormError,
  mergeLists,
  replaceValues,
  State,
  StateKeyError,
  type StateSchema,
  StateTypeError,
  ToolwrightError,
} from "toolwright";

const Ticket = z.object({ id: z.string(), priority: z.number() });
type Ticket = z.infer<typeof Ticket>;

function dedupe(current: string[] | undefined, incoming: string[]): string[] {
  return [...new Set([...(current ?? []), ...incoming])];
}

const supportState = {
  tickets: { type: z.array(Ticket) },
  customer_id: { type: z.string() },
  seen: { type: z.array(z.string()), handler: dedupe },
} satisfies StateSchema;

const t1: Ticket = { id: "T-1", priority: 1 };
const t2: Ticket = { id: "T-2", priority: 2 };
const t3: Ticket = { id: "T-3", priority: 3 };

/** Runs `fn`, expects it to throw, and returns what it threw. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw, but it returned");
}

/** Expects `fn` to throw an instance of `type` whose message is exactly `message`; returns the error. */
function expectThrow<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E, message: string): E {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(type);
  expect((error as E).message).toBe(message);
  return error as E;
}

/** Sends state through real JSON text and back. */
function roundTrip<S extends StateSchema>(schema: S, state: State<S>): State<S> {
  return State.fromJSON(schema, JSON.parse(JSON.stringify(state.toJSON())));
}

const isolatedState = {
  tickets: { type: z.array(Ticket) },
  payload: { type: z.unknown() },
  due: { type: z.date() },
  event: { type: z.object({ at: z.date() }) },
  dates: { type: z.array(z.date()) },
} satisfies StateSchema;

describe("State", () => {
  describe("constructor", () => {
    it("adds a messages key to every schema, even none", () => {
      expect(new State().keys).toEqual(["messages"]);
      expect(new State({}).keys).toEqual(["messages"]);
      expect(new State(supportState).keys).toEqual(["tickets", "customer_id", "seen", "messages"]);
    });

    it.each([
      ["a list of strings", z.array(z.string())],
      ["a string", z.string()],
      ["a list of anything", z.array(z.any())],
      ["a list of ChatMessage or string", z.array(z.union([chatMessageSchema, z.string()]))],
      ["a ChatMessage", chatMessageSchema],
    ])("rejects a messages key declared as %s", (_label, type) => {
      const error = thrownBy(() => new State({ messages: { type } } as StateSchema));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).subject).toBe("stateSchema.messages");
      expect((error as Error).message).toBe(
        "State key 'messages' is reserved for the conversation and must be a list of ChatMessage; leave it out of stateSchema or declare it as { type: z.array(chatMessageSchema) }.",
      );
    });

    it.each([
      ["z.array(chatMessageSchema)", z.array(chatMessageSchema)],
      ["z.array(z.custom<ChatMessage>((value) => value instanceof ChatMessage))", z.array(z.custom<ChatMessage>((value) => value instanceof ChatMessage))],
      ["z.array(chatMessageSchema).optional()", z.array(chatMessageSchema).optional()],
    ])("accepts a messages key declared as %s", (_label, type) => {
      const state = new State({ messages: { type }, note: { type: z.string() } });
      const message = ChatMessage.fromUser("hi");
      state.set("messages", [message]);
      state.set("messages", [message]);
      expect(state.get("messages")).toEqual([message, message]);
      expect(state.keys).toEqual(["messages", "note"]);
    });

    it("uses the handler given with a declared messages key", () => {
      const state = new State({ messages: { type: z.array(chatMessageSchema), handler: replaceValues } });
      const first = ChatMessage.fromUser("first");
      const second = ChatMessage.fromUser("second");
      state.set("messages", [first]);
      state.set("messages", [second]);
      expect(state.get("messages")).toEqual([second]);
    });

    function configurationError(schema: unknown): ConfigurationError {
      const error = thrownBy(() => new State(schema as StateSchema));
      expect(error).toBeInstanceOf(ConfigurationError);
      return error as ConfigurationError;
    }

    it("rejects an entry without a type", () => {
      const error = configurationError({ status: { handler: replaceValues } });
      expect(error.subject).toBe("stateSchema.status");
      expect(error.message).toBe(
        "State key 'status' has no zod type: 'type' must be a zod schema such as z.string() or z.array(Ticket), got undefined.",
      );
    });

    it("rejects a type that is not a zod schema", () => {
      expect(configurationError({ status: { type: String } }).message).toBe(
        "State key 'status' has no zod type: 'type' must be a zod schema such as z.string() or z.array(Ticket), got a function.",
      );
    });

    it("rejects a bare zod schema in place of { type }", () => {
      expect(configurationError({ status: z.string() }).message).toBe(
        `State key 'status' has no zod type: 'type' must be a zod schema such as z.string() or z.array(Ticket), got string "string".`,
      );
    });

    it("rejects an entry that is not an object", () => {
      const error = configurationError({ status: null });
      expect(error.subject).toBe("stateSchema.status");
      expect(error.message).toBe("State key 'status' must be declared as { type: <zod schema>, handler? }, got null.");
    });

    it("rejects a handler that is not a function", () => {
      const error = configurationError({ seen: { type: z.array(z.string()), handler: "dedupe" } });
      expect(error.subject).toBe("stateSchema.seen");
      expect(error.message).toBe(
        `State key 'seen' has a handler that is not a function: pass (current, incoming) => merged, or leave it out for the default, got string "dedupe".`,
      );
    });

    it("rejects a schema that is not an object", () => {
      const error = configurationError([]);
      expect(error.subject).toBe("stateSchema");
      expect(error.message).toBe("stateSchema must be an object of { key: { type, handler? } }, got an array.");
    });

    it("accepts an explicit undefined handler", () => {
      const state = new State({ tags: { type: z.array(z.string()), handler: undefined } });
      state.set("tags", ["a"]);
      state.set("tags", ["b"]);
      expect(state.get("tags")).toEqual(["a", "b"]);
    });

    it("stores initial data without applying merge handlers", () => {
      const state = new State(supportState, { seen: ["a", "a"], customer_id: "c-1" });
      expect(state.get("seen")).toEqual(["a", "a"]);
      expect(state.get("customer_id")).toBe("c-1");
    });

    it("skips initial keys whose value is undefined", () => {
      const state = new State(supportState, { customer_id: undefined });
      expect(state.has("customer_id")).toBe(false);
      expect(state.data).toEqual({});
    });

    it("stores the output of initial data", () => {
      const state = new State({ settings: { type: z.object({ lang: z.string().default("en") }) } }, { settings: {} });
      expect(state.get("settings")).toEqual({ lang: "en" });
    });

    it("copies initial data", () => {
      const payload = { nested: { n: 1 } };
      const state = new State(isolatedState, { payload });
      payload.nested.n = 2;
      expect(state.get("payload")).toEqual({ nested: { n: 1 } });
    });

    it("throws StateKeyError for an initial key not in the schema", () => {
      const error = thrownBy(() => new State(supportState, { customerId: "c-1" } as never)) as StateKeyError;
      expect(error).toBeInstanceOf(StateKeyError);
      expect(error.message).toBe(
        "State key 'customerId' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: tickets, customer_id, seen, messages.",
      );
      expect(error.key).toBe("customerId");
      expect(error.knownKeys).toEqual(["tickets", "customer_id", "seen", "messages"]);
    });

    it("throws StateTypeError for an ill-typed initial value", () => {
      const error = thrownBy(() => new State(supportState, { tickets: [t1, { id: 7, priority: 1 }] } as never)) as StateTypeError;
      expect(error).toBeInstanceOf(StateTypeError);
      expect(error.message).toBe(
        "State key 'tickets' rejected a value that does not match its type: tickets[1].id: Invalid input: expected string, received number. The value was not stored.",
      );
      expect(error.key).toBe("tickets");
      expect(error.expected).toBe("string");
      expect(error.got).toBe("number 7");
    });

    it("rejects initial messages that are plain objects shaped like a message", () => {
      const error = thrownBy(() => new State({}, { messages: [{ role: "user", content: [{ text: "hi" }] }] as never }));
      expect(error).toBeInstanceOf(StateTypeError);
      expect((error as Error).message).toBe(
        "State key 'messages' rejected a value that does not match its type: messages[0]: expected a ChatMessage (build one with ChatMessage.fromUser and friends). The value was not stored.",
      );
    });
  });

  describe("set", () => {
    it("appends to a list key (mergeLists)", () => {
      const state = new State(supportState);
      state.set("tickets", [t1]);
      state.set("tickets", [t2, t3]);
      expect(state.get("tickets")).toEqual([t1, t2, t3]);
    });

    it("appends a single item written to a list key", () => {
      const state = new State(supportState, { tickets: [t1] });
      state.set("tickets", t2);
      expect(state.get("tickets")).toEqual([t1, t2]);
    });

    it.each([
      ["optional", z.array(z.string()).optional()],
      ["nullable", z.array(z.string()).nullable()],
      ["default", z.array(z.string()).default([])],
      ["optional and nullable", z.array(z.string()).nullable().optional()],
      ["max (validated as a whole)", z.array(z.string()).max(5)],
    ])("appends to a list key behind %s", (_label, type) => {
      const state = new State({ tags: { type } });
      state.set("tags", ["a"]);
      state.set("tags", ["b", "c"]);
      expect(state.get("tags")).toEqual(["a", "b", "c"]);
    });

    it("appends to a nullable list key whose value is null", () => {
      const state = new State({ tags: { type: z.array(z.string()).nullable() } }, { tags: null });
      state.set("tags", ["a"]);
      expect(state.get("tags")).toEqual(["a"]);
    });

    it("appends messages (mergeLists)", () => {
      const first = ChatMessage.fromUser("hi");
      const second = ChatMessage.fromAssistant("hello");
      const third = ChatMessage.fromUser("bye");
      const state = new State(supportState, { messages: [first] });
      state.set("messages", [second]);
      state.set("messages", third);
      expect(state.get("messages")).toEqual([first, second, third]);
    });

    it("replaces a value that is not a list (replaceValues)", () => {
      const state = new State(supportState);
      state.set("customer_id", "c-1");
      state.set("customer_id", "c-2");
      expect(state.get("customer_id")).toBe("c-2");
    });

    it("replaces an object value rather than merging its properties", () => {
      const state = new State({ profile: { type: z.object({ name: z.string().optional(), plan: z.string().optional() }) } });
      state.set("profile", { name: "Ada" });
      state.set("profile", { plan: "pro" });
      expect(state.get("profile")).toEqual({ plan: "pro" });
    });

    it("uses the key's custom handler", () => {
      const state = new State(supportState);
      state.set("seen", ["a", "b"]);
      state.set("seen", ["b", "c"]);
      expect(state.get("seen")).toEqual(["a", "b", "c"]);
    });

    it("passes the current value (undefined at first) and the incoming value to the handler", () => {
      const handler = jest.fn((current: string | undefined, incoming: string) => `${current ?? ""}${incoming}`);
      const state = new State({ log: { type: z.string(), handler } });
      state.set("log", "a");
      state.set("log", "b");
      expect(handler.mock.calls).toEqual([
        [undefined, "a"],
        ["a", "b"],
      ]);
      expect(state.get("log")).toBe("ab");
    });

    it("uses a handlerOverride for that write only", () => {
      const state = new State(supportState);
      state.set("customer_id", "a");
      state.set("customer_id", "b", (current, incoming) => `${current}+${incoming}`);
      expect(state.get("customer_id")).toBe("a+b");
      state.set("customer_id", "c");
      expect(state.get("customer_id")).toBe("c");
    });

    it("replaces a list when the handlerOverride is replaceValues", () => {
      const state = new State(supportState, { tickets: [t1, t2] });
      state.set("tickets", [t3], replaceValues);
      expect(state.get("tickets")).toEqual([t3]);
      state.set("tickets", [t1]);
      expect(state.get("tickets")).toEqual([t3, t1]);
    });

    it("appends when the handlerOverride is mergeLists on a key with a custom handler", () => {
      const state = new State(supportState, { seen: ["a"] });
      state.set("seen", ["a"], mergeLists);
      expect(state.get("seen")).toEqual(["a", "a"]);
      state.set("seen", ["a"]);
      expect(state.get("seen")).toEqual(["a"]);
    });

    it("gives the handler a copy of the current value, so a failed write leaves the state as it was", () => {
      const mutateThenFail = (current: string[] | undefined, incoming: string[]) => {
        current?.push("mutated");
        return [...(current ?? []), ...incoming, 42 as never];
      };
      const state = new State({ tags: { type: z.array(z.string()), handler: mutateThenFail } }, { tags: ["a"] });
      expectThrow(
        () => state.set("tags", ["b"]),
        StateTypeError,
        "State key 'tags' rejected a value that does not match its type: tags[3]: Invalid input: expected string, received number. The value was not stored.",
      );
      expect(state.get("tags")).toEqual(["a"]);
    });


    it("throws StateKeyError naming the key and the known keys for a key not in the schema", () => {
      const state = new State(supportState);
      const error = thrownBy(() => state.set("priority" as never, 1 as never));
      expect(error).toBeInstanceOf(StateKeyError);
      expect(error).toBeInstanceOf(ToolwrightError);
      const keyError = error as StateKeyError;
      expect(keyError.name).toBe("StateKeyError");
      expect(keyError.message).toBe(
        "State key 'priority' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: tickets, customer_id, seen, messages.",
      );
      expect(keyError.key).toBe("priority");
      expect(keyError.knownKeys).toEqual(["tickets", "customer_id", "seen", "messages"]);
      expect(state.data).toEqual({});
    });

    it("throws StateTypeError with key, expected and got for an ill-typed value, and keeps the previous value", () => {
      const state = new State(supportState, { customer_id: "c-1" });
      const error = thrownBy(() => state.set("customer_id", 42 as never));
      expect(error).toBeInstanceOf(StateTypeError);
      expect(error).toBeInstanceOf(ToolwrightError);
      const typeError = error as StateTypeError;
      expect(typeError.name).toBe("StateTypeError");
      expect(typeError.message).toBe(
        "State key 'customer_id' rejected a value that does not match its type: customer_id: Invalid input: expected string, received number. The value was not stored.",
      );
      expect(typeError.key).toBe("customer_id");
      expect(typeError.expected).toBe("string");
      expect(typeError.got).toBe("number 42");
      expect(typeError.cause).toBeInstanceOf(z.ZodError);
      expect(state.get("customer_id")).toBe("c-1");
    });

    it("checks the value after merging: a handler's ill-typed result is rejected", () => {
      const add = (current: number | undefined, incoming: number) => (current ?? 0) + incoming;
      const state = new State({ count: { type: z.number().int(), handler: add } }, { count: 1 });
      const error = thrownBy(() => state.set("count", 0.5));
      expect(error).toBeInstanceOf(StateTypeError);
      expect((error as Error).message).toBe(
        "State key 'count' rejected a value that does not match its type: count: Invalid input: expected int, received number. The value was not stored.",
      );
      expect(state.get("count")).toBe(1);
    });

    it("names the path of a nested problem", () => {
      const state = new State({ customer: { type: z.object({ address: z.object({ zip: z.string() }) }) } });
      const error = thrownBy(() => state.set("customer", { address: { zip: 12345 } } as never)) as StateTypeError;
      expect(error.message).toBe(
        "State key 'customer' rejected a value that does not match its type: customer.address.zip: Invalid input: expected string, received number. The value was not stored.",
      );
      expect(error.expected).toBe("string");
      expect(error.got).toBe("number 12345");
    });

    it("shows the first three problems and counts the rest", () => {
      const state = new State({ point: { type: z.object({ a: z.number(), b: z.number(), c: z.number(), d: z.number(), e: z.number() }) } });
      const error = thrownBy(() => state.set("point", {} as never)) as StateTypeError;
      expect(error.message).toBe(
        "State key 'point' rejected a value that does not match its type: " +
          "point.a: Invalid input: expected number, received undefined; " +
          "point.b: Invalid input: expected number, received undefined; " +
          "point.c: Invalid input: expected number, received undefined; " +
          "and 2 more. The value was not stored.",
      );
      expect(error.got).toBe("undefined");
    });

    it("rejects a message that is not a ChatMessage", () => {
      const state = new State(supportState);
      const error = thrownBy(() => state.set("messages", "hi" as never));
      expect(error).toBeInstanceOf(StateTypeError);
      expect((error as Error).message).toBe(
        "State key 'messages' rejected a value that does not match its type: messages: expected a ChatMessage (build one with ChatMessage.fromUser and friends). The value was not stored.",
      );
      expect(state.has("messages")).toBe(false);
    });

    it("validates each appended item, points at its incoming index and appends nothing on failure", () => {
      const state = new State(supportState, { tickets: [t1, t2] });
      const error = thrownBy(() => state.set("tickets", [t3, { id: "T-4", priority: "high" }] as never)) as StateTypeError;
      expect(error).toBeInstanceOf(StateTypeError);
      expect(error.message).toBe(
        "State key 'tickets' rejected a value that does not match its type: tickets[1].priority: Invalid input: expected number, received string. The value was not stored.",
      );
      expect(error.key).toBe("tickets");
      expect(error.expected).toBe("number");
      expect(error.got).toBe(`string "high"`);
      expect(state.get("tickets")).toEqual([t1, t2]);
    });

    it("validates a single appended item", () => {
      const state = new State(supportState, { tickets: [t1] });
      const error = thrownBy(() => state.set("tickets", { id: "T-4" } as never)) as StateTypeError;
      expect(error.message).toBe(
        "State key 'tickets' rejected a value that does not match its type: tickets.priority: Invalid input: expected number, received undefined. The value was not stored.",
      );
      expect(state.get("tickets")).toEqual([t1]);
    });

    it("validates a list with its own checks as a whole", () => {
      const state = new State({ recent: { type: z.array(z.string()).max(2) } });
      state.set("recent", ["a"]);
      state.set("recent", "b");
      const error = thrownBy(() => state.set("recent", "c")) as StateTypeError;
      expect(error).toBeInstanceOf(StateTypeError);
      expect(error.message).toBe(
        "State key 'recent' rejected a value that does not match its type: recent: Too big: expected array to have <=2 items. The value was not stored.",
      );
      expect(error.expected).toBe("Too big: expected array to have <=2 items");
      expect(error.got).toBe("an array");
      expect(state.get("recent")).toEqual(["a", "b"]);
    });

    it("validates a list with a refinement as a whole", () => {
      const unique = (items: string[]) => new Set(items).size === items.length;
      const state = new State({ ids: { type: z.array(z.string()).refine(unique, "ids must be unique") } }, { ids: ["a"] });
      expectThrow(
        () => state.set("ids", ["a"]),
        StateTypeError,
        "State key 'ids' rejected a value that does not match its type: ids: ids must be unique. The value was not stored.",
      );
      expect(state.get("ids")).toEqual(["a"]);
    });

    it("validates a list whose optional wrapper has a refinement as a whole", () => {
      const unique = (items: string[] | undefined) => items === undefined || new Set(items).size === items.length;
      const state = new State({ ids: { type: z.array(z.string()).optional().refine(unique, "ids must be unique") } }, { ids: ["a"] });
      expectThrow(
        () => state.set("ids", ["a"]),
        StateTypeError,
        "State key 'ids' rejected a value that does not match its type: ids: ids must be unique. The value was not stored.",
      );
      expect(state.get("ids")).toEqual(["a"]);
    });

    it("treats an array written to a list of lists as a list of items", () => {
      const state = new State({ rows: { type: z.array(z.array(z.string())) } });
      state.set("rows", [["a", "b"]]);
      expect(state.get("rows")).toEqual([["a", "b"]]);
      expectThrow(
        () => state.set("rows", ["c", "d"]),
        StateTypeError,
        "State key 'rows' rejected a value that does not match its type: rows[0]: Invalid input: expected array, received string. The value was not stored.",
      );
    });

    it("stores the output of a transform", () => {
      const state = new State({ name: { type: z.string().transform((s) => s.trim()) } });
      state.set("name", "  Ada  ");
      expect(state.get("name")).toBe("Ada");
    });

    it("stores the output of a transform on appended list items", () => {
      const state = new State({ codes: { type: z.array(z.string().transform((s) => s.toUpperCase())) } });
      state.set("codes", "ab");
      state.set("codes", ["cd"]);
      expect(state.get("codes")).toEqual(["AB", "CD"]);
    });

    it("stores a default filled in by zod", () => {
      const state = new State({
        status: { type: z.string().default("open") },
        settings: { type: z.object({ lang: z.string().default("en"), beta: z.boolean() }) },
      });
      state.set("status", undefined as never);
      state.set("settings", { beta: true } as never);
      expect(state.get("status")).toBe("open");
      expect(state.get("settings")).toEqual({ lang: "en", beta: true });
    });

    it("strips properties that an object type does not declare", () => {
      const state = new State(supportState);
      state.set("tickets", { ...t1, extra: true } as Ticket);
      expect(state.get("tickets")).toStrictEqual([t1]);
    });

    it("clears an optional key when undefined is written", () => {
      const state = new State({ note: { type: z.string().optional() } }, { note: "draft" });
      state.set("note", undefined);
      expect(state.has("note")).toBe(false);
      expect(state.get("note", "none")).toBe("none");
      expect(state.data).toEqual({});
      expect(Object.keys(state.data)).toEqual([]);
      expect(state.toJSON()).toEqual({});
    });

    it("copies a written object, so mutating it afterwards does not change the state", () => {
      const state = new State(isolatedState);
      const ticket = { id: "T-1", priority: 1 };
      const list = [ticket];
      state.set("tickets", list);
      ticket.priority = 99;
      list.push(t2);
      expect(state.get("tickets")).toEqual([t1]);
    });

    it("copies values that zod passes through unchanged", () => {
      const state = new State(isolatedState);
      const payload = { nested: { values: [1, 2] } };
      state.set("payload", payload);
      payload.nested.values.push(3);
      expect(state.get("payload")).toEqual({ nested: { values: [1, 2] } });
    });

    it("copies Dates going in and coming out", () => {
      const due = new Date("2024-05-01T00:00:00.000Z");
      const at = new Date("2024-05-02T00:00:00.000Z");
      const listed = new Date("2024-05-03T00:00:00.000Z");
      const state = new State(isolatedState);
      state.set("due", due);
      state.set("event", { at });
      state.set("dates", [listed]);
      due.setUTCFullYear(2000);
      at.setUTCFullYear(2000);
      listed.setUTCFullYear(2000);
      state.get("due")!.setUTCFullYear(1999);
      state.get("event")!.at.setUTCFullYear(1999);
      state.get("dates")![0]!.setUTCFullYear(1999);
      state.data.due!.setUTCFullYear(1998);
      expect(state.get("due")).toEqual(new Date("2024-05-01T00:00:00.000Z"));
      expect(state.get("event")).toEqual({ at: new Date("2024-05-02T00:00:00.000Z") });
      expect(state.get("dates")).toEqual([new Date("2024-05-03T00:00:00.000Z")]);
    });

    it("shares ChatMessages rather than copying them, but copies the list", () => {
      const message = ChatMessage.fromUser("hi");
      const state = new State({}, { messages: [message] });
      const messages = state.get("messages")!;
      expect(messages[0]).toBe(message);
      expect(state.data.messages![0]).toBe(message);
      messages.push(ChatMessage.fromUser("injected"));
      expect(state.get("messages")).toEqual([message]);
    });

    it("copies frozen objects too, since a frozen top can hold mutable parts", () => {
      const inner = { n: 1 };
      const frozen = Object.freeze({ inner });
      const state = new State(isolatedState);
      state.set("payload", frozen);
      inner.n = 2;
      expect(state.get("payload")).toEqual({ inner: { n: 1 } });
    });

    it("keeps a circular value's shape when copying it", () => {
      const circular: { n: number; self?: unknown } = { n: 1 };
      circular.self = circular;
      const state = new State(isolatedState);
      state.set("payload", circular);
      const copy = state.get("payload") as typeof circular;
      expect(copy).not.toBe(circular);
      expect(copy.self).toBe(copy);
      expect(copy.n).toBe(1);
    });
  });

  describe("get", () => {
    it("returns undefined for a key with no value", () => {
      expect(new State(supportState).get("customer_id")).toBeUndefined();
    });

    it("returns the default for a key with no value", () => {
      expect(new State(supportState).get("tickets", [])).toEqual([]);
    });

    it("returns the stored value rather than the default", () => {
      expect(new State(supportState, { customer_id: "c-1" }).get("customer_id", "fallback")).toBe("c-1");
    });

    it("returns a stored null rather than the default", () => {
      const state = new State({ note: { type: z.string().nullable() } }, { note: null });
      expect(state.get("note", "fallback")).toBeNull();
    });

    it("returns copies from get", () => {
      const state = new State(isolatedState, { tickets: [t1], payload: { nested: { n: 1 } } });
      const tickets = state.get("tickets")!;
      tickets[0]!.priority = 99;
      tickets.push(t2);
      (state.get("payload") as { nested: { n: number } }).nested.n = 2;
      expect(state.get("tickets")).toEqual([t1]);
      expect(state.get("payload")).toEqual({ nested: { n: 1 } });
    });
  });

  describe("has", () => {
    it("is true for a key with a value and false for one without", () => {
      const state = new State(supportState, { customer_id: "c-1" });
      expect(state.has("customer_id")).toBe(true);
      expect(state.has("tickets")).toBe(false);
      expect(state.has("messages")).toBe(false);
    });

    it("is true for a key holding null", () => {
      expect(new State({ note: { type: z.string().nullable() } }, { note: null }).has("note")).toBe(true);
    });
  });

  describe("keys", () => {
    it("lists the schema's keys in order, then messages", () => {
      expect(new State(supportState).keys).toEqual(["tickets", "customer_id", "seen", "messages"]);
    });
  });

  describe("data", () => {
    it("holds every key that has a value and omits the others", () => {
      const message = ChatMessage.fromUser("hi");
      const state = new State(supportState, { customer_id: "c-1", messages: [message] });
      state.set("tickets", [t1]);
      expect(state.data).toEqual({ customer_id: "c-1", messages: [message], tickets: [t1] });
      expect(Object.keys(state.data).sort()).toEqual(["customer_id", "messages", "tickets"]);
    });

    it("is empty for a new State", () => {
      expect(new State(supportState).data).toEqual({});
    });

    it("returns copies from data", () => {
      const state = new State(isolatedState, { tickets: [t1] });
      const data = state.data;
      data.tickets![0]!.priority = 99;
      data.tickets!.push(t2);
      delete data.tickets;
      expect(state.get("tickets")).toEqual([t1]);
    });
  });

  describe("toJSON", () => {
    it("writes Dates as ISO strings and messages in their JSON shape", () => {
      const state = new State(
        { due: { type: z.date() }, tickets: { type: z.array(Ticket) } },
        { due: new Date("2024-05-01T12:00:00.000Z"), tickets: [t1], messages: [ChatMessage.fromUser("hi")] },
      );
      expect(state.toJSON()).toStrictEqual({
        due: "2024-05-01T12:00:00.000Z",
        tickets: [{ id: "T-1", priority: 1 }],
        messages: [{ role: "user", meta: {}, name: null, content: [{ text: "hi" }] }],
      });
    });

    it("returns JSON that does not share objects with the state", () => {
      const state = new State(supportState, { tickets: [t1] });
      const json = state.toJSON() as { tickets: Array<{ priority: number }> };
      json.tickets[0]!.priority = 99;
      expect(state.get("tickets")).toEqual([t1]);
    });

    it("throws a JsonFormError naming the key of a Map", () => {
      const state = new State({ index: { type: z.map(z.string(), z.number()) } }, { index: new Map([["a", 1]]) });
      const error = thrownBy(() => state.toJSON());
      expect(error).toBeInstanceOf(JsonFormError);
      expect((error as Error).message).toBe(
        "index holds a Map, which has no JSON form; keep only JSON-representable values in State to serialize it.",
      );
    });

    it("throws a JsonFormError naming the path of a nested Set", () => {
      const state = new State({ report: { type: z.object({ tags: z.set(z.string()) }) } }, { report: { tags: new Set(["a"]) } });
      expectThrow(
        () => state.toJSON(),
        JsonFormError,
        "report.tags holds a Set, which has no JSON form; keep only JSON-representable values in State to serialize it.",
      );
    });

    it("throws a JsonFormError naming the path of a circular reference", () => {
      const circular: { items: unknown[] } = { items: [] };
      circular.items.push(circular);
      const state = new State({ payload: { type: z.unknown() } }, { payload: circular });
      const error = thrownBy(() => state.toJSON());
      expect(error).toBeInstanceOf(JsonFormError);
      expect((error as Error).message).toBe(
        "payload.items[0] holds a circular reference, which has no JSON form; keep only JSON-representable values in State to serialize it.",
      );
    });

    it("writes an object seen twice (not circular) twice", () => {
      const shared = { n: 1 };
      const state = new State({ payload: { type: z.unknown() } }, { payload: { a: shared, b: shared } });
      expect(state.toJSON()).toEqual({ payload: { a: { n: 1 }, b: { n: 1 } } });
    });

    it("throws a JsonFormError for a number with no JSON form", () => {
      const state = new State({ payload: { type: z.unknown() } }, { payload: { ratio: Number.NaN } });
      expectThrow(
        () => state.toJSON(),
        JsonFormError,
        "payload.ratio holds the number NaN, which has no JSON form; keep only JSON-representable values in State to serialize it.",
      );
    });
  });

  describe("fromJSON", () => {
    it("round-trips a state with lists, strings, nested objects and messages through JSON text", () => {
      const schema = {
        ...supportState,
        customer: { type: z.object({ name: z.string(), address: z.object({ city: z.string(), lines: z.array(z.string()) }) }) },
      } satisfies StateSchema;
      const call = { id: "call_1", toolName: "searchTickets", arguments: { query: "open", filter: { limit: 5 } } };
      const unparsed = { toolName: "searchTickets", arguments: "{not json" };
      const messages = [
        ChatMessage.fromSystem("You are a support assistant."),
        ChatMessage.fromUser("Find my open tickets", { name: "ada" }),
        ChatMessage.fromAssistant("Searching.", { toolCalls: [call, unparsed], meta: { model: "gpt-test", usage: { total: 12 } } }),
        ChatMessage.fromTool('[{"id":"T-1"}]', call),
        ChatMessage.fromTool("Invalid JSON in arguments.", unparsed, { error: true }),
        ChatMessage.fromAssistant("You have one open ticket."),
      ];
      const state = new State(schema, {
        tickets: [t1, t2],
        customer_id: "c-42",
        seen: ["T-1"],
        customer: { name: "Ada", address: { city: "London", lines: ["1 Main St"] } },
        messages,
      });

      const revived = roundTrip(schema, state);

      expect(revived.data).toStrictEqual(state.data);
      const revivedMessages = revived.get("messages")!;
      expect(revivedMessages.every((message) => message instanceof ChatMessage)).toBe(true);
      expect(revivedMessages[2]!.toolCalls).toStrictEqual([call, unparsed]);
      expect(revivedMessages[3]!.toolCallResult).toStrictEqual({ result: '[{"id":"T-1"}]', origin: call, error: false });
      expect(revivedMessages[4]!.toolCallResult).toStrictEqual({ result: "Invalid JSON in arguments.", origin: unparsed, error: true });
      expect(revivedMessages[1]!.name).toBe("ada");
      expect(revivedMessages[2]!.meta).toStrictEqual({ model: "gpt-test", usage: { total: 12 } });
    });

    it("keeps each key's handler after a round trip", () => {
      const revived = roundTrip(supportState, new State(supportState, { seen: ["a"], tickets: [t1] }));
      revived.set("seen", ["a", "b"]);
      revived.set("tickets", [t2]);
      expect(revived.get("seen")).toEqual(["a", "b"]);
      expect(revived.get("tickets")).toEqual([t1, t2]);
    });

    const at = new Date("2024-05-01T12:34:56.789Z");
    const dueOrOpen = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("due"), at: z.date() }),
      z.object({ kind: z.literal("open"), n: z.number() }),
    ]);

    const later = new Date("2025-01-02T03:04:05.006Z");

    it.each<[string, z.ZodType, unknown]>([
      ["a top-level Date", z.date(), at],
      ["a Date in an object", z.object({ due: z.date(), title: z.string() }), { due: at, title: "x" }],
      ["a Date in a nested object", z.object({ meta: z.object({ created: z.date() }) }), { meta: { created: at } }],
      ["Dates in an array", z.array(z.date()), [at, later]],
      ["Dates in objects in an array", z.array(z.object({ at: z.date() })), [{ at }, { at: later }]],
      ["an optional Date", z.date().optional(), at],
      ["an optional Date property that is absent", z.object({ due: z.date().optional() }), {}],
      ["a nullable Date", z.date().nullable(), at],
      ["a nullable Date that is null", z.date().nullable(), null],
      ["a Date with a default", z.date().default(() => later), at],
      ["a Date in a union with a number", z.union([z.date(), z.number()]), at],
      ["a number in a union with a Date", z.union([z.date(), z.number()]), 1714566896789],
      ["a string in a union with a Date", z.union([z.date(), z.string()]), "not a date"],
      [
        "a Date in a discriminated union",
        dueOrOpen,
        { kind: "due", at },
      ],
      [
        "the other option of a discriminated union",
        dueOrOpen,
        { kind: "open", n: 3 },
      ],
      ["Dates in a record", z.record(z.string(), z.date()), { a: at, b: later }],
      ["Dates in a record of arrays", z.record(z.string(), z.array(z.date())), { a: [at], b: [] }],
      ["a Date in a tuple", z.tuple([z.string(), z.date()]), ["x", at]],
      ["a Date in an intersection", z.intersection(z.object({ at: z.date() }), z.object({ n: z.number() })), { at, n: 1 }],
      ["a Date behind z.lazy", z.lazy(() => z.object({ at: z.date() })), { at }],
      ["a ChatMessage in an object", z.object({ last: chatMessageSchema }), { last: ChatMessage.fromAssistant("done") }],
      ["ChatMessages in a list", z.array(chatMessageSchema), [ChatMessage.fromUser("a"), ChatMessage.fromUser("b")]],
    ])("round-trips %s", (_label, type, value) => {
      const schema = { value: { type } } satisfies StateSchema;
      const state = new State(schema, { value });
      const revived = roundTrip(schema, state);
      expect(revived.get("value")).toStrictEqual(value);
    });

    it("checks the revived values against the schema", () => {
      const error = thrownBy(() => State.fromJSON(supportState, { customer_id: 42 })) as StateTypeError;
      expect(error).toBeInstanceOf(StateTypeError);
      expect(error.message).toBe(
        "State key 'customer_id' rejected a value that does not match its type: customer_id: Invalid input: expected string, received number. The value was not stored.",
      );
    });

    it("rejects a Date string that is not a date", () => {
      expectThrow(
        () => State.fromJSON({ due: { type: z.date() } }, { due: "soon" }),
        StateTypeError,
        "State key 'due' rejected a value that does not match its type: due: Invalid input: expected date, received Date. The value was not stored.",
      );
    });

    it("throws StateKeyError for a key not in the schema", () => {
      const error = thrownBy(() => State.fromJSON(supportState, { priority: 1 })) as StateKeyError;
      expect(error).toBeInstanceOf(StateKeyError);
      expect(error.message).toBe(
        "State key 'priority' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: tickets, customer_id, seen, messages.",
      );
    });

    it.each<[unknown, string]>([
      [null, "null"],
      [[], "an array"],
      ["{}", `string "{}"`],
      [42, "number 42"],
      [undefined, "undefined"],
    ])("rejects %p as input", (json, described) => {
      const error = thrownBy(() => State.fromJSON(supportState, json as never));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(`State.fromJSON expects the object State.toJSON() produced, got ${described}.`);
    });
  });
});
