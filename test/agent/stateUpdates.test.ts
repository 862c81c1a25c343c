import { z } from "zod";
import { Agent, ChatMessage, ConfigurationError, type Middleware, StateTypeError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/** An Agent whose middleware stops every model call until state key `approved` is true. */
function gated(script: ChatMessage[]) {
  const gate: Middleware = { name: "gate", beforeModel: ({ state }) => (state.get("approved") === true ? undefined : { stop: { reason: "waiting for approval" } }) };
  return new Agent({ chatGenerator: new ScriptedChatGenerator(script), stateSchema: { approved: { type: z.boolean() } }, middleware: [gate] });
}

describe("Agent.run stateUpdates", () => {
  it("sets state over a stopped run's snapshot before it continues, so the middleware that stopped it sees the change", async () => {
    const agent = gated([ChatMessage.fromAssistant("Approved and done.")]);
    const stopped = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    const resumed = await agent.run({ snapshot: JSON.parse(JSON.stringify(stopped.snapshot)), stateUpdates: { approved: true } });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.approved).toBe(true);
    expect(resumed.lastMessage.text).toBe("Approved and done.");
  });

  it("refuses stateUpdates without a snapshot, with messages, or with a value the key's type refuses", async () => {
    const agent = gated([]);
    const stopped = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    await expect(agent.run({ messages: [ChatMessage.fromUser("go")], stateUpdates: { approved: true } })).rejects.toThrow(
      new ConfigurationError("Agent.run", "Agent.run was given stateUpdates without a snapshot; they change a stopped or paused run's state before it continues, so pass them with its snapshot (agent.run({ snapshot, stateUpdates })), or give a new run's state as its keys (agent.run({ messages, key: value })).")
    );
    await expect(agent.run({ snapshot: stopped.snapshot, stateUpdates: { messages: [] } })).rejects.toThrow(
      "Agent.run has stateUpdates with 'messages'; a continued run keeps its snapshot's conversation, so set other state keys (the state a middleware or guardrail reads).",
    );
    await expect(agent.run({ snapshot: stopped.snapshot, stateUpdates: [] as never })).rejects.toThrow("Agent.run has stateUpdates that is not an object of { stateKey: value }, got an array.");
    const refused = agent.run({ snapshot: stopped.snapshot, stateUpdates: { approved: "yes" } });
    await expect(refused).rejects.toBeInstanceOf(StateTypeError);
    await expect(refused).rejects.toThrow("State key 'approved' rejected a value that does not match its type: approved: Invalid input: expected boolean, received string. The value was not stored.");
  });
});
