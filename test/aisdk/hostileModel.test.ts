import { APICallError } from "@ai-sdk/provider";
import fc from "fast-check";
import { ChatGeneratorError, type ChatGeneratorResponse, ChatMessage, type StreamingChunk } from "toolwright";
import { AISdkChatGenerator, type AISdkLanguageModel } from "toolwright/ai-sdk";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "../security/fuzzSettings";
import { outcomeOf } from "../security/providerFuzz";

// A model's output is as untrusted as a provider's bytes: whatever doGenerate or doStream give
// (wrong types, giant strings, NaN usage, thousands of parts, throws, streams that break or never
// end), the generator answers with a well-formed reply or a ChatGeneratorError, and never hangs.
// Small limits, so that stalls end fast; a case that outlasts them ends in a ChatGeneratorError.
const limits = { deadlineMs: 150, streamIdleTimeoutMs: 30, maxRetryDelayMs: 2 };
const hungAfterMs = limits.deadlineMs + 1000;

const giant = "x".repeat(200_000);
/** Any value a broken or hostile model might put where a field belongs. */
const junk = fc.oneof(
  fc.constantFrom(null, undefined, Number.NaN, -1, Number.POSITIVE_INFINITY, 1.5, 2 ** 60, "", giant, true, [], {}, Symbol("s"), 10n),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant({ nested: JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`) as unknown }),
);

/** Mostly a valid value, sometimes junk. */
function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: junk, weight: 1 });
}

const text = fc.oneof({ arbitrary: fc.string({ maxLength: 12 }), weight: 20 }, { arbitrary: fc.constant(giant), weight: 1 });
const id = fc.oneof({ arbitrary: fc.constantFrom("c1", "c2", "0", "1"), weight: 20 }, { arbitrary: fc.constant(giant), weight: 1 });
const toolName = fc.oneof({ arbitrary: fc.constantFrom("search", "add_note", "", "__proto__"), weight: 20 }, { arbitrary: fc.constant(giant), weight: 1 });
const input = fc.constantFrom('{"query":"lamps"}', '{"query":', "", "[1]", "null", `${"[".repeat(100)}${"]".repeat(100)}`, '{"__proto__":{"x":1}}');
const unified = fc.constantFrom("stop", "length", "tool-calls", "content-filter", "error", "other", "interrupted", "unknown");
const finishReason = fc.record({ unified: mostly(unified), raw: mostly(text) });
const tokens = fc.record({ total: mostly(fc.nat()) });
const usage = fc.record({ inputTokens: mostly(tokens), outputTokens: mostly(tokens) });
const metadata = fc.oneof(fc.constant(undefined), fc.record({ anthropic: mostly(fc.record({ signature: mostly(text) })) }), junk);

const contentPart = fc.oneof(
  fc.record({ type: fc.constant("text"), text: mostly(text) }),
  fc.record({ type: fc.constant("reasoning"), text: mostly(text), providerMetadata: metadata }),
  fc.record({ type: fc.constant("tool-call"), toolCallId: mostly(id), toolName: mostly(toolName), input: mostly(input), providerExecuted: mostly(fc.boolean()) }),
  fc.record({ type: fc.constantFrom("tool-result", "source", "file", "tool-approval-request", "custom", "reasoning-file", "mystery"), id: mostly(id) }),
  junk,
);

const streamPart = fc.oneof(
  fc.record({ type: fc.constant("stream-start"), warnings: mostly(fc.array(fc.record({ type: fc.constant("other"), message: text }), { maxLength: 2 })) }),
  fc.record({ type: fc.constant("response-metadata"), id: mostly(id), modelId: mostly(text) }),
  fc.record({ type: fc.constantFrom("text-start", "text-end", "reasoning-start", "reasoning-end", "tool-input-end"), id: mostly(id), providerMetadata: metadata }),
  fc.record({ type: fc.constantFrom("text-delta", "reasoning-delta", "tool-input-delta"), id: mostly(id), delta: mostly(text), providerMetadata: metadata }),
  fc.record({ type: fc.constant("tool-input-start"), id: mostly(id), toolName: mostly(toolName), inputEncoding: mostly(fc.constantFrom("json", "text")), providerExecuted: mostly(fc.boolean()) }),
  fc.record({ type: fc.constant("tool-call"), toolCallId: mostly(id), toolName: mostly(toolName), input: mostly(input), providerExecuted: mostly(fc.boolean()) }),
  fc.record({ type: fc.constant("finish"), finishReason: mostly(finishReason), usage: mostly(usage) }),
  fc.record({ type: fc.constant("error"), error: mostly(fc.record({ message: text })) }),
  fc.record({ type: fc.constantFrom("ping", "raw", "source", "file", "mystery") }),
  junk,
);

/** Content parts: a few, or rarely thousands. */
function parts<T>(part: fc.Arbitrary<T>): fc.Arbitrary<unknown[]> {
  return fc.oneof({ arbitrary: fc.array(part, { maxLength: 12 }), weight: 30 }, { arbitrary: part.map((one) => Array.from({ length: 5000 }, () => one)), weight: 1 });
}

const generateResult = fc.oneof(
  { weight: 20, arbitrary: fc.record({ content: mostly(parts(contentPart)), finishReason: mostly(finishReason), usage: mostly(usage), response: mostly(fc.record({ id: mostly(id), modelId: mostly(text) })), warnings: mostly(fc.constant([])) }) },
  { weight: 1, arbitrary: junk },
);

const thrown = fc.oneof(
  fc.record({ statusCode: fc.constantFrom(400, 429, 500, 529, undefined, 0, 999), message: fc.string({ maxLength: 12 }), retryAfter: fc.constantFrom("0", "3600", "soon", "") }).map(
    ({ statusCode, message, retryAfter }) => new APICallError({ message, url: "u", requestBodyValues: {}, statusCode, responseHeaders: { "retry-after": retryAfter } }),
  ),
  fc.record({ statusCode: junk, message: junk, isRetryable: junk, responseHeaders: junk }).map((fields) => ({ ...fields, [Symbol.for("vercel.ai.error.AI_APICallError")]: true })),
  junk,
  fc.constant(new TypeError("terminated")),
);

type Behaviour = { kind: "return"; value: unknown } | { kind: "throw"; error: unknown } | { kind: "hang" };
const behaviour = (value: fc.Arbitrary<unknown>): fc.Arbitrary<Behaviour> =>
  fc.oneof(
    { weight: 20, arbitrary: value.map((v): Behaviour => ({ kind: "return", value: v })) },
    { weight: 3, arbitrary: thrown.map((error): Behaviour => ({ kind: "throw", error })) },
    { weight: 1, arbitrary: fc.constant<Behaviour>({ kind: "hang" }) },
  );

/** Stream objects that are not ReadableStreams: a locked one, a reader that throws, a read result that is not one. */
const brokenStream = fc.constantFrom(
  { stream: { getReader: () => { throw new TypeError("ReadableStream is locked"); } } },
  { stream: { getReader: () => ({ read: () => { throw new Error("read"); }, cancel: async () => undefined }) } },
  { stream: { getReader: () => ({ read: async () => 42, cancel: () => { throw new Error("cancel"); } }) } },
);

type Ending = "close" | "error" | "open";
const streamResult = fc.record({ parts: parts(streamPart), ending: fc.oneof({ weight: 12, arbitrary: fc.constant<Ending>("close") }, { weight: 1, arbitrary: fc.constantFrom<Ending>("error", "open") }), error: junk });

const scenario = fc.boolean().chain((streaming) =>
  fc.record({
    streaming: fc.constant(streaming),
    maxRetries: fc.nat(2),
    attempts: fc.array(streaming ? behaviour(fc.oneof({ weight: 20, arbitrary: streamResult }, { weight: 1, arbitrary: junk }, { weight: 1, arbitrary: brokenStream })) : behaviour(generateResult), { minLength: 3, maxLength: 3 }),
  }),
);

/** A V3 model whose attempts behave as scripted; a stream result becomes a real ReadableStream. */
function modelOf(attempts: readonly Behaviour[]): AISdkLanguageModel {
  let call = 0;
  const attempt = async () => {
    const next = attempts[Math.min(call++, attempts.length - 1)]!;
    if (next.kind === "hang") return new Promise<never>(() => undefined);
    if (next.kind === "throw") throw next.error;
    const value = next.value as { parts?: unknown[]; ending?: Ending; error?: unknown } | undefined;
    if (!value || !Array.isArray(value.parts)) return value;
    const { parts: items, ending, error } = value;
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const item of items) controller.enqueue(item);
          if (ending === "close") controller.close();
          if (ending === "error") controller.error(error);
        },
      }),
    };
  };
  return { specificationVersion: "v3", provider: "fuzz.chat", modelId: "fuzz-model", doGenerate: attempt, doStream: attempt };
}


function expectWellFormed(response: ChatGeneratorResponse, chunks: readonly StreamingChunk[], streaming: boolean): void {
  expect(response.replies).toHaveLength(1);
  const reply = response.replies[0]!;
  expect(reply).toBeInstanceOf(ChatMessage);
  expect(reply.role).toBe("assistant");
  for (const call of reply.toolCalls) {
    expect(typeof call.toolName).toBe("string");
    expect(typeof call.id).toBe("string");
  }
  expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(reply.toJSON())))).toEqual(reply);
  expect(typeof response.meta?.finishReason).toBe("string");
  for (const count of Object.values(response.meta?.usage ?? {})) expect(Number.isSafeInteger(count) && count >= 0).toBe(true);
  if (streaming) expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: response.meta?.finishReason });
  for (const chunk of chunks.slice(0, -1)) {
    expect(["text", "reasoning", "toolCallDelta"]).toContain(chunk.type);
    if (chunk.type === "text" || chunk.type === "reasoning") expect(typeof chunk.delta).toBe("string");
    if (chunk.type === "toolCallDelta") expect(Number.isInteger(chunk.index) && typeof chunk.argumentsDelta === "string").toBe(true);
  }
}

describe("AISdkChatGenerator", () => {
  const runs = fuzzRuns(200);

  it(
    `ends every arbitrary model output in a reply or a ChatGeneratorError (${runs} cases)`,
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        await fc.assert(
          fc.asyncProperty(scenario, async ({ streaming, maxRetries, attempts }) => {
            const generator = new AISdkChatGenerator({ model: modelOf(attempts), maxRetries, ...limits });
            const chunks: StreamingChunk[] = [];
            const streamingCallback = streaming ? (chunk: StreamingChunk) => void chunks.push(chunk) : undefined;

            const outcome = await outcomeOf(generator.run({ messages: [ChatMessage.fromUser("Weather in Paris?")], tools: [], ...(streamingCallback && { streamingCallback }) }), hungAfterMs);

            expect(outcome).not.toHaveProperty("hung");
            if ("error" in outcome) {
              expect(outcome.error).toBeInstanceOf(ChatGeneratorError);
              expect((outcome.error as Error).message).toMatch(/^AI SDK request for model 'fuzz-model' \(fuzz\.chat\) failed/);
            }
            if ("response" in outcome) expectWellFormed(outcome.response, chunks, streaming);
          }),
          fuzzParameters(runs),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
      expect(unhandled).toEqual([]);
    },
    fuzzTimeout(runs, 100),
  );
});
