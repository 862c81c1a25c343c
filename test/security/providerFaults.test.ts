import fc from "fast-check";
import { ChatMessage, type ChatGeneratorResponse, type StreamingChunk } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { expectNoUnhandledRejections, expectSettled, httpAnswer, mostly, outcomeOf, useFuzzServer } from "./providerFuzz";

// Small limits, so that stalls and silences end fast; a reply that outlasts them still ends in a
// ChatGeneratorError, which the property accepts.
const limits = { deadlineMs: 250, streamIdleTimeoutMs: 50, maxRetryDelayMs: 5 };
const hungAfterMs = limits.deadlineMs + 1000;

const { server, client } = useFuzzServer();

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

const scenario = fc.boolean().chain((streaming) => fc.record({ streaming: fc.constant(streaming), maxRetries: fc.nat(2), responses: fc.array(httpAnswer(body(streaming), streaming), { minLength: 1, maxLength: 3 }) }));

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
      await expectNoUnhandledRejections(() =>
        fc.assert(
          fc.asyncProperty(scenario, async ({ streaming, maxRetries, responses }) => {
            server.reset();
            server.enqueue(...responses);
            const generator = new OpenAIChatGenerator({ model: "fuzz-model", client: client(), maxRetries, ...limits });
            const chunks: StreamingChunk[] = [];
            const streamingCallback = streaming ? (chunk: StreamingChunk) => void chunks.push(chunk) : undefined;

            const outcome = await outcomeOf(generator.run({ messages: [ChatMessage.fromUser("Weather in Paris?")], tools: [], ...(streamingCallback && { streamingCallback }) }), hungAfterMs);

            const response = expectSettled(outcome, "fuzz-model");
            if (response) expectWellFormed(response, chunks, streaming);
          }),
          fuzzParameters(runs),
        ),
      );
    },
    fuzzTimeout(runs, 100),
  );
});
