import { Agent, ChatMessage, DeferredConfirmationStrategy, snapshotOf, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { callsReply, guardedAgent, guardedInput, recordingStrategy, rejectionOf } from "./securityAgent";

const prototypeNames = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"];
const transfer = (id: string | undefined, amount = 5): ToolCall => ({ ...(id !== undefined && { id }), toolName: "transfer", arguments: { to: "bob", amount } });

describe("confirmation lookups keyed by text from outside", () => {
  it.each(prototypeNames)("asks a Blocking strategy about a call whose id is '%s'", async (id) => {
    const blocking = recordingStrategy(() => ({ action: "reject" }));
    const { agent, log } = guardedAgent({ script: [callsReply(transfer(id)), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { transfer: blocking.strategy } });

    const result = await agent.run(guardedInput());

    expect(blocking.requests.map((r) => r.toolCallId)).toEqual([id]);
    expect(log).toEqual([]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'transfer' was rejected by the user.", error: true });
  });

  it.each(prototypeNames)("pauses a Deferred strategy on a call whose id is '%s' and runs it only with its own decision", async (id) => {
    const { agent, log } = guardedAgent({ script: [callsReply(transfer(id)), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { "*": new DeferredConfirmationStrategy() } });

    const paused = await agent.run(guardedInput());
    expect(paused.exitReason).toBe("confirmation_required");
    expect(paused.pendingConfirmations).toEqual([{ toolCallId: id, toolName: "transfer", arguments: { to: "bob", amount: 5 } }]);
    expect(log).toEqual([]);

    const resumed = await agent.run({ snapshot: JSON.parse(JSON.stringify(paused.snapshot)), decisions: new Map([[id, { action: "confirm" as const }]]) });
    expect(resumed.exitReason).toBe("text");
    expect(log).toEqual([{ tool: "transfer", callId: id, args: { to: "bob", amount: 5, owner: "owner-secret-7731" } }]);
  });

  it.each(prototypeNames)("asks the \"*\" strategy about a tool named '%s' and runs it", async (name) => {
    const blocking = recordingStrategy();
    const named = new Tool({ name, description: "A tool with an unlucky name.", parameters: { type: "object", properties: {} }, function: () => "ran" });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([callsReply({ id: "c1", toolName: name, arguments: {} }), ChatMessage.fromAssistant("Done.")]),
      tools: [named],
      confirmationStrategies: { "*": blocking.strategy },
    });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Go.")] });

    expect(blocking.requests.map((r) => r.toolName)).toEqual([name]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "ran", error: false });
  });

  it.each(prototypeNames)("answers a call to an unknown tool named '%s' with the list of tools, asking nobody", async (name) => {
    const blocking = recordingStrategy();
    const { agent } = guardedAgent({ script: [callsReply({ id: "c1", toolName: name, arguments: {} }), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { "*": blocking.strategy } });

    const result = await agent.run(guardedInput());

    expect(blocking.requests).toEqual([]);
    expect(result.messages[2]!.toolCallResult!.result).toBe(`Tool '${name}' not found. Available tools: transfer, lookup, save_profile.`);
  });

  it("counts visits only for the run's tools, so a model inventing names cannot bloat or corrupt the snapshot", async () => {
    const { agent } = guardedAgent({
      script: [callsReply({ id: "c1", toolName: "constructor", arguments: {} }, { id: "c2", toolName: "__proto__", arguments: {} }, transfer("c3")), ChatMessage.fromAssistant("Done.")],
    });

    const error = await rejectionOf(agent.run({ ...guardedInput(), breakpoint: { at: "chat_generator", visit: 1 } }));

    expect(snapshotOf(error)!.visits).toEqual({ chatGenerator: 1, tools: { transfer: 1, "*": 1 } });
  });
});

describe("one decision per call", () => {
  it("keys calls that share an id by position, so confirming one runs only that one", async () => {
    const { agent, log } = guardedAgent({
      script: [callsReply(transfer("dup", 1), transfer("dup", 1000)), ChatMessage.fromAssistant("Done.")],
      confirmationStrategies: { transfer: new DeferredConfirmationStrategy() },
    });

    const paused = await agent.run(guardedInput());
    expect(paused.pendingConfirmations!.map((p) => [p.toolCallId, p.arguments.amount])).toEqual([
      ["#0", 1],
      ["#1", 1000],
    ]);

    const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { "#0": { action: "confirm" }, "#1": { action: "reject" } } });
    expect(log.map((e) => e.args.amount)).toEqual([1]);
    expect(resumed.transfers).toEqual([{ to: "bob", amount: 1 }]);
  });

  it("applies a modify decision to its own call only", async () => {
    const blocking = recordingStrategy((request) => (request.toolCallId === "#0" ? { action: "modify", arguments: { to: "carol", amount: 2 } } : { action: "confirm" }));
    const { agent, log } = guardedAgent({ script: [callsReply(transfer("dup", 1), transfer("dup", 3)), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { transfer: blocking.strategy } });

    await agent.run(guardedInput());

    expect(blocking.requests.map((r) => r.toolCallId)).toEqual(["#0", "#1"]);
    expect(log.map((e) => [e.args.to, e.args.amount])).toEqual([
      ["carol", 2],
      ["bob", 3],
    ]);
  });

  it("does not let an id shaped like a positional key take another call's decision", async () => {
    const { agent, log } = guardedAgent({
      script: [callsReply(transfer(undefined, 7), transfer("#0", 700)), ChatMessage.fromAssistant("Done.")],
      confirmationStrategies: { transfer: new DeferredConfirmationStrategy() },
    });

    const paused = await agent.run(guardedInput());
    expect(paused.pendingConfirmations!.map((p) => [p.toolCallId, p.arguments.amount])).toEqual([
      ["#0", 7],
      ["#1", 700],
    ]);

    await agent.run({ snapshot: paused.snapshot!, decisions: { "#0": { action: "confirm" }, "#1": { action: "reject" } } });
    expect(log.map((e) => e.args.amount)).toEqual([7]);
  });
});
