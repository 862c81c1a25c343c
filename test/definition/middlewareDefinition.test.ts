import { Agent, type AgentDefinition, ChatMessage, ConfigurationError, DefinitionError, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { definitionRefusal } from "../helpers/definitionRefusal";

// The definition's own generator is checked, not built: each test passes the scripted model it reads.
const scripted = { type: "ScriptedChatGenerator", options: { script: [] } };
const call = (id: string, args: Record<string, unknown> = {}): ToolCall => ({ id, toolName: "fetch_page", arguments: args });
const turn = (id: string, result: string) => [ChatMessage.fromAssistant(undefined, { toolCalls: [call(id)] }), ChatMessage.fromTool(result, call(id))];

const fetchPage = new Tool({
  name: "fetch_page",
  description: "Fetch a page's text.",
  parameters: { type: "object", properties: {} },
  function: () => "p".repeat(500),
});
const registry = { tools: { fetch_page: fetchPage } };

function definition(extra: Record<string, unknown>): Record<string, unknown> {
  return { version: 1, chatGenerator: scripted, tools: [{ tool: "fetch_page" }], ...extra };
}

const refusal = (data: unknown) => definitionRefusal(data, { registry });

describe("Agent.fromJSON", () => {
  describe("maxToolResultChars", () => {
    it("cuts what one tool result sends the model to the definition's maxToolResultChars, naming the tool", async () => {
      const model = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1")] }), ChatMessage.fromAssistant("done")]);
      const agent = Agent.fromJSON(definition({ maxToolResultChars: 40 }), { registry, chatGenerator: model });

      await agent.run({ messages: [ChatMessage.fromUser("read it")] });

      expect(model.requests[1]!.messages.at(-1)!.toolCallResult!.result).toBe(`${"p".repeat(40)}\n[Tool 'fetch_page' returned 500 characters; the first 40 are shown]`);
    });

    it("refuses maxToolResultChars that is not a whole number from 1", () => {
      const rule = "maxToolResultChars: must be a whole number from 1 to 1000000000 (characters)";
      expect(refusal(definition({ maxToolResultChars: 0 }))).toEqual({ path: ["maxToolResultChars"], message: `${rule}, got number 0.` });
      expect(refusal(definition({ maxToolResultChars: 2.5 }))).toEqual({ path: ["maxToolResultChars"], message: `${rule}, got number 2.5.` });
    });
  });

  describe("budget", () => {
    it("stops a run when a limit of the definition's budget runs out, and a definition with the budget raised resumes the snapshot", async () => {
      const script = [ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1")] }), ChatMessage.fromAssistant(undefined, { toolCalls: [call("c2")] }), ChatMessage.fromAssistant("done")];
      const model = new ScriptedChatGenerator(script);
      const stopped = await Agent.fromJSON(definition({ budget: { maxModelCalls: 2 } }), { registry, chatGenerator: model }).run({ messages: [ChatMessage.fromUser("read them")] });
      if (stopped.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${stopped.exitReason}`);

      expect(stopped.stopped).toEqual({ exitReason: "budget_exhausted", middleware: "budget", hook: "beforeModel", reason: "modelCalls budget exhausted", details: { budget: "modelCalls", limit: 2, used: 2 } });
      expect(model.requests).toHaveLength(2);

      const raised = Agent.fromJSON(definition({ budget: { maxModelCalls: 3 } }), { registry, chatGenerator: new ScriptedChatGenerator(script.slice(2)) });
      const resumed = await raised.run({ snapshot: stopped.snapshot });

      expect(resumed.exitReason).toBe("text");
      expect(resumed.lastMessage.text).toBe("done");
      expect(resumed.usage).toMatchObject({ modelCalls: 3, toolCalls: 2 });
    });

    it("prices the run's tokens for the model the definition names and stops once the cost reaches maxCost", async () => {
      const metered = (message: ChatMessage) => ChatMessage.fromAssistant(message.text, { toolCalls: message.toolCalls, meta: { usage: { promptTokens: 1000, completionTokens: 200 } } });
      const model = new ScriptedChatGenerator([metered(ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1")] })), metered(ChatMessage.fromAssistant("done"))]);
      const maxCost = { amount: 0.003, model: "gpt-4o-mini", prices: { "gpt-4o-mini": { input: 2, output: 8 } } };

      const result = await Agent.fromJSON(definition({ budget: { maxCost } }), { registry, chatGenerator: model }).run({ messages: [ChatMessage.fromUser("read it")] });
      if (result.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${result.exitReason}`);

      // One call of 1,000 input (2 per 1M) and 200 output tokens (8 per 1M): 0.0036.
      expect(result.stopped).toMatchObject({ hook: "afterTool", details: { budget: "cost", limit: 0.003, used: 0.0036 } });
      expect(model.requests).toHaveLength(1);
    });

    it("refuses a value budget() refuses at its path in the definition, with budget()'s message", () => {
      expect(refusal(definition({ budget: { maxModelCalls: -1 } }))).toEqual({
        path: ["budget", "maxModelCalls"],
        message: "budget.maxModelCalls: Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -1.",
      });
      expect(refusal(definition({ budget: { maxCost: { amount: 1, model: "gpt-4o", prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } } } }))).toEqual({
        path: ["budget", "maxCost", "prices"],
        message: "budget.maxCost.prices: Budget 'budget' has no price for model 'gpt-4o'; add it to maxCost.prices (priced: gpt-4o-mini).",
      });
      expect(refusal(definition({ budget: { maxCost: { amount: -2, model: "m", prices: { m: { input: 1, output: 1 } } } } }))).toEqual({
        path: ["budget", "maxCost", "amount"],
        message: "budget.maxCost.amount: Budget 'budget' option maxCost.amount must be a finite number ≥ 0; got -2.",
      });
    });

    it("refuses a budget of the wrong shape at the key, naming the closest limit", () => {
      expect(refusal(definition({ budget: { maxToolCall: 3 } }))).toEqual({
        path: ["budget", "maxToolCall"],
        message: "budget.maxToolCall: is not a key of this mapping; did you mean 'maxToolCalls'? Keys: maxInputTokens, maxOutputTokens, maxTotalTokens, maxModelCalls, maxToolCalls, maxWallClockMs, maxCost.",
      });
      expect(refusal(definition({ budget: { maxToolCalls: "3" } }))).toEqual({ path: ["budget", "maxToolCalls"], message: 'budget.maxToolCalls: must be a number, got string "3".' });
      expect(refusal(definition({ budget: { maxCost: { amount: 1, model: "m" } } }))).toEqual({ path: ["budget", "maxCost", "prices"], message: "budget.maxCost.prices: is missing: it must be a mapping of model name → { input, output }." });
      expect(refusal(definition({ budget: 5 }))).toEqual({ path: ["budget"], message: "budget: must be a mapping of limits (maxModelCalls, maxTotalTokens, maxCost, …), got number 5." });
    });
  });

  describe("compaction", () => {
    it("prunes old tool results, then fits the rest in the sliding window, in what the model is sent", async () => {
      const conversation = [ChatMessage.fromUser("go"), ...turn("c1", "a".repeat(4000)), ...turn("c2", "short"), ChatMessage.fromUser("and?")];
      const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
      const agent = Agent.fromJSON(definition({ compaction: { pruneToolResults: { keepLast: 1, maxChars: 100 }, slidingWindow: { maxTokens: 200 } } }), { registry, chatGenerator: model });

      const result = await agent.run({ messages: conversation });

      // Pruned first, the 4,000-character result no longer pushes "go" and its call out of the window.
      expect(model.requests[0]!.messages.map((m) => m.text ?? m.toolCallResult?.result ?? m.toolCalls.map((c) => c.id).join())).toEqual([
        "go",
        "c1",
        "[result of fetch_page #c1: 4000 chars; call read_tool_result to read it]",
        "c2",
        "short",
        "and?",
      ]);
      expect(result.messages.slice(0, conversation.length)).toEqual(conversation);
    });

    it("sends only the newest messages that fit in the sliding window's maxTokens", async () => {
      const conversation = [ChatMessage.fromUser("go"), ...turn("c1", "a".repeat(4000)), ...turn("c2", "short"), ChatMessage.fromUser("and?")];
      const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
      const agent = Agent.fromJSON(definition({ compaction: { slidingWindow: { maxTokens: 200 } } }), { registry, chatGenerator: model });

      await agent.run({ messages: conversation });

      expect(model.requests[0]!.messages.map((m) => m.text ?? m.toolCallResult?.result ?? m.toolCalls.map((c) => c.id).join())).toEqual(["c2", "short", "and?"]);
    });

    it("refuses a value the middleware refuses at its path in the definition, with its message", () => {
      expect(refusal(definition({ compaction: { slidingWindow: { maxTokens: 0 } } }))).toEqual({
        path: ["compaction", "slidingWindow", "maxTokens"],
        message: "compaction.slidingWindow.maxTokens: slidingWindow needs maxTokens as a whole number ≥ 1, got 0.",
      });
      expect(refusal(definition({ compaction: { pruneToolResults: { keepLast: 1.5 } } }))).toEqual({
        path: ["compaction", "pruneToolResults", "keepLast"],
        message: "compaction.pruneToolResults.keepLast: pruneToolResults needs keepLast as a whole number ≥ 0, got 1.5.",
      });
    });

    it("refuses compaction of the wrong shape", () => {
      expect(refusal(definition({ compaction: { slidingWindow: {} } }))).toEqual({ path: ["compaction", "slidingWindow", "maxTokens"], message: "compaction.slidingWindow.maxTokens: is missing: it must be a number." });
      expect(refusal(definition({ compaction: { summarize: {} } }))).toEqual({
        path: ["compaction", "summarize"],
        message: "compaction.summarize: is not a key of this mapping. Keys: pruneToolResults, slidingWindow, tokenCounter.",
      });
    });
  });
});

describe("agent.toJSON", () => {
  it("writes maxToolResultChars, and the rebuilt Agent cuts results at the same length", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [fetchPage], maxToolResultChars: 40 });
    const written = agent.toJSON({ registry });

    expect(written).toMatchObject({ maxToolResultChars: 40 });
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1")] }), ChatMessage.fromAssistant("done")]);
    await Agent.fromJSON(JSON.parse(JSON.stringify(written)), { registry, chatGenerator: model }).run({ messages: [ChatMessage.fromUser("read it")] });
    expect(model.requests[1]!.messages.at(-1)!.toolCallResult!.result).toHaveLength(40 + "\n[Tool 'fetch_page' returned 500 characters; the first 40 are shown]".length);
  });

  it("writes back the budget and compaction an Agent was read with", () => {
    const data = definition({
      maxToolResultChars: 2000,
      budget: { maxTotalTokens: 50_000, maxWallClockMs: 60_000, maxCost: { amount: 0.5, model: "gpt-4o-mini", prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } } },
      compaction: { pruneToolResults: { keepLast: 3 }, slidingWindow: { maxTokens: 8000 } },
    });
    const agent = Agent.fromJSON(data, { registry });

    const written: AgentDefinition = agent.toJSON();

    expect(written).toEqual(data);
    expect(Agent.fromJSON(JSON.parse(JSON.stringify(written)), { registry }).toJSON()).toEqual(data);
  });
});

