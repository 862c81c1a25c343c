import { AbortError, ChatGeneratorError, type StreamingChunk } from "toolwright";
import type { OpenAIResponsesChatGenerator } from "toolwright/openai";
import type { NamedEvent } from "../../helpers/mockOpenAIServer";
import { type MockResponsesReply, responseObject, responsesJson, responsesStream } from "../../helpers/mockResponses";
import { rejectionOf, request, responsesGeneratorOn, useMockServer } from "./openaiTestKit";

const server = useMockServer();

function generator(): OpenAIResponsesChatGenerator {
  return responsesGeneratorOn(server);
}

const reasoningCalls: MockResponsesReply = {
  reasoning: [{ id: "rs_1", summary: ["Both are needed."], encryptedContent: "enc-1" }],
  toolCalls: [
    { id: "call_w", name: "get_weather", arguments: '{"city":"Paris","units":"C"}' },
    { id: "call_t", name: "get_time", arguments: '{"city":"Paris"}' },
  ],
  usage: { promptTokens: 40, completionTokens: 22 },
};

async function streamed(reply: MockResponsesReply, options?: Parameters<typeof responsesStream>[1]) {
  server.enqueue(responsesStream(reply, options));
  const chunks: StreamingChunk[] = [];
  const response = await generator().run(request({ streamingCallback: (chunk) => void chunks.push(chunk) }));
  return { response, chunks };
}

async function notStreamed(reply: MockResponsesReply) {
  server.enqueue(responsesJson(reply));
  return generator().run(request());
}

/** A stream of these events, numbered, after `response.created`. */
function eventsReply(...events: Array<{ type: string; [field: string]: unknown }>) {
  const all = [{ type: "response.created", response: { ...responseObject({}, []), status: "in_progress" } }, ...events];
  return { kind: "events" as const, events: all.map((data, n): NamedEvent => ({ event: data.type, data: { ...data, sequence_number: n } })) };
}

describe("OpenAIResponsesChatGenerator streaming", () => {
  it("forwards text deltas in order, ends with a finish chunk and sends stream: true", async () => {
    const { response, chunks } = await streamed({ text: "It is sunny in Paris.", usage: { promptTokens: 9, completionTokens: 6 } });

    expect(chunks).toEqual([
      { type: "text", delta: "It is s" },
      { type: "text", delta: "unny in" },
      { type: "text", delta: " Paris." },
      { type: "finish", finishReason: "stop" },
    ]);
    expect(response.meta).toEqual({ model: "mock-model-1", id: "resp_mock", status: "completed", finishReason: "stop", usage: { promptTokens: 9, completionTokens: 6, totalTokens: 15 } });
    const { input: _input, ...rest } = server.requests[0]!.body;
    expect(rest).toEqual({ model: "test-model", stream: true, store: false, include: ["reasoning.encrypted_content"] });
  });

  it("forwards reasoning summary deltas and each call's header and argument deltas with the call's index", async () => {
    const { chunks } = await streamed(reasoningCalls, { pieces: 2 });

    expect(chunks).toEqual([
      { type: "reasoning", delta: "Both are" },
      { type: "reasoning", delta: " needed." },
      { type: "toolCallDelta", index: 0, id: "call_w", toolName: "get_weather", argumentsDelta: "" },
      { type: "toolCallDelta", index: 0, argumentsDelta: '{"city":"Paris' },
      { type: "toolCallDelta", index: 0, argumentsDelta: '","units":"C"}' },
      { type: "toolCallDelta", index: 1, id: "call_t", toolName: "get_time", argumentsDelta: "" },
      { type: "toolCallDelta", index: 1, argumentsDelta: '{"city":' },
      { type: "toolCallDelta", index: 1, argumentsDelta: '"Paris"}' },
      { type: "finish", finishReason: "tool_calls" },
    ]);
  });

  it.each<[string, MockResponsesReply]>([
    ["text", { text: "It is sunny in Paris.", usage: { promptTokens: 9, completionTokens: 6 } }],
    ["reasoning and parallel calls", reasoningCalls],
    ["text and a call", { text: "Checking.", toolCalls: [reasoningCalls.toolCalls![0]!] }],
    ["a refusal", { refusal: "I can't help with that." }],
    ["an incomplete text", { text: "It is sun", status: "incomplete", incompleteReason: "max_output_tokens" }],
    ["invalid arguments", { toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city": "Par' }] }],
  ])("assembles %s into the message a non-streaming call returns", async (_, reply) => {
    const { response } = await streamed(reply);

    expect(response).toEqual(await notStreamed(reply));
  });

  it("assembles the items of the output_item.done events when the final response has an empty output", async () => {
    const { response } = await streamed(reasoningCalls, { emptyFinalOutput: true });

    expect(response).toEqual(await notStreamed(reasoningCalls));
  });

  it("reports an incomplete response's finish reason in meta and the finish chunk", async () => {
    const { response, chunks } = await streamed({ text: "It is sun", status: "incomplete", incompleteReason: "max_output_tokens" });

    expect(response.meta?.finishReason).toBe("length");
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "length" });
  });

  it("rejects a response.failed event with ChatGeneratorError carrying the provider's message, and sends no finish chunk", async () => {
    const chunks: StreamingChunk[] = [];
    server.enqueue(responsesStream({ text: "It is", status: "failed", error: { code: "server_error", message: "The model crashed mid-answer." } }));

    const error = await rejectionOf(generator().run(request({ streamingCallback: (chunk) => void chunks.push(chunk) })));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error).toMatchObject({ message: "OpenAI request for model 'test-model' failed: The model crashed mid-answer.", providerMessage: "The model crashed mid-answer." });
    expect(chunks).toEqual([
      { type: "text", delta: "It" },
      { type: "text", delta: " i" },
      { type: "text", delta: "s" },
    ]);
  });

  it("rejects an error event with ChatGeneratorError carrying the provider's message", async () => {
    server.enqueue(eventsReply({ type: "error", code: "rate_limit_exceeded", message: "Rate limit reached mid-stream.", param: null }));

    const error = await rejectionOf(generator().run(request({ streamingCallback: () => undefined })));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error).toMatchObject({ message: "OpenAI request for model 'test-model' failed: Rate limit reached mid-stream.", providerMessage: "Rate limit reached mid-stream." });
  });

  it("rejects with ChatGeneratorError when the stream ends before the response is complete", async () => {
    server.enqueue(responsesStream({ text: "It is sunny." }, { end: 5 }));

    const error = await rejectionOf(generator().run(request({ streamingCallback: () => undefined })));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("OpenAI request for model 'test-model' failed: the stream ended before the response was complete (no response.completed event); the reply is incomplete.");
  });

  it("rejects an event of the wrong shape with ChatGeneratorError naming the event and the field", async () => {
    server.enqueue(eventsReply({ type: "response.output_text.delta", delta: 42 }));

    const error = await rejectionOf(generator().run(request({ streamingCallback: () => undefined })));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("OpenAI request for model 'test-model' failed: stream event 2 does not have the Responses API shape (delta: expected string, got number).");
  });

  it("rejects with an AbortError when the signal aborts while the stream is silent", async () => {
    server.enqueue(responsesStream({ text: "It is sunny in Paris." }, { end: 3, hang: true }));
    const controller = new AbortController();
    const pending = rejectionOf(generator().run(request({ signal: controller.signal, streamingCallback: () => undefined })));
    await server.received(1);

    controller.abort();
    const error = await pending;

    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toBe("The model request was aborted.");
  });
});
