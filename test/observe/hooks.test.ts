import { z } from "zod";
import {
  Agent,
  type AgentHooks,
  ChatGeneratorError,
  ChatMessage,
  ConfigurationError,
  DeferredConfirmationStrategy,
  HookError,
  type ModelEndEvent,
  type ModelStartEvent,
  type RunEndEvent,
  type RunStartEvent,
  type ToolEndEvent,
  type ToolStartEvent,
  Tool,
  type ToolCall,
} from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { notesAgent, notesInput, rejectionOf, runSummary } from "../helpers/notesAgent";

type Recorded =
  | ["onRunStart", RunStartEvent]
  | ["onModelStart", ModelStartEvent]
  | ["onModelEnd", ModelEndEvent]
  | ["onToolStart", ToolStartEvent]
  | ["onToolEnd", ToolEndEvent]
  | ["onRunEnd", RunEndEvent];

/** Hooks that record every event, in order. */
function recorder(): { hooks: AgentHooks; events: Recorded[] } {
  const events: Recorded[] = [];
  const hooks: AgentHooks = {
    onRunStart: (e) => void events.push(["onRunStart", e]),
    onModelStart: (e) => void events.push(["onModelStart", e]),
    onModelEnd: (e) => void events.push(["onModelEnd", e]),
    onToolStart: (e) => void events.push(["onToolStart", e]),
    onToolEnd: (e) => void events.push(["onToolEnd", e]),
    onRunEnd: (e) => void events.push(["onRunEnd", e]),
  };
  return { hooks, events };
}

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const secret = "cust-9931";

// One step with three calls (search, which gets customer_id injected and echoes it; add_note; a tool
// that does not exist), then a text answer.
function parallelScript() {
  return [
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [call("c1", "search", { query: `lamps for ${secret}` }), call("c2", "add_note", { text: "lamps" }), call("c3", "nope", {})],
      meta: { usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 }, finishReason: "tool_calls" },
    }),
    ChatMessage.fromAssistant("Lamps are in stock.", { meta: { usage: { promptTokens: 200, completionTokens: 10 }, finishReason: "stop" } }),
  ];
}

const searchEchoing = (args: Record<string, unknown>) => `results for ${String(args.query)} (customer ${String(args.customerId)})`;

