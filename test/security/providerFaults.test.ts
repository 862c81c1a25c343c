import fc from "fast-check";
import OpenAI from "openai";
import { ChatGeneratorError, ChatMessage, type ChatGeneratorResponse, type StreamingChunk } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { hangingReply, type MockResponse, MockOpenAIServer, type RawEnding } from "../helpers/mockOpenAIServer";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

// Small limits, so that stalls and silences end fast; a reply that outlasts them still ends in a
// ChatGeneratorError, which the property accepts.
const limits = { deadlineMs: 250, streamIdleTimeoutMs: 50, maxRetryDelayMs: 5 };
const hungAfterMs = limits.deadlineMs + 1000;

const server = new MockOpenAIServer();
let client: OpenAI;
beforeAll(async () => {
  await server.start();
  // logLevel off: the SDK logs every unparsable stream event.
  client = new OpenAI({ apiKey: "test-key", baseURL: server.baseURL, timeout: 100, logLevel: "off" });
});
afterAll(() => server.close());

/** Mostly a valid value, sometimes any JSON value, sometimes left out. */
function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 30 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }, { arbitrary: fc.constant(undefined), weight: 1 });
}

/** Mostly null (left out), sometimes a value. */
function rarely<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: value, weight: 1 });
}

const text = fc.string({ maxLength: 12 });
const toolName = fc.constantFrom("get_weather", "get_", "weather", "", "ec", "ho");
const argumentsText = fc.constantFrom('{"city":"Paris"}', '{"city":', '"Paris"}', "{}", "", "[1]");
const finishReason = mostly(fc.constantFrom(null, "stop", "length", "tool_calls"));
const usage = mostly(fc.record({ prompt_tokens: mostly(fc.nat()), completion_tokens: mostly(fc.nat()), total_tokens: mostly(fc.nat()) }));
const toolCall = (withIndex: boolean) =>
  fc.record({
    ...(withIndex && { index: mostly(fc.nat(2)) }),
    id: mostly(text),
    type: mostly(fc.constant("function")),
    function: mostly(fc.record({ name: mostly(toolName), arguments: mostly(argumentsText) })),
  });
const replyParts = { role: mostly(fc.constant("assistant")), content: mostly(fc.option(text)), refusal: mostly(fc.option(text, { freq: 2 })) };
const message = fc.record({ ...replyParts, tool_calls: mostly(fc.array(toolCall(false), { maxLength: 2 })) });
const delta = fc.record({ ...replyParts, tool_calls: mostly(fc.array(toolCall(true), { maxLength: 2 })) });
const completion = fc.record({
  object: fc.constant("chat.completion"),
  model: mostly(text),
  choices: mostly(fc.array(fc.record({ index: mostly(fc.nat(2)), message: mostly(message), finish_reason: finishReason }), { minLength: 1, maxLength: 2 })),
  usage,
});
const chunk = fc.record({
  object: fc.constant("chat.completion.chunk"),
  model: mostly(text),
  choices: mostly(fc.array(fc.record({ index: mostly(fc.nat(1)), delta: mostly(delta), finish_reason: finishReason }), { minLength: 1, maxLength: 2 })),
  usage,
});
const providerError = fc.record({ error: mostly(fc.record({ message: mostly(text), type: mostly(text), code: mostly(fc.option(text)) })) });

