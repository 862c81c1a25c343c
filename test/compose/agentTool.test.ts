import { z } from "zod";
import { AbortError, Agent, ChatMessage, ConfigurationError, DeferredConfirmationStrategy, SnapshotError, type StreamingChunk, Tool, type ToolCall, ToolRunner, Toolset } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { rejectionOf } from "../helpers/notesAgent";

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const calls = (...list: ToolCall[]) => ChatMessage.fromAssistant(undefined, { toolCalls: list });
const text = (t: string) => ChatMessage.fromAssistant(t);

const researchState = { customer: { type: z.string() }, sources: { type: z.array(z.string()) } };
const teamState = { customer_id: { type: z.string() }, sources: { type: z.array(z.string()) }, log: { type: z.array(z.string()) } };

/** A research agent: `lookup` reads the customer from its own state and appends to its sources; `publish` needs confirmation. */
function researchAgent(script: ConstructorParameters<typeof ScriptedChatGenerator>[0], log: string[], options: { defer?: boolean; lookup?: (signal: AbortSignal) => Promise<unknown> } = {}) {
  const chatGenerator = new ScriptedChatGenerator(script);
  const lookup = new Tool({
    name: "lookup",
    description: "Look a topic up.",
    parameters: { type: "object", properties: { topic: { type: "string" }, customer: { type: "string" } }, required: ["topic", "customer"] },
    inputsFromState: { customer: "customer" },
    outputsToState: { sources: { source: "found" } },
    function: async (args, { signal }) => {
      log.push(`lookup ${String(args.topic)} for ${String(args.customer)}`);
      if (options.lookup) await options.lookup(signal);
      return { found: [`${String(args.topic)}.pdf`] };
    },
  });
  const publish = new Tool({
    name: "publish",
    description: "Publish a finding.",
    parameters: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    function: (args) => {
      log.push(`publish ${String(args.title)}`);
      return "published";
    },
  });
  const agent = new Agent({
    name: "research",
    chatGenerator,
    tools: [lookup, publish],
    stateSchema: researchState,
    systemPrompt: "You research.",
    outputSchema: z.object({ summary: z.string() }),
    ...(options.defer && { confirmationStrategies: { publish: new DeferredConfirmationStrategy() } }),
  });
  return { agent, chatGenerator };
}

function coordinator(research: Agent<typeof researchState, never, never>, script: ConstructorParameters<typeof ScriptedChatGenerator>[0], log: string[]) {
  const chatGenerator = new ScriptedChatGenerator(script);
  const note = new Tool({
    name: "note",
    description: "Write to the log.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outputsToState: { log: { source: "entry" } },
    function: (args) => {
      log.push(`note ${String(args.text)}`);
      return { entry: String(args.text) };
    },
  });
  const tool = research.asTool({ name: "research", description: "Researches a topic.", inputsFromState: { customer_id: "customer" }, outputsToState: { sources: { source: "sources" } } });
  const agent = new Agent({ name: "coordinator", chatGenerator, tools: [tool, note], stateSchema: teamState });
  return { agent, chatGenerator, tool };
}