describe("lifecycle hooks", () => {
  it("tell a run's model and tool calls in order, tool calls ending in merge order, with usage on the run's end", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ script: parallelScript(), searchImpl: searchEchoing, hooks, name: "notes" });

    const result = await agent.run({ ...notesInput(), customer_id: secret, runId: "run-7" });

    expect(events.map(([name, e]) => [name, "step" in e ? e.step : undefined, "toolName" in e ? e.toolName : undefined])).toEqual([
      ["onRunStart", undefined, undefined],
      ["onModelStart", 1, undefined],
      ["onModelEnd", 1, undefined],
      ["onToolStart", 1, "search"],
      ["onToolStart", 1, "add_note"],
      // The unknown tool never ran: it starts and ends when its outcome is told, first of the step's
      // outcomes since #33 (Haystack main lists unknown-tool errors first, `_run_tool`).
      ["onToolStart", 1, "nope"],
      ["onToolEnd", 1, "nope"],
      ["onToolEnd", 1, "search"],
      ["onToolEnd", 1, "add_note"],
      ["onModelStart", 2, undefined],
      ["onModelEnd", 2, undefined],
      ["onRunEnd", undefined, undefined],
    ]);
    for (const [, event] of events) {
      expect(event.runId).toBe("run-7");
      expect(event.agentName).toBe("notes");
      expect(Object.isFrozen(event)).toBe(true);
    }
    const [, start] = events[0] as ["onRunStart", RunStartEvent];
    expect(start).toMatchObject({ resumed: false, stepCount: 0, model: "scripted", provider: "toolwright.scripted" });
    const [, modelEnd] = events[2] as ["onModelEnd", ModelEndEvent];
    expect(modelEnd).toMatchObject({ step: 1, responseModel: "scripted", usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 }, finishReasons: ["tool_calls"], error: undefined });
    expect(modelEnd.endTime).toBeGreaterThanOrEqual(modelEnd.startTime);
    const toolEnds = events.filter(([name]) => name === "onToolEnd").map(([, e]) => e as ToolEndEvent);
    expect(toolEnds.map((e) => [e.toolCallId, e.ran, e.error])).toEqual([
      ["c3", false, { type: "ToolNotFoundError", message: "Tool 'nope' not found. Available tools: search, add_note." }],
      ["c1", true, undefined],
      ["c2", true, undefined],
    ]);
    for (const end of toolEnds) expect(end.endTime).toBeGreaterThanOrEqual(end.startTime);
    const [, runEnd] = events.at(-1) as ["onRunEnd", RunEndEvent];
    expect(runEnd).toMatchObject({ exitReason: "text", stepCount: 2, pendingConfirmations: [], error: undefined });
    const usage = { inputTokens: 300, outputTokens: 30, totalTokens: 330, modelCalls: 2, toolCalls: 3, failedToolCalls: 1, toolCallsByName: { add_note: 1, nope: 1, search: 1 } };
    expect(runEnd.usage).toEqual(usage);
    expect(result.usage).toEqual(usage);
  });

  it("give content with the run's injected state values redacted, as frozen copies", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ script: parallelScript(), searchImpl: searchEchoing, hooks });

    const result = await agent.run({ ...notesInput(), customer_id: secret });

    const toolStart = events.find(([name, e]) => name === "onToolStart" && (e as ToolStartEvent).toolName === "search")![1] as ToolStartEvent;
    expect(toolStart.arguments).toEqual({ query: "lamps for [customer_id]" });
    expect(Object.isFrozen(toolStart.arguments)).toBe(true);
    const toolEnd = events.find(([name, e]) => name === "onToolEnd" && (e as ToolEndEvent).toolName === "search")![1] as ToolEndEvent;
    expect(toolEnd.result).toBe("results for lamps for [customer_id] (customer [customer_id])");
    const secondCall = events.filter(([name]) => name === "onModelStart")[1]![1] as ModelStartEvent;
    const sent = JSON.stringify(secondCall.messages);
    expect(sent).not.toContain(secret);
    expect(sent).toContain("results for lamps for [customer_id] (customer [customer_id])");
    expect(secondCall.messages).toHaveLength(result.messages.length - 1);
    expect(Object.isFrozen(secondCall.messages[0])).toBe(true);
    expect(secondCall.tools.map((t) => t.name)).toEqual(["search", "add_note"]);
    const firstEnd = events.find(([name]) => name === "onModelEnd")![1] as ModelEndEvent;
    expect(JSON.stringify(firstEnd.replies)).toContain("lamps for [customer_id]");
    // The run itself kept the real values.
    expect(JSON.stringify(result.messages.map((m) => m.toJSON()))).toContain(`customer ${secret}`);
  });

  it("call the Agent's hooks first, then the run's, and change nothing about the run", async () => {
    const order: string[] = [];
    const agentHooks: AgentHooks = { onModelStart: () => void order.push("agent"), onRunEnd: () => void order.push("agent end") };
    const runHooks: AgentHooks = { onModelStart: () => void order.push("run"), onRunEnd: () => void order.push("run end") };
    const plain = await notesAgent().agent.run(notesInput());

    const result = await notesAgent({ hooks: agentHooks }).agent.run({ ...notesInput(), hooks: runHooks });

    expect(order).toEqual(["agent", "run", "agent", "run", "agent", "run", "agent", "run", "agent end", "run end"]);
    expect(runSummary(result)).toEqual(runSummary(plain));
  });

  it("report a hook that throws or rejects to onHookError as a HookError, and the run goes on unchanged", async () => {
    const reported: HookError[] = [];
    const hooks: AgentHooks = {
      onToolStart() {
        throw new Error("log sink down");
      },
      onModelEnd: () => Promise.reject(new Error("metrics timeout")),
      onRunEnd(event) {
        (event as { exitReason: string }).exitReason = "hacked";
      },
      onHookError: (error) => void reported.push(error),
    };
    const plain = await notesAgent().agent.run(notesInput());

    const result = await notesAgent({ hooks }).agent.run(notesInput());
    await new Promise((resolve) => setImmediate(resolve));

    expect(runSummary(result)).toEqual(runSummary(plain));
    expect(reported.every((e) => e instanceof HookError)).toBe(true);
    expect(reported.map((e) => e.hook).sort()).toEqual(["onModelEnd", "onModelEnd", "onModelEnd", "onModelEnd", "onRunEnd", "onToolStart", "onToolStart", "onToolStart"]);
    expect(reported.find((e) => e.hook === "onToolStart")!.message).toBe(
      "Hook onToolStart threw: log sink down. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.",
    );
    expect(reported.find((e) => e.hook === "onModelEnd")!.message).toBe(
      "Hook onModelEnd threw: metrics timeout. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.",
    );
    // The event is frozen: the assignment threw in the hook (modules are strict), and the run's result is untouched.
    expect(reported.find((e) => e.hook === "onRunEnd")!.cause).toBeInstanceOf(TypeError);
    expect(result.exitReason).toBe("text");
  });

  it("emit a hook's error as a process warning when no onHookError is given", async () => {
    const emitWarning = jest.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      await notesAgent({
        hooks: {
          onRunStart() {
            throw new Error("boom");
          },
        },
      }).agent.run(notesInput());
      expect(emitWarning).toHaveBeenCalledTimes(1);
      const [warning] = emitWarning.mock.calls[0]!;
      expect(warning).toBeInstanceOf(HookError);
      expect((warning as HookError).message).toBe(
        "Hook onRunStart threw: boom. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.",
      );
    } finally {
      emitWarning.mockRestore();
    }
  });

  it("tell a failing model call and the run's failure, with the error's type and message", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({
      hooks,
      script: [
        () => {
          throw new ChatGeneratorError("The provider answered 503: overloaded.", { status: 503 });
        },
      ],
    });

    const error = await rejectionOf(agent.run(notesInput()));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(events.map(([name]) => name)).toEqual(["onRunStart", "onModelStart", "onModelEnd", "onRunEnd"]);
    expect((events[2]![1] as ModelEndEvent).error).toEqual({ type: "ChatGeneratorError", message: "The provider answered 503: overloaded." });
    expect((events[2]![1] as ModelEndEvent).replies).toEqual([]);
    expect(events[3]![1]).toMatchObject({ exitReason: undefined, stepCount: 0, error: { type: "ChatGeneratorError", message: "The provider answered 503: overloaded." } });
  });

  it("end a tool call that an abort cut short, and the run, with an AbortError", async () => {
    const { hooks, events } = recorder();
    const controller = new AbortController();
    const { agent } = notesAgent({
      hooks,
      searchImpl: () => {
        controller.abort();
        return new Promise(() => {});
      },
    });

    const error = await rejectionOf(agent.run({ ...notesInput(), signal: controller.signal }));

    expect(error.name).toBe("AbortError");
    const toolEnd = events.find(([name]) => name === "onToolEnd")![1] as ToolEndEvent;
    expect(toolEnd).toMatchObject({ toolName: "search", ran: true, error: { type: "AbortError", message: "The agent run was aborted." } });
    expect(events.at(-1)![1]).toMatchObject({ exitReason: undefined, error: { type: "AbortError" } });
  });

  it("tell a pause with its pending calls, and a resumed run that starts where it stopped, its usage summed over both parts", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ hooks, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });

    const paused = await agent.run(notesInput());
    if (paused.exitReason !== "confirmation_required") throw new Error("expected a pause");
    const pausedEnd = events.at(-1)![1] as RunEndEvent;
    events.length = 0;
    const result = await agent.run({ snapshot: JSON.parse(JSON.stringify(paused.snapshot)), decisions: { c2: { action: "reject", feedback: "No notes today." } } });

    expect(pausedEnd).toMatchObject({ exitReason: "confirmation_required", stepCount: 2, pendingConfirmations: [{ toolCallId: "c2", toolName: "add_note", arguments: { text: "lamps found" } }] });
    expect(pausedEnd.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { search: 1 } });
    expect(events[0]).toEqual(["onRunStart", expect.objectContaining({ resumed: true, stepCount: 2 })]);
    expect(events.find(([name]) => name === "onToolEnd")![1]).toMatchObject({ toolName: "add_note", ran: false, error: { type: "rejected", message: "No notes today." } });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 4, toolCalls: 3, failedToolCalls: 1, toolCallsByName: { add_note: 1, search: 2 } });
    expect(events.at(-1)![1]).toMatchObject({ exitReason: "text", stepCount: 4, usage: result.usage });
  });

  it("tell a breakpoint as the run's end with exitReason 'breakpoint'", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ hooks });

    await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 1 } }));

    expect(events.at(-1)).toEqual(["onRunEnd", expect.objectContaining({ exitReason: "breakpoint", stepCount: 1, error: undefined })]);
  });

  it("redact the injected values of a tool that failed, in its end event as in its message", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({
      hooks,
      searchImpl: (args) => {
        throw new Error(`no index for ${String(args.customerId)}`);
      },
    });

    await agent.run({ ...notesInput(), customer_id: secret });

    const end = events.find(([name]) => name === "onToolEnd")![1] as ToolEndEvent;
    expect(end.error).toEqual({ type: "ToolInvocationError", message: "Tool 'search' failed: no index for [customer_id]." });
    expect(end.result).toBe("Tool 'search' failed: no index for [customer_id].");
  });

  describe("configuration errors", () => {
    const chatGenerator = new ScriptedChatGenerator([]);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["hooks that are not an object", { hooks: [] }, "Agent has hooks that are not an object of callbacks, got an array; pass { onModelEnd(event) { … }, … }."],
      [
        "a misspelled hook",
        { hooks: { onToolEnded() {} } },
        "Agent has a hook 'onToolEnded', which is not one of onRunStart, onModelStart, onModelEnd, onToolStart, onToolEnd, onToolError, onRunEnd, onHookError; check its spelling.",
      ],
      ["a hook that is not a function", { hooks: { onRunEnd: "log" } }, 'Agent has a hook onRunEnd that is not a function, got string "log".'],
      ["a tracing option that is not a tracer", { tracing: {} }, "Agent has a tracing option that is not a tracer, got an object; pass openTelemetry() from toolwright/otel."],
      ["an empty name", { name: "" }, 'Agent has a name that is not a string of 1 to 200 characters, got string ""; name it for traces (gen_ai.agent.name), e.g. "support-desk", or leave it out.'],
    ];
    it.each(cases)("throws a ConfigurationError for %s", (_, options, message) => {
      let error: unknown;
      try {
        new Agent({ chatGenerator, ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(message);
    });

    it("checks run hooks the same way, naming Agent.run", async () => {
      const agent = new Agent({ chatGenerator, systemPrompt: "Hi." });
      const error = await rejectionOf(agent.run({ hooks: { onStart() {} } as never }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("Agent.run has a hook 'onStart', which is not one of onRunStart, onModelStart, onModelEnd, onToolStart, onToolEnd, onToolError, onRunEnd, onHookError; check its spelling.");
    });
  });

  it("reserve 'usage' and 'hooks' as state key names", () => {
    for (const key of ["usage", "hooks"]) {
      expect(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), stateSchema: { [key]: { type: z.number() } } })).toThrow(`State key '${key}' is reserved by the Agent`);
    }
  });

  it("leave a tool's own arguments object unchanged when a hook reads the arguments", async () => {
    const seen: unknown[] = [];
    const tool = new Tool({
      name: "echo",
      description: "Echo.",
      parameters: { type: "object", properties: { items: { type: "array", items: { type: "string" } } }, required: ["items"] },
      function: (args) => {
        (args.items as string[]).push("added by the tool");
        seen.push(args.items);
        return "ok";
      },
    });
    let hookView: unknown;
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call("e1", "echo", { items: ["a"] })] }), ChatMessage.fromAssistant("done")]),
      tools: [tool],
      hooks: { onToolEnd: () => void 0, onToolStart: (e) => void (hookView = e.arguments) },
    });

    await agent.run({ messages: [ChatMessage.fromUser("go")] });

    expect(seen).toEqual([["a", "added by the tool"]]);
    expect(hookView).toEqual({ items: ["a"] });
  });
});

