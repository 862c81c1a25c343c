import { z } from "zod";
import { Agent, budget, ChatMessage, ConfigurationError, DeferredConfirmationStrategy, type ToolCall } from "toolwright";
import { RunQueue, RunStateError, RunWorker, type RunEventEntry, type RunOutcome } from "toolwright/bullmq";
import { memoryConversationStore, pgliteConversationStore, type ConversationStore } from "toolwright/conversations";
import { ScriptedChatGenerator, type ScriptEntry } from "toolwright/testing";
import { calls, deskState, deskTools, lookupCall, refundCall, rejectionOf } from "../helpers/refundDesk";
import { useRedisServer } from "../support/redisServer";

// PGlite starts a Postgres in WebAssembly for its scenarios: seconds on a loaded 2-core machine.
jest.setTimeout(60_000);

const redis = useRedisServer();

const snapshotKey = "conversation-run-key-conversation-run-key";
const stateSchema = { ...deskState, limits: { type: z.record(z.string(), z.unknown()) } };
const secondRefund: ToolCall = { id: "r2", toolName: "issue_refund", arguments: { orderId: "B-200", amount: 20 } };

const roles = (messages: readonly ChatMessage[]) => messages.map((m) => `${m.role}:${m.toolCallResult?.result ?? m.text ?? m.toolCalls.map((c) => c.toolName).join(",")}`);
const thread = async (store: ConversationStore, threadId: string) => {
  const { version, messages } = await store.load(threadId);
  return { version, messages: roles(messages) };
};

