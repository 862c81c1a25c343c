import { getEventListeners } from "node:events";
import { z } from "zod";
import {
  AbortError,
  Agent,
  ChatGeneratorError,
  type AgentOptions,
  type ChatGenerator,
  type ChatGeneratorRequest,
  ChatMessage,
  ConfigurationError,
  type JsonSchema,
  StateKeyError,
  type StateSchema,
  StateTypeError,
  type StreamingChunk,
  Tool,
  type ToolContext,
  ToolArgumentsError,
  ToolInvocationError,
  ToolNotFoundError,
  Toolset,
} from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";

function objectSchema(properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  return { type: "object", properties, required };
}

function searchTool(fn: (args: Record<string, unknown>, context: ToolContext) => unknown = ({ query }) => `results for ${String(query)}`): Tool {
  return new Tool({ name: "search", description: "Search documents.", parameters: objectSchema({ query: { type: "string" } }), function: fn });
}

function finishTool(fn: (args: Record<string, unknown>) => unknown = ({ answer }) => `final: ${String(answer)}`): Tool {
  return new Tool({ name: "finish", description: "Give the final answer.", parameters: objectSchema({ answer: { type: "string" } }), function: fn });
}

function closeTool(): Tool {
  return new Tool({ name: "close_ticket", description: "Close a ticket.", parameters: objectSchema({ ticketId: { type: "string" } }), function: () => "closed" });
}

