import { randomUUID } from "node:crypto";
import * as http from "node:http";
import { type Agent, type AgentSnapshot, ChatMessage, DecisionError, type ConfirmationDecision } from "toolwright";
import type { serviceState } from "./refundTools";

type ServiceAgent = Agent<typeof serviceState>;

/** Where paused runs wait. In production: Redis or a table; the snapshot is plain JSON. */
export interface SnapshotStore {
  save(runId: string, snapshot: AgentSnapshot): Promise<void>;
  take(runId: string): Promise<AgentSnapshot | undefined>;
}

/** An in-memory store, for the example and tests. */
export class MemorySnapshotStore implements SnapshotStore {
  readonly #snapshots = new Map<string, AgentSnapshot>();
  async save(runId: string, snapshot: AgentSnapshot): Promise<void> {
    this.#snapshots.set(runId, JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot);
  }
  async take(runId: string): Promise<AgentSnapshot | undefined> {
    const snapshot = this.#snapshots.get(runId);
    this.#snapshots.delete(runId);
    return snapshot;
  }
}

/**
 * The refund desk over HTTP:
 * - `POST /chat` `{ message }` streams the run as server-sent events (text, toolCallDelta,
 *   toolResult, finish, then `confirmation_required` with a runId, or `result`).
 * - `POST /runs/:runId/decisions` `{ decisions: { [toolCallId]: { action, … } } }` continues a
 *   paused run and streams the rest; decisions the run refuses get a 400 and the run stays paused.
 * The customer comes from the session (here a header), never from the model; the snapshot stays
 * on the server, so a client can approve or reject a call but never forge its arguments.
 */
export function createRefundServer(agent: ServiceAgent, store: SnapshotStore = new MemorySnapshotStore()): http.Server {
  return http.createServer((req, res) => {
    handle(agent, store, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: (error as Error).message });
      else res.end(`event: error\ndata: ${JSON.stringify({ message: (error as Error).message })}\n\n`);
    });
  });
}

async function handle(agent: ServiceAgent, store: SnapshotStore, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const customerId = req.headers["x-customer-id"];
  if (req.method === "POST" && req.url === "/chat") {
    const body = (await readJson(req)) as { message?: unknown };
    if (typeof body.message !== "string" || typeof customerId !== "string") return sendJson(res, 400, { error: "send { message } with an x-customer-id header" });
    return streamRun(agent, store, res, { messages: [ChatMessage.fromUser(body.message)], customer_id: customerId });
  }
  const decisionRoute = /^\/runs\/([\w-]+)\/decisions$/.exec(req.url ?? "");
  if (req.method === "POST" && decisionRoute) {
    const body = (await readJson(req)) as { decisions?: Record<string, ConfirmationDecision> };
    const runId = decisionRoute[1]!;
    const snapshot = await store.take(runId);
    if (!snapshot) return sendJson(res, 404, { error: `no paused run ${runId}` });
    // Decisions the run refuses are the client's mistake: keep the paused run for a valid retry.
    return streamRun(agent, store, res, { snapshot, decisions: body.decisions ?? {} }, () => store.save(runId, snapshot));
  }
  sendJson(res, 404, { error: "POST /chat or POST /runs/:runId/decisions" });
}

// With `onRefused`, a DecisionError before the first event (such as a decision the run
// refuses) is answered with 400 instead of a stream, after `onRefused` ran.
async function streamRun(
  agent: ServiceAgent,
  store: SnapshotStore,
  res: http.ServerResponse,
  input: Parameters<ServiceAgent["stream"]>[0],
  onRefused?: () => Promise<void>,
): Promise<void> {
  const closed = new AbortController();
  res.on("close", () => closed.abort());
  const events = agent.stream({ ...input, signal: closed.signal })[Symbol.asyncIterator]();
  try {
    let next: Awaited<ReturnType<typeof events.next>>;
    try {
      next = await events.next();
    } catch (error) {
      if (!onRefused || !(error instanceof DecisionError)) throw error;
      await onRefused();
      return sendJson(res, 400, { error: error.message });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (; !next.done; next = await events.next()) {
      const event = next.value;
      if (event.type !== "result") {
        res.write(sse(event.type, event));
        continue;
      }
      const { result } = event;
      if (result.exitReason === "confirmation_required" && result.snapshot) {
        const runId = randomUUID();
        await store.save(runId, result.snapshot);
        res.write(sse("confirmation_required", { runId, pending: result.pendingConfirmations }));
      } else {
        res.write(sse("result", { answer: result.lastMessage.text, exitReason: result.exitReason, refunds: result.refunds ?? [] }));
      }
    }
  } finally {
    await events.return?.();
  }
  res.end();
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
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