describe("agent.asTool()", () => {
  test("runs the sub-agent on the task with mapped state, maps its state back, and shows the caller's model its typed output", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "lookup", { topic: "lamps" })), text('{"summary":"Lamps are in stock."}')], log);
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "Find lamp stock." })), text("Done: lamps are in stock.")], log);
    expect(team.tool.parameters).toEqual({ type: "object", properties: { input: { type: "string", description: "The task for the agent, with everything it needs to know." } }, required: ["input"], additionalProperties: false });

    const result = await team.agent.run({ messages: [ChatMessage.fromUser("Lamps?")], customer_id: "c-42" });
    expect(result.exitReason).toBe("text");
    expect(log).toEqual(["lookup lamps for c-42"]);
    expect(result.sources).toEqual(["lamps.pdf"]);
    // The sub-run started from the task alone (with its own system prompt): none of the caller's conversation.
    expect(research.chatGenerator.requests[0]!.messages.map((m) => m.text)).toEqual(["You research.", "Find lamp stock."]);
    // The caller's model read the sub-agent's output as JSON.
    expect(result.messages[2]!.toolCallResult!.result).toBe('{"summary":"Lamps are in stock."}');
    // The customer id was never shown to the caller's model as a parameter.
    expect(JSON.stringify(team.chatGenerator.requests[0]!.tools)).not.toContain("customer");
  });

  test("the sub-run's stream chunks reach the caller's stream tagged with the tool's name", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "lookup", { topic: "lamps" })), text('{"summary":"ok"}')], log);
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "go" })), text("done")], log);
    const chunks: StreamingChunk[] = [];
    for await (const event of team.agent.stream({ messages: [ChatMessage.fromUser("go")], customer_id: "c-1" })) if (event.type !== "result") chunks.push(event);
    expect(chunks.map((c) => [c.type, c.agent ?? "-"])).toEqual([
      ["toolCallDelta", "-"],
      ["finish", "-"],
      ["toolCallDelta", "research"],
      ["finish", "research"],
      ["toolResult", "research"],
      ["finish", "research"],
      ["text", "research"],
      ["finish", "research"],
      ["toolResult", "-"],
      ["finish", "-"],
      ["text", "-"],
      ["finish", "-"],
    ]);
  });

  test("a confirmation the sub-agent defers pauses the whole run; resuming runs only what had not run", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "publish", { title: "Lamps" })), text('{"summary":"published"}')], log, { defer: true });
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "publish it" }), call("c2", "note", { text: "asked research" })), text("All done.")], log);

    const paused = await team.agent.run({ messages: [ChatMessage.fromUser("Publish lamps")], customer_id: "c-7" });
    expect(paused.exitReason).toBe("confirmation_required");
    if (paused.exitReason !== "confirmation_required") throw new Error("unreachable");
    expect(paused.pendingConfirmations).toEqual([{ toolCallId: "c1/r1", toolName: "publish", arguments: { title: "Lamps" }, agent: "research" }]);
    // The other call of the step ran and merged; the paused one left no message yet.
    expect(log).toEqual(["note asked research"]);
    expect(paused.log).toEqual(["asked research"]);
    expect(paused.messages.at(-1)!.role).toBe("assistant");

    const snapshot = JSON.parse(JSON.stringify(paused.snapshot));
    expect(Object.keys(snapshot.toolStep.nested)).toEqual(["c1"]);
    expect(Object.keys(snapshot.toolStep.done)).toEqual(["c2"]);

    const resumed = await team.agent.run({ snapshot, decisions: { "c1/r1": { action: "confirm" } } });
    expect(resumed.exitReason).toBe("text");
    expect(log).toEqual(["note asked research", "publish Lamps"]);
    expect(resumed.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallResult!.origin.id, m.toolCallResult!.result])).toEqual([
      ["c1", '{"summary":"published"}'],
      ["c2", '{"entry":"asked research"}'],
    ]);
    expect(resumed.log).toEqual(["asked research"]);
    expect(resumed.usage.toolCalls).toBe(2);
  });

  test("a rejected nested call reaches the sub-agent as a rejection", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "publish", { title: "Lamps" })), text('{"summary":"not published"}')], log, { defer: true });
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "publish it" })), text("ok")], log);
    const paused = await team.agent.run({ messages: [ChatMessage.fromUser("Publish")], customer_id: "c-7" });
    const resumed = await team.agent.run({ snapshot: paused.snapshot!, decisions: { "c1/r1": { action: "reject", feedback: "Not yet." } } });
    expect(log).toEqual([]);
    expect(research.chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult!.result).toBe("Not yet.");
    expect(resumed.exitReason).toBe("text");
  });

  test("a call that reads what a paused agent tool writes waits for it and runs on resume", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "publish", { title: "Lamps" })), text('{"summary":"x"}')], log, { defer: true });
    const reader = new Tool({
      name: "count_sources",
      description: "Counts the sources.",
      parameters: { type: "object", properties: { sources: { type: "array" } }, required: [] },
      inputsFromState: { sources: "sources" },
      function: (args) => {
        log.push(`count ${JSON.stringify(args.sources ?? null)}`);
        return "counted";
      },
    });
    const chatGenerator = new ScriptedChatGenerator([calls(call("c1", "research", { input: "go" }), call("c2", "count_sources", {})), text("ok")]);
    const tool = research.agent.asTool({ name: "research", description: "d", outputsToState: { sources: { source: "sources" } } });
    const agent = new Agent({ chatGenerator, tools: [tool, reader], stateSchema: teamState });
    const paused = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    expect(paused.exitReason).toBe("confirmation_required");
    expect(log).toEqual([]);
    expect(Object.keys(paused.snapshot!.toolStep!.done ?? {})).toEqual([]);
    const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { "c1/r1": { action: "confirm" } } });
    expect(resumed.exitReason).toBe("text");
    expect(log).toEqual(["publish Lamps", "count null"]);
  });

  test("outside an Agent run (ToolRunner) an agent tool cannot pause: the call fails with a message", async () => {
    const research = researchAgent([calls(call("r1", "publish", { title: "Lamps" }))], [], { defer: true });
    const runner = new ToolRunner({ tools: [research.agent.asTool({ name: "research", description: "d" })] });
    const result = await runner.call(runner.newState(), { name: "research", arguments: { input: "publish" } });
    expect(result).toEqual({
      error: true,
      text: "Tool 'research' failed: its agent paused for confirmation of publish, and a call outside an Agent run (ToolRunner, MCP) cannot pause; give that agent a BlockingConfirmationStrategy.",
    });
  });

  test("resuming checks the decisions and the nested snapshot before anything runs", async () => {
    const log: string[] = [];
    const research = researchAgent([calls(call("r1", "publish", { title: "Lamps" })), text('{"summary":"x"}')], log, { defer: true });
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "publish" })), text("ok")], log);
    const paused = await team.agent.run({ messages: [ChatMessage.fromUser("Publish")], customer_id: "c-7" });
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot));

    expect((await rejectionOf(team.agent.run({ snapshot, decisions: {} }))).message).toBe(
      'Agent.run resumes a run waiting for confirmation of c1/r1 (publish); pass decisions: { "c1/r1": { action: "confirm" } } (or "reject", or "modify" with arguments).',
    );
    expect((await rejectionOf(team.agent.run({ snapshot, decisions: { "c1/r1": { action: "confirm" }, c1: { action: "confirm" } } }))).message).toBe(
      "Agent.run was given a decision for 'c1', which is not a call waiting for confirmation; pending calls: c1/r1.",
    );
    // A forged sub-run: its own Agent refuses it when the caller resumes.
    const forged = JSON.parse(JSON.stringify(snapshot));
    forged.toolStep.nested.c1.snapshot.toolStep.pending[0].arguments = { title: "Something else" };
    const error = await rejectionOf(team.agent.run({ snapshot: forged, decisions: { "c1/r1": { action: "confirm" } } }));
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.message).toBe("Agent.run was given a snapshot whose toolStep.pending[0].arguments differ from the arguments of the call in state.messages; resume only with a snapshot a stopped run produced, unchanged.");
    const notAgent = JSON.parse(JSON.stringify(snapshot));
    notAgent.toolStep.nested = { c9: notAgent.toolStep.nested.c1 };
    expect((await rejectionOf(team.agent.run({ snapshot: notAgent, decisions: { "c9/r1": { action: "confirm" } } }))).message).toBe(
      "Agent.run was given a snapshot whose toolStep.nested.c9 names no tool call of the step; resume only with a snapshot a stopped run produced, unchanged.",
    );
    expect(log).toEqual([]);
  });

  test("aborting the caller aborts the sub-run's tools", async () => {
    let seen: AbortSignal | undefined;
    const research = researchAgent([calls(call("r1", "lookup", { topic: "slow" }))], [], {
      lookup: (signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
    });
    const team = coordinator(research.agent as never, [calls(call("c1", "research", { input: "slow" }))], []);
    const controller = new AbortController();
    const running = team.agent.run({ messages: [ChatMessage.fromUser("go")], customer_id: "c-1", signal: controller.signal });
    while (!seen) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await rejectionOf(running)).toBeInstanceOf(AbortError);
    expect(seen.aborted).toBe(true);
  });

  test("an agent that calls itself stops at the nesting limit with an error the model reads", async () => {
    const chatGenerator = new ScriptedChatGenerator(Array.from({ length: 20 }, (_, i) => (i < 8 ? calls(call(`s${i}`, "self", { input: "again" })) : text("stop"))));
    // A Toolset filled after the Agent exists: the Agent's own tool.
    class Later extends Toolset {
      fill(tools: Tool[]) {
        this.replaceTools(tools);
      }
    }
    const later = new Later([]);
    const recursive = new Agent({ chatGenerator, tools: [later] });
    later.fill([recursive.asTool({ name: "self", description: "Me again." })]);
    const result = await recursive.run({ messages: [ChatMessage.fromUser("go")] });
    expect(result.exitReason).toBe("text");
    const failures = chatGenerator.requests.flatMap((request) => request.messages.filter((m) => m.toolCallResult?.error).map((m) => m.toolCallResult!.result));
    expect(new Set(failures).size).toBe(1);
    expect(failures[0]).toBe("Tool 'self' failed: agents would nest 9 deep, past the limit of 8; an agent that calls itself (directly or through others) needs an exit.");
  });

  test("configuration errors name the sub-agent's keys", () => {
    const { agent } = researchAgent([], []);
    expect(() => agent.asTool({ name: "r", description: "d", inputsFromState: { customer_id: "client" } })).toThrow(
      new ConfigurationError("Agent tool 'r'", "Agent tool 'r' maps 'customer_id' in inputsFromState to 'client', which is not a state key of its agent; map to one of: customer, sources."),
    );
    expect(() => agent.asTool({ name: "r", description: "d", outputsToState: { sources: { source: "found" } } })).toThrow(
      "Agent tool 'r' has outputsToState.sources with source 'found'; the source is one of its agent's state keys or output, text, exitReason: output, text, exitReason, customer, sources, messages.",
    );
    expect(() => agent.asTool({ name: "bad name", description: "d" })).toThrow("Tool 'bad name' has an invalid name: 'bad name' is not a valid tool name: use 1-64 characters of letters, digits, '_' and '-'.");
    // A caller key the caller's schema lacks is refused by the caller, as for any tool.
    const tool = agent.asTool({ name: "r", description: "d", inputsFromState: { nope: "customer" } });
    expect(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [tool], stateSchema: teamState })).toThrow(ConfigurationError);
  });
});
