import { expectTypeOf } from "expect-type";
import { Agent, type BeforeModelContext, type Middleware, type State } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { deskState } from "../helpers/refundDesk";

const chatGenerator = new ScriptedChatGenerator([]);

// Written once for any Agent, the way a package would publish it.
const budget: Middleware = {
  name: "budget",
  beforeModel: ({ usage }) => (usage.modelCalls >= 3 ? { stop: { reason: "budget spent" } } : undefined),
};

describe("Middleware types", () => {
  it("fits a middleware written for any Agent into an Agent with a typed stateSchema, and into its runs", () => {
    const agent = new Agent({ chatGenerator, stateSchema: deskState, middleware: [budget] });
    const run = () => agent.run({ customer_id: "c-7", middleware: [budget] });

    expectTypeOf(run).returns.resolves.toHaveProperty("exitReason");
  });

  it("types the state of a middleware given inline by the Agent's stateSchema", () => {
    new Agent({
      chatGenerator,
      stateSchema: deskState,
      middleware: [
        {
          name: "typed",
          beforeModel({ state }) {
            expectTypeOf(state.get("customer_id")).toEqualTypeOf<string | undefined>();
            // @ts-expect-error -- not a key of the Agent's state
            state.get("missing");
          },
        },
      ],
    });
  });

  it("gives an untyped middleware an untyped State, and accepts a typed context where an untyped one is expected", () => {
    const untyped: NonNullable<Middleware["beforeModel"]> = ({ state }) => {
      expectTypeOf(state).toEqualTypeOf<State>();
    };
    const record = (context: BeforeModelContext) => context.step;
    new Agent({ chatGenerator, stateSchema: deskState, middleware: [{ name: "spy", beforeModel: (context) => void record(context) }, { name: "untyped", beforeModel: untyped }] });
  });
});
