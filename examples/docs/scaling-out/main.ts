// The code of docs/scaling-out.md; test/docs/guideExamples.test.ts runs it on a real redis-server
// (REDIS_URL), with a worker and a queue in one process (in production: separate processes).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Agent, DeferredConfirmationStrategy } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
// #region imports
import { ChatMessage } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
// #endregion
// #region tool-imports
import { z } from "zod";
import { Tool } from "toolwright";
// #endregion
// #region on-error-imports
import { RedisConnectionError } from "toolwright/bullmq";
// #endregion

/** The servers this guide's code needs. */
export const needs = ["REDIS_URL"];

/** A queued run paused for a refund, resumed from "another replica", with an idempotent refund tool. */
export async function run(): Promise<void> {
  const payments = await paymentService();
  const redisUrl = new URL(process.env.REDIS_URL!);
  const refunds: string[] = [];
  // #region refund-tool
  new Tool({
    name: "issue_refund",
    description: "Refund (part of) an order.",
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    function: async ({ orderId, amount }, { idempotencyKey, signal }) => {
      const response = await fetch("https://payments.example.com/refunds", {
        method: "POST",
        headers: { "content-type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify({ orderId, amount }),
        signal,
      });
      if (!response.ok) throw new Error(`the payment service answered ${response.status}`);
      return response.json();
    },
  });
  // #endregion
  const issueRefund = new Tool({
    name: "issue_refund",
    description: "Refund (part of) an order.",
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    function: async ({ orderId, amount }, { idempotencyKey, signal }) => {
      refunds.push(idempotencyKey);
      const response = await fetch(`${payments.url}/refunds`, { method: "POST", headers: { "content-type": "application/json", "Idempotency-Key": idempotencyKey }, body: JSON.stringify({ orderId, amount }), signal });
      if (!response.ok) throw new Error(`the payment service answered ${response.status}`);
      return response.json();
    },
  });
  const chatGenerator = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 20 } }] }), ChatMessage.fromAssistant("Refunded 20 on A-100.")]);
  const agent = new Agent({
    chatGenerator,
    tools: [issueRefund],
    stateSchema: { customer_id: { type: z.string() }, budget_limits: { type: z.object({ maxModelCalls: z.number() }) } },
    confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
  });
  const written: string[] = [];
  const req = { headers: {} as Record<string, string | undefined> };
  const res = { write: (text: string) => void written.push(text) };
  const warnings: string[] = [];
  const logger = { warn: (data: object, message: string) => void warnings.push(`${JSON.stringify(data)} ${message}`) };
  // #region queue
  const connection = { host: redisUrl.hostname, port: Number(redisUrl.port) };  // ioredis options, or an ioredis client

  // In each worker process: the same Agent as in-process (tools, strategies, snapshotKey).
  const worker = new RunWorker({ agent, connection, concurrency: 4 });

  // In each HTTP replica:
  const queue = new RunQueue({ connection });
  const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund order A-100")], customer_id: "c-42" });
  const lastEventId = req.headers["last-event-id"];          // sent by a reconnecting EventSource
  for await (const { id, event } of queue.events(runId, { after: typeof lastEventId === "string" ? lastEventId : undefined })) {
    res.write(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }                                                           // ends at a pause, a stop, the result, a failure or a cancel
  await queue.resume(runId, { call_refund: { action: "confirm" } });   // from any replica
  // await queue.continue(runId, { state: { budget_limits: { maxModelCalls: 20 } } });  a stopped run (a budget, a guardrail)
  const outcome = await queue.result(runId);      // waits: { status: "done", result }, or "paused", "stopped", "failed", "cancelled"
  // await queue.cancel(runId);                  // a run still going
  await Promise.all([queue.close(), worker.close()]);
  // #endregion
  try {
    assert.equal(outcome.status, "done");
    assert.deepEqual(outcome.status === "done" && outcome.result.lastMessage.content, [{ text: "Refunded 20 on A-100." }]);
    assert.match(written.join(""), /^id: [^\n]+\nevent: /);
    assert.equal(written.at(-1)?.includes("event: paused"), true);
    assert.equal(refunds.length, 1);
    assert.equal(refunds[0], `${runId}:1:call_refund`); // <runId>:<step>:<toolCallId>
    assert.deepEqual(payments.keys, refunds);
    {
      // #region on-error
      const worker = new RunWorker({
        agent,
        connection,
        onError: (error) => logger.warn({ redis: error instanceof RedisConnectionError ? error.redis : undefined }, error.message),
      });
      // #endregion
      await worker.close();
    }
    assert.deepEqual(warnings, []);
  } finally {
    await payments.close();
  }
}

// The payment service the refund tool calls: records each Idempotency-Key and answers the refund.
async function paymentService(): Promise<{ url: string; keys: string[]; close(): Promise<void> }> {
  const keys: string[] = [];
  const server = createServer((request, response) => {
    keys.push(String(request.headers["idempotency-key"]));
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end('{"refunded":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, keys, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
