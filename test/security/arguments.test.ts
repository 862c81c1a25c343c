import { z } from "zod";
import { Agent, ChatMessage, limits, Tool, ToolArgumentsError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { callsReply, guardedAgent, guardedInput, hasOnlyPlainPrototypes, rejectionOf } from "./securityAgent";

const raw = (toolName: string, text: string) => callsReply({ id: "c1", toolName, arguments: text });
const resultText = (messages: readonly ChatMessage[]) => messages.find((m) => m.role === "tool")!.toolCallResult!.result;

describe("__proto__ in arguments and outputs", () => {
  it("refuses arguments whose __proto__ key would satisfy required properties through the prototype", async () => {
    const { agent, log } = guardedAgent({ script: [raw("lookup", '{"__proto__":{"query":"x"}}'), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe(
      'Tool \'lookup\' was called with invalid arguments: __proto__ is an unknown property ("__proto__" is never accepted as a property name). Call the tool again with corrected arguments.',
    );
  });

  it("refuses a __proto__ key at any depth", async () => {
    const { agent, log } = guardedAgent({ script: [raw("lookup", '{"query":"x","filter":{"__proto__":{"tag":"admin"}}}'), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe(
      'Tool \'lookup\' was called with invalid arguments: filter.__proto__ is an unknown property ("__proto__" is never accepted as a property name). Call the tool again with corrected arguments.',
    );
  });

  it("keeps a __proto__ key of provider data as own data in a ChatMessage", () => {
    const args = JSON.parse('{"__proto__":{"text":"a"},"text":"b"}') as Record<string, unknown>;

    const message = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "lookup", arguments: args }], meta: JSON.parse('{"__proto__":{"model":"x"}}') });

    const stored = message.toolCall!.arguments as Record<string, unknown>;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.keys(stored)).toEqual(["__proto__", "text"]);
    expect(stored.text).toBe("b");
    expect(message.meta.model).toBeUndefined();
    expect(ChatMessage.fromJSON(message.toJSON()).toJSON()).toEqual(message.toJSON());
  });

  it("stores a tool output's __proto__ key as own data, never as the prototype of a state value", async () => {
    const { agent } = guardedAgent({
      script: [raw("save_profile", JSON.stringify({ json: '{"name":"x","__proto__":{"admin":true}}' })), ChatMessage.fromAssistant("Done.")],
    });

    const result = await agent.run(guardedInput());

    const profile = result.profile as Record<string, unknown>;
    expect(profile.admin).toBeUndefined();
    expect(Object.getPrototypeOf(profile)).toBe(Object.prototype);
    expect(hasOnlyPlainPrototypes(result.profile)).toBe(true);
    expect(resultText(result.messages)).toBe('{"profile":{"name":"x","__proto__":{"admin":true}}}');
  });
});

describe("non-finite numbers", () => {
  it("refuses 1e999 (Infinity after parsing) for a number parameter", async () => {
    const { agent, log } = guardedAgent({ script: [raw("transfer", '{"to":"bob","amount":1e999}'), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe("Tool 'transfer' was called with invalid arguments: amount is Infinity, which is not a JSON number; send a finite number. Call the tool again with corrected arguments.");
  });

  it("refuses -1e999 for an integer parameter", async () => {
    const { agent, log } = guardedAgent({ script: [raw("lookup", '{"query":"x","filter":{"limit":-1e999}}'), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe("Tool 'lookup' was called with invalid arguments: filter.limit is -Infinity, which is not a JSON number; send a finite number. Call the tool again with corrected arguments.");
  });
});

describe("non-finite numbers where the schema allows anything", () => {
  // An open object and an untyped parameter (JSON Schema `{}`, zod `z.any()`): no type check would
  // see the Infinity, so the screen before validation has to.
  function openTools(log: unknown[]): Tool[] {
    return [
      new Tool({
        name: "record",
        description: "Record an event.",
        parameters: { type: "object", properties: { event: { type: "object", additionalProperties: true }, extra: {} }, required: ["event"] },
        function: (args) => (log.push(args), "recorded"),
      }),
      new Tool({ name: "note", description: "Keep a note.", parameters: z.object({ payload: z.any() }), function: (args) => (log.push(args), "kept") }),
    ];
  }

  it.each([
    ["an open object", "record", '{"event":{"score":1e999}}', "event.score is Infinity"],
    ["a parameter typed {}", "record", '{"event":{},"extra":[1,-1e999]}', "extra[1] is -Infinity"],
    ["a zod z.any() parameter", "note", '{"payload":{"deep":{"n":1e400}}}', "payload.deep.n is Infinity"],
  ])("refuses 1e999 inside %s", async (_, toolName, text, problem) => {
    const log: unknown[] = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([raw(toolName, text), ChatMessage.fromAssistant("Done.")]), tools: openTools(log) });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Go.")] });

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe(`Tool '${toolName}' was called with invalid arguments: ${problem}, which is not a JSON number; send a finite number. Call the tool again with corrected arguments.`);
  });

  it("refuses NaN in arguments a model adapter passed as an object", async () => {
    const log: unknown[] = [];
    const call = { id: "c1", toolName: "record", arguments: { event: { ratio: Number.NaN } } };
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call] }), ChatMessage.fromAssistant("Done.")]), tools: openTools(log) });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Go.")] });

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe("Tool 'record' was called with invalid arguments: event.ratio is NaN, which is not a JSON number; send a finite number. Call the tool again with corrected arguments.");
  });

  it("runs the same call once the numbers are finite", async () => {
    const log: unknown[] = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([raw("record", '{"event":{"score":1e300},"extra":[1,2]}'), ChatMessage.fromAssistant("Done.")]), tools: openTools(log) });

    await agent.run({ messages: [ChatMessage.fromUser("Go.")] });

    expect(log).toEqual([{ event: { score: 1e300 }, extra: [1, 2] }]);
  });
});

