import { expectTypeOf } from "expect-type";
import { z } from "zod";
import { ChatMessage, State, StateKeyError, type StateSchema, StateTypeError } from "toolwright";

const Ticket = z.object({ id: z.string(), priority: z.number() });
type Ticket = z.infer<typeof Ticket>;

function dedupe(current: string[] | undefined, incoming: string[]): string[] {
  return [...new Set([...(current ?? []), ...incoming])];
}

const supportState = {
  tickets: { type: z.array(Ticket) },
  customer_id: { type: z.string() },
  seen: { type: z.array(z.string()), handler: dedupe },
  due: { type: z.date().optional() },
} satisfies StateSchema;
type SupportState = typeof supportState;

const ticket: Ticket = { id: "T-1", priority: 1 };

describe("State", () => {
  it("types get by the key's zod type", () => {
    const state = new State<SupportState>(supportState, { tickets: [ticket] });
    expectTypeOf(state.get("tickets")).toEqualTypeOf<Ticket[] | undefined>();
    expectTypeOf(state.get("customer_id")).toEqualTypeOf<string | undefined>();
    expectTypeOf(state.get("due")).toEqualTypeOf<Date | undefined>();
    expect(state.get("tickets")).toEqual([ticket]);
  });

  it("types get with a default as the key's type", () => {
    const state = new State(supportState);
    const tickets = state.get("tickets", []);
    expectTypeOf(tickets).toEqualTypeOf<Ticket[]>();
    expectTypeOf(state.get("customer_id", "none")).toEqualTypeOf<string>();
    expect(tickets).toEqual([]);
  });

  it("types messages as a list of ChatMessage", () => {
    const state = new State(supportState);
    expectTypeOf(state.get("messages")).toEqualTypeOf<ChatMessage[] | undefined>();
    state.set("messages", [ChatMessage.fromUser("hi")]);
    state.set("messages", ChatMessage.fromUser("again"));
    expect(state.get("messages")).toHaveLength(2);
  });

  it("accepts the key's type, and one item for a list key, in set", () => {
    const state = new State(supportState);
    state.set("tickets", [ticket]);
    state.set("tickets", ticket);
    state.set("customer_id", "c-1");
    state.set("seen", ["a"]);
    state.set("seen", "b");
    state.set("due", new Date(0));
    state.set("customer_id", "c-2", (current, incoming) => `${current ?? ""}${incoming}`);
    expect(state.get("tickets")).toEqual([ticket, ticket]);
  });

  it("rejects a value of the wrong type in set", () => {
    const state = new State(supportState);
    // @ts-expect-error -- customer_id is a string
    const wrongScalar = () => state.set("customer_id", 42);
    // @ts-expect-error -- tickets holds Ticket objects
    const wrongItem = () => state.set("tickets", [{ id: 1 }]);
    // @ts-expect-error -- a list of tickets is not a customer id
    const wrongList = () => state.set("customer_id", ["c-1"]);
    expect(wrongScalar).toThrow(StateTypeError);
    expect(wrongItem).toThrow(StateTypeError);
    expect(wrongList).toThrow(StateTypeError);
  });

  it("makes an unknown key a compile error", () => {
    const state = new State(supportState);
    // @ts-expect-error -- not a key of supportState
    const unknownSet = () => state.set("customerId", "c-1");
    // @ts-expect-error -- not a key of supportState
    const unknownGet = () => state.get("customerId");
    // @ts-expect-error -- not a key of supportState
    const unknownHas = () => state.has("customerId");
    // @ts-expect-error -- not a key of supportState
    const unknownInitial = () => new State(supportState, { customerId: "c-1" });
    expect(unknownSet).toThrow(StateKeyError);
    expect(unknownGet()).toBeUndefined();
    expect(unknownHas()).toBe(false);
    expect(unknownInitial).toThrow(StateKeyError);
  });

  it("types data as a partial record of every key's value", () => {
    const state = new State(supportState, { customer_id: "c-1" });
    expectTypeOf(state.data).toEqualTypeOf<
      Partial<{ tickets: Ticket[]; customer_id: string; seen: string[]; due: Date | undefined; messages: ChatMessage[] }>
    >();
    expect(state.data).toEqual({ customer_id: "c-1" });
  });

  it("types initial data by each key's input type", () => {
    const withDefault = { status: { type: z.string().default("open") } } satisfies StateSchema;
    const state = new State(withDefault, { status: undefined });
    expectTypeOf(state.get("status")).toEqualTypeOf<string | undefined>();
    // @ts-expect-error -- status is a string
    const wrongInitial = () => new State(withDefault, { status: 1 });
    expect(wrongInitial).toThrow(StateTypeError);
  });

  it("keeps types through fromJSON", () => {
    const state = State.fromJSON(supportState, new State(supportState, { customer_id: "c-1" }).toJSON());
    expectTypeOf(state).toEqualTypeOf<State<SupportState>>();
    expect(state.get("customer_id")).toBe("c-1");
  });

  it("accepts any key on an untyped State", () => {
    const state: State = new State();
    expectTypeOf(state.set).parameter(0).toEqualTypeOf<string>();
    const anyKey = () => state.set("anything", 1);
    expect(anyKey).toThrow(StateKeyError);
    expect(state.get("anything")).toBeUndefined();
    expect(state.has("anything")).toBe(false);
    expectTypeOf(state.get("messages")).toEqualTypeOf<ChatMessage[] | undefined>();
  });

  it("lets a typed State be passed where an untyped State is expected", () => {
    const typed = new State(supportState);
    const untyped: State = typed;
    expect(untyped.keys).toContain("tickets");
  });
});