describe("Agent.fromJSON with middleware in code", () => {
  it("runs the code's middleware after the definition's budget and compaction", async () => {
    const seen: string[] = [];
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const conversation = [ChatMessage.fromUser("go"), ...turn("c1", "a".repeat(4000)), ...turn("c2", "short"), ChatMessage.fromUser("and?")];
    const agent = Agent.fromJSON(definition({ budget: { maxModelCalls: 5 }, compaction: { pruneToolResults: { keepLast: 1, maxChars: 100 } } }), {
      registry,
      chatGenerator: model,
      middleware: [{ name: "audit", beforeModel: ({ messages }) => void seen.push(...messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result)) }],
    });

    await agent.run({ messages: conversation });

    expect(seen).toEqual(["[result of fetch_page #c1: 4000 chars; call read_tool_result to read it]", "short"]);
  });

  it("refuses middleware in code whose name a definition's middleware has, as a fault of the code", () => {
    const thrown = (() => {
      try {
        return Agent.fromJSON(definition({ budget: { maxModelCalls: 5 } }), { registry, middleware: [{ name: "budget", afterRun: () => undefined }] });
      } catch (error) {
        return error;
      }
    })();

    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect(thrown).not.toBeInstanceOf(DefinitionError);
    expect((thrown as Error).message).toBe("Agent has middleware named 'budget', a name the Agent's own middleware already uses; give each its own name.");
  });
});
