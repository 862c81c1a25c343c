// The thread binding of a snapshot (`snapshot.conversation`) is input from whoever holds the
// snapshot. Signed, any change to it is refused before the run starts. Unsigned (trusted input, as
// the rest of an unsigned snapshot is: its holder can rewrite the conversation itself), whatever
// it holds is refused with a typed error, or the run appends to the thread it was given and nowhere
// else, and only a tail of the run's own conversation.
import fc from "fast-check";
import { Agent, ChatMessage, ConfigurationError, DeferredConfirmationStrategy, SnapshotError } from "toolwright";
import { memoryConversationStore } from "toolwright/conversations";
import { ScriptedChatGenerator } from "toolwright/testing";
import { calls, deskState, deskTools, refundCall } from "../helpers/refundDesk";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

const runs = fuzzRuns(100);
const decisions = { r1: { action: "confirm" as const } };

async function pausedInThread(snapshotKey: string | undefined) {
  const store = memoryConversationStore();
  await store.append("t-1", "earlier", [ChatMessage.fromUser("Hello"), ChatMessage.fromAssistant("Hi.")]);
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator([calls(refundCall), ChatMessage.fromAssistant("Refunded.")]),
    tools: deskTools([]),
    stateSchema: deskState,
    confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
    ...(snapshotKey !== undefined && { snapshotKey }),
  });
  const paused = await agent.run({ messages: [ChatMessage.fromUser("Refund A-100")], customer_id: "c-7", runId: "run-1", conversation: { store, threadId: "t-1" } });
  return { store, agent, snapshot: JSON.parse(JSON.stringify(paused.snapshot)) as Record<string, unknown> };
}

const id = fc.oneof(fc.constantFrom("t-1", "t-2", "run-1", "other"), fc.string({ maxLength: 300 }));
const hostileBinding = fc.oneof(
  fc.anything(),
  fc.record(
    { threadId: fc.oneof(id, fc.anything()), runId: fc.oneof(id, fc.anything()), version: fc.oneof(fc.nat(5), fc.integer(), fc.double(), fc.anything()), from: fc.oneof(fc.nat(12), fc.integer(), fc.anything()), appended: fc.oneof(fc.nat(12), fc.anything()) },
    { requiredKeys: [] },
  ),
);

// The right ids with any counts: the bindings an attacker would try to shift what is appended.
const plausibleBinding = fc.record(
  { threadId: fc.constant("t-1"), runId: fc.constant("run-1"), version: fc.nat(3), from: fc.nat(10), appended: fc.nat(10) },
  { requiredKeys: ["threadId", "runId", "version", "from"] },
);

describe("a snapshot's thread binding", () => {
  it(`is refused whenever it changes in a signed snapshot, and nothing is appended (${runs} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(hostileBinding, async (binding) => {
        const { store, agent, snapshot } = await pausedInThread("k".repeat(32));
        if (JSON.stringify(binding) === JSON.stringify(snapshot.conversation)) return;
        const error = await agent.run({ snapshot: { ...snapshot, conversation: binding } as never, decisions, conversation: { store, threadId: "t-1" } }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error === undefined ? "resumed" : error.constructor.name).toMatch(/^(SnapshotError|ConfigurationError)$/);
        expect((await store.load("t-1")).version).toBe(1);
        expect((await store.listThreads()).threads.map((t) => t.threadId)).toEqual(["t-1"]);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 20));

  it(`unsigned, resumes into the thread it is given or is refused with a typed error, appending only a tail of the run's conversation (${runs} cases)`, async () => {
    let resumed = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileBinding, plausibleBinding), fc.constantFrom("t-1", "t-2"), async (binding, threadId) => {
        const { store, agent, snapshot } = await pausedInThread(undefined);
        let error: Error | undefined;
        let conversation: readonly ChatMessage[] = [];
        try {
          conversation = (await agent.run({ snapshot: { ...snapshot, conversation: binding } as never, decisions, conversation: { store, threadId } })).messages;
          resumed++;
        } catch (caught) {
          error = caught as Error;
        }
        if (error !== undefined) expect(error.name).toMatch(/^(SnapshotError|ConfigurationError|ConversationAppendError)$/);
        const other = threadId === "t-1" ? "t-2" : "t-1";
        expect((await store.load(other)).messages.map((m) => m.text)).toEqual(other === "t-1" ? ["Hello", "Hi."] : []);
        const before = threadId === "t-1" ? 2 : 0;
        const added = (await store.load(threadId)).messages.slice(before).map((m) => JSON.stringify(m.toJSON()));
        const own = conversation.map((m) => JSON.stringify(m.toJSON()));
        expect(added).toEqual(own.slice(own.length - added.length));
      }),
      fuzzParameters(runs),
    );
    // Not vacuous: some bindings (the right ids and small counts) do resume.
    expect(resumed).toBeGreaterThan(0);
  }, fuzzTimeout(runs, 20));
});
