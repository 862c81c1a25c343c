import { z } from "zod";
import { Agent, budget, ChatMessage, ConfigurationError, DeferredConfirmationStrategy, SnapshotError } from "toolwright";
import { ConversationAppendError, ConversationConflictError, memoryConversationStore, type ConversationStore } from "toolwright/conversations";
import { ScriptedChatGenerator } from "toolwright/testing";
import { calls, deskState, deskTools, lookupCall, refundCall, rejectionOf } from "../helpers/refundDesk";

const roles = (messages: readonly ChatMessage[]) => messages.map((m) => `${m.role}:${m.toolCallResult?.result ?? m.text ?? m.toolCalls.map((c) => c.toolName).join(",")}`);

function desk(script: ConstructorParameters<typeof ScriptedChatGenerator>[0], options: { confirm?: boolean; snapshotKey?: string } = {}) {
  const model = new ScriptedChatGenerator(script);
  const agent = new Agent({
    chatGenerator: model,
    tools: deskTools([]),
    stateSchema: deskState,
    systemPrompt: "You are the refund desk.",
    ...(options.confirm && { confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } }),
    ...(options.snapshotKey !== undefined && { snapshotKey: options.snapshotKey }),
  });
  return { agent, model };
}

describe("agent.run with conversation", () => {
  let store: ConversationStore;
  beforeEach(() => {
    store = memoryConversationStore();
  });

  it("runs the second turn on the first turn's messages and appends each turn's new messages once, without the system prompt", async () => {
    const { agent, model } = desk([calls(lookupCall), ChatMessage.fromAssistant("Order A-100 was 49."), ChatMessage.fromAssistant("You are welcome.")]);
    const first = await agent.run({ messages: [ChatMessage.fromUser("How much was A-100?")], customer_id: "c-7", runId: "req-1", conversation: { store, threadId: "t-1" } });
    expect(first.conversation).toEqual({ threadId: "t-1", version: 1, appended: 4 });
    const second = await agent.run({ messages: [ChatMessage.fromUser("Thanks!")], customer_id: "c-7", runId: "req-2", conversation: { store, threadId: "t-1" } });
    expect(second.conversation).toEqual({ threadId: "t-1", version: 2, appended: 2 });
    // The model saw the system prompt, the whole first turn and the new question.
    expect(roles(model.requests[2]!.messages)).toEqual(["system:You are the refund desk.", "user:How much was A-100?", "assistant:lookup_order", 'tool:{"orderId":"A-100","paid":49}', "assistant:Order A-100 was 49.", "user:Thanks!"]);
    const thread = await store.load("t-1");
    expect(roles(thread.messages)).toEqual(roles(second.messages.slice(1)));
    expect(thread.version).toBe(2);
  });

  it("appends nothing again when a request is retried with the same run id and the model answers the same", async () => {
    const { agent } = desk([ChatMessage.fromAssistant("Hello."), ChatMessage.fromAssistant("Hello.")]);
    const input = { messages: [ChatMessage.fromUser("Hi")], customer_id: "c-7", runId: "req-1", conversation: { store, threadId: "t-retry", onConflict: "append" as const } };
    expect((await agent.run(input)).conversation).toEqual({ threadId: "t-retry", version: 1, appended: 2 });
    expect((await agent.run(input)).conversation).toEqual({ threadId: "t-retry", version: 1, appended: 0 });
    expect((await store.load("t-retry")).messages).toHaveLength(2);
  });

  it("keeps the thread unchanged while a run is paused, and appends the whole run once when it is resumed", async () => {
    const { agent } = desk([calls(refundCall), ChatMessage.fromAssistant("Refunded."), ChatMessage.fromAssistant("Refunded.")], { confirm: true, snapshotKey: "k".repeat(32) });
    await store.append("t-pause", "earlier", [ChatMessage.fromUser("Hello"), ChatMessage.fromAssistant("Hi, how can I help?")]);
    const paused = await agent.run({ messages: [ChatMessage.fromUser("Refund A-100")], customer_id: "c-7", runId: "req-9", conversation: { store, threadId: "t-pause" } });
    expect(paused.exitReason).toBe("confirmation_required");
    expect(paused.conversation).toEqual({ threadId: "t-pause", version: 1, appended: 0 });
    expect(paused.snapshot!.conversation).toEqual({ threadId: "t-pause", runId: "req-9", version: 1, from: 2 });
    expect((await store.load("t-pause")).version).toBe(1);

    const snapshot = JSON.parse(JSON.stringify(paused.snapshot));
    const decisions = { r1: { action: "confirm" as const } };
    const done = await agent.run({ snapshot, decisions, conversation: { store, threadId: "t-pause" } });
    expect(done.conversation).toEqual({ threadId: "t-pause", version: 2, appended: 4 });
    const thread = await store.load("t-pause");
    expect(roles(thread.messages)).toEqual(["user:Hello", "assistant:Hi, how can I help?", "user:Refund A-100", "assistant:issue_refund", "tool:Refunded 49 on A-100.", "assistant:Refunded."]);
    // Approving twice (a second click, a retried request) appends nothing more.
    expect((await agent.run({ snapshot, decisions, conversation: { store, threadId: "t-pause" } })).conversation).toEqual({ threadId: "t-pause", version: 2, appended: 0 });
    expect((await store.load("t-pause")).messages).toHaveLength(6);
  });

  it("refuses to resume a thread's snapshot without conversation, in another thread, under another run id, or with its binding changed", async () => {
    const { agent } = desk([calls(refundCall)], { confirm: true, snapshotKey: "k".repeat(32) });
    const paused = await agent.run({ messages: [ChatMessage.fromUser("Refund A-100")], customer_id: "c-7", runId: "req-9", conversation: { store, threadId: "t-a" } });
    const snapshot = paused.snapshot!;
    const decisions = { r1: { action: "confirm" as const } };
    const cases: [Promise<unknown>, string][] = [
      [agent.run({ snapshot, decisions }), "Agent.run was given a snapshot of a run in thread 't-a' without conversation; pass conversation: { store, threadId: 't-a' } so that its messages are appended when it ends."],
      [agent.run({ snapshot, decisions, conversation: { store, threadId: "t-b" } }), "Agent.run was given conversation.threadId 't-b' and a snapshot of a run in thread 't-a'; resume a run in the thread it started in."],
      [agent.run({ snapshot, decisions, runId: "other", conversation: { store, threadId: "t-a" } }), "Agent.run was given runId 'other' and a snapshot of run 'req-9' in thread 't-a'; a resumed run keeps its id, so leave runId out."],
    ];
    for (const [call, message] of cases) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(message);
    }
    // A changed binding breaks the signature: the run never starts, nothing is appended.
    const moved = { ...snapshot, conversation: { ...snapshot.conversation!, threadId: "t-b" } };
    const error = await rejectionOf(agent.run({ snapshot: moved, decisions, conversation: { store, threadId: "t-b" } }));
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.message).toContain("does not match its content");
    expect((await store.load("t-b")).version).toBe(0);
  });

  it("gives the second of two concurrent runs on one thread a ConversationAppendError with its result, and appends it after the first with onConflict append", async () => {
    const { agent } = desk([ChatMessage.fromAssistant("First."), ChatMessage.fromAssistant("Second."), ChatMessage.fromAssistant("Third."), ChatMessage.fromAssistant("Fourth.")]);
    const run = (runId: string, onConflict?: "append") => agent.run({ messages: [ChatMessage.fromUser(runId)], customer_id: "c-7", runId, conversation: { store, threadId: "t-race", ...(onConflict && { onConflict }) } });
    const [a, b] = await Promise.allSettled([run("req-a"), run("req-b")]);
    expect(a.status).toBe("fulfilled");
    const error = (b as PromiseRejectedResult).reason as ConversationAppendError;
    expect(error).toBeInstanceOf(ConversationAppendError);
    expect({ conflict: error.conflict, runId: error.runId, threadId: error.threadId, messages: roles(error.messages) }).toEqual({ conflict: true, runId: "req-b", threadId: "t-race", messages: ["user:req-b", "assistant:Second."] });
    expect(error.cause).toBeInstanceOf(ConversationConflictError);
    expect(error.message).toBe(
      "Conversation 't-race': run 'req-b' ended (text) but its 2 messages were not appended: Conversation 't-race': the append expected version 0 but the thread is at version 1 (another run appended first). Load the thread again and retry the append with expectedVersion 1. The result and the messages are on this error (error.result, error.messages). Run again on the thread as it is now, or pass conversation.onConflict: \"append\" to append after the other run.",
    );
    expect((error.result as { lastMessage: ChatMessage }).lastMessage.text).toBe("Second.");
    expect(roles((await store.load("t-race")).messages)).toEqual(["user:req-a", "assistant:First."]);

    const both = await Promise.all([run("req-c", "append"), run("req-d", "append")]);
    expect(both.map((r) => r.conversation!.version).sort()).toEqual([2, 3]);
    expect((await store.load("t-race")).messages).toHaveLength(6);
  });

  it("keeps the result on a ConversationAppendError when the store fails at the append", async () => {
    const { agent } = desk([ChatMessage.fromAssistant("Hello.")]);
    const failing: ConversationStore = { ...store, append: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")) };
    const error = (await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi")], customer_id: "c-7", runId: "req-1", conversation: { store: failing, threadId: "t-down" } }))) as ConversationAppendError;
    expect(error).toBeInstanceOf(ConversationAppendError);
    expect({ conflict: error.conflict, answer: (error.result as { lastMessage: ChatMessage }).lastMessage.text, messages: roles(error.messages) }).toEqual({ conflict: false, answer: "Hello.", messages: ["user:Hi", "assistant:Hello."] });
    expect(error.message).toBe(
      "Conversation 't-down': run 'req-1' ended (text) but its 2 messages were not appended: connect ECONNREFUSED 127.0.0.1:5432. The result and the messages are on this error (error.result, error.messages). Append them with store.append('t-down', 'req-1', error.messages) once the cause is fixed.",
    );
  });

  it("saves persistState keys with the thread and gives them to the next run", async () => {
    const schema = { notes: { type: z.array(z.string()) } };
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("One."), ChatMessage.fromAssistant("Two.")]);
    const agent = new Agent({ chatGenerator: model, stateSchema: schema });
    const first = await agent.run({ messages: [ChatMessage.fromUser("a")], notes: ["kept"], conversation: { store, threadId: "t-state", persistState: ["notes"] } });
    expect(first.notes).toEqual(["kept"]);
    expect((await store.load("t-state")).state).toEqual({ notes: ["kept"] });
    const second = await agent.run({ messages: [ChatMessage.fromUser("b")], conversation: { store, threadId: "t-state", persistState: ["notes"] } });
    expect(second.notes).toEqual(["kept"]);
    const refused = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("c")], conversation: { store, threadId: "t-state", persistState: ["nope"] } }));
    expect(refused.message).toBe("Agent.run has conversation.persistState naming 'nope', which is not a state key of the Agent (besides messages, which the thread keeps); name keys of its stateSchema: notes.");
  });

  it("appends a stopped run's messages at the stop, and only what the continuation adds when it continues", async () => {
    const schema = { ...deskState, limits: { type: z.record(z.string(), z.unknown()) } };
    const model = new ScriptedChatGenerator([calls(lookupCall), ChatMessage.fromAssistant("It was 49.")]);
    const agent = new Agent({ chatGenerator: model, tools: deskTools([]), stateSchema: schema, middleware: [budget({ maxModelCalls: 1, limitsStateKey: "limits" })] });
    const stopped = await agent.run({ messages: [ChatMessage.fromUser("A-100?")], customer_id: "c-7", runId: "req-s", conversation: { store, threadId: "t-stop" } });
    expect(stopped.exitReason).toBe("budget_exhausted");
    expect(stopped.conversation).toEqual({ threadId: "t-stop", version: 1, appended: 3 });
    expect(stopped.snapshot!.conversation).toEqual({ threadId: "t-stop", runId: "req-s", version: 1, from: 0, appended: 3 });
    const done = await agent.run({ snapshot: stopped.snapshot!, stateUpdates: { limits: { maxModelCalls: 5 } }, conversation: { store, threadId: "t-stop" } });
    expect(done.conversation).toEqual({ threadId: "t-stop", version: 2, appended: 1 });
    const thread = await store.load("t-stop");
    expect(roles(thread.messages).at(-1)).toBe("assistant:It was 49.");
    expect(thread.messages).toHaveLength(4);
  });

  it("refuses a conversation option that is not { store, threadId, persistState?, onConflict? }", async () => {
    const { agent } = desk([]);
    const messages = [ChatMessage.fromUser("x")];
    const cases: [unknown, string][] = [
      ["t-1", 'Agent.run has a conversation that is not an object, got string \"t-1\". Pass conversation: { store, threadId, persistState?, onConflict? } with a store from toolwright/conversations.'],
      [{ store, threadId: "t", extra: 1 }, "Agent.run has conversation.extra, which is not a conversation option. Pass conversation: { store, threadId, persistState?, onConflict? } with a store from toolwright/conversations."],
      [{ store: {}, threadId: "t" }, "Agent.run has a conversation.store that is not a ConversationStore (an object with load and append), got an object. Pass conversation: { store, threadId, persistState?, onConflict? } with a store from toolwright/conversations."],
      [{ store, threadId: 7 }, "Agent.run has a conversation.threadId that is not a string, got number 7. Pass conversation: { store, threadId, persistState?, onConflict? } with a store from toolwright/conversations."],
      [{ store, threadId: "t", onConflict: "wait" }, 'Agent.run has conversation.onConflict "wait"; it is "error" (the default) or "append".'],
    ];
    for (const [conversation, message] of cases) {
      const error = await rejectionOf(agent.run({ messages, customer_id: "c", conversation: conversation as never }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(message);
    }
  });
});
