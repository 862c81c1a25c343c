import { z } from "zod";
import { mergeLists, replaceValues, State, StateKeyError, type StateSchema, StateTypeError } from "toolwright";
import { mergeToolOutputs } from "../../src/state/mergeToolOutputs";

const Ticket = z.object({ id: z.string() });

const schema = {
  tickets: { type: z.array(Ticket) },
  customer_id: { type: z.string() },
  note: { type: z.string().nullable() },
  report: { type: z.object({ total: z.number(), tickets: z.array(Ticket) }) },
} satisfies StateSchema;

function newState(): State {
  return new State(schema, { tickets: [{ id: "T-1" }] });
}

class SearchResult {
  tickets = [{ id: "T-9" }];
}

describe("mergeToolOutputs", () => {
  it("writes the property named by source", () => {
    const state = newState();
    const failure = mergeToolOutputs(state, { tickets: [{ id: "T-2" }], total: 1 }, { tickets: { source: "tickets" } });
    expect(failure).toBeUndefined();
    expect(state.get("tickets")).toEqual([{ id: "T-1" }, { id: "T-2" }]);
  });

  it("writes several keys from one result", () => {
    const state = newState();
    mergeToolOutputs(
      state,
      { found: [{ id: "T-2" }], customer: "c-7" },
      { tickets: { source: "found" }, customer_id: { source: "customer" } },
    );
    expect(state.data).toEqual({ tickets: [{ id: "T-1" }, { id: "T-2" }], customer_id: "c-7" });
  });

  it("writes the whole result when there is no source", () => {
    const state = newState();
    mergeToolOutputs(state, { total: 1, tickets: [{ id: "T-2" }] }, { report: {} });
    expect(state.get("report")).toEqual({ total: 1, tickets: [{ id: "T-2" }] });
  });

  it("merges a result with a null prototype", () => {
    const state = newState();
    const result = Object.assign(Object.create(null) as Record<string, unknown>, { customer: "c-7" });
    mergeToolOutputs(state, result, { customer_id: { source: "customer" } });
    expect(state.get("customer_id")).toBe("c-7");
  });

  it.each<[string, unknown]>([
    ["a string", "T-2"],
    ["a number", 3],
    ["null", null],
    ["an array", [{ id: "T-2" }]],
    ["a class instance", new SearchResult()],
    ["a Date", new Date(0)],
    ["a Map", new Map([["tickets", [{ id: "T-2" }]]])],
  ])("picks no source property from %s result, and writes it whole to a key without source", (_label, result) => {
    const state = new State({ ...schema, whole: { type: z.unknown() } }, { tickets: [{ id: "T-1" }] });
    const failure = mergeToolOutputs(state, result, { tickets: { source: "tickets" }, whole: {} });
    expect(failure).toBeUndefined();
    expect(state.get("tickets")).toEqual([{ id: "T-1" }]);
    expect(state.get("whole")).toEqual(result);
  });

  it("writes a list result whole into a list key without source, appending its items", () => {
    const state = newState();
    expect(mergeToolOutputs(state, [{ id: "T-2" }, { id: "T-3" }], { tickets: {} })).toBeUndefined();
    expect(state.get("tickets")).toEqual([{ id: "T-1" }, { id: "T-2" }, { id: "T-3" }]);
  });

  it("writes nothing for an undefined result (a void tool), so that it never clears a key", () => {
    const state = newState();
    expect(mergeToolOutputs(state, undefined, { tickets: {} })).toBeUndefined();
    expect(state.get("tickets")).toEqual([{ id: "T-1" }]);
  });

  it("returns the failed write of a whole result the key's type refuses", () => {
    const state = newState();
    const failure = mergeToolOutputs(state, "T-2", { report: {} });
    expect(failure?.stateKey).toBe("report");
    expect(failure?.error).toBeInstanceOf(StateTypeError);
  });

  it("writes nothing for a source property the result does not have", () => {
    const state = newState();
    const failure = mergeToolOutputs(state, { total: 0 }, { tickets: { source: "tickets" }, customer_id: { source: "customer" } });
    expect(failure).toBeUndefined();
    expect(state.data).toEqual({ tickets: [{ id: "T-1" }] });
  });

  it("writes nothing for a source property that is undefined, leaving a list as it was", () => {
    const state = newState();
    const failure = mergeToolOutputs(state, { tickets: undefined }, { tickets: { source: "tickets" } });
    expect(failure).toBeUndefined();
    expect(state.get("tickets")).toEqual([{ id: "T-1" }]);
  });

  it("does not take a source property from the result's prototype", () => {
    const state = newState();
    const result: Record<string, unknown> = {};
    mergeToolOutputs(state, result, { customer_id: { source: "toString" } });
    expect(state.has("customer_id")).toBe(false);
  });

  it("writes a source property that is null", () => {
    const state = newState();
    state.set("note", "draft");
    mergeToolOutputs(state, { note: null }, { note: { source: "note" } });
    expect(state.has("note")).toBe(true);
    expect(state.get("note")).toBeNull();
  });

  it("merges with the key's own handler when the entry has none", () => {
    const state = newState();
    mergeToolOutputs(state, { tickets: [{ id: "T-2" }] }, { tickets: { source: "tickets" } });
    expect(state.get("tickets")).toEqual([{ id: "T-1" }, { id: "T-2" }]);
  });

  it("merges with the entry's handler instead of the key's", () => {
    const state = newState();
    mergeToolOutputs(state, { tickets: [{ id: "T-2" }] }, { tickets: { source: "tickets", handler: replaceValues } });
    expect(state.get("tickets")).toEqual([{ id: "T-2" }]);
    state.set("tickets", [{ id: "T-3" }]);
    expect(state.get("tickets")).toEqual([{ id: "T-2" }, { id: "T-3" }]);
  });

  it("passes the current value and the source value to the entry's handler", () => {
    const state = newState();
    state.set("customer_id", "c-1");
    const handler = jest.fn((current: string | undefined, incoming: string) => `${current}|${incoming}`);
    mergeToolOutputs(state, { customer: "c-2" }, { customer_id: { source: "customer", handler } });
    expect(handler).toHaveBeenCalledWith("c-1", "c-2");
    expect(state.get("customer_id")).toBe("c-1|c-2");
  });

  it("returns the failed write's key and error, keeps earlier writes and stops there", () => {
    const state = newState();
    const failure = mergeToolOutputs(
      state,
      { customer: "c-7", total: "many", found: [{ id: "T-2" }] },
      { customer_id: { source: "customer" }, report: {}, tickets: { source: "found" } },
    );
    expect(failure).toEqual({ stateKey: "report", error: expect.any(StateTypeError) });
    expect((failure!.error as StateTypeError).message).toBe(
      "State key 'report' rejected a value that does not match its type: report.total: Invalid input: expected number, received string; " +
        "report.tickets: Invalid input: expected array, received undefined. The value was not stored.",
    );
    expect(state.data).toEqual({ tickets: [{ id: "T-1" }], customer_id: "c-7" });
  });

  it("returns a StateKeyError for a key not in the schema", () => {
    const state = newState();
    const failure = mergeToolOutputs(state, { x: 1 }, { unknown_key: { source: "x" } });
    expect(failure?.stateKey).toBe("unknown_key");
    expect(failure?.error).toBeInstanceOf(StateKeyError);
    expect((failure!.error as Error).message).toBe(
      "State key 'unknown_key' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: tickets, customer_id, note, report, messages.",
    );
  });

  it("returns the error a handler throws", () => {
    const state = newState();
    const boom = new Error("handler failed");
    const failure = mergeToolOutputs(state, { found: [] }, {
      tickets: {
        source: "found",
        handler: () => {
          throw boom;
        },
      },
    });
    expect(failure).toEqual({ stateKey: "tickets", error: boom });
    expect(state.get("tickets")).toEqual([{ id: "T-1" }]);
  });

  it("appends with an explicit mergeLists handler", () => {
    const state = newState();
    mergeToolOutputs(state, { found: { id: "T-2" } }, { tickets: { source: "found", handler: mergeLists } });
    expect(state.get("tickets")).toEqual([{ id: "T-1" }, { id: "T-2" }]);
  });
});
