import { Agent, ChatMessage, summarize, summaryStateKey } from "toolwright";
import { pgliteConversationStore, type ConversationStore } from "toolwright/conversations";
import { ScriptedChatGenerator } from "toolwright/testing";

jest.setTimeout(60_000);

const long = (text: string) => `${text} ${"x".repeat(400)}`;

describe("a long thread with summarize and persistState", () => {
  let store: ConversationStore;
  beforeAll(async () => {
    store = await pgliteConversationStore();
  });
  afterAll(async () => store.close());

  it("stores the summary with the thread, keeps every original message, and reuses the summary on the next turn", async () => {
    const summarizer = new ScriptedChatGenerator([ChatMessage.fromAssistant("Ana wants a refund of order 7; she was told it takes 5 days.")]);
    const replies = [long("answer 1"), long("answer 2"), long("answer 3"), "Yes, 5 days from today."].map((t) => ChatMessage.fromAssistant(t));
    const model = new ScriptedChatGenerator(replies);
    const agent = new Agent({
      chatGenerator: model,
      stateSchema: { conversation_summary: summaryStateKey() },
      middleware: [summarize({ chatGenerator: summarizer, maxTokens: 600, keepLast: 2 })],
    });
    const conversation = { store, threadId: "long-thread", persistState: ["conversation_summary"] };
    for (let turn = 1; turn <= 4; turn++) {
      await agent.run({ messages: [ChatMessage.fromUser(turn < 4 ? long(`question ${turn}`) : "So the refund takes 5 days?")], runId: `turn-${turn}`, conversation });
    }
    const thread = await store.load("long-thread");
    // Every original message is in the thread; the summary is the thread's state, not a message.
    expect(thread.messages.map((m) => m.text?.slice(0, 10))).toEqual(["question 1", "answer 1 x", "question 2", "answer 2 x", "question 3", "answer 3 x", "So the ref", "Yes, 5 day"]);
    expect(thread.state).toEqual({ conversation_summary: { covered: expect.any(Number), text: "Ana wants a refund of order 7; she was told it takes 5 days." } });
    // One summary was written (when the thread outgrew 600 tokens) and the later turn reused it from the thread's state.
    expect(summarizer.requests).toHaveLength(1);
    const lastRequest = model.requests.at(-1)!.messages;
    expect(lastRequest[0]!.text).toBe("[Summary of the earlier conversation]\nAna wants a refund of order 7; she was told it takes 5 days.");
    expect(lastRequest.at(-1)!.text).toBe("So the refund takes 5 days?");
  });
});