let names = 0;
/** One queue; `worker(store, script)` adds a RunWorker whose refund desk answers from `script`, as another process would. */
function setup() {
  const name = `thread${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const queue = new RunQueue({ connection, name });
  const workers: RunWorker[] = [];
  const worker = (conversationStore: ConversationStore | undefined, script: readonly ScriptEntry[], options: { confirm?: boolean; maxModelCalls?: number } = {}) => {
    const model = new ScriptedChatGenerator(script);
    const agent = new Agent({
      chatGenerator: model,
      tools: deskTools([]),
      stateSchema,
      snapshotKey,
      ...(options.confirm && { confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } }),
      ...(options.maxModelCalls !== undefined && { middleware: [budget({ maxModelCalls: options.maxModelCalls, limitsStateKey: "limits" })] }),
    });
    workers.push(new RunWorker({ agent, connection, name, ...(conversationStore && { conversationStore }) }));
    return model;
  };
  return { queue, worker, close: async () => Promise.all([queue.close(), ...workers.map((w) => w.close())]) };
}

function done(outcome: RunOutcome) {
  if (outcome.status !== "done") throw new Error(`done expected, got ${JSON.stringify(outcome)}`);
  return outcome.result;
}

async function events(queue: RunQueue, runId: string): Promise<RunEventEntry["event"][]> {
  const out: RunEventEntry["event"][] = [];
  for await (const { event } of queue.events(runId)) out.push(event);
  return out;
}

const confirm = { action: "confirm" as const };
const question = (text: string) => ({ messages: [ChatMessage.fromUser(text)], customer_id: "c-7" });

/** The scenarios every store runs: two turns, and a pause resumed. */
function sharedScenarios(storeFor: () => Promise<ConversationStore>) {
  it("runs two turns on one thread through the queue: the second on the first's history, each appended once", async () => {
    const store = await storeFor();
    const { queue, worker, close } = setup();
    try {
      const model = worker(store, [calls(lookupCall), ChatMessage.fromAssistant("Order A-100 was 49."), ChatMessage.fromAssistant("You are welcome.")]);
      const first = done(await queue.result(await queue.start({ ...question("How much was A-100?"), systemPrompt: "You are the refund desk.", conversation: { threadId: "t-turns" } }, { runId: "turn-1" })));
      expect(first.conversation).toEqual({ threadId: "t-turns", version: 1, appended: 4 });
      expect(Object.keys(first.state)).toEqual(["customer_id"]);
      const second = done(await queue.result(await queue.start({ ...question("Thanks!"), systemPrompt: "You are the refund desk.", conversation: { threadId: "t-turns" } }, { runId: "turn-2" })));
      expect(second.conversation).toEqual({ threadId: "t-turns", version: 2, appended: 2 });
      expect(roles(model.requests[2]!.messages)).toEqual(["system:You are the refund desk.", "user:How much was A-100?", "assistant:lookup_order", 'tool:{"orderId":"A-100","paid":49}', "assistant:Order A-100 was 49.", "user:Thanks!"]);
      expect(await thread(store, "t-turns")).toEqual({
        version: 2,
        messages: ["user:How much was A-100?", "assistant:lookup_order", 'tool:{"orderId":"A-100","paid":49}', "assistant:Order A-100 was 49.", "user:Thanks!", "assistant:You are welcome."],
      });
    } finally {
      await close();
      await store.close();
    }
  });

  it("keeps the thread unchanged through two pauses, and appends the run once when RunQueue.resume ends it, however often resume is called", async () => {
    const store = await storeFor();
    const { queue, worker, close } = setup();
    try {
      worker(store, [calls(refundCall), calls(secondRefund), ChatMessage.fromAssistant("Refunded both.")], { confirm: true });
      await store.append("t-pause", "earlier", [ChatMessage.fromUser("Hello"), ChatMessage.fromAssistant("Hi, how can I help?")]);
      const runId = await queue.start({ ...question("Refund A-100 and B-200"), conversation: { threadId: "t-pause" } }, { runId: "pause-1" });
      expect(await queue.result(runId)).toMatchObject({ status: "paused", pendingConfirmations: [{ toolCallId: "r1" }] });
      expect((await thread(store, "t-pause")).version).toBe(1);

      // Two replicas resume the same pause (a double click): one wins, the other is refused.
      const both = await Promise.allSettled([queue.resume(runId, { r1: confirm }), queue.resume(runId, { r1: confirm })]);
      expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = (both.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as RunStateError;
      expect(refused).toBeInstanceOf(RunStateError);
      expect(["queued", "running"]).toContain(refused.status);
      expect(refused.message).toBe(`RunQueue.resume: run 'pause-1' is not paused (it is ${refused.status}); another resume of the same pause may have won, or the run was cancelled. Follow it with queue.events('pause-1').`);

      expect(await queue.result(runId)).toMatchObject({ status: "paused", pendingConfirmations: [{ toolCallId: "r2" }] });
      expect((await thread(store, "t-pause")).version).toBe(1);
      await queue.resume(runId, { r2: confirm });
      const result = done(await queue.result(runId));
      expect(result.conversation).toEqual({ threadId: "t-pause", version: 2, appended: 6 });
      expect(await thread(store, "t-pause")).toEqual({
        version: 2,
        messages: ["user:Hello", "assistant:Hi, how can I help?", "user:Refund A-100 and B-200", "assistant:issue_refund", "tool:Refunded 49 on A-100.", "assistant:issue_refund", "tool:Refunded 20 on B-200.", "assistant:Refunded both."],
      });
      await expect(queue.resume(runId, { r2: confirm })).rejects.toThrow("RunQueue.resume: run 'pause-1' is not paused (it is done); another resume of the same pause may have won, or the run was cancelled. Follow it with queue.events('pause-1').");
      expect((await thread(store, "t-pause")).version).toBe(2);
    } finally {
      await close();
      await store.close();
    }
  });
}

describe("RunQueue.start with conversation (memoryConversationStore)", () => {
  sharedScenarios(async () => memoryConversationStore());

  it("appends a stopped run's messages at the stop, and only what RunQueue.continue adds when it ends", async () => {
    const store = memoryConversationStore();
    const { queue, worker, close } = setup();
    try {
      worker(store, [calls(lookupCall), ChatMessage.fromAssistant("It was 49.")], { maxModelCalls: 1 });
      const runId = await queue.start({ ...question("A-100?"), conversation: { threadId: "t-stop" } }, { runId: "stop-1" });
      const stopped = await queue.result(runId);
      if (stopped.status !== "stopped") throw new Error(`stopped expected, got ${stopped.status}`);
      expect(stopped.result.conversation).toEqual({ threadId: "t-stop", version: 1, appended: 3 });
      expect((await thread(store, "t-stop")).messages).toEqual(["user:A-100?", "assistant:lookup_order", 'tool:{"orderId":"A-100","paid":49}']);

      await queue.continue(runId, { state: { limits: { maxModelCalls: 5 } } });
      expect(done(await queue.result(runId)).conversation).toEqual({ threadId: "t-stop", version: 2, appended: 1 });
      expect(await thread(store, "t-stop")).toEqual({ version: 2, messages: ["user:A-100?", "assistant:lookup_order", 'tool:{"orderId":"A-100","paid":49}', "assistant:It was 49."] });
    } finally {
      await close();
    }
  });

  it("appends nothing for a run that is cancelled while paused or that fails", async () => {
    const store = memoryConversationStore();
    const { queue, worker, close } = setup();
    try {
      // The script has one reply: the failing run's second model call has none.
      worker(store, [calls(refundCall)], { confirm: true });
      const paused = await queue.start({ ...question("Refund A-100"), conversation: { threadId: "t-end" } }, { runId: "cancel-1" });
      expect((await queue.result(paused)).status).toBe("paused");
      expect(await queue.cancel(paused)).toBe("paused");
      expect(await queue.result(paused)).toEqual({ status: "cancelled" });

      const failing = await queue.start({ ...question("Refund A-100"), conversation: { threadId: "t-end" } }, { runId: "fail-1" });
      expect((await queue.result(failing)).status).toBe("failed");
      expect(await thread(store, "t-end")).toEqual({ version: 0, messages: [] });
    } finally {
      await close();
    }
  });

  it("fails a run whose thread refuses its messages (another run appended first) with ConversationAppendError, its result kept on the failure and the thread unchanged", async () => {
    const store = memoryConversationStore();
    const { queue, worker, close } = setup();
    try {
      worker(store, [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], { confirm: true });
      const runId = await queue.start({ ...question("Refund A-100"), conversation: { threadId: "t-race" } }, { runId: "race-1" });
      expect((await queue.result(runId)).status).toBe("paused");
      await store.append("t-race", "other-tab", [ChatMessage.fromUser("Anyone there?"), ChatMessage.fromAssistant("Yes.")]);
      await queue.resume(runId, { r1: confirm });
      const outcome = await queue.result(runId);
      if (outcome.status !== "failed") throw new Error(`failed expected, got ${outcome.status}`);
      expect(outcome.error).toEqual({
        name: "ConversationAppendError",
        message:
          "Conversation 't-race': run 'race-1' ended (text) but its 4 messages were not appended: Conversation 't-race': the append expected version 0 but the thread is at version 1 (another run appended first). Load the thread again and retry the append with expectedVersion 1. The result and the messages are on this error (error.result, error.messages). Run again on the thread as it is now, or pass conversation.onConflict: \"append\" to append after the other run.",
      });
      expect(roles(outcome.result!.messages.map((m) => ChatMessage.fromJSON(m)))).toEqual(["user:Refund A-100", "assistant:issue_refund", "tool:Refunded 49 on A-100.", "assistant:Refunded."]);
      expect(await thread(store, "t-race")).toEqual({ version: 1, messages: ["user:Anyone there?", "assistant:Yes."] });
    } finally {
      await close();
    }
  });

  it("retries the step when the store cannot be reached at the append, and appends the run once", async () => {
    const store = memoryConversationStore();
    let outages = 1;
    const flaky: ConversationStore = {
      ...store,
      load: (threadId) => store.load(threadId),
      append: async (...args) => {
        if (outages-- > 0) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        return store.append(...args);
      },
    };
    const { queue, worker, close } = setup();
    try {
      worker(flaky, [ChatMessage.fromAssistant("Hello."), ChatMessage.fromAssistant("Hello.")]);
      const runId = await queue.start({ ...question("Hi"), conversation: { threadId: "t-flaky" } }, { runId: "flaky-1" });
      expect(done(await queue.result(runId)).conversation).toEqual({ threadId: "t-flaky", version: 1, appended: 2 });
      expect((await events(queue, runId)).filter((e) => e.type === "recovered")).toHaveLength(1);
      expect(await thread(store, "t-flaky")).toEqual({ version: 1, messages: ["user:Hi", "assistant:Hello."] });
    } finally {
      await close();
    }
  });

  it("fails the run with ConversationAppendError when a step run again after its append landed gets another answer, the thread keeping the first", async () => {
    const store = memoryConversationStore();
    let lost = 1;
    // The append lands but its answer is lost (the connection drops): the worker retries the step.
    const dropping: ConversationStore = {
      ...store,
      load: (threadId) => store.load(threadId),
      append: async (...args) => {
        const written = await store.append(...args);
        if (lost-- > 0) throw new Error("Connection terminated unexpectedly");
        return written;
      },
    };
    const { queue, worker, close } = setup();
    try {
      worker(dropping, [ChatMessage.fromAssistant("First answer."), ChatMessage.fromAssistant("Second answer.")]);
      const runId = await queue.start({ ...question("Hi"), conversation: { threadId: "t-differs" } }, { runId: "differs-1" });
      const outcome = await queue.result(runId);
      if (outcome.status !== "failed") throw new Error(`failed expected, got ${outcome.status}`);
      expect(outcome.error).toEqual({
        name: "ConversationAppendError",
        message:
          "Conversation 't-differs': run 'differs-1' ended (text) but its 2 messages were not appended: Conversation 't-differs': run 'differs-1' already appended other messages to this thread. A run appends once: retry with the same messages, or give the new messages a new run id. The result and the messages are on this error (error.result, error.messages). The thread already holds this run's first answer (a step ran again and the model answered differently): load the thread to show what it keeps.",
      });
      expect(ChatMessage.fromJSON(outcome.result!.lastMessage).text).toBe("Second answer.");
      expect(await thread(store, "t-differs")).toEqual({ version: 1, messages: ["user:Hi", "assistant:First answer."] });
    } finally {
      await close();
    }
  });

  it("fails a run in a thread on a worker without conversationStore, naming the option", async () => {
    const { queue, worker, close } = setup();
    try {
      worker(undefined, [ChatMessage.fromAssistant("Hello.")]);
      const runId = await queue.start({ ...question("Hi"), conversation: { threadId: "t-none" } }, { runId: "no-store" });
      expect(await queue.result(runId)).toEqual({
        status: "failed",
        error: {
          name: "ConfigurationError",
          message: `RunWorker: run 'no-store' is in thread 't-none' (RunQueue.start was given conversation), but this worker has no conversationStore; give every RunWorker of queue 'thread${names}' the store the thread is kept in: new RunWorker({ agent, connection, conversationStore }).`,
        },
      });
    } finally {
      await close();
    }
  });

  it("refuses a conversation that is not { threadId, persistState?, onConflict? } at start", async () => {
    const { queue, close } = setup();
    try {
      const cases: [unknown, string][] = [
        ["t-1", 'RunQueue.start has a conversation that is not an object, got string "t-1"; pass conversation: { threadId, persistState?, onConflict? } (the store is the RunWorker\'s conversationStore).'],
        [{ threadId: "t-1", store: memoryConversationStore() }, "RunQueue.start has conversation.store, which cannot cross to a worker; pass conversation: { threadId, persistState?, onConflict? } (the store is the RunWorker's conversationStore)."],
        [{ threadId: "t-1", thread: "x" }, "RunQueue.start has conversation.thread, which is not a conversation option; pass conversation: { threadId, persistState?, onConflict? } (the store is the RunWorker's conversationStore)."],
        [{ threadId: "" }, 'RunQueue.start has a conversation.threadId that is not a string of 1 to 256 characters, got string "".'],
        [{ threadId: "t".repeat(257) }, `RunQueue.start has a conversation.threadId that is not a string of 1 to 256 characters, got string "${"t".repeat(56)}....`],
        [{ threadId: 7 }, "RunQueue.start has a conversation.threadId that is not a string of 1 to 256 characters, got number 7."],
        [{ threadId: "t-1", persistState: "notes" }, 'RunQueue.start has a conversation.persistState that is not an array of state key names, got string "notes".'],
        [{ threadId: "t-1", persistState: [1] }, "RunQueue.start has a conversation.persistState that is not an array of state key names, got an array."],
        [{ threadId: "t-1", onConflict: "merge" }, 'RunQueue.start has conversation.onConflict string "merge"; it is "error" (the default) or "append".'],
      ];
      for (const [conversation, message] of cases) {
        const error = await rejectionOf(queue.start({ ...question("Hi"), conversation } as Parameters<RunQueue["start"]>[0]));
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.message).toBe(message);
      }
    } finally {
      await close();
    }
  });
});

describe("RunWorker", () => {
  it("refuses a conversationStore that is not a ConversationStore", () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]) });
    expect(() => new RunWorker({ agent, connection: { host: "127.0.0.1", port: 1 }, conversationStore: {} as ConversationStore })).toThrow(
      new ConfigurationError("RunWorker", "RunWorker has a conversationStore that is not a ConversationStore (an object with load and append), got an object; pass a store from toolwright/conversations."),
    );
  });
});

describe("RunQueue.start with conversation (pgliteConversationStore)", () => {
  sharedScenarios(() => pgliteConversationStore());
});
