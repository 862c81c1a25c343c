// The code of docs/streaming-and-chat-uis.md; test/docs/guideExamples.test.ts runs it. Each route
// handler is called with a real Request (or a real Node HTTP request); the React page is
// examples/web/client/ChatApp.tsx, which the browser test runs (npm run test:browser).
import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import { z } from "zod";
import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
import { recordPauses } from "toolwright/ui";
import { ScriptedChatGenerator } from "toolwright/testing";
// #region sse-imports
import { clientEvent } from "toolwright";
// #endregion
// #region route-imports
import { createUIMessageStreamResponse, fromUIMessages } from "toolwright/ui";
// #endregion
// #region express-imports
import { pipeUIMessageStreamToResponse } from "toolwright/ui";
// #endregion
// #region errors-imports
import { UIRequestError } from "toolwright/ui";
// #endregion
// #region approval-imports
import type { AgentSnapshot, ConfirmationDecision } from "toolwright";
import { resumeFromApproval } from "toolwright/ui";
// #endregion
// #region resumable-imports
import { resumableRunEvents } from "toolwright/ui";
// #endregion

/** The servers this guide's code needs (the resumable stream follows a queued run). */
export const needs = ["REDIS_URL"];

const refundCall = { id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } };
const issueRefund = new Tool({ name: "issue_refund", description: "Refund an order.", parameters: z.object({ orderId: z.string(), amount: z.number() }), function: ({ orderId }) => `refunded ${orderId}` });
const stateSchema = { refunds: { type: z.array(z.string()) }, customer_id: { type: z.string() } };

function deskAgent(options: { confirm?: boolean } = {}) {
  const chatGenerator = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [refundCall] }), ChatMessage.fromAssistant("Refunded A-100.")]);
  return new Agent({ chatGenerator, tools: [issueRefund], stateSchema, ...(options.confirm && { confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } }) });
}

