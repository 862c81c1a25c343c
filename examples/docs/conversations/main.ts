// The code of docs/conversations.md; test/docs/guideExamples.test.ts runs it (with a real redis-server).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { Agent } from "toolwright";
import { RunQueue } from "toolwright/bullmq";
import { redisConversationStore as threadsOn } from "toolwright/conversations";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { ThreadTools } from "./threadTools";
// #region imports
import { ChatMessage } from "toolwright";
import { pgliteConversationStore } from "toolwright/conversations";
// #endregion
// #region workerImports
import { RunWorker } from "toolwright/bullmq";
import { redisConversationStore } from "toolwright/conversations";
// #endregion

/** The second part runs on toolwright/bullmq, so this guide needs a Redis. */
export const needs = ["REDIS_URL"];

/** Two turns on one PGlite thread: the second runs on the first's history, and a retried request appends once. */
async function thread(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "threads-"));
  const tools = new ThreadTools();
  const chatGenerator = new ScriptedChatGenerator([
    ChatMessage.fromAssistant("You have two open tickets: T-1 (printer) and T-2 (scanner)."),
    toolCallReply(["resolve_ticket", { ticketId: "T-1" }, "call_1"]),
    ChatMessage.fromAssistant("Done: T-1, the printer ticket, is closed."),
  ]);
  const agent = new Agent({ chatGenerator, tools: [tools], systemPrompt: "You are the support desk." });
  const requestId = "req-2";
  try {
    // #region openStore
    const store = await pgliteConversationStore({ dataDir }); // embedded Postgres in that folder, nothing to start
    // #endregion
    try {
      await agent.run({ messages: [ChatMessage.fromUser("Which tickets do I have open?")], runId: "req-1", conversation: { store, threadId: "customer-42" } });
      // #region thread
      const result = await agent.run({
        messages: [ChatMessage.fromUser("Close the printer one, it works again.")],
        runId: requestId, // a stable id per request: a retried request appends once
        conversation: { store, threadId: "customer-42" },
      });
      result.conversation; // { threadId: "customer-42", version: 2, appended: 4 }
      // #endregion

      assert.deepEqual(result.conversation, { threadId: "customer-42", version: 2, appended: 4 });
      assert.equal(tools.tickets.get("T-1"), "closed");
      // The second turn ran on the first's history; the system prompt is applied to each run, never stored.
      assert.deepEqual(chatGenerator.requests[1]!.messages.map((message) => message.text ?? ""), [
        "You are the support desk.",
        "Which tickets do I have open?",
        "You have two open tickets: T-1 (printer) and T-2 (scanner).",
        "Close the printer one, it works again.",
      ]);
      const stored = await store.load("customer-42");
      assert.equal(stored.version, 2);
      assert.deepEqual(stored.messages.map((message) => message.role), ["user", "assistant", "user", "assistant", "tool", "assistant"]);
      // The same messages under the same run id again (a retried request) are not appended twice.
      const turn = result.messages.slice(-4);
      assert.deepEqual(await store.append("customer-42", requestId, turn), { version: 2, appended: false, firstSeq: 3 });
      assert.equal((await store.load("customer-42")).messages.length, 6);
    } finally {
      await store.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A run on toolwright/bullmq in a thread: the worker holds the store; the queue passes only the thread id. */
async function queued(): Promise<void> {
  const url = new URL(process.env.REDIS_URL!);
  const connection = { host: url.hostname, port: Number(url.port) };
  const name = `docs-conversations-${process.pid}-${Date.now()}`;
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("Your refund was sent on Monday.")]),
    stateSchema: { customer_id: { type: z.string() } },
  });
  const queue = new RunQueue({ connection, name });
  const threads = threadsOn({ connection });
  await threads.deleteThread("support-42");
  try {
    // #region worker
    const conversationStore = redisConversationStore({ connection });
    const worker = new RunWorker({ agent, connection, name, conversationStore });
    const runId = await queue.start({ messages: [ChatMessage.fromUser("Where is my refund?")], customer_id: "c-42", conversation: { threadId: "support-42" } });
    // #endregion
    try {
      const outcome = await queue.result(runId);
      assert.equal(outcome.status, "done");
      if (outcome.status !== "done") return;
      assert.deepEqual(outcome.result.conversation, { threadId: "support-42", version: 1, appended: 2 });
      const stored = await threads.load("support-42");
      assert.deepEqual(stored.messages.map((message) => message.text), ["Where is my refund?", "Your refund was sent on Monday."]);
    } finally {
      await worker.close();
      await conversationStore.close();
    }
  } finally {
    await threads.deleteThread("support-42");
    await threads.close();
    await queue.close();
  }
}

/** Runs the guide's two blocks. */
export async function run(): Promise<void> {
  await thread();
  await queued();
}
