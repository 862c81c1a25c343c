import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Agent, ChatGeneratorError, ChatMessage, type StreamingChunk } from "toolwright";
import { AISdkChatGenerator, type AISdkChatGeneratorOptions } from "toolwright/ai-sdk";
import { errorReply, jsonReply, MockOpenAIServer, type MockReply, sseReply } from "../helpers/mockOpenAIServer";
import { notesState, notesTools, rejectionOf, runSummary, type ToolLog } from "../helpers/notesAgent";

// The real @ai-sdk/openai-compatible provider, over HTTP to a Chat Completions server on 127.0.0.1.
const server = new MockOpenAIServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());

function generatorOn(options: Partial<AISdkChatGeneratorOptions> = {}): AISdkChatGenerator {
  const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL, apiKey: "test-key" });
  return new AISdkChatGenerator({ model: provider.chatModel("mock-model-1"), maxRetries: 0, ...options });
}

function notesAgentOn(generator: AISdkChatGenerator, log: ToolLog = []) {
  return new Agent({ chatGenerator: generator, tools: notesTools(log), stateSchema: notesState, systemPrompt: "You keep notes." });
}

const input = () => ({ messages: [ChatMessage.fromUser("Are lamps in stock?")], customer_id: "c-42" });

const replies: MockReply[] = [
  {
    text: "Let me look.",
    toolCalls: [
      { id: "call_1", name: "search", arguments: '{"query":"lamps"}' },
      { id: "call_2", name: "add_note", arguments: '{"text":"asked about lamps"}' },
    ],
    usage: { promptTokens: 100, completionTokens: 20 },
  },
  { text: "Lamps are in stock.", usage: { promptTokens: 150, completionTokens: 8 } },
];

describe("AISdkChatGenerator with @ai-sdk/openai-compatible", () => {
  it("runs an agent with parallel tool calls over JSON responses", async () => {
    server.enqueue(...replies.map(jsonReply));
    const log: ToolLog = [];

    const result = await notesAgentOn(generatorOn(), log).run(input());

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note"]);
    expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 28, totalTokens: 278, modelCalls: 2, toolCalls: 2 });
    expect(server.requests[0]!.body).toMatchObject({
      model: "mock-model-1",
      messages: [
        { role: "system", content: "You keep notes." },
        { role: "user", content: "Are lamps in stock?" },
      ],
      tools: [
        { type: "function", function: { name: "search", strict: true, parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false } } },
        { type: "function", function: { name: "add_note", strict: true } },
      ],
      tool_choice: "auto",
    });
    expect(server.requests[1]!.body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "search", arguments: '{"query":"lamps"}' } },
          { id: "call_2", type: "function", function: { name: "add_note", arguments: '{"text":"asked about lamps"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: result.messages[3]!.toolCallResult!.result },
      { role: "tool", tool_call_id: "call_2", content: result.messages[4]!.toolCallResult!.result },
    ]);
  });

  it("streams the same run, forwarding deltas, and ends with the same messages", async () => {
    server.enqueue(...replies.map((reply) => jsonReply(reply)));
    const plain = await notesAgentOn(generatorOn()).run(input());
    server.reset();
    server.enqueue(...replies.map((reply) => sseReply(reply, { pieces: 3 })));
    const chunks: StreamingChunk[] = [];

    const streamedRun = await notesAgentOn(generatorOn()).run({ ...input(), streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(server.requests[0]!.body.stream).toBe(true);
    const summary = runSummary(streamedRun);
    // Streamed replies carry no usage unless asked for (the provider's includeUsage option).
    const withoutUsage = (s: ReturnType<typeof runSummary>) => ({ ...s, messages: s.messages.map((m) => ({ ...m, meta: { ...m.meta, usage: undefined } })) });
    expect(withoutUsage(summary)).toEqual(withoutUsage(runSummary(plain)));
    expect(chunks.filter((chunk) => chunk.type === "text").map((chunk) => (chunk as { delta: string }).delta).join("")).toBe("Let me look.Lamps are in stock.");
    const calls = chunks.filter((chunk) => chunk.type === "toolCallDelta");
    expect(calls.filter((chunk) => chunk.id !== undefined).map(({ index, id, toolName }) => ({ index, id, toolName }))).toEqual([
      { index: 0, id: "call_1", toolName: "search" },
      { index: 1, id: "call_2", toolName: "add_note" },
    ]);
    expect(calls.filter((chunk) => chunk.index === 1).map((chunk) => chunk.argumentsDelta).join("")).toBe('{"text":"asked about lamps"}');
    expect(chunks.filter((chunk) => chunk.type === "finish").map((chunk) => (chunk as { finishReason: string }).finishReason)).toEqual(["tool_calls", "tool_call_results", "stop"]);
  });

  it("rejects with ChatGeneratorError carrying a 400's status and the provider's message", async () => {
    server.enqueue(errorReply(400, "Invalid schema for function 'search'.", "invalid_request_error"));

    const error = (await rejectionOf(generatorOn({ maxRetries: 2 }).run({ messages: [ChatMessage.fromUser("Hi")], tools: [] }))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("AI SDK request for model 'mock-model-1' (local.chat) failed with status 400: Invalid schema for function 'search'.");
    expect(error.status).toBe(400);
    expect(error.providerMessage).toBe("Invalid schema for function 'search'.");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 503 and succeeds; after maxRetries a 503 is a ChatGeneratorError", async () => {
    server.enqueue(errorReply(503, "The server is overloaded."), jsonReply({ text: "Hi." }));
    const response = await generatorOn({ maxRetries: 1 }).run({ messages: [ChatMessage.fromUser("Hi")], tools: [] });
    expect(response.replies[0]!.text).toBe("Hi.");

    server.reset();
    server.enqueue(errorReply(503, "The server is overloaded."), errorReply(503, "The server is overloaded."));
    const error = (await rejectionOf(generatorOn({ maxRetries: 1 }).run({ messages: [ChatMessage.fromUser("Hi")], tools: [], streamingCallback: () => undefined }))) as ChatGeneratorError;

    expect(error.message).toBe("AI SDK request for model 'mock-model-1' (local.chat) failed with status 503: The server is overloaded.");
    expect(error.status).toBe(503);
    expect(server.requests).toHaveLength(2);
  });

  it("rejects with ChatGeneratorError when the server cannot be reached", async () => {
    const closed = new MockOpenAIServer();
    await closed.start();
    const baseURL = closed.baseURL;
    await closed.close();
    const provider = createOpenAICompatible({ name: "local", baseURL, apiKey: "test-key" });

    const error = (await rejectionOf(new AISdkChatGenerator({ model: provider.chatModel("m"), maxRetries: 0 }).run({ messages: [ChatMessage.fromUser("Hi")], tools: [] }))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    // An app gets the provider's APICallError ("Cannot connect to API: …"); under jest, fetch's
    // TypeError is of another realm than the provider's, which then passes it on as it is.
    expect(error.message).toMatch(/^AI SDK request for model 'm' \(local\.chat\) failed: (Cannot connect to API: connect ECONNREFUSED|could not connect \(TypeError: fetch failed: connect ECONNREFUSED) 127\.0\.0\.1:\d+/);
    expect(error.status).toBeUndefined();
  });
});
