import type * as http from "node:http";
import { readUIMessageStream, type UIMessage } from "ai";
import { type Agent, type AgentStreamEvent, DecisionError } from "toolwright";
import { fromUIMessages, pipeUIMessageStreamToResponse, toUIMessageStream, UIRequestError } from "toolwright/ui";
import type { serviceState } from "../service/refundTools";
import type { ChatRecord } from "./chatRecord";
import { RunRecording } from "./runRecording";
import { readJsonBody, sendJson } from "./httpBodies";

type DeskAgent = Agent<typeof serviceState>;
type DeskEvent = AgentStreamEvent<Awaited<ReturnType<DeskAgent["run"]>>>;

/** How the chat routes are set up. */
export interface ChatRoutesOptions {
  /** The support desk's agent. */
  readonly agent: DeskAgent;
  /** The signed-in customer: from the session in a real app, never from the model or the page. */
  readonly customerId: string;
  /** Where chats are kept; a new Map when absent. */
  readonly chats?: Map<string, ChatRecord>;
  /** The largest request body accepted, in bytes (default 1 MiB): larger ones get a 413. */
  readonly maxBodyBytes?: number;
}

/** The page sees the refunds issued (a `data-state` part); the customer id stays on the server. */
const uiOptions = { state: ["refunds"] } as const;

const chatPath = /^\/api\/chat\/([\w-]{1,64})\/stream$/;
const historyPath = /^\/api\/chats\/([\w-]{1,64})$/;

/**
 * The three routes `useChat` needs: `POST /api/chat` (a new message, or the answer to an approval,
 * which resumes the paused run exactly once), `GET /api/chat/:id/stream` (a reloaded page follows the
 * reply still streaming, from its start; 204 when there is none) and `GET /api/chats/:id` (the history
 * a page starts from). Returns a handler that answers `true` when the request was one of them.
 */
export function createChatRoutes(options: ChatRoutesOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean> {
  const chats = options.chats ?? new Map<string, ChatRecord>();
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  return async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "POST" && path === "/api/chat") {
      await postChat(options, chats, maxBodyBytes, req, res);
      return true;
    }
    const stream = chatPath.exec(path);
    if (req.method === "GET" && stream) {
      const run = chats.get(stream[1]!)?.run as RunRecording<DeskEvent> | undefined;
      if (!run) res.writeHead(204).end();
      else await pipeUIMessageStreamToResponse(run.follow(), res, streamOptions(chats.get(stream[1]!)!));
      return true;
    }
    const history = historyPath.exec(path);
    if (req.method === "GET" && history) {
      sendJson(res, 200, { messages: chats.get(history[1]!)?.messages ?? [] });
      return true;
    }
    return false;
  };
}

async function postChat(options: ChatRoutesOptions, chats: Map<string, ChatRecord>, maxBodyBytes: number, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = await readJsonBody(req, res, maxBodyBytes);
  if (body === undefined) return;
  const { id, messages: posted } = body as { id?: unknown; messages?: unknown };
  if (typeof id !== "string" || !/^[\w-]{1,64}$/.test(id) || !Array.isArray(posted)) {
    return sendJson(res, 400, { error: "The chat request needs an id (letters, digits, '-' or '_', at most 64) and a messages array, as useChat sends them." });
  }
  const chat = chats.get(id) ?? { messages: [], refunds: [] };
  if (chat.run) return sendJson(res, 409, { error: `Chat '${id}' is still streaming a reply; follow it at GET /api/chat/${id}/stream or wait for it to end.` });
  let converted: ReturnType<typeof fromUIMessages>;
  try {
    converted = fromUIMessages(posted);
  } catch (error) {
    if (error instanceof UIRequestError) return sendJson(res, error.status, { error: error.message });
    throw error;
  }
  const { messages, decisions } = converted;
  const answersApproval = Object.keys(decisions).length > 0;
  const snapshot = chat.snapshot;
  if (answersApproval && !snapshot) return sendJson(res, 409, { error: `Chat '${id}' has no run waiting for an approval; send a new message instead.` });
  // Taken before the first await, so that of two answers to one approval only one resumes the run.
  chat.snapshot = undefined;
  const input = answersApproval ? { snapshot: snapshot!, decisions } : { messages, customer_id: options.customerId, refunds: chat.refunds };
  const events = options.agent.stream(input)[Symbol.asyncIterator]() as AsyncIterator<DeskEvent>;
  let first: IteratorResult<DeskEvent>;
  try {
    first = await events.next();
  } catch (error) {
    if (!(error instanceof DecisionError)) throw error;
    // A decision the run refuses is the page's mistake: the run stays paused for a valid answer.
    chat.snapshot = snapshot;
    return sendJson(res, 400, { error: error.message });
  }
  const run = new RunRecording(first, events);
  Object.assign(chat, { messages: posted as UIMessage[], run, knownToolCalls: Object.keys(decisions) });
  chats.set(id, chat);
  void keepHistory(chat, run);
  await pipeUIMessageStreamToResponse(run.follow(), res, streamOptions(chat));
}

// The stream's options for a chat: the state the page shows, and the calls it already holds.
function streamOptions(chat: ChatRecord) {
  return { ...uiOptions, knownToolCalls: chat.knownToolCalls ?? [] };
}

// The chat's history gets the reply as the page's own useChat assembles it (ai's reader over the
// same UI stream), so a page reloaded after the run starts from exactly what it would have shown.
async function keepHistory(chat: ChatRecord, run: RunRecording<DeskEvent>): Promise<void> {
  const before = chat.messages;
  const continued = before.at(-1)?.role === "assistant" ? before.at(-1) : undefined;
  let reply = continued && structuredClone(continued);
  try {
    const stream = toUIMessageStream(noteResult(chat, run.follow()), streamOptions(chat));
    for await (const message of readUIMessageStream({ message: reply, stream })) reply = message;
  } catch (error) {
    console.error(`Chat history: the reply could not be read back (${(error as Error).message}).`);
  }
  await run.finished;
  chat.messages = reply ? [...(continued ? before.slice(0, -1) : before), reply] : before;
  chat.run = undefined;
}

async function* noteResult(chat: ChatRecord, events: AsyncIterable<DeskEvent>): AsyncGenerator<DeskEvent> {
  for await (const event of events) {
    if (event.type === "result") {
      const { result } = event;
      if (result.exitReason === "confirmation_required") chat.snapshot = result.snapshot;
      chat.refunds = result.refunds ?? chat.refunds;
    }
    yield event;
  }
}