describe("depth and size", () => {
  it("answers arguments nested 10,000 levels deep with the limit, without overflowing the stack", async () => {
    const deep = `{"query":"x","filter":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const { agent, log } = guardedAgent({ script: [raw("lookup", deep), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toEqual([]);
    expect(resultText(result.messages)).toBe(
      `Tool 'lookup' was called with arguments that nest deeper than ${limits.maxArgumentDepth} levels, the limit for tool arguments. Send one JSON object with the tool's parameters: query, filter.`,
    );
    expect(JSON.stringify(result.snapshot ?? null)).toBe("null");
  });

  it("refuses a ChatMessage whose parsed arguments nest deeper than the limit, naming the fix", () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };

    expect(() => ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "lookup", arguments: deep }] })).toThrow(
      new TypeError(
        "ChatMessage received the arguments of tool call 'lookup' nested deeper than 64 levels, the limit; a chat generator should pass such tool-call arguments as their raw JSON text, which the tool-calling step answers with an error the model can act on.",
      ),
    );
  });

  it("echoes only the start of a 10 MB unknown tool name", async () => {
    const name = "x".repeat(10_000_000);
    const { agent } = guardedAgent({ script: [callsReply({ id: "c1", toolName: name, arguments: {} }), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(resultText(result.messages)).toBe(`Tool '${"x".repeat(64)}…(10000000 characters)' not found. Available tools: transfer, lookup, save_profile.`);
  });

  it("echoes only the start of a 10 MB unknown property name", async () => {
    const key = "k".repeat(10_000_000);
    const { agent } = guardedAgent({ script: [callsReply({ id: "c1", toolName: "lookup", arguments: { query: "x", [key]: 1 } }), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(resultText(result.messages)).toBe(
      `Tool 'lookup' was called with invalid arguments: ${"k".repeat(64)}…(10000000 characters) is not a parameter of this tool (parameters: query, filter). Call the tool again with corrected arguments.`,
    );
  });

  it("lists at most 20 problems and counts the rest", async () => {
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra${i}`, i]));
    const { agent } = guardedAgent({ script: [callsReply({ id: "c1", toolName: "lookup", arguments: { query: "x", ...args } }), ChatMessage.fromAssistant("Done.")], raiseOnToolInvocationFailure: true });

    const error = (await rejectionOf(agent.run(guardedInput()))) as ToolArgumentsError;

    expect(error).toBeInstanceOf(ToolArgumentsError);
    expect(error.problems).toHaveLength(30);
    expect(error.message).toContain("extra19 is not a parameter of this tool (parameters: query, filter); and 10 more problems. Call the tool again");
  });

  it("runs 10,000 calls of one reply, answering each in order", async () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, toolName: "lookup", arguments: { query: `q${i}` } }));
    const { agent, log } = guardedAgent({ script: [callsReply(...calls), ChatMessage.fromAssistant("Done.")] });

    const result = await agent.run(guardedInput());

    expect(log).toHaveLength(10_000);
    const results = result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result);
    expect(results[0]).toBe("found q0");
    expect(results[9_999]).toBe("found q9999");
  });
});
