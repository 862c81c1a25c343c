// The code of docs/human-in-the-loop.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { z } from "zod";
import { ChatGeneratorError, ChatMessage, type AgentRunInput, type AgentSnapshot } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { RefundTools } from "./refundTools";
// #region imports
import { Agent, AskOncePolicy, BlockingConfirmationStrategy, DeferredConfirmationStrategy } from "toolwright";
// #endregion
// #region retryImports
import { snapshotOf } from "toolwright";
// #endregion

const lookup = (id: string) => toolCallReply(["lookup_order", { orderId: "O-7" }, id]);
const refund = (id: string) => toolCallReply(["issue_refund", { orderId: "O-7", amount: 120 }, id]);

/** A blocking strategy asks once per call (AskOncePolicy); a deferred one pauses the run; a rejection reaches the model. */
async function strategies(): Promise<void> {
  const refunds = new RefundTools();
  const tools = [refunds];
  const chatGenerator = new ScriptedChatGenerator([lookup("call_1"), lookup("call_2"), refund("call_3"), ChatMessage.fromAssistant("No refund, then.")]);
  const asked: unknown[] = [];
  // Your UI: shows the call to a person and returns their decision (here, they confirm).
  const askPerson = async (toolName: string, description: string, args: Record<string, unknown>, toolCallId: string, context: unknown) => {
    asked.push({ toolName, description, args, toolCallId, context });
    return { action: "confirm" as const };
  };

  // #region strategies
  const agent = new Agent({
    chatGenerator,
    tools,
    confirmationStrategies: {
      issue_refund: new DeferredConfirmationStrategy(),          // pause; a person answers later
      "*": new BlockingConfirmationStrategy({                    // ask now and wait
        policy: new AskOncePolicy(),                             // default AlwaysAskPolicy; also NeverAskPolicy
        ask: async ({ toolName, description, arguments: args, toolCallId, context }) => askPerson(toolName, description, args, toolCallId, context),
      }),
    },
  });
  // #endregion

  const paused = await agent.run({ messages: [ChatMessage.fromUser("Refund order O-7.")], confirmationContext: { userId: "u-1" } });
  // lookup_order was asked about once: AskOncePolicy remembers the confirmed call with the same arguments.
  assert.deepEqual(asked, [{ toolName: "lookup_order", description: "Look an order up.", args: { orderId: "O-7" }, toolCallId: "call_1", context: { userId: "u-1" } }]);
  assert.equal(paused.exitReason, "confirmation_required");
  if (paused.exitReason !== "confirmation_required") return;
  assert.deepEqual(paused.pendingConfirmations, [{ toolCallId: "call_3", toolName: "issue_refund", arguments: { orderId: "O-7", amount: 120 } }]);
  assert.deepEqual(refunds.refunds, []);

  const rejected = await agent.run({ snapshot: paused.snapshot, decisions: { call_3: { action: "reject" } } });
  assert.equal(rejected.messages.find((message) => message.toolCallResult?.origin.id === "call_3")?.toolCallResult?.result, "Tool 'issue_refund' was rejected by the user.");
  assert.deepEqual(refunds.refunds, []);
  assert.equal(rejected.lastMessage?.text, "No refund, then.");
}

/** A deferred pause is stored as JSON and decided later; the result equals deciding in place. */
async function deferred(): Promise<void> {
  const supportState = { customer_id: { type: z.string() } };
  const script = () => new ScriptedChatGenerator([refund("call_9"), ChatMessage.fromAssistant("Refunded.")]);
  const agent = new Agent({ chatGenerator: script(), tools: [new RefundTools()], stateSchema: supportState, confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } });
  const rows = new Map<string, string>();
  const db = { save: async (key: string, value: string) => void rows.set(key, value), load: async (key: string) => rows.get(key)! };
  const messages = [ChatMessage.fromUser("Refund order O-7.")];
  const customer_id = "c-42", runId = "r-1", toolCallId = "call_9"; // the client sends the run and call it decides

  // #region resume
  const paused = await agent.run({ messages, customer_id });
  await db.save(runId, JSON.stringify(paused.snapshot));
  // … later, maybe elsewhere:
  const result = await agent.run({ snapshot: JSON.parse(await db.load(runId)), decisions: { [toolCallId]: { action: "confirm" } } });
  // #endregion

  const inPlace = await new Agent({
    chatGenerator: script(),
    tools: [new RefundTools()],
    stateSchema: supportState,
    confirmationStrategies: { issue_refund: new BlockingConfirmationStrategy({ ask: async () => ({ action: "confirm" }) }) },
  }).run({ messages, customer_id });
  assert.deepEqual(result.messages.map((message) => message.toJSON()), inPlace.messages.map((message) => message.toJSON()));
  assert.equal(result.customer_id, "c-42");
  assert.equal(result.lastMessage?.text, "Refunded.");

  // Every pending call needs a decision, and every decision must name a pending call.
  const snapshot = JSON.parse(await db.load(runId)) as AgentSnapshot;
  await assert.rejects(agent.run({ snapshot, decisions: { call_8: { action: "confirm" } } }), { name: "DecisionError" });
  await assert.rejects(agent.run({ snapshot, decisions: {} }), { name: "DecisionError" });
  // decisions may also be a Map.
  const viaMap = await new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("Refunded.")]), tools: [new RefundTools()], stateSchema: supportState }).run({ snapshot, decisions: new Map([[toolCallId, { action: "confirm" as const }]]) });
  assert.equal(viaMap.lastMessage?.text, "Refunded.");
  assert.equal(viaMap.stepCount, 2);
}

