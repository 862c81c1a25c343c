import { z } from "zod";
import { Agent, ChatMessage, ConfigurationError, type JsonSchema, type StateSchema, Tool, ToolInvocationError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { rejectionOf } from "../helpers/notesAgent";

const cartState = {
  cart_id: { type: z.string() },
  item_count: { type: z.number() },
} satisfies StateSchema;

function addToCart(log: unknown[], options: { required?: string[]; cartSchema?: JsonSchema; inputsFromState?: Record<string, string> } = {}) {
  return new Tool({
    name: "add_to_cart",
    description: "Add an item to the cart.",
    parameters: {
      type: "object",
      properties: { sku: { type: "string" }, qty: { type: "integer" }, cartId: options.cartSchema ?? { type: "string" } },
      required: options.required ?? ["sku", "qty", "cartId"],
    },
    inputsFromState: options.inputsFromState ?? { cart_id: "cartId" },
    function: (args) => (log.push(args), "added"),
  });
}

const call = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "add_to_cart", arguments: { sku: "A-1", qty: 2 } }] });

describe("inputsFromState", () => {
  it("does not run a tool whose required injected parameter has no state value, and names the key", async () => {
    const log: unknown[] = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([call, ChatMessage.fromAssistant("Done.")]), tools: [addToCart(log)], stateSchema: cartState });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Add A-1 twice.")] });

    expect(log).toEqual([]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({
      error: true,
      result:
        "Tool 'add_to_cart' did not run: its parameter 'cartId' is filled from state key 'cart_id', which has no value; give 'cart_id' a value before the tool is called (a run input, or another tool's outputsToState).",
    });
  });

  it("runs a tool whose optional injected parameter has no state value, passing undefined", async () => {
    const log: Array<Record<string, unknown>> = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([call, ChatMessage.fromAssistant("Done.")]), tools: [addToCart(log, { required: ["sku", "qty"] })], stateSchema: cartState });

    await agent.run({ messages: [ChatMessage.fromUser("Add A-1 twice.")] });

    expect(log).toEqual([{ sku: "A-1", qty: 2, cartId: undefined }]);
  });

  it("raises a ToolInvocationError for the missing value with raiseOnToolInvocationFailure", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([call]), tools: [addToCart([])], stateSchema: cartState, raiseOnToolInvocationFailure: true });

    const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Add A-1 twice.")] }));

    expect(error).toBeInstanceOf(ToolInvocationError);
    expect(error.message).toMatch(/^Tool 'add_to_cart' did not run: its parameter 'cartId' is filled from state key 'cart_id', which has no value;/);
  });

  it("refuses at new Agent a number state key mapped to a string parameter", () => {
    const create = () => new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [addToCart([], { inputsFromState: { item_count: "cartId" } })], stateSchema: cartState });

    expect(create).toThrow(
      new ConfigurationError(
        "Tool 'add_to_cart'",
        "Tool 'add_to_cart' fills parameter 'cartId' (a string) from state key 'item_count', which holds a number; map a state key of the parameter's type, or change the parameter's type.",
      ),
    );
  });

  it("accepts an integer parameter filled from a number key, and a parameter without a declared type", () => {
    const countState = { item_count: { type: z.number() } } satisfies StateSchema;
    const typed = addToCart([], { inputsFromState: { item_count: "cartId" }, cartSchema: { type: "integer" } });
    const untyped = new Tool({ name: "any", description: "x", parameters: { type: "object", properties: { v: {} } }, inputsFromState: { item_count: "v" }, function: () => "ok" });

    expect(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [typed, untyped], stateSchema: countState })).not.toThrow();
  });

  it("does not run a tool whose injected value does not match the parameter's type, without showing the value", async () => {
    const looseState = { cart_id: { type: z.union([z.string(), z.number()]) } } satisfies StateSchema;
    const log: unknown[] = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([call, ChatMessage.fromAssistant("Done.")]), tools: [addToCart(log)], stateSchema: looseState });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Add A-1 twice.")], cart_id: 918273 });

    expect(log).toEqual([]);
    const text = result.messages[2]!.toolCallResult!.result;
    expect(text).toBe(
      "Tool 'add_to_cart' did not run: its parameter 'cartId' is filled from state key 'cart_id', which holds a number, but the parameter takes a string; map a state key of the parameter's type to 'cartId'.",
    );
    expect(text).not.toContain("918273");
  });
});
