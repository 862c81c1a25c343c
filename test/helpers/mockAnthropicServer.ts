import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest } from "./mockOpenAIServer";

/** A content block of a scripted Anthropic Messages reply. */
export type AnthropicBlock =
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "redacted_thinking"; readonly data: string }
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: Record<string, unknown> };

/** A scripted reply: its content blocks, why it stopped and its token counts. */
export interface AnthropicReply {
  readonly content: readonly AnthropicBlock[];
  /** Default: `tool_use` when there is a tool_use block, else `end_turn`. */
  readonly stopReason?: string;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A scripted answer to one request. */
export type AnthropicResponse =
  | { readonly kind: "json"; readonly reply: AnthropicReply }
  | { readonly kind: "sse"; readonly reply: AnthropicReply }
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly message: string };

const model = "claude-sonnet-4-5-20250929";

function stopReasonOf(reply: AnthropicReply): string {
  return reply.stopReason ?? (reply.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
}

function usageOf(reply: AnthropicReply) {
  const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** The `message` body of a non-streaming reply, as the Messages API sends it. */
export function messageBody(reply: AnthropicReply): object {
  return { id: "msg_01", type: "message", role: "assistant", model, content: reply.content, stop_reason: stopReasonOf(reply), stop_sequence: null, usage: usageOf(reply) };
}

/**
 * The server-sent events of a streamed reply, as the Messages API sends them: `message_start`, each
 * block as `content_block_start`, its deltas (text, thinking then its signature, tool input JSON in
 * two pieces) and `content_block_stop`, then `message_delta` with the stop reason and `message_stop`.
 */
export function messageEvents(reply: AnthropicReply): Array<{ event: string; data: object }> {
  const usage = usageOf(reply);
  const events: Array<{ event: string; data: object }> = [
    { event: "message_start", data: { type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } } },
  ];
  for (const [index, block] of reply.content.entries()) {
    const delta = (value: object) => events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: value } });
    if (block.type === "text") {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      delta({ type: "text_delta", text: block.text });
    } else if (block.type === "thinking") {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } } });
      delta({ type: "thinking_delta", thinking: block.thinking });
      delta({ type: "signature_delta", signature: block.signature });
    } else if (block.type === "redacted_thinking") {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: block } });
    } else {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } } });
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      delta({ type: "input_json_delta", partial_json: json.slice(0, half) });
      delta({ type: "input_json_delta", partial_json: json.slice(half) });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  }
  events.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: stopReasonOf(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } } });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/**
 * An Anthropic Messages API server on 127.0.0.1 for tests: `POST /v1/messages` is answered from a
 * queue of scripted responses (JSON, server-sent events or an error), and every request is recorded.
 */
export class MockAnthropicServer {
  readonly requests: RecordedRequest[] = [];
  #queue: AnthropicResponse[] = [];
  #port = 0;
  readonly #server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Recorded as text.
      }
      this.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const response = req.method === "POST" && req.url === "/v1/messages" ? this.#queue.shift() : undefined;
      if (!response) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "api_error", message: `MockAnthropicServer has no scripted response for request ${this.requests.length}.` } }));
      } else if (response.kind === "error") {
        res.writeHead(response.status, { "content-type": "application/json", "retry-after-ms": "0" }).end(JSON.stringify({ type: "error", error: { type: response.type, message: response.message } }));
      } else if (response.kind === "json") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(messageBody(response.reply)));
      } else {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const { event, data } of messageEvents(response.reply)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        res.end();
      }
    });
  });

  /** The `baseURL` to give `createAnthropic`. */
  get baseURL(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Adds responses to the queue; each request takes the next one. */
  enqueue(...responses: AnthropicResponse[]): void {
    this.#queue.push(...responses);
  }

  /** Forgets the recorded requests and the unused responses. */
  reset(): void {
    this.requests.length = 0;
    this.#queue = [];
  }
}