function scripted(...entries: ConstructorParameters<typeof ScriptedChatGenerator>[0]): ScriptedChatGenerator {
  return new ScriptedChatGenerator(entries);
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the function to throw");
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

const supportState = {
  customer_id: { type: z.string() },
  notes: { type: z.array(z.string()) },
  priority: { type: z.number() },
} satisfies StateSchema;

const user = (text: string) => ChatMessage.fromUser(text);

describe("Agent", () => {
  describe("constructor", () => {
    const chatGenerator = scripted();

    function configurationError(options: unknown): ConfigurationError {
      const error = thrownBy(() => new Agent(options as AgentOptions<StateSchema>));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.name).toBe("ConfigurationError");
      return error as ConfigurationError;
    }

    it("throws a ConfigurationError when the chatGenerator is missing", () => {
      expect(configurationError({ tools: [] }).message).toBe(
        "Agent needs a chatGenerator with a run(request) method, got undefined; pass new OpenAIChatGenerator({ model }) from toolwright/openai or new ScriptedChatGenerator(script) from toolwright/testing.",
      );
    });

    it("throws a ConfigurationError when the chatGenerator has no run method", () => {
      expect(configurationError({ chatGenerator: {} }).message).toBe(
        "Agent needs a chatGenerator with a run(request) method, got an object; pass new OpenAIChatGenerator({ model }) from toolwright/openai or new ScriptedChatGenerator(script) from toolwright/testing.",
      );
    });

    it("throws a ConfigurationError when options are not an object", () => {
      expect(configurationError(undefined).message).toBe("new Agent(options) needs an options object, got undefined.");
    });

    // Since #33 (Haystack main allows it): the tool may come with a run; agent.run checks (test/agent/haystackSemantics.test.ts).
    it("accepts an exit condition that names none of its tools", () => {
      expect(() => new Agent({ chatGenerator, tools: [searchTool(), closeTool()], exitConditions: ["text", "finish"] })).not.toThrow();
    });

    it("throws a ConfigurationError for an empty exitConditions list", () => {
      expect(configurationError({ chatGenerator, tools: [searchTool()], exitConditions: [] }).message).toBe(
        `Agent has exitConditions an array: pass a non-empty array of "text" and tool names. Valid exit conditions: text, search.`,
      );
    });

    it("accepts tool names as exit conditions", () => {
      expect(() => new Agent({ chatGenerator, tools: [searchTool(), finishTool()], exitConditions: ["finish", "text"] })).not.toThrow();
    });

    it("throws a ConfigurationError for two tools with the same name", () => {
      expect(configurationError({ chatGenerator, tools: [searchTool(), closeTool(), searchTool()] }).message).toBe(
        "Agent has two tools named 'search': Tool 'search' and Tool 'search'; tool names must be unique, so rename one (the name option of @tool or Tool).",
      );
    });

    it("names the source locations of two tools with the same name, also inside a Toolset", () => {
      const located = (source: string) =>
        new Tool({ name: "search", description: "Search.", parameters: objectSchema({}), function: () => "", source });

      expect(configurationError({ chatGenerator, tools: [located("src/a.ts:3:5"), new Toolset([located("src/b.ts:8:1")])] }).message).toBe(
        "Agent has two tools named 'search': src/a.ts:3:5 and src/b.ts:8:1; tool names must be unique, so rename one (the name option of @tool or Tool).",
      );
    });

    it("throws a ConfigurationError when inputsFromState names a key that is not in stateSchema", () => {
      const tool = new Tool({
        name: "lookup",
        description: "Look up a customer.",
        parameters: objectSchema({ customerId: { type: "string" } }),
        inputsFromState: { customer: "customerId" },
        function: () => "",
      });

      const error = configurationError({ chatGenerator, tools: [tool], stateSchema: supportState });

      expect(error.message).toBe(
        "Tool 'lookup' reads state key 'customer' through inputsFromState, but the Agent's stateSchema has no such key; add 'customer' to stateSchema or fix the key. State keys: customer_id, notes, priority, messages.",
      );
      expect(error.subject).toBe("Tool 'lookup'");
    });

    it("throws a ConfigurationError when outputsToState names a key that is not in stateSchema, with the tool's source", () => {
      const tool = new Tool({
        name: "lookup",
        description: "Look up a customer.",
        parameters: objectSchema({}),
        outputsToState: { tickets: { source: "tickets" } },
        function: () => ({ tickets: [] }),
        source: "src/tools.ts:12:3",
      });

      expect(configurationError({ chatGenerator, tools: [tool] }).message).toBe(
        "Tool 'lookup' writes state key 'tickets' through outputsToState, but the Agent's stateSchema has no such key; add 'tickets' to stateSchema or fix the key. State keys: messages. (src/tools.ts:12:3)",
      );
    });

    it("throws a ConfigurationError for a state key the Agent reserves", () => {
      const error = configurationError({ chatGenerator, stateSchema: { stepCount: { type: z.number() } } });

      expect(error.message).toBe(
        "State key 'stepCount' is reserved by the Agent for run options and results; rename the key. Reserved: lastMessage, exitReason, stepCount, usage, systemPrompt, tools, generationKwargs, streamingCallback, signal, snapshot, breakpoint, decisions, confirmationContext, runId, onCheckpoint, hooks, middleware, outputSchema, promptVariables, stateUpdates, conversation, pendingConfirmations, stopped, output.",
      );
      expect(error.subject).toBe("stateSchema.stepCount");
    });

    it.each([
      [0, "number 0"],
      [1.5, "number 1.5"],
      ["3", 'string "3"'],
      [-2, "number -2"],
    ])("throws a ConfigurationError for maxAgentSteps %p", (value, shown) => {
      expect(configurationError({ chatGenerator, maxAgentSteps: value }).message).toBe(
        `Agent has maxAgentSteps ${shown}: it must be a whole number of at least 1 (one step is one model call). Default 100.`,
      );
    });

    it.each([
      [0, "number 0"],
      [2.5, "number 2.5"],
      ["4", 'string "4"'],
      [null, "null"],
    ])("throws a ConfigurationError for toolConcurrency %p", (value, shown) => {
      expect(configurationError({ chatGenerator, toolConcurrency: value }).message).toBe(
        `Agent has toolConcurrency ${shown}: it must be a whole number of at least 1 (how many tool calls of a step run at once). Default 4.`,
      );
    });

    it.each([
      [0, "number 0"],
      [-5, "number -5"],
      [Number.NaN, "number NaN"],
      [Number.POSITIVE_INFINITY, "number Infinity"],
      ["100", 'string "100"'],
    ])("throws a ConfigurationError for toolTimeoutMs %p", (value, shown) => {
      expect(configurationError({ chatGenerator, toolTimeoutMs: value }).message).toBe(
        `Agent has toolTimeoutMs ${shown}: it must be a positive number of milliseconds, or left out for no limit.`,
      );
    });

    it("throws a ConfigurationError for a systemPrompt that is not a string", () => {
      expect(configurationError({ chatGenerator, systemPrompt: ["Be brief."] }).message).toBe("Agent has a systemPrompt that is not a string, a promptTemplate(...) or a function of the run's state, got an array.");
    });

    it("throws a ConfigurationError for a streamingCallback that is not a function", () => {
      expect(configurationError({ chatGenerator, streamingCallback: "log" }).message).toBe('Agent has a streamingCallback that is not a function, got string "log".');
    });

    it.each([
      ["a plain object", {}, "an object"],
      ["a string", "search", 'string "search"'],
      ["an instance of a class without @tool methods", new (class SupportTools {})(), "a SupportTools"],
    ])("throws a ConfigurationError for %s in tools, which is not a tool", (_label, value, shown) => {
      expect(configurationError({ chatGenerator, tools: [searchTool(), value] }).message).toBe(
        `Agent was given ${shown} at tools[1], which is not a tool: pass Tool objects, Toolsets, instances of classes with @tool methods (or the class, for static ones), or defineTool results.`,
      );
    });

    it("lists its tools in order, Toolsets flattened", () => {
      const agent = new Agent({ chatGenerator, tools: [searchTool(), new Toolset([closeTool(), finishTool()], { name: "tickets" })] });

      expect(agent.tools.map((tool) => tool.name)).toEqual(["search", "close_ticket", "finish"]);
    });
  });

  describe("run", () => {
    it("ends with exitReason text on a reply that has text and no tool calls", async () => {
      const reply = ChatMessage.fromAssistant("Hello!");
      const model = scripted(reply);

      const result = await new Agent({ chatGenerator: model }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(1);
      expect(result.lastMessage).toBe(reply);
      expect(model.requests).toHaveLength(1);
    });

    // With tools: an Agent without tools ends on any reply, as Haystack main's does (haystackSemantics.test.ts).
    it("does not end on an empty reply and calls the model again", async () => {
      const model = scripted(ChatMessage.fromAssistant(), ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(2);
      expect(model.requests[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    });

    it("does not end on a response with no replies", async () => {
      const model = scripted([], ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("hi")] });

      expect(result.stepCount).toBe(2);
      expect(result.messages.map((m) => m.text)).toEqual(["hi", "Done."]);
    });

    // Since #33: whitespace is text, as Haystack main's `_is_text_exit` (bool(last.text)) has it.
    it("ends on a reply whose text is only whitespace", async () => {
      const model = scripted(ChatMessage.fromAssistant(" \n\t "), ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(1);
      expect(result.lastMessage.text).toBe(" \n\t ");
    });

    it("runs the tool calls and shows their results to the model in the next step", async () => {
      const model = scripted(ChatMessage.fromAssistant("Let me look.", { toolCalls: [{ id: "c1", toolName: "search", arguments: { query: "refund" } }] }), ChatMessage.fromAssistant("Found it."));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("find refund")] });

      const seen = model.requests[1]!.messages;
      expect(seen.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
      expect(seen[2]!.toolCallResult).toEqual({ result: "results for refund", origin: { id: "c1", toolName: "search", arguments: { query: "refund" } }, error: false });
      expect(model.requests[0]!.messages.map((m) => m.role)).toEqual(["user"]);
      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(2);
    });

    it("sends a failing tool's error to the model and goes on", async () => {
      const boom = searchTool(() => {
        throw new Error("index is down");
      });
      const model = scripted(toolCallReply(["search", { query: "x" }, "c1"]), ChatMessage.fromAssistant("Sorry."));

      const result = await new Agent({ chatGenerator: model, tools: [boom] }).run({ messages: [user("hi")] });

      expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'search' failed: index is down.", error: true });
      expect(result.exitReason).toBe("text");
    });

    it("sends an unknown tool name to the model as an error listing the available tools", async () => {
      const model = scripted(toolCallReply(["ghost", {}, "c1"]), ChatMessage.fromAssistant("Sorry."));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool(), closeTool()] }).run({ messages: [user("hi")] });

      expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'ghost' not found. Available tools: search, close_ticket.", error: true });
    });

    it("ends with the tool's name when an exit-condition tool succeeds, without calling the model again", async () => {
      const model = scripted(toolCallReply(["finish", { answer: "42" }, "c1"]));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool(), finishTool()], exitConditions: ["finish"] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("finish");
      expect(result.stepCount).toBe(1);
      expect(result.lastMessage.toolCallResult).toMatchObject({ result: "final: 42", error: false });
      expect(model.requests).toHaveLength(1);
    });

    it("goes on to the next step when the exit-condition tool's call fails", async () => {
      let attempts = 0;
      const flaky = finishTool(({ answer }) => {
        attempts += 1;
        if (attempts === 1) throw new Error("not yet");
        return `final: ${String(answer)}`;
      });
      const model = scripted(toolCallReply(["finish", { answer: "1" }, "c1"]), toolCallReply(["finish", { answer: "2" }, "c2"]));

      const result = await new Agent({ chatGenerator: model, tools: [flaky], exitConditions: ["finish"] }).run({ messages: [user("hi")] });

      expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'finish' failed: not yet.", error: true });
      expect(result.exitReason).toBe("finish");
      expect(result.stepCount).toBe(2);
    });

    it("goes on to the next step when the exit-condition tool's arguments are invalid", async () => {
      const model = scripted(toolCallReply(["finish", {}, "c1"]), ChatMessage.fromAssistant("Giving up."));

      const result = await new Agent({ chatGenerator: model, tools: [finishTool()], exitConditions: ["finish", "text"] }).run({ messages: [user("hi")] });

      expect(result.messages[2]!.toolCallResult!.error).toBe(true);
      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(2);
    });

    it("ends on an exit-condition tool that is not the first of parallel calls, after running every call", async () => {
      const queries: unknown[] = [];
      const search = searchTool(({ query }) => {
        queries.push(query);
        return "ok";
      });
      const model = scripted(toolCallReply(["search", { query: "a" }, "c1"], ["finish", { answer: "done" }, "c2"], ["search", { query: "b" }, "c3"]));

      const result = await new Agent({ chatGenerator: model, tools: [search, finishTool()], exitConditions: ["finish"] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("finish");
      expect(result.stepCount).toBe(1);
      expect(queries).toEqual(["a", "b"]);
      expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool"]);
    });

    it("ends on a successful exit-condition tool even when another call of the step fails", async () => {
      const boom = searchTool(() => {
        throw new Error("down");
      });
      const model = scripted(toolCallReply(["search", { query: "a" }, "c1"], ["finish", { answer: "done" }, "c2"]));

      const result = await new Agent({ chatGenerator: model, tools: [boom, finishTool()], exitConditions: ["finish"] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("finish");
    });

    it("ends with max_agent_steps after maxAgentSteps model calls", async () => {
      const model = scripted(toolCallReply(["search", { query: "a" }, "c1"]), toolCallReply(["search", { query: "b" }, "c2"]));

      const result = await new Agent({ chatGenerator: model, tools: [searchTool()], maxAgentSteps: 2 }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("max_agent_steps");
      expect(result.stepCount).toBe(2);
      expect(model.requests).toHaveLength(2);
      expect(result.lastMessage.role).toBe("tool");
    });

    it("ends with text, not max_agent_steps, when the last allowed step answers with text", async () => {
      const model = scripted(ChatMessage.fromAssistant("Hi."));

      const result = await new Agent({ chatGenerator: model, maxAgentSteps: 1 }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(1);
    });

    it("returns the messages, the last message, the exit reason, the step count and every state key with a value", async () => {
      const noteTool = new Tool({
        name: "note",
        description: "Record a note.",
        parameters: objectSchema({ text: { type: "string" } }),
        outputsToState: { notes: { source: "note" } },
        function: ({ text }) => ({ note: text }),
      });
      const model = scripted(toolCallReply(["note", { text: "called back" }, "c1"]), ChatMessage.fromAssistant("Noted."));
      const agent = new Agent({ chatGenerator: model, tools: [noteTool], stateSchema: supportState, systemPrompt: "Be brief." });

      const result = await agent.run({ messages: [user("note it")], customer_id: "c-42" });

      expect(Object.keys(result).sort()).toEqual(["customer_id", "exitReason", "lastMessage", "messages", "notes", "stepCount", "usage"]);
      expect("priority" in result).toBe(false);
      expect(result.customer_id).toBe("c-42");
      expect(result.notes).toEqual(["called back"]);
      expect(result.messages.map((m) => [m.role, m.text ?? m.toolCallResult?.result ?? null])).toEqual([
        ["system", "Be brief."],
        ["user", "note it"],
        ["assistant", null],
        ["tool", '{"note":"called back"}'],
        ["assistant", "Noted."],
      ]);
      expect(result.lastMessage).toBe(result.messages[4]);
      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(2);
    });

    it("does not change the caller's messages array", async () => {
      const messages = [user("hi")];

      await new Agent({ chatGenerator: scripted(ChatMessage.fromAssistant("Hello.")) }).run({ messages });

      expect(messages).toEqual([user("hi")]);
    });

    it("prepends the system prompt to the messages the model receives", async () => {
      const model = scripted(ChatMessage.fromAssistant("Hello."));

      await new Agent({ chatGenerator: model, systemPrompt: "Be brief." }).run({ messages: [user("hi")] });

      expect(model.requests[0]!.messages.map((m) => [m.role, m.text])).toEqual([
        ["system", "Be brief."],
        ["user", "hi"],
      ]);
    });

    it("replaces the Agent's system prompt with the run's systemPrompt", async () => {
      const model = scripted(ChatMessage.fromAssistant("Hello."));

      const result = await new Agent({ chatGenerator: model, systemPrompt: "Be brief." }).run({ messages: [user("hi")], systemPrompt: "Be verbose." });

      expect(model.requests[0]!.messages.map((m) => [m.role, m.text])).toEqual([
        ["system", "Be verbose."],
        ["user", "hi"],
      ]);
      expect(result.messages[0]!.text).toBe("Be verbose.");
    });

    it("runs with only a system prompt when no messages are given", async () => {
      const model = scripted(ChatMessage.fromAssistant("Hello."));

      const result = await new Agent({ chatGenerator: model, systemPrompt: "Greet the user." }).run({});

      expect(result.messages.map((m) => m.role)).toEqual(["system", "assistant"]);
    });

    it("rejects with a ConfigurationError when there are no messages and no system prompt", async () => {
      const error = await rejectionOf(new Agent({ chatGenerator: scripted() }).run({ messages: [] }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        "Agent.run needs at least one message: pass messages (such as [ChatMessage.fromUser(...)]) or give the Agent a systemPrompt.",
      );
    });

    it("rejects with a ConfigurationError when messages is not an array", async () => {
      const error = await rejectionOf(new Agent({ chatGenerator: scripted() }).run({ messages: user("hi") as never }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("Agent.run needs messages as an array of ChatMessage, got a ChatMessage.");
    });

    it.each([
      ["systemPrompt", { systemPrompt: 42 }, "Agent.run has a systemPrompt that is not a string, a promptTemplate(...) or a function of the run's state, got number 42."],
      ["streamingCallback", { streamingCallback: "log" }, 'Agent.run has a streamingCallback that is not a function, got string "log".'],
      ["generationKwargs", { generationKwargs: "fast" }, 'Agent.run has generationKwargs that is not an object of provider options, got string "fast".'],
      ["signal", { signal: { aborted: false } }, "Agent.run has a signal that is not an AbortSignal, got an object; pass controller.signal of an AbortController."],
    ])("rejects with a ConfigurationError for an ill-typed %s run option, without calling the model", async (_name, options, message) => {
      const model = scripted(ChatMessage.fromAssistant("Hi."));

      const error = await rejectionOf(new Agent({ chatGenerator: model }).run({ messages: [user("hi")], ...(options as object) }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(message);
      expect((error as ConfigurationError).subject).toBe("Agent.run");
      expect(model.requests).toHaveLength(0);
    });

    it("rejects with a ConfigurationError when the input is not an object", async () => {
      const error = await rejectionOf(new Agent({ chatGenerator: scripted() }).run(undefined as never));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("Agent.run(input) needs an input object such as { messages: [...] }, got undefined.");
    });

    it("sends the model the tool specs name, description, parameters and strict", async () => {
      const lookup = new Tool({
        name: "lookup",
        description: "Look up tickets.",
        parameters: objectSchema({ query: { type: "string" }, customerId: { type: "string" } }),
        inputsFromState: { customer_id: "customerId" },
        function: () => [],
      });
      const tag = new Tool({
        name: "tag",
        description: "Tag a ticket.",
        parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"] },
        function: () => "ok",
      });
      const model = scripted(ChatMessage.fromAssistant("Hi."));

      await new Agent({ chatGenerator: model, tools: [lookup, tag], stateSchema: supportState }).run({ messages: [user("hi")] });

      const specs = model.requests[0]!.tools;
      expect(specs).toStrictEqual([
        {
          name: "lookup",
          description: "Look up tickets.",
          parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false },
          strict: true,
        },
        {
          name: "tag",
          description: "Tag a ticket.",
          parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"], additionalProperties: false },
          strict: false,
        },
      ]);
    });

    it("refuses a model's value for an inputsFromState parameter and runs the tool with the state's value once the call is correct", async () => {
      const calls: Array<Record<string, unknown>> = [];
      const lookup = new Tool({
        name: "lookup",
        description: "Look up tickets.",
        parameters: objectSchema({ query: { type: "string" }, customerId: { type: "string" } }),
        inputsFromState: { customer_id: "customerId" },
        function: (args) => {
          calls.push({ ...args });
          return "2 tickets";
        },
      });
      const model = scripted(
        toolCallReply(["lookup", { query: "open", customerId: "someone-else" }, "c1"]),
        toolCallReply(["lookup", { query: "open" }, "c2"]),
        ChatMessage.fromAssistant("You have 2 tickets."),
      );

      const result = await new Agent({ chatGenerator: model, tools: [lookup], stateSchema: supportState }).run({ messages: [user("my tickets")], customer_id: "c-42" });

      expect(result.messages[2]!.toolCallResult).toMatchObject({
        result: "Tool 'lookup' was called with invalid arguments: customerId is not a parameter of this tool (parameters: query). Call the tool again with corrected arguments.",
        error: true,
      });
      expect(result.messages[4]!.toolCallResult).toMatchObject({ result: "2 tickets", error: false });
      expect(calls).toEqual([{ query: "open", customerId: "c-42" }]);
      expect(result.exitReason).toBe("text");
    });

    describe("tools option", () => {
      it("offers the model only the tools selected by name and runs only those", async () => {
        const model = scripted(toolCallReply(["close_ticket", { ticketId: "t-1" }, "c1"]), ChatMessage.fromAssistant("Ok."));
        const agent = new Agent({ chatGenerator: model, tools: [searchTool(), closeTool(), finishTool()] });

        const result = await agent.run({ messages: [user("hi")], tools: ["finish", "search"] });

        expect(model.requests[0]!.tools.map((spec) => spec.name)).toEqual(["finish", "search"]);
        expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'close_ticket' not found. Available tools: finish, search.", error: true });
      });

      it("keeps the Agent's own tools for later runs", async () => {
        const model = scripted(ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b"));
        const agent = new Agent({ chatGenerator: model, tools: [searchTool(), closeTool()] });

        await agent.run({ messages: [user("hi")], tools: ["search"] });
        await agent.run({ messages: [user("hi")] });

        expect(model.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([["search"], ["search", "close_ticket"]]);
      });

      it("uses Tool objects given to the run, also ones the Agent does not have", async () => {
        const extra = new Tool({ name: "weather", description: "Weather.", parameters: objectSchema({}), function: () => "sunny" });
        const model = scripted(toolCallReply(["weather", {}, "c1"]), ChatMessage.fromAssistant("Sunny."));
        const agent = new Agent({ chatGenerator: model, tools: [searchTool()] });

        const result = await agent.run({ messages: [user("weather?")], tools: [extra, "search"] });

        expect(model.requests[0]!.tools.map((spec) => spec.name)).toEqual(["weather", "search"]);
        expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "sunny", error: false });
      });

      it("offers no tools when the run selects none", async () => {
        const model = scripted(ChatMessage.fromAssistant("Hi."));

        await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("hi")], tools: [] });

        expect(model.requests[0]!.tools).toEqual([]);
      });

      it("rejects with a ConfigurationError for a selected name the Agent does not have", async () => {
        const agent = new Agent({ chatGenerator: scripted(), tools: [searchTool(), closeTool()] });

        const error = await rejectionOf(agent.run({ messages: [user("hi")], tools: ["search", "nope"] }));

        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.message).toBe("Agent.run selected tool 'nope', which the Agent does not have; select from its tools: search, close_ticket.");
      });

      it("rejects with a ConfigurationError for a run tool that reads a state key the schema lacks", async () => {
        const reader = new Tool({
          name: "reader",
          description: "Reads.",
          parameters: objectSchema({ who: { type: "string" } }),
          inputsFromState: { user: "who" },
          function: () => "",
        });

        const error = await rejectionOf(new Agent({ chatGenerator: scripted() }).run({ messages: [user("hi")], tools: [reader] }));

        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.message).toBe(
          "Tool 'reader' reads state key 'user' through inputsFromState, but the Agent's stateSchema has no such key; add 'user' to stateSchema or fix the key. State keys: messages.",
        );
      });
    });

    it("passes generationKwargs to every model call", async () => {
      const model = scripted(toolCallReply(["search", { query: "a" }, "c1"]), ChatMessage.fromAssistant("Done."));

      await new Agent({ chatGenerator: model, tools: [searchTool()] }).run({ messages: [user("hi")], generationKwargs: { temperature: 0, max_tokens: 50 } });

      expect(model.requests.map((request) => request.generationKwargs)).toEqual([
        { temperature: 0, max_tokens: 50 },
        { temperature: 0, max_tokens: 50 },
      ]);
    });

    it("leaves generationKwargs out of the request when the run has none", async () => {
      const model = scripted(ChatMessage.fromAssistant("Done."));

      await new Agent({ chatGenerator: model }).run({ messages: [user("hi")] });

      expect("generationKwargs" in model.requests[0]!).toBe(false);
    });

    describe("state values", () => {
      it("starts from the state values given to the run and lets tools read them", async () => {
        const seen: unknown[] = [];
        const lookup = new Tool({
          name: "lookup",
          description: "Look up.",
          parameters: objectSchema({ customerId: { type: "string" } }),
          inputsFromState: { customer_id: "customerId" },
          function: ({ customerId }) => {
            seen.push(customerId);
            return "ok";
          },
        });
        const model = scripted(toolCallReply(["lookup", {}, "c1"]), ChatMessage.fromAssistant("Done."));

        const result = await new Agent({ chatGenerator: model, tools: [lookup], stateSchema: supportState }).run({
          messages: [user("hi")],
          customer_id: "c-42",
          priority: 2,
        });

        expect(seen).toEqual(["c-42"]);
        expect(result.customer_id).toBe("c-42");
        expect(result.priority).toBe(2);
      });

      it("rejects with a StateKeyError for a run input that is neither a run option nor a state key", async () => {
        const agent = new Agent({ chatGenerator: scripted(), stateSchema: supportState });

        const error = await rejectionOf(agent.run({ messages: [user("hi")], customerId: "c-42" } as never));

        expect(error).toBeInstanceOf(StateKeyError);
        expect(error.message).toBe("State key 'customerId' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: customer_id, notes, priority, messages.");
      });

      it("rejects with a StateTypeError for an ill-typed initial value", async () => {
        const model = scripted();
        const agent = new Agent({ chatGenerator: model, stateSchema: supportState });

        const error = await rejectionOf(agent.run({ messages: [user("hi")], priority: "high" as never }));

        expect(error).toBeInstanceOf(StateTypeError);
        expect(error.message).toBe("State key 'priority' rejected a value that does not match its type: priority: Invalid input: expected number, received string. The value was not stored.");
        expect(model.requests).toHaveLength(0);
      });
    });

    it("rejects with the chat generator's own error", async () => {
      const failure = new Error("provider down");
      const model = scripted(() => Promise.reject(failure));

      await expect(new Agent({ chatGenerator: model }).run({ messages: [user("hi")] })).rejects.toBe(failure);
    });

    describe("raiseOnToolInvocationFailure", () => {
      it("rejects with a ToolInvocationError that keeps the tool's error as cause", async () => {
        const original = new Error("index is down");
        const boom = searchTool(() => {
          throw original;
        });
        const model = scripted(toolCallReply(["search", { query: "x" }, "c1"]));

        const error = await rejectionOf(new Agent({ chatGenerator: model, tools: [boom], raiseOnToolInvocationFailure: true }).run({ messages: [user("hi")] }));

        expect(error).toBeInstanceOf(ToolInvocationError);
        expect(error.message).toBe("Tool 'search' failed: index is down.");
        expect(error.cause).toBe(original);
        expect((error as ToolInvocationError).toolName).toBe("search");
      });

      it("rejects with a ToolArgumentsError for invalid arguments, without running the tool", async () => {
        let ran = false;
        const search = searchTool(() => (ran = true));
        const model = scripted(toolCallReply(["search", { query: 7 }, "c1"]));

        const error = await rejectionOf(new Agent({ chatGenerator: model, tools: [search], raiseOnToolInvocationFailure: true }).run({ messages: [user("hi")] }));

        expect(error).toBeInstanceOf(ToolArgumentsError);
        expect(error.message).toBe("Tool 'search' was called with invalid arguments: query must be string (got number 7). Call the tool again with corrected arguments.");
        expect(ran).toBe(false);
      });

      it("rejects with a ToolNotFoundError for an unknown tool", async () => {
        const model = scripted(toolCallReply(["ghost", {}, "c1"]));

        const error = await rejectionOf(new Agent({ chatGenerator: model, tools: [searchTool()], raiseOnToolInvocationFailure: true }).run({ messages: [user("hi")] }));

        expect(error).toBeInstanceOf(ToolNotFoundError);
        expect(error.message).toBe("Tool 'ghost' not found. Available tools: search.");
        expect(error).toMatchObject({ toolName: "ghost", availableTools: ["search"] });
      });
    });

    it("rejects with a ConfigurationError naming the tool when its JSON Schema turns out invalid at its first call (schemas compile on first use)", async () => {
      const broken = new Tool({ name: "broken", description: "Broken schema.", parameters: { type: "object", properties: { limit: { type: "int" } } }, function: () => "never" });
      const model = scripted(toolCallReply(["broken", { limit: 1 }, "c1"]));

      const error = await rejectionOf(new Agent({ chatGenerator: model, tools: [broken] }).run({ messages: [user("hi")] }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(/^Tool 'broken' has parameters that are not a valid JSON Schema: schema is invalid: data\/properties\/limit\/type must be equal to one of the allowed values/);
    });

    describe("signal option", () => {
      it("listens to the caller's signal with one listener during the run, none per model or tool call, and none after it", async () => {
        const controller = new AbortController();
        const counts: number[] = [];
        const count = () => counts.push(getEventListeners(controller.signal, "abort").length);
        const tool = searchTool(async () => {
          count();
          return "found";
        });
        const model = scripted(toolCallReply(["search", { query: "a" }, "c1"], ["search", { query: "b" }, "c2"]), (request) => {
          count();
          return ChatMessage.fromAssistant(`done after ${request.messages.length} messages`);
        });

        const result = await new Agent({ chatGenerator: model, tools: [tool] }).run({ messages: [user("hi")], signal: controller.signal });

        expect(result.lastMessage.text).toBe("done after 4 messages");
        expect(counts).toEqual([1, 1, 1]);
        expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      });

      it("stops the step's other calls when a call's failure ends the run (raiseOnToolInvocationFailure)", async () => {
        const started = deferred();
        let slowSignal: AbortSignal | undefined;
        const slow = new Tool({
          name: "slow",
          description: "Slow.",
          parameters: objectSchema({}),
          function: (_args, context) => {
            slowSignal = context.signal;
            started.resolve();
            return new Promise(() => undefined);
          },
        });
        const boom = new Tool({
          name: "boom",
          description: "Fails.",
          parameters: objectSchema({}),
          function: async () => {
            await started.promise;
            throw new Error("boom failed");
          },
        });
        const model = scripted(toolCallReply(["boom", {}, "c1"], ["slow", {}, "c2"]));

        const error = await rejectionOf(new Agent({ chatGenerator: model, tools: [boom, slow], raiseOnToolInvocationFailure: true }).run({ messages: [user("hi")] }));

        expect(error.message).toBe("Tool 'boom' failed: boom failed.");
        expect(slowSignal?.aborted).toBe(true);
      });

      it("rejects with an AbortError while the model call hangs, and the model got the aborted signal", async () => {
        const called = deferred();
        let modelSignal: AbortSignal | undefined;
        const model = scripted((request) => {
          modelSignal = request.signal;
          called.resolve();
          return new Promise<ChatMessage>(() => undefined);
        });
        const controller = new AbortController();

        const run = new Agent({ chatGenerator: model }).run({ messages: [user("hi")], signal: controller.signal });
        await called.promise;
        controller.abort();
        const error = await rejectionOf(run);

        expect(error.name).toBe("AbortError");
        expect(modelSignal?.aborted).toBe(true);
      });

      it("rejects with an AbortError while a tool hangs, and the tool got the aborted signal", async () => {
        const started = deferred();
        let toolSignal: AbortSignal | undefined;
        const hanging = searchTool((_args, context) => {
          toolSignal = context.signal;
          started.resolve();
          return new Promise(() => undefined);
        });
        const model = scripted(toolCallReply(["search", { query: "x" }, "c1"]));
        const controller = new AbortController();

        const run = new Agent({ chatGenerator: model, tools: [hanging] }).run({ messages: [user("hi")], signal: controller.signal });
        await started.promise;
        controller.abort();
        const error = await rejectionOf(run);

        expect(error.name).toBe("AbortError");
        expect(toolSignal?.aborted).toBe(true);
        expect(model.requests).toHaveLength(1);
      });

      it("never starts a queued tool call once the run is aborted", async () => {
        const started = deferred();
        const queries: unknown[] = [];
        const hanging = searchTool(({ query }) => {
          queries.push(query);
          started.resolve();
          return new Promise(() => undefined);
        });
        const model = scripted(toolCallReply(["search", { query: "first" }, "c1"], ["search", { query: "second" }, "c2"]));
        const controller = new AbortController();

        const run = new Agent({ chatGenerator: model, tools: [hanging], toolConcurrency: 1 }).run({ messages: [user("hi")], signal: controller.signal });
        await started.promise;
        controller.abort();
        const error = await rejectionOf(run);
        await new Promise((resolve) => setImmediate(resolve));

        expect(error.name).toBe("AbortError");
        expect(queries).toEqual(["first"]);
      });

      it("rejects with a toolwright AbortError that keeps a reason that is not an AbortError as cause", async () => {
        const called = deferred();
        const model = scripted(() => {
          called.resolve();
          return new Promise<ChatMessage>(() => undefined);
        });
        const controller = new AbortController();
        const reason = new Error("user left");

        const run = new Agent({ chatGenerator: model }).run({ messages: [user("hi")], signal: controller.signal });
        await called.promise;
        controller.abort(reason);
        const error = await rejectionOf(run);

        expect(error).toBeInstanceOf(AbortError);
        expect(error.message).toBe("The agent run was aborted.");
        expect(error.cause).toBe(reason);
      });

      it("rejects without calling the model when the signal is already aborted", async () => {
        const model = scripted(ChatMessage.fromAssistant("Hi."));

        const error = await rejectionOf(new Agent({ chatGenerator: model }).run({ messages: [user("hi")], signal: AbortSignal.abort() }));

        expect(error.name).toBe("AbortError");
        expect(model.requests).toHaveLength(0);
      });
    });

    it("keeps concurrent runs on one Agent apart", async () => {
      const firstStepOfA = deferred();
      const whoami = new Tool({
        name: "whoami",
        description: "Who is the customer.",
        parameters: objectSchema({ customerId: { type: "string" } }),
        inputsFromState: { customer_id: "customerId" },
        outputsToState: { notes: { source: "note" } },
        function: ({ customerId }) => ({ note: `saw ${String(customerId)}` }),
      });
      const model: ChatGenerator = {
        async run(request: ChatGeneratorRequest) {
          const last = request.messages.at(-1)!;
          if (last.role === "user") {
            if (last.text === "A") await firstStepOfA.promise;
            return { replies: [toolCallReply(["whoami", {}, `call-${last.text}`])] };
          }
          return { replies: [ChatMessage.fromAssistant(`done: ${last.toolCallResult!.result}`)] };
        },
      };
      const agent = new Agent({ chatGenerator: model, tools: [whoami], stateSchema: supportState });

      const runA = agent.run({ messages: [user("A")], customer_id: "a-1" });
      const resultB = await agent.run({ messages: [user("B")], customer_id: "b-2", priority: 1 });
      firstStepOfA.resolve();
      const resultA = await runA;

      expect(resultA.customer_id).toBe("a-1");
      expect(resultA.notes).toEqual(["saw a-1"]);
      expect("priority" in resultA).toBe(false);
      expect(resultA.messages.map((m) => m.text ?? m.toolCallResult?.result ?? m.toolCall?.id)).toEqual(["A", "call-A", '{"note":"saw a-1"}', 'done: {"note":"saw a-1"}']);
      expect(resultB.customer_id).toBe("b-2");
      expect(resultB.notes).toEqual(["saw b-2"]);
      expect(resultB.priority).toBe(1);
      expect(resultB.messages.map((m) => m.text ?? m.toolCallResult?.result ?? m.toolCall?.id)).toEqual(["B", "call-B", '{"note":"saw b-2"}', 'done: {"note":"saw b-2"}']);
    });

    describe("chatGenerator replies", () => {
      function agentAnswering(...responses: unknown[]): Agent {
        let step = 0;
        const model = { run: async () => responses[step++] } as unknown as ChatGenerator;
        return new Agent({ chatGenerator: model, tools: [searchTool()] });
      }

      it.each([
        [undefined, "undefined"],
        [{}, "undefined"],
        [{ replies: ChatMessage.fromAssistant("hi") }, "a ChatMessage"],
        [{ replies: "hi" }, 'string "hi"'],
      ])("rejects with a ChatGeneratorError when the generator resolves to %p", async (response, shown) => {
        const error = await rejectionOf(agentAnswering(response).run({ messages: [user("hi")] }));

        expect(error).toBeInstanceOf(ChatGeneratorError);
        expect(error.message).toBe(
          `The chat generator answered step 1 without a replies array (got ${shown}); a ChatGenerator must resolve to { replies: ChatMessage[] }.`,
        );
      });

      it("rejects with a ChatGeneratorError naming the step and index of a reply that is not a ChatMessage", async () => {
        const plain = { role: "assistant", content: [{ text: "hi" }] };
        const error = await rejectionOf(agentAnswering({ replies: [toolCallReply(["search", { query: "x" }])] }, { replies: [ChatMessage.fromAssistant("a"), plain] }).run({ messages: [user("hi")] }));

        expect(error).toBeInstanceOf(ChatGeneratorError);
        expect(error.message).toBe("The chat generator answered step 2 with an object at replies[1]; replies must be ChatMessage objects.");
      });
    });

    describe("streaming", () => {
      it("sends the model's deltas, each tool result and the finish chunks to the Agent's streamingCallback", async () => {
        const chunks: StreamingChunk[] = [];
        const model = scripted(toolCallReply(["search", { query: "x" }, "c1"]), ChatMessage.fromAssistant("Done."));
        const agent = new Agent({ chatGenerator: model, tools: [searchTool()], streamingCallback: (chunk) => void chunks.push(chunk) });

        await agent.run({ messages: [user("hi")] });

        expect(chunks.map((chunk) => chunk.type)).toEqual(["toolCallDelta", "finish", "toolResult", "finish", "text", "finish"]);
        expect(chunks[2]).toEqual({
          type: "toolResult",
          index: 0,
          toolCall: { id: "c1", toolName: "search", arguments: { query: "x" } },
          result: { result: "results for x", origin: { id: "c1", toolName: "search", arguments: { query: "x" } }, error: false },
        });
        expect(chunks[3]).toEqual({ type: "finish", finishReason: "tool_call_results" });
      });

      it("uses the run's streamingCallback instead of the Agent's", async () => {
        const agentChunks: StreamingChunk[] = [];
        const runChunks: StreamingChunk[] = [];
        const agent = new Agent({ chatGenerator: scripted(ChatMessage.fromAssistant("Hi.")), streamingCallback: (chunk) => void agentChunks.push(chunk) });

        await agent.run({ messages: [user("hi")], streamingCallback: (chunk) => void runChunks.push(chunk) });

        expect(agentChunks).toEqual([]);
        expect(runChunks).toEqual([
          { type: "text", delta: "Hi." },
          { type: "finish", finishReason: "stop" },
        ]);
      });
    });
  });
});