describe("content redaction as state changes", () => {
  it("redacts every value an injected key held: after a tool writes a new customer id, both ids are redacted, earlier messages included", async () => {
    const seen: string[] = [];
    const lookup = new Tool({
      name: "lookup",
      description: "Look the customer up.",
      parameters: { type: "object", properties: { customerId: { type: "string" } }, required: [] },
      inputsFromState: { customer_id: "customerId" },
      function: (args) => `customer ${String(args.customerId)}`,
    });
    const switchCustomer = new Tool({
      name: "switch_customer",
      description: "Switch to the merged account.",
      parameters: { type: "object", properties: {} },
      outputsToState: { customer_id: { source: "id" } },
      function: () => ({ id: "cust-7777" }),
    });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([
        ChatMessage.fromAssistant(undefined, { toolCalls: [call("a", "lookup", {})] }),
        ChatMessage.fromAssistant("Your account is cust-7777 now.", { toolCalls: [call("b", "switch_customer", {})] }),
        ChatMessage.fromAssistant(undefined, { toolCalls: [call("c", "lookup", {})] }),
        ChatMessage.fromAssistant("done"),
      ]),
      tools: [lookup, switchCustomer],
      stateSchema: { customer_id: { type: z.string() } },
      hooks: { onModelStart: (e) => void seen.push(JSON.stringify(e.messages)) },
    });

    await agent.run({ messages: [ChatMessage.fromUser("hi")], customer_id: "cust-1234" });

    expect(seen[1]).toContain("customer [customer_id]");
    expect(seen[1]).not.toContain("cust-1234");
    // From the third call on the id is cust-7777: it is redacted everywhere, the model's own earlier text included.
    expect(seen[2]).toContain("Your account is [customer_id] now.");
    expect(seen[3]).not.toContain("cust-7777");
    expect(seen[3]).not.toContain("cust-1234");
    expect(seen[3]).toContain("customer [customer_id]");
  });
});

