import { type AgentSnapshot, BreakpointError, ChatMessage, ConfigurationError, SnapshotError, snapshotOf, ToolInvocationError } from "toolwright";
import { notesAgent, notesInput, notesScript, rejectionOf, runSummary } from "../helpers/notesAgent";

async function uninterrupted() {
  const { agent } = notesAgent();
  return runSummary(await agent.run(notesInput()));
}

async function snapshotAt(breakpoint: Parameters<ReturnType<typeof notesAgent>["agent"]["run"]>[0]["breakpoint"]): Promise<AgentSnapshot> {
  const error = await rejectionOf(notesAgent().agent.run({ ...notesInput(), breakpoint }));
  expect(error).toBeInstanceOf(BreakpointError);
  return (error as BreakpointError).snapshot;
}

describe("AgentSnapshot", () => {
  it("resumes identically after a JSON round trip, in an Agent that never ran", async () => {
    for (const breakpoint of [{ at: "chat_generator", visit: 2 }, { at: "tool", toolName: "add_note" }] as const) {
      const snapshot = await snapshotAt(breakpoint);
      const fromJson = JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot;
      const fresh = notesAgent({ script: notesScript.slice(snapshot.stepCount) });

      const resumed = await fresh.agent.run({ snapshot: fromJson });

      expect(fromJson).toEqual(snapshot);
      expect(runSummary(resumed)).toEqual(await uninterrupted());
      expect(fresh.chatGenerator.remaining).toBe(0);
    }
  });

  it("holds the state values, the messages as JSON, the step count, the visit counts and the next point", async () => {
    const snapshot = await snapshotAt({ at: "tool", toolName: "search", visit: 1 });

    expect(snapshot).toEqual({
      version: 1,
      state: {
        customer_id: "c-42",
        notes: ["lamps found"],
        messages: [
          { role: "system", meta: {}, name: null, content: [{ text: "You keep notes." }] },
          { role: "user", meta: {}, name: null, content: [{ text: "What is in stock?" }] },
          { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "search", arguments: { query: "lamps" }, id: "c1" } }] },
          {
            role: "tool",
            meta: {},
            name: null,
            content: [{ tool_call_result: { result: "results for lamps", origin: { tool_name: "search", arguments: { query: "lamps" }, id: "c1" }, error: false } }],
          },
          { role: "assistant", meta: {}, name: null, content: [{ text: "Noting it." }, { tool_call: { tool_name: "add_note", arguments: { text: "lamps found" }, id: "c2" } }] },
          {
            role: "tool",
            meta: {},
            name: null,
            content: [{ tool_call_result: { result: '{"note":"lamps found"}', origin: { tool_name: "add_note", arguments: { text: "lamps found" }, id: "c2" }, error: false } }],
          },
          { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "search", arguments: { query: "chairs" }, id: "c3" } }] },
        ],
      },
      stepCount: 3,
      visits: { chatGenerator: 3, tools: { search: 1, add_note: 1, "*": 2 } },
      next: "tool",
      toolStep: { replies: 1, decisions: {}, pending: [] },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 3, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { add_note: 1, search: 1 } },
    });
  });

  it("gives the resumed run the generationKwargs of the new call", async () => {
    const { agent, chatGenerator } = notesAgent();
    const error = await rejectionOf(agent.run({ ...notesInput(), generationKwargs: { temperature: 0 }, breakpoint: { at: "chat_generator", visit: 2 } }));

    await agent.run({ snapshot: snapshotOf(error)!, generationKwargs: { temperature: 0.7 } });

    expect(chatGenerator.requests.map((request) => request.generationKwargs)).toEqual([{ temperature: 0 }, { temperature: 0 }, { temperature: 0.7 }, { temperature: 0.7 }]);
  });

  it("gives the resumed run the tools selected by the new call", async () => {
    const { agent, chatGenerator } = notesAgent();
    const error = await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 3 } }));

    await agent.run({ snapshot: snapshotOf(error)!, tools: ["add_note"] });

    expect(chatGenerator.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([
      ["search", "add_note"],
      ["search", "add_note"],
      ["search", "add_note"],
      ["add_note"],
    ]);
  });

  describe("resume errors", () => {
    it("rejects with a ConfigurationError for a snapshot given with messages", async () => {
      const { agent } = notesAgent();
      const snapshot = await snapshotAt({ at: "chat_generator", visit: 1 });

      const error = await rejectionOf(agent.run({ snapshot, messages: [ChatMessage.fromUser("again")] }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        "Agent.run was given a snapshot and 'messages'; a resumed run continues the snapshot's conversation and state, so pass only run options (generationKwargs, tools, signal, streamingCallback, breakpoint, decisions, confirmationContext, runId, onCheckpoint, hooks, middleware, outputSchema) with it.",
      );
    });

    it("rejects with a ConfigurationError for a snapshot given with a systemPrompt and state values", async () => {
      const { agent } = notesAgent();
      const snapshot = await snapshotAt({ at: "chat_generator", visit: 1 });

      const error = await rejectionOf(agent.run({ snapshot, systemPrompt: "Be brief.", customer_id: "c-7", notes: [] }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        "Agent.run was given a snapshot and 'systemPrompt', 'customer_id', 'notes'; a resumed run continues the snapshot's conversation and state, so pass only run options (generationKwargs, tools, signal, streamingCallback, breakpoint, decisions, confirmationContext, runId, onCheckpoint, hooks, middleware, outputSchema) with it.",
      );
    });

    it("rejects with a SnapshotError for a value that is not a snapshot, naming the field at fault", async () => {
      const { agent, chatGenerator } = notesAgent();
      const snapshot = await snapshotAt({ at: "chat_generator", visit: 1 });
      const cases: Array<[unknown, string, string]> = [
        ["not a snapshot", "(root)", 'is string "not a snapshot", not a snapshot object'],
        [{ ...snapshot, version: 2 }, "version", "is number 2; this toolwright reads version 1"],
        [{ ...snapshot, stepCount: -1 }, "stepCount", "is number -1, not a whole number ≥ 0"],
        [{ ...snapshot, next: "tool" }, "toolStep", 'is undefined; next is "tool", so it is { replies, decisions, pending }'],
        [{ ...snapshot, extra: 1 }, "extra", "is not a snapshot field"],
        [{ ...snapshot, visits: { chatGenerator: 1, tools: { search: "2" } } }, "visits.tools.search", 'is string "2", not a whole number ≥ 0'],
        [{ ...snapshot, usage: { inputTokens: 1 } }, "usage", "is not { inputTokens, outputTokens, totalTokens, modelCalls, toolCalls, failedToolCalls, toolCallsByName }"],
        [{ ...snapshot, usage: { ...snapshot.usage, outputTokens: 1e300 } }, "usage.outputTokens", "is number 1e+300, not a whole number ≥ 0"],
        [{ ...snapshot, usage: { ...snapshot.usage, __proto__: null, extra: 1 } }, "usage", "is not { inputTokens, outputTokens, totalTokens, modelCalls, toolCalls, failedToolCalls, toolCallsByName }"],
        [{ ...snapshot, trace: { traceparent: "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01" } }, "trace.traceparent", "is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>, lower case)"],
        [{ ...snapshot, trace: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "a=b\n" } }, "trace.tracestate", "is not a W3C tracestate (printable ASCII, at most 512 characters)"],
        [{ ...snapshot, trace: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", baggage: "x" } }, "trace", "is not { traceparent, tracestate? }"],
      ];

      for (const [value, field, problem] of cases) {
        const error = await rejectionOf(agent.run({ snapshot: value as AgentSnapshot }));
        expect(error).toBeInstanceOf(SnapshotError);
        expect((error as SnapshotError).field).toBe(field);
        expect(error.message).toBe(`Agent.run was given a snapshot whose ${field} ${problem}; resume only with a snapshot a stopped run produced, unchanged.`);
      }
      expect(chatGenerator.requests).toHaveLength(0);
    });
  });
});

describe("snapshotOf", () => {
  it("returns the snapshot from before the failing model call, and retrying it with a working model finishes the run", async () => {
    const failure = new Error("model overloaded");
    const { agent, chatGenerator } = notesAgent({
      script: [
        notesScript[0]!,
        notesScript[1]!,
        () => {
          throw failure;
        },
      ],
    });

    const error = await rejectionOf(agent.run(notesInput()));

    expect(error).toBe(failure);
    const snapshot = snapshotOf(error)!;
    expect(snapshot.next).toBe("chat_generator");
    expect(snapshot.stepCount).toBe(2);
    expect(snapshot.visits).toEqual({ chatGenerator: 2, tools: { search: 1, add_note: 1, "*": 2 } });
    expect(snapshot.state.notes).toEqual(["lamps found"]);
    expect((snapshot.state.messages as unknown[]).length).toBe(6);
    expect(chatGenerator.requests).toHaveLength(3);
    const retry = notesAgent({ script: notesScript.slice(2) });
    expect(runSummary(await retry.agent.run({ snapshot: JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot }))).toEqual(await uninterrupted());
  });

  it("returns the snapshot from before the step whose tool failed with raiseOnToolInvocationFailure, without the merges of that step's earlier calls", async () => {
    let failures = 1;
    const script = [
      notesScript[0]!,
      ChatMessage.fromAssistant(undefined, {
        toolCalls: [
          { id: "n1", toolName: "add_note", arguments: { text: "before the failure" } },
          { id: "s2", toolName: "search", arguments: { query: "desks" } },
        ],
      }),
      ChatMessage.fromAssistant("Done."),
    ];
    const searchImpl = (args: Record<string, unknown>) => {
      if (args.query === "desks" && failures-- > 0) throw new Error("index offline");
      return `results for ${String(args.query)}`;
    };
    const { agent, log } = notesAgent({ script, searchImpl, raiseOnToolInvocationFailure: true });

    const error = await rejectionOf(agent.run(notesInput()));

    expect(error).toBeInstanceOf(ToolInvocationError);
    expect(error.message).toBe("Tool 'search' failed: index offline.");
    expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note", "search"]);
    const snapshot = snapshotOf(error)!;
    expect(snapshot.next).toBe("tool");
    expect(snapshot.stepCount).toBe(2);
    expect(snapshot.visits).toEqual({ chatGenerator: 2, tools: { search: 1, "*": 1 } });
    expect(snapshot.toolStep).toEqual({ replies: 1, decisions: {}, pending: [] });
    expect(snapshot.state.notes).toBeUndefined();

    const resumed = await agent.run({ snapshot: JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.notes).toEqual(["before the failure"]);
    expect(resumed.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result)).toEqual(["results for lamps", '{"note":"before the failure"}', "results for desks"]);
    expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note", "search", "add_note", "search"]);
  });

  it("attaches no snapshot to a tool failure without raiseOnToolInvocationFailure, which the model is told about instead", async () => {
    const { agent } = notesAgent({
      script: [notesScript[0]!, ChatMessage.fromAssistant("Sorry.")],
      searchImpl: () => {
        throw new Error("index offline");
      },
    });

    const result = await agent.run(notesInput());

    expect(result.messages[3]!.toolCallResult).toMatchObject({ result: "Tool 'search' failed: index offline.", error: true });
    expect(result.snapshot).toBeUndefined();
  });

  it("returns undefined for values that carry no snapshot", () => {
    expect(snapshotOf(new Error("plain"))).toBeUndefined();
    expect(snapshotOf("a string")).toBeUndefined();
    expect(snapshotOf(undefined)).toBeUndefined();
  });

  it("keeps the snapshot out of the error's enumerable properties", async () => {
    const { agent } = notesAgent({
      script: [
        () => {
          throw new Error("down");
        },
      ],
    });

    const error = await rejectionOf(agent.run(notesInput()));

    expect(Object.keys(error)).not.toContain("snapshot");
    expect(snapshotOf(error)!.stepCount).toBe(0);
  });
});
