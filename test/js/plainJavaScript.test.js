// toolwright from plain JavaScript, the way a JS app uses the built package: CommonJS `require`,
// no types, callbacks written the short way. Runs in the "js" Jest project (no transform;
// `toolwright` resolves to dist/, which `npm test` builds first).
"use strict";

const http = require("node:http");
const { z } = require("zod");
const { MockLanguageModelV3 } = require("ai/test");
const { Agent, ChatMessage, ConfigurationError, StateTypeError, Tool } = require("toolwright");
const { ScriptedChatGenerator } = require("toolwright/testing");
const { AISdkChatGenerator } = require("toolwright/ai-sdk");

function searchTool(ran) {
  return new Tool({
    name: "search",
    description: "Search documents.",
    parameters: { type: "object", properties: { query: { type: "string" }, limit: {} }, required: ["query"] },
    function: ({ query }) => {
      ran.push(query);
      return `results for ${query}`;
    },
  });
}

function scripted() {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: { query: "lamps" } }] }),
    ChatMessage.fromAssistant("Lamps are in stock."),
  ]);
}

function toolResults(messages) {
  return messages.filter((message) => message.role === "tool").map((message) => message.toolCallResult.result);
}

describe("toolwright from plain JavaScript", () => {
  it("runs with a streaming callback that returns what Array#push returns", async () => {
    const chunks = [];
    const ran = [];
    const agent = new Agent({ chatGenerator: scripted(), tools: [searchTool(ran)], streamingCallback: (chunk) => chunks.push(chunk) });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Lamps?")] });

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(ran).toEqual(["lamps"]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["toolCallDelta", "finish", "toolResult", "finish", "text", "text", "text", "text", "finish"]);
  });

  it("streams a run into an HTTP response with (chunk) => res.write(...)", async () => {
    const ran = [];
    const server = http.createServer(async (req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const agent = new Agent({ chatGenerator: scripted(), tools: [searchTool(ran)] });
      const result = await agent.run({ messages: [ChatMessage.fromUser("Lamps?")], streamingCallback: (chunk) => res.write(`${JSON.stringify(chunk)}\n`) });
      res.end(`${JSON.stringify({ type: "done", text: result.lastMessage.text })}\n`);
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${server.address().port}/`);
      const lines = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));

      expect(lines.at(-1)).toEqual({ type: "done", text: "Lamps are in stock." });
      expect(lines.find((line) => line.type === "toolResult").result.result).toBe("results for lamps");
      expect(ran).toEqual(["lamps"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("streams through an AI SDK model with a callback that returns a number", async () => {
    const usage = { inputTokens: { total: 3, noCache: 3 }, outputTokens: { total: 2, text: 2 } };
    const replies = [
      [{ type: "tool-call", toolCallId: "c1", toolName: "search", input: '{"query":"lamps"}' }],
      [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Lamps are in stock." }, { type: "text-end", id: "t" }],
    ];
    let call = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        const parts = replies[call++];
        const finish = { type: "finish", finishReason: { unified: parts[0].type === "tool-call" ? "tool-calls" : "stop", raw: undefined }, usage };
        return { stream: new ReadableStream({ start: (controller) => { for (const part of [...parts, finish]) controller.enqueue(part); controller.close(); } }) };
      },
    });
    const chunks = [];
    const ran = [];
    const agent = new Agent({ chatGenerator: new AISdkChatGenerator({ model }), tools: [searchTool(ran)] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Lamps?")], streamingCallback: (chunk) => chunks.push(chunk) });

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(ran).toEqual(["lamps"]);
    expect(chunks.filter((chunk) => chunk.type === "text").map((chunk) => chunk.delta)).toEqual(["Lamps are in stock."]);
  });

  it("refuses a non-finite number in an untyped parameter before the tool runs", async () => {
    const ran = [];
    const chatGenerator = new ScriptedChatGenerator([
      ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: '{"query":"lamps","limit":1e999}' }] }),
      ChatMessage.fromAssistant("Sorry."),
    ]);
    const agent = new Agent({ chatGenerator, tools: [searchTool(ran)] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Lamps?")] });

    expect(ran).toEqual([]);
    expect(toolResults(result.messages)).toEqual([
      "Tool 'search' was called with invalid arguments: limit is Infinity, which is not a JSON number; send a finite number. Call the tool again with corrected arguments.",
    ]);
  });

  it("uses a zod state schema and returns the merged state", async () => {
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([
        ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "note", arguments: { text: "call back" } }] }),
        ChatMessage.fromAssistant("Noted."),
      ]),
      stateSchema: { notes: { type: z.array(z.string()) } },
      tools: [new Tool({ name: "note", description: "Keep a note.", parameters: z.object({ text: z.string() }), outputsToState: { notes: { source: "text" } }, function: ({ text }) => ({ text: [text] }) })],
    });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Note it.")], notes: ["first"] });

    expect(result.notes).toEqual(["first", "call back"]);
  });

  it("answers the mistakes a JavaScript caller can make with errors that say what to pass", async () => {
    const chatGenerator = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi.")]);

    expect(() => new Tool({ name: "x", description: "d", parameters: { type: "object", properties: {} }, function: "nope" })).toThrow(new ConfigurationError("Tool 'x'", 'Tool \'x\' needs a function to run, got string "nope".'));
    expect(() => new Agent({ tools: [] })).toThrow(
      "Agent needs a chatGenerator with a run(request) method, got undefined; pass new OpenAIChatGenerator({ model }) from toolwright/openai or new ScriptedChatGenerator(script) from toolwright/testing.",
    );
    expect(() => new Agent({ chatGenerator, tools: {} })).toThrow("Agent needs tools as an array of Tool, Toolset or objects with @tool methods, got an object.");
    expect(() => new Agent({ chatGenerator, streamingCallback: "log" })).toThrow('Agent has a streamingCallback that is not a function, got string "log".');
    await expect(new Agent({ chatGenerator }).run("hello")).rejects.toThrow('Agent.run(input) needs an input object such as { messages: [...] }, got string "hello".');
    const error = await new Agent({ chatGenerator }).run({ messages: ["hello"] }).catch((e) => e);
    expect(error).toBeInstanceOf(StateTypeError);
    expect(error.message).toBe(
      "State key 'messages' rejected a value that does not match its type: messages[0]: expected a ChatMessage (build one with ChatMessage.fromUser and friends). The value was not stored.",
    );
  });
  it("tells onToolError a tool's bug with the original error, and a run without an injected value with its state key", async () => {
    const seen = [];
    const lookup = new Tool({
      name: "lookup",
      description: "Look a customer up.",
      parameters: { type: "object", properties: { customerId: { type: "string" } }, required: ["customerId"] },
      inputsFromState: { customer_id: "customerId" },
      // The bug a JavaScript caller meets: a method called on a value that is not there.
      function: ({ customerId }) => ({ customers: {} }).customers[customerId].name.toUpperCase(),
    });
    const script = () =>
      new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "lookup", arguments: {} }] }), ChatMessage.fromAssistant("Sorry.")]);
    const agent = (chatGenerator) => new Agent({ chatGenerator, tools: [lookup], stateSchema: { customer_id: { type: z.string() } }, hooks: { onToolError: (event) => seen.push(event) } });

    const failed = await agent(script()).run({ messages: [ChatMessage.fromUser("Who?")], customer_id: "cust-9931" });
    const missing = await agent(script()).run({ messages: [ChatMessage.fromUser("Who?")] });

    expect(toolResults(failed.messages)).toEqual(["Tool 'lookup' failed: Cannot read properties of undefined (reading 'name')."]);
    expect(seen[0]).toMatchObject({
      kind: "threw",
      toolName: "lookup",
      message: "Tool 'lookup' threw TypeError: Cannot read properties of undefined (reading 'name').",
      error: { name: "TypeError", message: "Cannot read properties of undefined (reading 'name')", stack: expect.stringContaining("plainJavaScript.test.js"), cause: undefined },
    });
    expect(toolResults(missing.messages)).toEqual([seen[1].message]);
    expect(seen[1]).toMatchObject({
      kind: "inputsFromState",
      stateKey: "customer_id",
      parameter: "customerId",
      problem: "missing",
      message: "Tool 'lookup' did not run: its parameter 'customerId' is filled from state key 'customer_id', which has no value; give 'customer_id' a value before the tool is called (a run input, or another tool's outputsToState).",
    });
  });
});
