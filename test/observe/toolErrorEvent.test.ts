// onToolError in Agent runs: the developer gets the original error (unredacted, with its stack and
// causes) or the injected value that was missing, while the model and onToolEnd get the redacted
// text as before, and traces get neither the stack nor the unredacted message.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { Agent, type AgentHooks, ChatMessage, HookError, type ToolCall, type ToolEndEvent, type ToolErrorEvent, Tool, ToolInvocationError } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { ScriptedChatGenerator } from "toolwright/testing";
import { notesAgent, notesInput, rejectionOf } from "../helpers/notesAgent";

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const secret = "cust-9931";

/** Records onToolError and onToolEnd events, in order. */
function recorder(): { hooks: AgentHooks; events: Array<["onToolError", ToolErrorEvent] | ["onToolEnd", ToolEndEvent]> } {
  const events: Array<["onToolError", ToolErrorEvent] | ["onToolEnd", ToolEndEvent]> = [];
  return { events, hooks: { onToolError: (e) => void events.push(["onToolError", e]), onToolEnd: (e) => void events.push(["onToolEnd", e]) } };
}

const errorsOf = (events: ReturnType<typeof recorder>["events"]) => events.filter(([name]) => name === "onToolError").map(([, e]) => e as ToolErrorEvent);

const oneCall = (toolName: string, args: Record<string, unknown> = {}) => [ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", toolName, args)] }), ChatMessage.fromAssistant("Done.")];

const toolTexts = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result);

// A real bug (reading a property of undefined), wrapped with the customer id, as a tool's catch might.
function searchIndex(args: Record<string, unknown>): string {
  const index: Record<string, { hits: string[] }> = {};
  try {
    return index[String(args.customerId)]!.hits.join(", ");
  } catch (bug) {
    throw new TypeError(`search for ${String(args.customerId)} failed`, { cause: bug });
  }
}