/** A failed model call carries a snapshot from before the failing step; runOnce retries from it. */
async function retry(): Promise<void> {
  const supportState = { customer_id: { type: z.string() } };
  type SupportRunInput = AgentRunInput<typeof supportState>;
  const chatGenerator = new ScriptedChatGenerator([
    lookup("call_1"),
    () => {
      throw new ChatGeneratorError("OpenAI request for model 'gpt-4o-mini' failed with status 503: overloaded.", { status: 503 });
    },
    ChatMessage.fromAssistant("Order O-7 was delivered."),
  ]);
  const tools = new RefundTools();
  const agent = new Agent({ chatGenerator, tools: [tools], stateSchema: supportState });

  // #region retry
  async function runOnce(input: SupportRunInput) {
    try { return await agent.run(input); }
    catch (error) { const snapshot = snapshotOf(error); if (snapshot) return agent.run({ snapshot }); throw error; }
  }
  // #endregion

  const result = await runOnce({ messages: [ChatMessage.fromUser("Where is O-7?")], customer_id: "c-42" });
  assert.equal(result.lastMessage?.text, "Order O-7 was delivered.");
  // The retry resumed before the failing step: the lookup from step 1 did not run again.
  assert.equal(result.messages.filter((message) => message.toolCallResult).length, 1);
  assert.equal(chatGenerator.requests.length, 3);
  assert.deepEqual(chatGenerator.requests[2]!.messages, chatGenerator.requests[1]!.messages);
}

/** With snapshotKey every snapshot is signed; a changed or unsigned one is refused. */
async function signing(): Promise<void> {
  const saved = process.env.SNAPSHOT_KEY;
  process.env.SNAPSHOT_KEY = "a-key-of-at-least-32-bytes-for-hmac-sha256";
  try {
    const chatGenerator = new ScriptedChatGenerator([refund("call_1"), ChatMessage.fromAssistant("Refunded.")]);
    const tools = [new RefundTools()];
    const confirmationStrategies = { issue_refund: new DeferredConfirmationStrategy() };

    // #region signing
    const agent = new Agent({ chatGenerator, tools, snapshotKey: process.env.SNAPSHOT_KEY });   // ≥ 32 bytes; openssl rand -base64 32
    // #endregion

    const paused = await new Agent({ chatGenerator, tools, confirmationStrategies, snapshotKey: process.env.SNAPSHOT_KEY }).run({ messages: [ChatMessage.fromUser("Refund O-7.")] });
    assert.equal(paused.exitReason, "confirmation_required");
    if (paused.exitReason !== "confirmation_required") return;
    assert.match(paused.snapshot.signature ?? "", /^hmac-sha256:/);
    const changed = JSON.parse(JSON.stringify(paused.snapshot)) as AgentSnapshot & { stepCount: number };
    changed.stepCount += 1;
    await assert.rejects(agent.run({ snapshot: changed, decisions: { call_1: { action: "confirm" } } }), { name: "SnapshotError", field: "signature" });
    const { signature, ...unsigned } = paused.snapshot;
    void signature;
    await assert.rejects(agent.run({ snapshot: unsigned, decisions: { call_1: { action: "confirm" } } }), { name: "SnapshotError", field: "signature" });
  } finally {
    if (saved === undefined) delete process.env.SNAPSHOT_KEY;
    else process.env.SNAPSHOT_KEY = saved;
  }
}

/** Runs the guide's four blocks. */
export async function run(): Promise<void> {
  await strategies();
  await deferred();
  await retry();
  await signing();
}
