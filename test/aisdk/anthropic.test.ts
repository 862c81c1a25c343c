import { createAnthropic } from "@ai-sdk/anthropic";
import { Agent, ChatGeneratorError, ChatMessage, type ModelEndEvent, type StreamingChunk, Tool } from "toolwright";
import { AISdkChatGenerator, type AISdkChatGeneratorOptions } from "toolwright/ai-sdk";
import { OpenAIResponsesChatGenerator } from "toolwright/openai";
import { AnthropicReplayServer, anthropicError, anthropicJson, anthropicStream } from "../helpers/anthropicReplayServer";
import { MockOpenAIServer } from "../helpers/mockOpenAIServer";
import { responsesJson } from "../helpers/mockResponses";
import { rejectionOf } from "../helpers/notesAgent";
import { vendorFixture } from "../helpers/replayHttpServer";

// The real @ai-sdk/anthropic provider, over HTTP to a server on 127.0.0.1 that replays responses
// recorded from the Messages API (the provider package's own fixtures, test/fixtures/vendors/anthropic).
const server = new AnthropicReplayServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());

function generator(options: Partial<AISdkChatGeneratorOptions> = {}): AISdkChatGenerator {
  const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
  return new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5"), maxRetries: 0, generationKwargs: { maxOutputTokens: 1024 }, ...options });
}

// The tool of the recorded tool call (anthropic-tool-no-args): updateIssueList, without arguments.
function issuesAgent(chatGenerator: AISdkChatGenerator, calls: unknown[] = []) {
  const updateIssueList = new Tool({
    name: "updateIssueList",
    description: "Refresh the list of open issues.",
    parameters: { type: "object", properties: {} },
    function: (args) => {
      calls.push(args);
      return "3 open issues.";
    },
  });
  return new Agent({ chatGenerator, tools: [updateIssueList], systemPrompt: "You track issues." });
}

const question = () => [ChatMessage.fromUser("Update the issue list, please.")];
const recorded = (file: string) => JSON.parse(vendorFixture("anthropic", file));

