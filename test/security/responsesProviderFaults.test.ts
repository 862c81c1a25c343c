import fc from "fast-check";
import { ChatMessage, type ChatGeneratorResponse, type StreamingChunk } from "toolwright";
import { OpenAIResponsesChatGenerator } from "toolwright/openai";
import { responsesJson } from "../helpers/mockResponses";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { expectNoUnhandledRejections, expectSettled, httpAnswer, mostly, outcomeOf, useFuzzServer, rarely } from "./providerFuzz";

// Small limits, so that stalls and silences end fast; a reply that outlasts them still ends in a
// ChatGeneratorError, which the property accepts.
const limits = { deadlineMs: 150, streamIdleTimeoutMs: 40, maxRetryDelayMs: 5 };
const hungAfterMs = limits.deadlineMs + 1000;

const { server, client } = useFuzzServer();

const deepJson = '{"a":'.repeat(100) + "1" + "}".repeat(100);
const text = fc.oneof({ weight: 30, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.constantFrom("x".repeat(100_000), "名".repeat(20_000), "__proto__") });
const id = fc.oneof({ weight: 10, arbitrary: fc.constantFrom("rs_1", "fc_1", "call_1", "msg_1") }, { weight: 1, arbitrary: fc.constantFrom("", "x".repeat(10_000), "__proto__", "constructor") });
const toolName = fc.constantFrom("get_weather", "get_", "", "a".repeat(5000), "__proto__", "constructor");
const argumentsText = fc.constantFrom('{"city":"Paris"}', '{"city":', "", "[1]", "null", '{"__proto__":{"polluted":1}}', deepJson, "[".repeat(5000));
const outputIndex = mostly(fc.nat(3));