describe("onToolError", () => {
  it("gets the original TypeError with its stack and cause, unredacted, while the model and onToolEnd get the redacted text", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ script: oneCall("search", { query: "lamps" }), searchImpl: searchIndex, hooks, name: "notes" });

    const result = await agent.run({ ...notesInput(), customer_id: secret, runId: "run-1" });

    expect(toolTexts(result.messages)).toEqual(["Tool 'search' failed: search for [customer_id] failed."]);
    expect(events.map(([name]) => name)).toEqual(["onToolError", "onToolEnd"]);
    const end = events[1]![1] as ToolEndEvent;
    expect(end.error).toEqual({ type: "ToolInvocationError", message: "Tool 'search' failed: search for [customer_id] failed." });
    const event = events[0]![1] as ToolErrorEvent;
    expect(event).toEqual({
      runId: "run-1",
      agentName: "notes",
      step: 1,
      toolName: "search",
      toolCallId: "c1",
      time: expect.any(Number),
      kind: "threw",
      message: `Tool 'search' threw TypeError: search for ${secret} failed.`,
      stateKey: undefined,
      error: {
        name: "TypeError",
        message: `search for ${secret} failed`,
        stack: expect.stringMatching(new RegExp(`^TypeError: search for ${secret} failed\\n +at searchIndex \\(.*toolErrorEvent\\.test\\.ts:\\d+:\\d+\\)`)),
        cause: {
          name: "TypeError",
          message: "Cannot read properties of undefined (reading 'hits')",
          stack: expect.stringMatching(/^TypeError: Cannot read properties of undefined \(reading 'hits'\)\n +at searchIndex \(/),
          cause: undefined,
        },
      },
    });
    expect(Object.isFrozen(event)).toBe(true);
    expect(event.kind === "threw" && Object.isFrozen(event.error) && Object.isFrozen(event.error.cause)).toBe(true);
  });

  it("reports a run started without a required injected value as an inputsFromState error naming the state key, and the tool does not run", async () => {
    const { hooks, events } = recorder();
    const { agent, log } = notesAgent({ script: oneCall("search", { query: "lamps" }), hooks });

    const result = await agent.run({ messages: [ChatMessage.fromUser("What is in stock?")], runId: "run-2" });

    const message =
      "Tool 'search' did not run: its parameter 'customerId' is filled from state key 'customer_id', which has no value; give 'customer_id' a value before the tool is called (a run input, or another tool's outputsToState).";
    expect(log).toEqual([]);
    expect(toolTexts(result.messages)).toEqual([message]);
    expect(errorsOf(events)).toEqual([
      { runId: "run-2", agentName: undefined, step: 1, toolName: "search", toolCallId: "c1", time: expect.any(Number), kind: "inputsFromState", stateKey: "customer_id", parameter: "customerId", problem: "missing", message },
    ]);
    expect(events.map(([name]) => name)).toEqual(["onToolError", "onToolEnd"]);
  });

  it("reports an injected value of the wrong type as an inputsFromState error with problem wrongType", async () => {
    const { hooks, events } = recorder();
    const page = new Tool({
      name: "page",
      description: "One page of results.",
      parameters: { type: "object", properties: { limit: { type: "integer" } }, required: ["limit"] },
      inputsFromState: { page_size: "limit" },
      function: () => "page",
    });
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(oneCall("page")), tools: [page], stateSchema: { page_size: { type: z.unknown() } }, hooks });

    await agent.run({ messages: [ChatMessage.fromUser("Next page.")], page_size: "ten" });

    expect(errorsOf(events)).toEqual([
      expect.objectContaining({
        kind: "inputsFromState",
        stateKey: "page_size",
        parameter: "limit",
        problem: "wrongType",
        message: "Tool 'page' did not run: its parameter 'limit' is filled from state key 'page_size', which holds a string, but the parameter takes an integer; map a state key of the parameter's type to 'limit'.",
      }),
    ]);
  });

  it("reports an output that state refuses as an outputsToState error with the key and the StateTypeError", async () => {
    const { hooks, events } = recorder();
    const count = new Tool({ name: "count", description: "Count.", parameters: { type: "object", properties: {} }, outputsToState: { total: { source: "n" } }, function: () => ({ n: "many" }) });
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(oneCall("count")), tools: [count], stateSchema: { total: { type: z.number() } }, hooks });

    const result = await agent.run({ messages: [ChatMessage.fromUser("How many?")] });

    const [event] = errorsOf(events);
    expect(toolTexts(result.messages)).toEqual(["Tool 'count' ran, but its output could not be merged into state key 'total': State key 'total' rejected a value that does not match its type: total: Invalid input: expected number, received string. The value was not stored."]);
    expect(event).toMatchObject({
      kind: "outputsToState",
      stateKey: "total",
      message: "Tool 'count' ran, but its output could not be merged into state key 'total': StateTypeError: State key 'total' rejected a value that does not match its type: total: Invalid input: expected number, received string. The value was not stored.",
      error: { name: "StateTypeError", message: "State key 'total' rejected a value that does not match its type: total: Invalid input: expected number, received string. The value was not stored." },
    });
  });

  it("reports an outputsToString handler that throws as an outputsToString error", async () => {
    const { hooks, events } = recorder();
    const render = new Tool({
      name: "render",
      description: "Render.",
      parameters: { type: "object", properties: {} },
      outputsToString: {
        handler: () => {
          throw new RangeError("template too deep");
        },
      },
      function: () => ({ page: 1 }),
    });
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(oneCall("render")), tools: [render], hooks });

    await agent.run({ messages: [ChatMessage.fromUser("Render.")] });

    expect(errorsOf(events)).toEqual([
      expect.objectContaining({ kind: "outputsToString", stateKey: undefined, message: "Tool 'render' ran, but its result could not be turned into text: RangeError: template too deep.", error: expect.objectContaining({ name: "RangeError", message: "template too deep" }) }),
    ]);
  });

  it("reports a thrown value that is not an Error by its kind, without a stack", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({
      script: oneCall("search", { query: "lamps" }),
      searchImpl: () => {
        throw "index offline";
      },
      hooks,
    });

    await agent.run(notesInput());

    expect(errorsOf(events)).toEqual([
      expect.objectContaining({ kind: "threw", message: "Tool 'search' threw a string, not an Error: index offline.", error: { name: "string", message: "index offline", stack: undefined, cause: undefined } }),
    ]);
  });

  it("survives a thrown Proxy whose traps throw: the model gets a placeholder, the hook the value's kind", async () => {
    const { hooks, events } = recorder();
    const trap = () => {
      throw new Error("trap");
    };
    const hostile = new Proxy({}, { getPrototypeOf: trap, get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    const { agent } = notesAgent({
      script: oneCall("search", { query: "lamps" }),
      searchImpl: () => {
        throw hostile;
      },
      hooks,
    });

    const result = await agent.run(notesInput());

    expect(toolTexts(result.messages)).toEqual(["Tool 'search' failed: (a thrown value that could not be described)."]);
    expect(errorsOf(events)).toEqual([
      expect.objectContaining({
        kind: "threw",
        message: "Tool 'search' threw an object, not an Error: (a thrown value that could not be described).",
        error: { name: "object", message: "(a thrown value that could not be described)", stack: undefined, cause: undefined },
      }),
    ]);
  });

  it("tells nothing for the model's mistakes or a call past its time limit: they are the model's to handle", async () => {
    const { hooks, events } = recorder();
    const slow = new Tool({ name: "slow", description: "Slow.", parameters: { type: "object", properties: {} }, function: () => new Promise(() => undefined) });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([
        ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "nope", {}), call("c2", "search", { query: 7 }), call("c3", "slow", {})] }),
        ChatMessage.fromAssistant("Done."),
      ]),
      tools: [slow, ...notesAgent().agent.tools],
      stateSchema: { customer_id: { type: z.string() }, notes: { type: z.array(z.string()) } },
      toolTimeoutMs: 1,
      hooks,
    });

    const result = await agent.run({ ...notesInput() });

    expect(toolTexts(result.messages)).toEqual([
      "Tool 'nope' not found. Available tools: slow, search, add_note.",
      "Tool 'search' was called with invalid arguments: query must be string (got number 7). Call the tool again with corrected arguments.",
      "Tool 'slow' failed: it did not finish within 1 ms.",
    ]);
    expect(events.map(([name]) => name)).toEqual(["onToolEnd", "onToolEnd", "onToolEnd"]);
  });

  it("tells the hook before the run throws with raiseOnToolInvocationFailure", async () => {
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ script: oneCall("search", { query: "lamps" }), searchImpl: searchIndex, hooks, raiseOnToolInvocationFailure: true });

    const error = await rejectionOf(agent.run({ ...notesInput(), customer_id: secret }));

    expect(error).toBeInstanceOf(ToolInvocationError);
    expect(error.message).toBe("Tool 'search' failed: search for [customer_id] failed.");
    expect(errorsOf(events)).toEqual([expect.objectContaining({ kind: "threw", message: `Tool 'search' threw TypeError: search for ${secret} failed.` })]);
  });

  it("hands an onToolError that throws to onHookError, and the run goes on", async () => {
    const reported: HookError[] = [];
    const { agent } = notesAgent({
      script: oneCall("search", { query: "lamps" }),
      searchImpl: searchIndex,
      hooks: {
        onToolError: () => {
          throw new Error("log sink down");
        },
        onHookError: (error) => void reported.push(error),
      },
    });

    const result = await agent.run(notesInput());

    expect(result.lastMessage.text).toBe("Done.");
    expect(reported.map((e) => [e.hook, e.message])).toEqual([
      ["onToolError", "Hook onToolError threw: log sink down. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them."],
    ]);
  });

  it("keeps the original error's message and stack out of the run's trace", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = openTelemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), captureContent: true });
    const { hooks, events } = recorder();
    const { agent } = notesAgent({ script: oneCall("search", { query: "lamps" }), searchImpl: searchIndex, hooks, tracing });

    await agent.run({ ...notesInput(), customer_id: secret });

    expect(errorsOf(events)).toHaveLength(1);
    const spans = exporter.getFinishedSpans();
    const tool = spans.find((s) => s.name === "execute_tool search")!;
    expect(tool.status.message).toBe("Tool 'search' failed: search for [customer_id] failed.");
    expect(tool.attributes["error.type"]).toBe("ToolInvocationError");
    const recorded = JSON.stringify(spans.map((s) => ({ attributes: s.attributes, events: s.events, status: s.status })));
    expect(recorded).not.toContain(secret);
    expect(recorded).not.toContain("searchIndex");
    expect(recorded).not.toContain("Cannot read properties");
  });
});
