import type { ServerResponse } from "node:http";
import { openaiStrictErrorMessage, openaiStrictViolations } from "./openaiStrictRules";
import { type RecordedRequest, RecordingHttpServer } from "./recordingHttpServer";

export type { RecordedRequest };

/** How a raw answer ends: normally, with the connection reset after the body, or not at all (the server stalls). */
export type RawEnding = "end" | "reset" | "stall";

/** A scripted answer to one request. */
export type MockResponse =
  | { readonly kind: "json"; readonly body: unknown }
  | { readonly kind: "sse"; readonly chunks: readonly unknown[]; readonly hang?: boolean }
  | { readonly kind: "events"; readonly events: readonly NamedEvent[]; readonly hang?: boolean }
  | { readonly kind: "error"; readonly status: number; readonly error: { message: string; type: string; code: string | null }; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: "raw"; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string | Uint8Array; readonly ending: RawEnding }
  | { readonly kind: "hang" };

/** A server-sent event with a name, as the Responses API streams them (`event: <name>`, then `data: <JSON>`). */
export interface NamedEvent {
  readonly event: string;
  readonly data: unknown;
}

/** A tool call of a scripted reply; `arguments` is the raw JSON text the "model" sends. */
export interface MockToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What a scripted reply contains. */
export interface MockReply {
  readonly text?: string;
  readonly refusal?: string;
  readonly toolCalls?: readonly MockToolCall[];
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number };
  /** Default `mock-model-1`. */
  readonly model?: string;
}

// The fields of OpenAI's recorded answers (test/fixtures/vendors/openai), so that scripted replies have their shape.
const envelope = { id: "chatcmpl-mock", created: 1700000000, service_tier: "default", system_fingerprint: "fp_mock" };

function usageOf(reply: MockReply) {
  const u = reply.usage;
  return (
    u && {
      prompt_tokens: u.promptTokens,
      completion_tokens: u.completionTokens,
      total_tokens: u.promptTokens + u.completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    }
  );
}

function finishReasonOf(reply: MockReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
}

/** A non-streaming `chat.completion` answer. */
export function jsonReply(reply: MockReply): MockResponse {
  const toolCalls = reply.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  const message = { role: "assistant", content: reply.text ?? null, refusal: reply.refusal ?? null, ...(toolCalls && { tool_calls: toolCalls }), annotations: [] };
  const body = {
    ...envelope,
    object: "chat.completion",
    model: reply.model ?? "mock-model-1",
    choices: [{ index: 0, message, finish_reason: finishReasonOf(reply), logprobs: null }],
    ...(reply.usage && { usage: usageOf(reply) }),
  };
  return { kind: "json", body };
}

/** Splits text into `pieces` parts of about equal length (fewer when the text is shorter). */
export function split(text: string, pieces = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/**
 * A streamed answer: a role chunk, the text and refusal in several deltas, each tool call as a
 * header delta (index, id, name) then its arguments in several deltas — with `interleave`, all
 * headers first and then the calls' argument pieces in turn — a finish chunk and, when `usage` is
 * given, a usage chunk. With `hang`, the stream stays open after the chunks (no `[DONE]`).
 */
export function sseReply(reply: MockReply, options: { pieces?: number; interleave?: boolean; hang?: boolean } = {}): MockResponse {
  const model = reply.model ?? "mock-model-1";
  const chunk = (delta: object, finishReason: string | null = null) => ({ ...envelope, object: "chat.completion.chunk", model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null });
  const hasText = reply.text !== undefined || reply.refusal !== undefined;
  const chunks: unknown[] = [chunk({ role: "assistant", content: hasText ? "" : null, refusal: null })];
  for (const piece of split(reply.text ?? "", options.pieces)) chunks.push(chunk({ content: piece }));
  for (const piece of split(reply.refusal ?? "", options.pieces)) chunks.push(chunk({ refusal: piece }));
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    header: chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    pieces: split(call.arguments, options.pieces).map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
  }));
  if (options.interleave) {
    chunks.push(...calls.map((c) => c.header));
    for (let i = 0; calls.some((c) => i < c.pieces.length); i++) for (const c of calls) if (i < c.pieces.length) chunks.push(c.pieces[i]);
  } else {
    for (const c of calls) chunks.push(c.header, ...c.pieces);
  }
  chunks.push(chunk({}, finishReasonOf(reply)));
  if (reply.usage) chunks.push({ ...envelope, object: "chat.completion.chunk", model, choices: [], usage: usageOf(reply) });
  return { kind: "sse", chunks, ...(options.hang && { hang: true }) };
}

/** An HTTP error with an OpenAI-style body; `headers` replace the default `retry-after-ms: 0`. */
export function errorReply(status: number, message: string, type = "server_error", code: string | null = null, headers?: Readonly<Record<string, string>>): MockResponse {
  return { kind: "error", status, error: { message, type, code }, ...(headers && { headers }) };
}

/** Any bytes: a JSON content type and status 200 unless given, ended as `ending` says. */
export function rawReply(body: string | Uint8Array, options: { status?: number; headers?: Readonly<Record<string, string>>; ending?: RawEnding } = {}): MockResponse {
  return { kind: "raw", status: options.status ?? 200, headers: options.headers ?? { "content-type": "application/json" }, body, ending: options.ending ?? "end" };
}