const outputText = fc.record({ type: mostly(fc.constant("output_text")), text: mostly(text), annotations: mostly(fc.constant([])) });
const refusalPart = fc.record({ type: mostly(fc.constant("refusal")), refusal: mostly(text) });
const messageItem = fc.record({
  type: mostly(fc.constant("message")),
  id: mostly(id),
  role: mostly(fc.constant("assistant")),
  content: mostly(fc.array(fc.oneof(outputText, refusalPart, fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 })),
});
const functionCallItem = fc.record({ type: mostly(fc.constant("function_call")), id: mostly(id), call_id: mostly(id), name: mostly(toolName), arguments: mostly(argumentsText) });
const reasoningItem = fc.record({
  type: mostly(fc.constant("reasoning")),
  id: mostly(id),
  summary: mostly(fc.array(fc.record({ type: mostly(fc.constant("summary_text")), text: mostly(text) }), { maxLength: 2 })),
  encrypted_content: mostly(fc.option(text)),
  content: rarely(fc.array(fc.record({ type: mostly(fc.constant("reasoning_text")), text: mostly(text) }), { maxLength: 1 })),
});
const outputItem = fc.oneof({ weight: 3, arbitrary: messageItem }, { weight: 3, arbitrary: functionCallItem }, { weight: 3, arbitrary: reasoningItem }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

const response = fc.record({
  object: fc.constant("response"),
  id: mostly(id),
  model: mostly(text),
  status: mostly(
    fc.oneof({ weight: 20, arbitrary: fc.constant("completed") }, { weight: 3, arbitrary: fc.constant("incomplete") }, { weight: 1, arbitrary: fc.constantFrom("failed", "in_progress", "cancelled", "queued", "weird") }),
  ),
  error: mostly(rarely(fc.record({ code: mostly(text), message: mostly(text) }))),
  incomplete_details: mostly(rarely(fc.record({ reason: mostly(fc.constantFrom("max_output_tokens", "content_filter", "other")) }))),
  output: mostly(fc.array(outputItem, { maxLength: 4 })),
  usage: mostly(fc.record({ input_tokens: mostly(fc.nat()), output_tokens: mostly(fc.nat()), total_tokens: mostly(fc.nat()) })),
});

const streamEvent = fc.oneof(
  fc.record({ type: fc.constantFrom("response.output_text.delta", "response.reasoning_summary_text.delta", "response.refusal.delta"), output_index: outputIndex, item_id: mostly(id), delta: mostly(text) }),
  fc.record({ type: fc.constantFrom("response.output_item.added", "response.output_item.done"), output_index: outputIndex, item: mostly(outputItem) }),
  fc.record({ type: fc.constant("response.function_call_arguments.delta"), output_index: outputIndex, item_id: mostly(id), delta: mostly(text) }),
  fc.record({ type: fc.constantFrom("response.failed", "response.created", "response.in_progress"), response: mostly(response) }),
  fc.record({ type: fc.constant("error"), code: mostly(text), message: mostly(text), param: fc.constant(null) }),
  fc.record({ type: mostly(fc.constantFrom("response.content_part.added", "response.web_search_call.searching", "future.event")), data: fc.jsonValue({ maxDepth: 2 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const finalEvent = fc.record({ type: fc.constantFrom("response.completed", "response.completed", "response.incomplete"), response: mostly(response) });

/** One SSE frame: mostly named after the event's type, sometimes otherwise, sometimes not an event at all. */
const frame = (event: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 40,
      arbitrary: fc
        .tuple(event, fc.oneof({ weight: 15, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom("error", "thread.run", "message", "") }))
        .map(([value, name]) => {
          const type = typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string" ? (value as { type: string }).type : undefined;
          return `${name ?? type ? `event: ${name ?? type}\n` : ""}data: ${JSON.stringify(value)}\n\n`;
        }),
    },
    { weight: 1, arbitrary: fc.constant("data: [DONE]\n\n") },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((line) => `${line}\n`) },
  );

/** A body of the kind the request asks for, most of the time. */
const body = (streaming: boolean) =>
  fc.oneof(
    {
      weight: streaming ? 12 : 1,
      arbitrary: fc.tuple(fc.array(frame(streamEvent), { maxLength: 6 }), fc.option(frame(finalEvent), { freq: 5 }) /* present 4 times in 5 */).map(([frames, last]) => [...frames, ...(last ? [last] : [])].join("")),
    },
    { weight: streaming ? 1 : 12, arbitrary: response.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? "") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 64 }) },
  );

const scenario = fc.boolean().chain((streaming) => fc.record({ streaming: fc.constant(streaming), maxRetries: fc.nat(1), responses: fc.array(httpAnswer(body(streaming), streaming), { minLength: 1, maxLength: 2 }) }));

function expectWellFormed(response: ChatGeneratorResponse, chunks: readonly StreamingChunk[], streaming: boolean): void {
  expect(response.replies).toHaveLength(1);
  const reply = response.replies[0]!;
  expect(reply).toBeInstanceOf(ChatMessage);
  expect(reply.role).toBe("assistant");
  expect(["undefined", "string"]).toContain(typeof reply.text);
  expect(typeof response.meta?.finishReason).toBe("string");
  for (const call of reply.toolCalls) {
    expect(typeof call.toolName).toBe("string");
    expect(typeof call.id).toBe("string");
    expect(typeof call.arguments === "string" || (typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments))).toBe(true);
  }
  for (const part of reply.content) if (part.type === "reasoning") expect(typeof part.reasoning.text).toBe("string");
  expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(reply.toJSON())))).toEqual(reply);
  if (streaming) expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: response.meta?.finishReason });
  for (const chunk of chunks.slice(0, -1)) {
    expect(["text", "reasoning", "toolCallDelta"]).toContain(chunk.type);
    if (chunk.type === "text" || chunk.type === "reasoning") expect(typeof chunk.delta).toBe("string");
    if (chunk.type === "toolCallDelta") {
      expect(Number.isInteger(chunk.index) && typeof chunk.argumentsDelta === "string").toBe(true);
      expect(["undefined", "string"]).toContain(typeof chunk.id);
      expect(["undefined", "string"]).toContain(typeof chunk.toolName);
    }
  }
}

describe("OpenAIResponsesChatGenerator", () => {
  const runs = fuzzRuns(80);

  it(
    `ends every hostile Responses API body or event stream in a reply or a ChatGeneratorError, and sends the reply back (${runs} cases)`,
    async () => {
      await expectNoUnhandledRejections(() =>
        fc.assert(
          fc.asyncProperty(scenario, async ({ streaming, maxRetries, responses }) => {
            server.reset();
            server.enqueue(...responses);
            const generator = new OpenAIResponsesChatGenerator({ model: "fuzz-model", client: client(), maxRetries, ...limits });
            const chunks: StreamingChunk[] = [];
            const streamingCallback = streaming ? (chunk: StreamingChunk) => void chunks.push(chunk) : undefined;
            const question = ChatMessage.fromUser("Weather in Paris?");

            const outcome = await outcomeOf(generator.run({ messages: [question], tools: [], ...(streamingCallback && { streamingCallback }) }), hungAfterMs);

            const response = expectSettled(outcome, "fuzz-model");
            if (!response) return;
            expectWellFormed(response, chunks, streaming);
            // The reply (its reasoning and calls included) goes back in the next request.
            const reply = response.replies[0]!;
            const results = reply.toolCalls.map((call) => ChatMessage.fromTool("done", call));
            server.reset();
            server.enqueue(responsesJson({ text: "ok" }));
            const next = await generator.run({ messages: [question, reply, ...results], tools: [] });
            expect(next.replies[0]!.text).toBe("ok");
          }),
          fuzzParameters(runs),
        ),
      );
    },
    fuzzTimeout(runs, 100),
  );
});