describe("ModelEndEvent warnings", () => {
  function warningAgent(warnings: unknown, ends: ModelEndEvent[]) {
    const chatGenerator = { run: async () => ({ replies: [ChatMessage.fromAssistant("Hi.")], meta: { warnings } as { warnings: readonly string[] } }) };
    return new Agent({ chatGenerator, tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } });
  }

  it("hands the response's meta.warnings to onModelEnd, frozen", async () => {
    const ends: ModelEndEvent[] = [];

    await warningAgent(["unsupported: seed", "other: the signature was made up"], ends).run({ messages: [ChatMessage.fromUser("Hi")] });

    expect(ends[0]!.warnings).toEqual(["unsupported: seed", "other: the signature was made up"]);
    expect(Object.isFrozen(ends[0]!.warnings)).toBe(true);
  });

  it("keeps the non-empty strings among the first 20 entries, each cut to 1,000 characters, and gives none for a failed call", async () => {
    const ends: ModelEndEvent[] = [];
    const long = "w".repeat(1500);

    await warningAgent([42, "", { message: "object" }, long, ...Array.from({ length: 30 }, (_, i) => `warning ${i}`)], ends).run({ messages: [ChatMessage.fromUser("Hi")] });
    await warningAgent("not a list", ends).run({ messages: [ChatMessage.fromUser("Hi")] });
    const failing = new Agent({ chatGenerator: { run: async () => Promise.reject(new ChatGeneratorError("down")) }, tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } });
    await rejectionOf(failing.run({ messages: [ChatMessage.fromUser("Hi")] }));

    expect(ends[0]!.warnings).toEqual([`${"w".repeat(1000)}…(1500 characters)`, ...Array.from({ length: 16 }, (_, i) => `warning ${i}`)]);
    expect(ends[1]!.warnings).toEqual([]);
    expect(ends[2]!.warnings).toEqual([]);
    expect(ends[2]!.error).toEqual({ type: "ChatGeneratorError", message: "down" });
  });
});