/** A 200 event stream with one `data:` event per entry (`[DONE]` only when listed), ended as `ending` says. */
export function sseEvents(data: readonly string[], ending: RawEnding = "end"): MockResponse {
  return rawReply(data.map((line) => `data: ${line}\n\n`).join(""), { headers: { "content-type": "text/event-stream" }, ending });
}

/** No answer at all until the client gives up (aborts). */
export function hangingReply(): MockResponse {
  return { kind: "hang" };
}

const scriptedPaths = new Set(["/v1/chat/completions", "/v1/responses"]);

/** The `error` of OpenAI's 400 answer to a schema sent in strict mode that breaks a strict rule. */
export interface StrictRefusal {
  readonly message: string;
  readonly type: "invalid_request_error";
  readonly param: string;
  readonly code: "invalid_function_parameters" | "invalid_json_schema";
}

/**
 * The refusal OpenAI answers a request with when a schema it sends in strict mode breaks a strict
 * rule (see openaiStrictRules): Chat Completions' function tools with `strict: true` and
 * `response_format` with `strict: true`; the Responses API's function tools unless `strict: false`
 * (it makes them strict when `strict` is left out) and `text.format` with `strict: true`. The
 * message, param and code are the API's (from its answers quoted in public issue threads).
 */
export function strictSchemaRefusal(url: string, body: unknown): StrictRefusal | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const request = body as { tools?: unknown; response_format?: any; text?: any };
  const responses = url === "/v1/responses";
  const schemas: Array<{ schema: unknown; subject: string; param: string; code: StrictRefusal["code"] }> = [];
  for (const [i, tool] of (Array.isArray(request.tools) ? request.tools : []).entries()) {
    const fn = responses ? tool : tool?.function;
    const strict = responses ? tool?.type === "function" && fn?.strict !== false : fn?.strict === true;
    if (strict) schemas.push({ schema: fn.parameters, subject: `function '${String(fn.name)}'`, param: responses ? `tools[${i}].parameters` : `tools[${i}].function.parameters`, code: "invalid_function_parameters" });
  }
  const format = responses ? request.text?.format : request.response_format?.json_schema;
  const isJsonSchema = responses ? format?.type === "json_schema" : request.response_format?.type === "json_schema";
  if (isJsonSchema && format?.strict === true) {
    schemas.push({ schema: format.schema, subject: `response_format '${String(format.name)}'`, param: responses ? "text.format.schema" : "response_format", code: "invalid_json_schema" });
  }
  for (const { schema, subject, param, code } of schemas) {
    const violations = openaiStrictViolations(schema);
    if (violations.length > 0) return { message: openaiStrictErrorMessage(subject, violations), type: "invalid_request_error", param, code };
  }
  return undefined;
}

/**
 * An OpenAI server on 127.0.0.1 for tests: `POST /v1/chat/completions` (Chat Completions) and
 * `POST /v1/responses` (the Responses API) are answered from one queue of scripted responses, and
 * every request is recorded.
 */
export class MockOpenAIServer extends RecordingHttpServer<MockResponse> {
  /** The requests refused for a schema sent with `strict: true` that breaks OpenAI's strict rules, as the 400 answer's `error`. */
  readonly refusals: StrictRefusal[] = [];

  protected respond(request: RecordedRequest, res: ServerResponse): void {
    const scripted = request.method === "POST" && scriptedPaths.has(request.url);
    const refusal = scripted ? strictSchemaRefusal(request.url, request.body) : undefined;
    if (refusal) {
      this.refusals.push(refusal);
      res.writeHead(400, { "content-type": "application/json", "x-should-retry": "false" }).end(JSON.stringify({ error: refusal }));
      return;
    }
    this.#answer(res, scripted ? this.nextAnswer() : undefined);
  }

  /** The `baseURL` to give the SDK. */
  get baseURL(): string {
    return `${this.origin}/v1`;
  }

  /** Forgets the recorded requests, the refusals and the unused responses. */
  override reset(): void {
    super.reset();
    this.refusals.length = 0;
  }

  #answer(res: ServerResponse, response: MockResponse | undefined): void {
    if (!response) {
      const message = `MockOpenAIServer has no scripted response for request ${this.requests.length}.`;
      res.writeHead(500, { "content-type": "application/json", "x-should-retry": "false" }).end(JSON.stringify({ error: { message, type: "mock_error", code: null } }));
      return;
    }
    switch (response.kind) {
      case "json":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(response.body));
        return;
      case "error":
        // retry-after-ms: 0 makes retries immediate.
        res.writeHead(response.status, { "content-type": "application/json", ...(response.headers ?? { "retry-after-ms": "0" }) }).end(JSON.stringify({ error: response.error }));
        return;
      case "raw":
        res.writeHead(response.status, response.headers);
        if (response.ending === "end") res.end(response.body);
        else res.write(response.body, () => response.ending === "reset" && res.socket?.destroy());
        return;
      case "sse":
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const chunk of response.chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        if (!response.hang) res.end("data: [DONE]\n\n");
        return;
      case "events":
        // The Responses API ends its stream after the last event, without `[DONE]`.
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const { event, data } of response.events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        if (!response.hang) res.end();
        return;
      case "hang":
        return;
    }
  }
}
