// An HTTP replica of the refund desk: it holds no Agent and runs no step, only a RunQueue. Every
// run lives in Redis, so any replica can start, follow, resume or cancel any run, and a load
// balancer may send a client's requests to different replicas.
//
//   POST   /runs                    { message }  (x-customer-id header)  → 201 { runId }
//   GET    /runs/:runId/events      server-sent events up to the end of a leg (paused, result,
//                                   failed, cancelled); Last-Event-ID continues after that event
//   POST   /runs/:runId/decisions   { decisions: { [toolCallId]: { action, … } } } → 202
//   DELETE /runs/:runId             cancels the run wherever it is (a run that ended stays as it
//                                   was) → 200 { was: the status it had }
//
// Errors: 404 RunNotFoundError, 409 RunStateError (the run is not paused: another resume won, or
// it was cancelled), 400 DecisionError / ConfigurationError (bad decisions, a malformed run id).
//
// Environment: REDIS_URL (required), QUEUE_NAME (default toolwright-runs), PORT (default 0: any
// free port; the replica prints the one it got).
import * as http from "node:http";
import { ChatMessage, ConfigurationError, DecisionError, type ConfirmationDecision } from "toolwright";
import { RunNotFoundError, RunQueue, RunStateError, type RunEvent } from "toolwright/bullmq";
import { connectionFromUrl } from "./redis";

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.error("replica: set REDIS_URL (main.ts does)");
  process.exit(2);
}

const queue = new RunQueue({ connection: connectionFromUrl(redisUrl), ...(process.env.QUEUE_NAME && { name: process.env.QUEUE_NAME }) });

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (res.headersSent) return res.end(`event: error\ndata: ${JSON.stringify({ message: (error as Error).message })}\n\n`);
    sendJson(res, statusOf(error), { error: (error as Error).name, message: (error as Error).message });
  });
});

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://replica");
  const route = /^\/runs(?:\/([^/]+)(\/events|\/decisions)?)?$/.exec(url.pathname);
  const runId = route?.[1] === undefined ? undefined : decodeURIComponent(route[1]);
  const action = route?.[2];

  if (req.method === "POST" && route && runId === undefined) {
    // The customer comes from the session (here a header), never from the model or the body.
    const customerId = req.headers["x-customer-id"];
    const body = (await readJson(req)) as { message?: unknown };
    if (typeof body.message !== "string" || typeof customerId !== "string") return sendJson(res, 400, { error: "send { message } with an x-customer-id header" });
    const id = await queue.start({ messages: [ChatMessage.fromUser(body.message)], customer_id: customerId });
    console.log(`POST /runs → run ${id} queued`);
    return sendJson(res, 201, { runId: id });
  }

  if (req.method === "GET" && runId !== undefined && action === "/events") {
    return streamEvents(runId, req, res);
  }

  if (req.method === "POST" && runId !== undefined && action === "/decisions") {
    // In production, authenticate this and check that the caller may decide this run.
    const body = (await readJson(req)) as { decisions?: Record<string, ConfirmationDecision> };
    await queue.resume(runId, body.decisions ?? {});
    console.log(`POST /runs/${runId}/decisions → resumed`);
    return sendJson(res, 202, { runId, status: "queued" });
  }

  if (req.method === "DELETE" && runId !== undefined && action === undefined) {
    const status = await queue.cancel(runId);
    console.log(`DELETE /runs/${runId} → cancel requested; it was ${status}`);
    return sendJson(res, 200, { runId, was: status });
  }

  sendJson(res, 404, { error: "POST /runs, GET /runs/:runId/events, POST /runs/:runId/decisions or DELETE /runs/:runId" });
}

// Streams the run's events from Redis, from wherever they are written, until the end of the
// current leg (a pause, the result, a failure, a cancel). The SSE id is the Redis Stream id, so a
// client that reconnects with Last-Event-ID (to this replica or another) gets every later event
// once: after a pause and a resume, it follows the rest of the run that way.
async function streamEvents(runId: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const lastEventId = req.headers["last-event-id"];
  const closed = new AbortController();
  res.on("close", () => closed.abort());
  const events = queue.events(runId, { signal: closed.signal, ...(typeof lastEventId === "string" && lastEventId !== "" && { after: lastEventId }) });
  // The first event (or an unknown run's RunNotFoundError) comes before the status line, so a
  // missing run is a 404 rather than an empty stream.
  try {
    let next = await events.next();
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    console.log(`GET /runs/${runId}/events${typeof lastEventId === "string" ? ` (Last-Event-ID ${lastEventId})` : ""} → streaming`);
    for (; !next.done; next = await events.next()) {
      const { id, event } = next.value;
      res.write(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(clientData(event))}\n\n`);
    }
  } finally {
    await events.return();
  }
  res.end();
}

// What of an event leaves the server: the chunks as they are, and of the result only the answer,
// the exit reason and the refunds (the result also holds the whole conversation and state, such as
// the customer id, which the client does not need).
function clientData(event: RunEvent): unknown {
  if (event.type !== "result") return event;
  const { result } = event;
  return { type: "result", answer: ChatMessage.fromJSON(result.lastMessage).text, exitReason: result.exitReason, refunds: result.state.refunds ?? [] };
}

function statusOf(error: unknown): number {
  if (error instanceof RunNotFoundError) return 404;
  if (error instanceof RunStateError) return 409;
  if (error instanceof DecisionError || error instanceof ConfigurationError) return 400;
  return 500;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text || "{}");
  } catch {
    return {};
  }
}

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});

// SIGTERM: stop accepting requests, end the open streams, close the Redis connections, exit.
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  queue.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`close failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
});