describe("AISdkChatGenerator with @ai-sdk/anthropic (recorded responses)", () => {
  it("runs a recorded tool call and answer, and sends the call and its result back", async () => {
    server.enqueue(anthropicJson("anthropic-tool-no-args"), anthropicJson("anthropic-text"));
    const calls: unknown[] = [];

    const result = await issuesAgent(generator(), calls).run({ messages: question() });

    expect(calls).toEqual([{}]);
    expect(result.lastMessage.text).toBe(recorded("anthropic-text.json").content[0].text);
    const toolTurn = result.messages[2]!;
    expect(toolTurn.text).toBe(recorded("anthropic-tool-no-args.json").content[0].text);
    expect(toolTurn.toolCalls).toEqual([{ id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", toolName: "updateIssueList", arguments: {} }]);
    expect(toolTurn.meta).toEqual({ model: "claude-3-opus-20240229", index: 0, finishReason: "tool_calls", rawFinishReason: "tool_use", usage: { promptTokens: 602, completionTokens: 93, totalTokens: 695 } });
    expect(result.usage).toEqual({ inputTokens: 614, outputTokens: 122, totalTokens: 736, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { updateIssueList: 1 } });
    const [first, second] = server.requests.map((request) => request.body);
    expect(first).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: [{ type: "text", text: "You track issues." }],
      messages: [{ role: "user", content: [{ type: "text", text: "Update the issue list, please." }] }],
      tools: [{ name: "updateIssueList", description: "Refresh the list of open issues.", input_schema: { type: "object", properties: {}, required: [], additionalProperties: false }, strict: true }],
      tool_choice: { type: "auto" },
    });
    expect(second.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: toolTurn.text },
          { type: "tool_use", id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", name: "updateIssueList", input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", content: "3 open issues." }] },
    ]);
  });

  it("streams a recorded tool call and answer, forwarding their deltas, and sends the call back", async () => {
    server.enqueue(anthropicStream("anthropic-tool-no-args"), anthropicStream("anthropic-text"));
    const chunks: StreamingChunk[] = [];

    const result = await issuesAgent(generator()).run({ messages: question(), streamingCallback: (chunk) => void chunks.push(chunk) });

    // The recorded input deltas are empty; the input of the final tool-call part goes out as the rest.
    expect(chunks.slice(0, 5)).toEqual([
      { type: "text", delta: "I'll update the issue list for" },
      { type: "text", delta: " you." },
      { type: "toolCallDelta", index: 0, id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", toolName: "updateIssueList", argumentsDelta: "" },
      { type: "toolCallDelta", index: 0, argumentsDelta: "{}" },
      { type: "finish", finishReason: "tool_calls" },
    ]);
    expect(result.lastMessage.text).toBe("Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    expect(result.messages[2]!.meta).toEqual({ model: "claude-sonnet-4-5-20250929", index: 0, finishReason: "tool_calls", rawFinishReason: "tool_use", usage: { promptTokens: 565, completionTokens: 48, totalTokens: 613 } });
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(server.requests[1]!.body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "I'll update the issue list for you." },
          { type: "tool_use", id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", content: "3 open issues." }] },
    ]);
  });

  it.each([
    ["a JSON response", anthropicJson, "925 divided by 5 = 185", "Er4BCkYICxgCKkCoxqLHLrx4mFL9Ox7"],
    ["a stream", anthropicStream, "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185", "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4"],
  ])("keeps the signature of recorded thinking (%s) and sends the thinking block back on the next call", async (_how, answer, thinking, signatureStart) => {
    server.enqueue(answer("anthropic-clear-thinking.1"), anthropicJson("anthropic-text"));
    const chatGenerator = generator();
    const streaming = answer === anthropicStream ? { streamingCallback: () => undefined } : {};

    const first = await chatGenerator.run({ messages: question(), tools: [], ...streaming });
    const reply = first.replies[0]!;
    await chatGenerator.run({ messages: [...question(), reply, ChatMessage.fromUser("And times 2?")], tools: [] });

    expect(reply.reasoning!.text).toBe(thinking);
    const signature = (reply.reasoning!.extra as { providerMetadata: { anthropic: { signature: string } } }).providerMetadata.anthropic.signature;
    expect(signature.startsWith(signatureStart)).toBe(true);
    expect(reply.reasoning!.extra).toEqual({ provider: "anthropic.messages", providerMetadata: { anthropic: { signature } } });
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking, signature },
        { type: "text", text: reply.text },
      ],
    });
  });

  it("leaves out reasoning the OpenAI Responses generator made, and sends Anthropic's own thinking back", async () => {
    // Step one of the conversation by OpenAIResponsesChatGenerator (the openai SDK against a local Responses API).
    const openai = new MockOpenAIServer();
    await openai.start();
    let responsesTurn: ChatMessage;
    try {
      openai.enqueue(responsesJson({ reasoning: [{ id: "rs_1", summary: ["Check the tracker."], encryptedContent: "enc-1" }], text: "The tracker has 3 open issues." }));
      const responses = new OpenAIResponsesChatGenerator({ model: "gpt-5", apiKey: "test-key", baseURL: openai.baseURL, maxRetries: 0 });
      responsesTurn = (await responses.run({ messages: question(), tools: [] })).replies[0]!;
    } finally {
      await openai.close();
    }
    expect(responsesTurn.reasoning).toEqual({ text: "Check the tracker.", extra: { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Check the tracker." }], encrypted_content: "enc-1" } });
    server.enqueue(anthropicJson("anthropic-clear-thinking.1"), anthropicJson("anthropic-text"));
    const chatGenerator = generator();

    const firstResponse = await chatGenerator.run({ messages: [...question(), responsesTurn, ChatMessage.fromUser("Divide 925 by 5.")], tools: [] });
    const anthropicTurn = firstResponse.replies[0]!;
    const secondResponse = await chatGenerator.run({ messages: [...question(), responsesTurn, ChatMessage.fromUser("Divide 925 by 5."), anthropicTurn, ChatMessage.fromUser("Thanks.")], tools: [] });

    // Given the Responses item, @ai-sdk/anthropic would drop it itself, with the warning "other: unsupported reasoning metadata".
    expect([firstResponse.meta?.warnings, secondResponse.meta?.warnings]).toEqual([undefined, undefined]);
    const [first, second] = server.requests.map((request) => request.body);
    expect(first.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "The tracker has 3 open issues." }] });
    expect(second.messages[1]).toEqual(first.messages[1]);
    expect(second.messages[3]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "925 divided by 5 = 185", signature: recorded("anthropic-clear-thinking.1.json").content[0].signature },
        { type: "text", text: "925 ÷ 5 = 185" },
      ],
    });
  });

  it("hands the provider's warnings to the run: the reply's meta and onModelEnd", async () => {
    server.enqueue(anthropicJson("anthropic-text"));
    const ends: ModelEndEvent[] = [];
    const agent = new Agent({ chatGenerator: generator({ generationKwargs: { maxOutputTokens: 1024, temperature: 1.5, seed: 7 } }), tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } });

    const result = await agent.run({ messages: question() });

    const warnings = [
      "unsupported: seed",
      "unsupported: temperature: 1.5 exceeds anthropic maximum of 1.0. clamped to 1.0",
    ];
    expect(ends.map((event) => event.warnings)).toEqual([warnings]);
    expect(result.lastMessage.meta.warnings).toEqual(warnings);
    expect(server.requests[0]!.body.temperature).toBe(1);
  });

  it.each([
    [429, "anthropic-429-rate-limit", "This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits."],
    [500, "anthropic-500-api-error", "Internal server error"],
    [529, "anthropic-529-overloaded", "Overloaded"],
  ])("rejects a recorded %i with a ChatGeneratorError carrying the status and Anthropic's message", async (status, body, message) => {
    server.enqueue(anthropicError(body, status));

    const error = (await rejectionOf(issuesAgent(generator()).run({ messages: question() }))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe(`AI SDK request for model 'claude-sonnet-4-5' (anthropic.messages) failed with status ${status}: ${message}`);
    expect(error.status).toBe(status);
    expect(error.providerMessage).toBe(message);
  });

  it("retries a recorded 529 and 500, waiting the retry-after the server sends, then answers", async () => {
    server.enqueue(anthropicError("anthropic-529-overloaded", 529, { "retry-after": "0" }), anthropicError("anthropic-500-api-error", 500, { "retry-after": "0" }), anthropicJson("anthropic-text"));

    const result = await issuesAgent(generator({ maxRetries: 2 })).run({ messages: question() });

    expect(result.lastMessage.text).toBe(recorded("anthropic-text.json").content[0].text);
    expect(server.requests).toHaveLength(3);
  });

  it("rejects with the overloaded error a recorded stream sends midway, after the text before it was forwarded", async () => {
    server.enqueue(anthropicStream("anthropic-overloaded-mid-stream"));
    const chunks: StreamingChunk[] = [];

    const error = (await rejectionOf(issuesAgent(generator({ maxRetries: 2 })).run({ messages: question(), streamingCallback: (chunk) => void chunks.push(chunk) }))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("AI SDK request for model 'claude-sonnet-4-5' (anthropic.messages) failed: the stream sent an error: Overloaded");
    expect(error.providerMessage).toBe("Overloaded");
    expect(chunks).toEqual([{ type: "text", delta: "Hello" }]);
    expect(server.requests).toHaveLength(1);
  });
});
