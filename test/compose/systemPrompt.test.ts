import { z } from "zod";
import { Agent, ChatMessage, ConfigurationError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { rejectionOf } from "../helpers/notesAgent";

const customerState = {
  customer: { type: z.object({ name: z.string(), plan: z.enum(["free", "pro"]) }) },
  notes: { type: z.array(z.string()), handler: undefined },
};

function agentWith(systemPrompt: ConstructorParameters<typeof Agent<typeof customerState>>[0]["systemPrompt"]) {
  const chatGenerator = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi!"), ChatMessage.fromAssistant("Hi again!")]);
  return { chatGenerator, agent: new Agent({ chatGenerator, stateSchema: customerState, systemPrompt }) };
}

describe("systemPrompt as a function of the run's state", () => {
  test("is evaluated at the run's start with the typed initial state and the run id", async () => {
    const seen: unknown[] = [];
    const { agent, chatGenerator } = agentWith((state, run) => {
      seen.push(state, run);
      return `You help ${state.customer?.name} (${state.customer?.plan} plan).`;
    });
    const result = await agent.run({ messages: [ChatMessage.fromUser("hello")], customer: { name: "Ada", plan: "pro" }, runId: "run-7" });
    expect(result.messages[0]!.role).toBe("system");
    expect(result.messages[0]!.text).toBe("You help Ada (pro plan).");
    expect(chatGenerator.requests[0]!.messages[0]!.text).toBe("You help Ada (pro plan).");
    expect(seen[1]).toEqual({ runId: "run-7", variables: {} });
    // The function gets a frozen copy: what it does to it leaves the run's state alone.
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect((seen[0] as { messages: ChatMessage[] }).messages.map((m) => m.text)).toEqual(["hello"]);
  });

  test("may be async, and a per-run function replaces the Agent's", async () => {
    const { agent } = agentWith(() => "agent prompt");
    const result = await agent.run({ messages: [ChatMessage.fromUser("hi")], customer: { name: "Bo", plan: "free" }, systemPrompt: async (state) => `run prompt for ${state.customer?.name}` });
    expect(result.messages[0]!.text).toBe("run prompt for Bo");
  });

  test("a resumed run keeps the prompt its conversation has", async () => {
    let calls = 0;
    const { agent } = agentWith(() => `prompt #${++calls}`);
    const first = await agent.run({ messages: [ChatMessage.fromUser("hi")], onCheckpoint: () => undefined, customer: { name: "Cy", plan: "free" }, breakpoint: { at: "chat_generator" } }).catch((e) => e);
    const resumed = await agent.run({ snapshot: first.snapshot });
    expect(calls).toBe(1);
    expect(resumed.messages[0]!.text).toBe("prompt #1");
  });

  test("a function that returns no string fails the run with a ConfigurationError; one that throws fails it with its error", async () => {
    const { agent } = agentWith(() => 42 as unknown as string);
    expect(await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("hi")] }))).toEqual(
      new ConfigurationError("Agent", "Agent has a systemPrompt function that returned number 42; it must return the prompt as a string (or a promise of one)."),
    );
    const boom = new Error("profile service down");
    const failing = agentWith(() => {
      throw boom;
    });
    expect(await rejectionOf(failing.agent.run({ messages: [ChatMessage.fromUser("hi")] }))).toBe(boom);
    expect(() => agentWith(7 as never)).toThrow("Agent has a systemPrompt that is not a string, a promptTemplate(...) or a function of the run's state, got number 7.");
  });
});
