import { type AgentSnapshot, BlockingConfirmationStrategy, BreakpointError, ConfigurationError } from "toolwright";
import { notesAgent, notesInput, notesScript, rejectionOf, runSummary } from "../helpers/notesAgent";

async function uninterrupted() {
  const { agent } = notesAgent();
  return runSummary(await agent.run(notesInput()));
}

async function breakpointError(promise: Promise<unknown>): Promise<BreakpointError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(BreakpointError);
  return error as BreakpointError;
}

describe("BreakpointError", () => {
  it("names the point and the visit, and carries the breakpoint and a plain JSON snapshot", async () => {
    const { agent } = notesAgent();

    const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } }));

    expect(error.name).toBe("BreakpointError");
    expect(error.message).toBe("The run stopped at its breakpoint before running tool 'add_note' (visit 0); continue it with agent.run({ snapshot: error.snapshot }).");
    expect(error.breakpoint).toEqual({ at: "tool", toolName: "add_note" });
    expect(JSON.parse(JSON.stringify(error.snapshot))).toEqual(error.snapshot);
  });

  it("says so for a breakpoint before the chat generator and for one before any tool", async () => {
    const first = await breakpointError(notesAgent().agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 2 } }));
    const second = await breakpointError(notesAgent().agent.run({ ...notesInput(), breakpoint: { at: "tool", visit: 1 } }));

    expect(first.message).toBe("The run stopped at its breakpoint before calling the chat generator (visit 2); continue it with agent.run({ snapshot: error.snapshot }).");
    expect(second.message).toBe("The run stopped at its breakpoint before running tool calls (visit 1); continue it with agent.run({ snapshot: error.snapshot }).");
  });
});

