// The code of docs/state.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { Ticket, dedupe } from "./ticket";
// #region imports
import { z } from "zod";
import { State, replaceValues, type StateSchema } from "toolwright";
// #endregion

/** Declares a state schema, writes through its merge handlers, and round-trips the state through JSON. */
export async function run(): Promise<void> {
  const ticket: Ticket = { id: "t-1", subject: "Printer jam" };
  // #region schema
  const schema = {
    tickets: { type: z.array(Ticket) },                          // array → mergeLists (append)
    customer_id: { type: z.string() },                           // other → replaceValues (last write wins)
    seen: { type: z.array(z.string()), handler: dedupe },        // custom (current, incoming) => merged
  } satisfies StateSchema;

  const state = new State(schema, { customer_id: "c-42" });
  state.get("tickets");                  // Ticket[] | undefined
  state.get("tickets", []);              // Ticket[]
  state.set("tickets", [ticket]);        // appended; state.set("tickets", ticket) appends one item too
  state.set("customer_id", "c-7", replaceValues); // handlerOverride for this one write
  state.has("seen"); state.data; state.keys;
  const copy = State.fromJSON(schema, JSON.parse(JSON.stringify(state.toJSON())));
  // #endregion

  state.set("tickets", ticket);
  state.set("seen", ["t-1"]);
  state.set("seen", ["t-1", "t-2"]);
  assert.deepEqual(state.get("tickets"), [ticket, ticket]);
  assert.deepEqual(state.get("seen"), ["t-1", "t-2"]);
  assert.equal(state.get("customer_id"), "c-7");
  assert.deepEqual(copy.get("tickets"), [ticket]);
  assert.equal(copy.has("seen"), false);
  assert.throws(() => state.set("customer_id", 7 as unknown as string), { name: "StateTypeError" });
}