const sseEvent = fc.oneof(
  { weight: 8, arbitrary: chunk.map((value) => `data: ${JSON.stringify(value)}\n\n`) },
  { weight: 2, arbitrary: fc.constant("data: [DONE]\n\n") },
  { weight: 1, arbitrary: providerError.map((value) => `data: ${JSON.stringify(value)}\n\n`) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => `data: ${JSON.stringify(value)}\n\n`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("error", "thread.run", "message"), fc.jsonValue({ maxDepth: 2 })).map(([event, value]) => `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((line) => `${line}\n`) },
);

/** A body of the kind the request asks for, most of the time. */
const body = (streaming: boolean) =>
  fc.oneof(
    { weight: streaming ? 12 : 1, arbitrary: fc.array(sseEvent, { minLength: 1, maxLength: 8 }).map((events) => events.join("")) },
    { weight: streaming ? 1 : 12, arbitrary: completion.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: providerError.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? "") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 64 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  );

const headerValue = fc.oneof(fc.nat(5000).map(String), fc.constantFrom("3600", "-1", "soon", "", "1e999", "0.5"), fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()));

/** An HTTP answer: mostly a 200 of the right content type, sometimes any status, header, truncation or ending. */
const response = (streaming: boolean): fc.Arbitrary<MockResponse> =>
  fc.oneof(
    {
      weight: 30,
      arbitrary: fc
        .record({
          status: fc.oneof({ weight: 8, arbitrary: fc.constant(200) }, { weight: 1, arbitrary: fc.constantFrom(204, 400, 401, 404, 408, 409, 429, 500, 502, 503) }, { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) }),
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant(streaming ? "text/event-stream" : "application/json") },
            { weight: 1, arbitrary: fc.constantFrom("application/json; charset=utf-8", "text/plain", "text/html", undefined) },
          ),
          retryAfter: rarely(headerValue),
          retryAfterMs: rarely(headerValue),
          shouldRetry: rarely(fc.constantFrom("true", "false")),
          body: body(streaming),
          cut: rarely(fc.nat()),
          ending: fc.oneof({ weight: 16, arbitrary: fc.constant<RawEnding>("end") }, { weight: 2, arbitrary: fc.constant<RawEnding>("reset") }, { weight: 1, arbitrary: fc.constant<RawEnding>("stall") }),
        })
        .map(({ status, contentType, retryAfter, retryAfterMs, shouldRetry, body: content, cut, ending }): MockResponse => {
          const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
          const headers = {
            ...(contentType && { "content-type": contentType }),
            ...(retryAfter !== null && { "retry-after": retryAfter }),
            ...(retryAfterMs !== null && { "retry-after-ms": retryAfterMs }),
            ...(shouldRetry !== null && { "x-should-retry": shouldRetry }),
          };
          return { kind: "raw", status, headers, body: cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1)), ending };
        }),
    },
    { weight: 1, arbitrary: fc.constant(hangingReply()) },
  );

const scenario = fc.boolean().chain((streaming) => fc.record({ streaming: fc.constant(streaming), maxRetries: fc.nat(2), responses: fc.array(response(streaming), { minLength: 1, maxLength: 3 }) }));

type Outcome = { readonly response: ChatGeneratorResponse } | { readonly error: unknown } | { readonly hung: true };

async function outcomeOf(promise: Promise<ChatGeneratorResponse>): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ hung: true }), hungAfterMs)));
  try {
    return await Promise.race([promise.then((value) => ({ response: value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

function expectWellFormed(response: ChatGeneratorResponse, chunks: readonly StreamingChunk[], streaming: boolean): void {
  expect(response.replies.length).toBeGreaterThan(0);
  for (const reply of response.replies) {
    expect(reply).toBeInstanceOf(ChatMessage);
    expect(reply.role).toBe("assistant");
    expect(["undefined", "string"]).toContain(typeof reply.text);
    for (const call of reply.toolCalls) {
      expect(typeof call.toolName).toBe("string");
      expect(["undefined", "string"]).toContain(typeof call.id);
      expect(typeof call.arguments === "string" || (typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments))).toBe(true);
    }
    expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(reply.toJSON())))).toEqual(reply);
  }
  if (streaming) expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: response.meta?.finishReason });
  for (const chunk of chunks.slice(0, -1)) {
    expect(["text", "toolCallDelta"]).toContain(chunk.type);
    if (chunk.type === "text") expect(typeof chunk.delta).toBe("string");
    if (chunk.type === "toolCallDelta") expect(Number.isInteger(chunk.index) && typeof chunk.argumentsDelta === "string").toBe(true);
  }
}

describe("OpenAIChatGenerator", () => {
  const runs = fuzzRuns(150);

  it(
    `ends every arbitrary byte stream in a reply or a ChatGeneratorError (${runs} cases)`,
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        await fc.assert(
          fc.asyncProperty(scenario, async ({ streaming, maxRetries, responses }) => {
            server.reset();
            server.enqueue(...responses);
            const generator = new OpenAIChatGenerator({ model: "fuzz-model", client, maxRetries, ...limits });
            const chunks: StreamingChunk[] = [];
            const streamingCallback = streaming ? (chunk: StreamingChunk) => void chunks.push(chunk) : undefined;

            const outcome = await outcomeOf(generator.run({ messages: [ChatMessage.fromUser("Weather in Paris?")], tools: [], ...(streamingCallback && { streamingCallback }) }));

            expect(outcome).not.toHaveProperty("hung");
            if ("error" in outcome) {
              expect(outcome.error).toBeInstanceOf(ChatGeneratorError);
              expect((outcome.error as Error).message).toMatch(/^OpenAI request for model 'fuzz-model' (failed|could not connect)/);
            }
            if ("response" in outcome) expectWellFormed(outcome.response, chunks, streaming);
          }),
          fuzzParameters(runs),
        );
        // Rejections left unhandled surface on a later turn of the event loop.
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
      expect(unhandled).toEqual([]);
    },
    fuzzTimeout(runs, 100),
  );
});