describe("Breakpoint", () => {
  describe("at chat_generator", () => {
    it("stops before the first model call at visit 0, with the input conversation in the snapshot", async () => {
      const { agent, chatGenerator } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator" } }));

      expect(chatGenerator.requests).toHaveLength(0);
      expect(error.snapshot).toEqual({
        version: 1,
        state: {
          customer_id: "c-42",
          messages: [
            { role: "system", meta: {}, name: null, content: [{ text: "You keep notes." }] },
            { role: "user", meta: {}, name: null, content: [{ text: "What is in stock?" }] },
          ],
        },
        stepCount: 0,
        visits: { chatGenerator: 0, tools: {} },
        next: "chat_generator",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, toolCalls: 0, failedToolCalls: 0, toolCallsByName: {} },
      });
    });

    it("stops before the second model call at visit 1, after the first step's tools ran", async () => {
      const { agent, chatGenerator, log } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 1 } }));

      expect(chatGenerator.requests).toHaveLength(1);
      expect(log).toEqual([{ tool: "search", args: { query: "lamps", customerId: "c-42" } }]);
      expect(error.snapshot.stepCount).toBe(1);
      expect(error.snapshot.next).toBe("chat_generator");
      expect(error.snapshot.visits).toEqual({ chatGenerator: 1, tools: { search: 1, "*": 1 } });
      expect((error.snapshot.state.messages as unknown[]).length).toBe(4);
    });

    it("resumes from visit 0 and from visit 1 to the result of an uninterrupted run", async () => {
      for (const visit of [0, 1]) {
        const { agent, chatGenerator } = notesAgent();
        const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit } }));

        const resumed = await agent.run({ snapshot: error.snapshot });

        expect(runSummary(resumed)).toEqual(await uninterrupted());
        expect(chatGenerator.remaining).toBe(0);
      }
    });

    it("counts the model calls made before the breakpoint towards maxAgentSteps", async () => {
      const { agent, chatGenerator } = notesAgent({ maxAgentSteps: 2 });
      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 1 } }));

      const resumed = await agent.run({ snapshot: error.snapshot });

      expect(resumed.exitReason).toBe("max_agent_steps");
      expect(resumed.stepCount).toBe(2);
      expect(chatGenerator.requests).toHaveLength(2);
    });
  });

  describe("at tool", () => {
    it("stops before the first step's tool calls at visit 0 without toolName, before any tool runs", async () => {
      const { agent, chatGenerator, log } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool" } }));

      expect(chatGenerator.requests).toHaveLength(1);
      expect(log).toEqual([]);
      expect(error.snapshot.stepCount).toBe(1);
      expect(error.snapshot.next).toBe("tool");
      expect(error.snapshot.toolStep).toEqual({ replies: 1, decisions: {}, pending: [] });
      expect(error.snapshot.visits).toEqual({ chatGenerator: 1, tools: {} });
    });

    it("counts every tool step for a breakpoint without toolName", async () => {
      const { agent, log } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", visit: 1 } }));

      expect(log.map((entry) => entry.tool)).toEqual(["search"]);
      expect(error.snapshot.stepCount).toBe(2);
      expect(error.snapshot.visits).toEqual({ chatGenerator: 2, tools: { search: 1, "*": 1 } });
    });

    it("stops only before a step that calls the named tool", async () => {
      const { agent, log } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } }));

      expect(log.map((entry) => entry.tool)).toEqual(["search"]);
      expect(error.snapshot.stepCount).toBe(2);
    });

    it("counts visits per tool: visit 1 of search is the third step, not the second", async () => {
      const { agent, log } = notesAgent();

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "search", visit: 1 } }));

      expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note"]);
      expect(error.snapshot.stepCount).toBe(3);
      expect(error.snapshot.visits).toEqual({ chatGenerator: 3, tools: { search: 1, add_note: 1, "*": 2 } });
    });

    it("resumes by running the step's tool calls without calling the model again", async () => {
      const { agent, chatGenerator, log } = notesAgent();
      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } }));

      const resumed = await agent.run({ snapshot: error.snapshot });

      expect(runSummary(resumed)).toEqual(await uninterrupted());
      expect(chatGenerator.requests).toHaveLength(notesScript.length);
      expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note", "search"]);
    });

    it("never stops on a tool the run does not call", async () => {
      const { agent } = notesAgent({ script: [notesScript[0]!, notesScript[3]!] });

      const result = await agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } });

      expect(result.exitReason).toBe("text");
    });

    it("stops before the confirmation strategies are asked", async () => {
      const asked: string[] = [];
      const strategy = new BlockingConfirmationStrategy({ ask: (request) => (asked.push(request.toolName), { action: "confirm" }) });
      const { agent } = notesAgent({ confirmationStrategies: { add_note: strategy } });

      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } }));

      expect(asked).toEqual([]);
      expect(error.snapshot.toolStep).toEqual({ replies: 1, decisions: {}, pending: [] });
      await agent.run({ snapshot: error.snapshot });
      expect(asked).toEqual(["add_note"]);
    });
  });

  describe("resumed with a new breakpoint", () => {
    it("stops again at the second breakpoint, and the second snapshot resumes to the uninterrupted result", async () => {
      const { agent, log } = notesAgent();
      const first = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "search" } }));

      const second = await breakpointError(agent.run({ snapshot: first.snapshot, breakpoint: { at: "tool", toolName: "search", visit: 1 } }));

      expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note"]);
      expect(second.snapshot.stepCount).toBe(3);
      expect(second.snapshot.visits).toEqual({ chatGenerator: 3, tools: { search: 1, add_note: 1, "*": 2 } });
      const resumed = await agent.run({ snapshot: second.snapshot });
      expect(runSummary(resumed)).toEqual(await uninterrupted());
    });

    it("stops at a chat_generator breakpoint after resuming from a tool breakpoint", async () => {
      const { agent, chatGenerator } = notesAgent();
      const first = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "tool" } }));

      const second = await breakpointError(agent.run({ snapshot: first.snapshot, breakpoint: { at: "chat_generator", visit: 3 } }));

      expect(chatGenerator.requests).toHaveLength(3);
      expect(second.snapshot.next).toBe("chat_generator");
      expect(runSummary(await agent.run({ snapshot: second.snapshot }))).toEqual(await uninterrupted());
    });

    it("does not stop again at once when given the breakpoint it stopped at", async () => {
      const { agent } = notesAgent();
      const breakpoint = { at: "tool", toolName: "add_note" } as const;
      const error = await breakpointError(agent.run({ ...notesInput(), breakpoint }));

      const resumed = await agent.run({ snapshot: error.snapshot, breakpoint });

      expect(runSummary(resumed)).toEqual(await uninterrupted());
    });
  });

  describe("errors", () => {
    it("rejects with a ConfigurationError for a breakpoint on a tool the run does not have, before calling the model", async () => {
      const { agent, chatGenerator } = notesAgent();

      const error = await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "refund" } }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("Agent.run has a breakpoint on tool 'refund', which is not one of the run's tools: search, add_note.");
      expect(chatGenerator.requests).toHaveLength(0);
    });

    it("checks the breakpoint's tool against the tools selected for the run", async () => {
      const { agent } = notesAgent();

      const error = await rejectionOf(agent.run({ ...notesInput(), tools: ["search"], breakpoint: { at: "tool", toolName: "add_note" } }));

      expect(error.message).toBe("Agent.run has a breakpoint on tool 'add_note', which is not one of the run's tools: search.");
    });

    it("rejects with a ConfigurationError for a breakpoint of the wrong shape", async () => {
      const { agent } = notesAgent();

      const error = await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", toolName: "search" } }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        'Agent.run has a breakpoint that is not { at: "chat_generator" | "tool", toolName? (with "tool"), visit? (a whole number ≥ 0) }, got {"at":"chat_generator","toolName":"search"}.',
      );
    });

    it("rejects with a ConfigurationError for a negative visit", async () => {
      const { agent } = notesAgent();

      const error = await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "tool", visit: -1 } }));

      expect(error.message).toBe('Agent.run has a breakpoint that is not { at: "chat_generator" | "tool", toolName? (with "tool"), visit? (a whole number ≥ 0) }, got {"at":"tool","visit":-1}.');
    });
  });

  it("gives snapshots that do not change when the run goes on", async () => {
    const { agent } = notesAgent();
    const error = await breakpointError(agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 1 } }));
    const copy: AgentSnapshot = JSON.parse(JSON.stringify(error.snapshot));

    await agent.run({ snapshot: error.snapshot });

    expect(error.snapshot).toEqual(copy);
  });
});