const useChatBody = { id: "chat-1", messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Refund order A-100, please." }] }] };
const post = (body: unknown) => new Request("http://localhost/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Server-sent events, the AI SDK's UI stream (Web and Node), approvals, and a resumable stream. */
export async function run(): Promise<void> {
  await sse();
  await webRoute();
  await nodeRoute();
  await requestErrors();
  await approvals();
  await resumable();
}

async function sse(): Promise<void> {
  const agent = deskAgent();
  const messages = [ChatMessage.fromUser("Refund order A-100, please.")];
  const customer_id = "c-42";
  const written: string[] = [];
  const res = { write: (text: string) => void written.push(text) };
  // #region sse
  for await (const event of agent.stream({ messages, customer_id })) {
    const data = clientEvent(event, (result) => ({ answer: result.lastMessage.text, exitReason: result.exitReason }));
    res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  // #endregion
  assert.equal(written.at(-1), `event: result\ndata: ${JSON.stringify({ type: "result", result: { answer: "Refunded A-100.", exitReason: "text" } })}\n\n`);
}

async function webRoute(): Promise<void> {
  const agent = deskAgent();
  // #region route
  // app/api/chat/route.ts
  async function POST(req: Request) {
    const body = (await req.json()) as { messages: unknown };
    const { messages } = fromUIMessages(body.messages); // useChat's UIMessages → ChatMessages
    return createUIMessageStreamResponse(agent.stream({ messages }), { state: ["refunds"] });
  }
  // #endregion
  const response = await POST(post(useChatBody));
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const text = await response.text();
  assert.match(text, /"type":"tool-output-available","toolCallId":"r1","output":"refunded A-100"/);
  assert.match(text, /"delta":"Refunded "\}\n\ndata: \{"type":"text-delta","id":"text-1","delta":"A-100\."/);
  assert.match(text, /data: \[DONE\]\n\n$/);
}

async function nodeRoute(): Promise<void> {
  const agent = deskAgent();
  const outcomes: string[] = [];
  const log = { warn: (message: string) => void outcomes.push(message) };
  let handler: ((req: { body: { messages: unknown } }, res: ServerResponse) => Promise<void>) | undefined;
  const app = { post: (_path: string, handle: typeof handler) => void (handler = handle) };
  // #region express
  app.post("/api/chat", async (req, res) => {
    const { messages } = fromUIMessages(req.body.messages);
    const outcome = await pipeUIMessageStreamToResponse(agent.stream({ messages }), res, { state: ["refunds"] });
    if (outcome !== "finished") log.warn(`chat stream ended: ${outcome}`);
  });
  // #endregion
  // A real Node HTTP server hands the handler its request's JSON body and its ServerResponse.
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (part: Buffer) => (text += part));
    request.on("end", () => void handler!({ body: JSON.parse(text) as { messages: unknown } }, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/api/chat`, { method: "POST", body: JSON.stringify(useChatBody) });
    assert.match(await response.text(), /"delta":"Refunded "\}\n\ndata: \{"type":"text-delta","id":"text-1","delta":"A-100\."/);
    assert.deepEqual(outcomes, []);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function requestErrors(): Promise<void> {
  const answered: unknown[] = [];
  const answer = async (messages: ChatMessage[], decisions: Record<string, ConfirmationDecision>) => {
    answered.push([messages.length, decisions]);
    return new Response("ok");
  };
  // #region errors
  async function POST(req: Request) {
    const body = (await req.json()) as { messages: unknown };
    try {
      const { messages, decisions } = fromUIMessages(body.messages);
      return await answer(messages, decisions); // run the agent, or resume it with the decisions
    } catch (error) {
      if (error instanceof UIRequestError) return new Response(error.message, { status: error.status });
      throw error;
    }
  }
  // #endregion
  assert.equal((await POST(post(useChatBody))).status, 200);
  assert.equal(answered.length, 1);
  assert.equal((answered[0] as [number, object])[0], 1);
  assert.deepEqual(Object.keys((answered[0] as [number, object])[1]), []); // no approvals answered yet
  const refused = await POST(post({ messages: "not a list" }));
  assert.equal(refused.status, 400);
  assert.equal(await refused.text(), 'Chat request messages is string "not a list"; send the UIMessage array useChat posts as body.messages.');
}

async function approvals(): Promise<void> {
  const agent = deskAgent({ confirm: true });
  // #region approval
  const snapshots = new Map<string, AgentSnapshot>(); // any ApprovalStore: get, set, delete

  // from the POST handler, when fromUIMessages found answered approvals:
  async function resume(chatId: string, decisions: Record<string, ConfirmationDecision>, signal: AbortSignal) {
    return createUIMessageStreamResponse(await resumeFromApproval(agent, snapshots, { chatId, decisions, signal }));
  }
  // #endregion
  // The first request's run pauses at the refund; recordPauses keeps its snapshot for the chat.
  for await (const _event of recordPauses(agent.stream({ messages: [ChatMessage.fromUser("Refund order A-100, please.")] }), snapshots, "chat-1"));
  assert.equal(snapshots.has("chat-1"), true);
  const response = await resume("chat-1", { r1: { action: "confirm" } }, new AbortController().signal);
  assert.match(await response.text(), /"output":"refunded A-100"/);
  assert.equal(snapshots.has("chat-1"), false);
  // Resumed exactly once: a second approval of the same pause is a 409.
  await assert.rejects(resume("chat-1", { r1: { action: "confirm" } }, new AbortController().signal), { name: "UIRequestError", status: 409 });
}

async function resumable(): Promise<void> {
  const url = new URL(process.env.REDIS_URL!);
  const connection = { host: url.hostname, port: Number(url.port) };
  const worker = new RunWorker({ agent: deskAgent(), connection });
  const queue = new RunQueue({ connection });
  const runs = new Map<string, string>();
  const runIdOf = (chatId: string) => runs.get(chatId)!;
  try {
    runs.set("chat-1", await queue.start({ messages: [ChatMessage.fromUser("Refund order A-100, please.")] }));
    // #region resumable
    // GET /api/chat/:chatId/stream
    async function GET(req: Request, chatId: string) {
      const events = await resumableRunEvents(queue, runIdOf(chatId), { signal: req.signal });
      if (!events) return new Response(null, { status: 204 });
      return createUIMessageStreamResponse(events, { messageId: runIdOf(chatId) });
    }
    // #endregion
    const replay = await (await GET(new Request("http://localhost/api/chat/chat-1/stream"), "chat-1")).text();
    assert.match(replay, new RegExp(`"type":"start","messageId":"${runIdOf("chat-1")}"`));
    assert.match(replay, /"delta":"Refunded "\}\n\ndata: \{"type":"text-delta","id":"text-1","delta":"A-100\."/);
    // Once the run has ended, the client's stored messages hold it: 204.
    await queue.result(runIdOf("chat-1"));
    assert.equal((await GET(new Request("http://localhost/api/chat/chat-1/stream"), "chat-1")).status, 204);
  } finally {
    await Promise.all([queue.close(), worker.close()]);
  }
}
