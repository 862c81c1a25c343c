import { createAnthropic } from "@ai-sdk/anthropic";
import { Agent, ChatGeneratorError, ChatMessage, type StreamingChunk } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { type AnthropicReply, MockAnthropicServer } from "../helpers/mockAnthropicServer";
import { notesState, notesTools, rejectionOf, runSummary, type ToolLog } from "../helpers/notesAgent";

// The real @ai-sdk/anthropic provider, over HTTP to a Messages API server on 127.0.0.1.
const server = new MockAnthropicServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());

function notesAgent(log: ToolLog = []) {
  const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
  const chatGenerator = new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5"), maxRetries: 0, generationKwargs: { maxOutputTokens: 2048, providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } } } });
  return new Agent({ chatGenerator, tools: notesTools(log), stateSchema: notesState, systemPrompt: "You keep notes." });
}

const input = () => ({ messages: [ChatMessage.fromUser("Are lamps in stock?")], customer_id: "c-42" });

const signature = "EqQBCkYIBxgCKkBtYXJrZWQ=";
const replies: AnthropicReply[] = [
  {
    content: [
      { type: "thinking", thinking: "Search first, then note it.", signature },
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_01", name: "search", input: { query: "lamps" } },
      { type: "tool_use", id: "toolu_02", name: "add_note", input: { text: "asked about lamps" } },
    ],
    usage: { inputTokens: 400, outputTokens: 60 },
  },
  { content: [{ type: "text", text: "Lamps are in stock." }], usage: { inputTokens: 520, outputTokens: 9 } },
];

describe("AISdkChatGenerator with @ai-sdk/anthropic", () => {
  it("runs an agent and sends the thinking block with its signature and the tool results back", async () => {
    server.enqueue(...replies.map((reply) => ({ kind: "json" as const, reply })));
    const log: ToolLog = [];

    const result = await notesAgent(log).run(input());

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(log.map((entry) => entry.tool)).toEqual(["search", "add_note"]);
    expect(result.usage).toMatchObject({ inputTokens: 920, outputTokens: 69, totalTokens: 989 });
    expect(result.messages[2]!.meta).toMatchObject({ model: "claude-sonnet-4-5-20250929", finishReason: "tool_calls", rawFinishReason: "tool_use" });
    const [first, second] = server.requests.map((request) => request.body);
    expect(first).toMatchObject({
      model: "claude-sonnet-4-5",
      max_tokens: 2048 + 1024,
      thinking: { type: "enabled", budget_tokens: 1024 },
      system: [{ type: "text", text: "You keep notes." }],
      messages: [{ role: "user", content: [{ type: "text", text: "Are lamps in stock?" }] }],
      tool_choice: { type: "auto" },
    });
    expect(first.tools.map((tool: { name: string; input_schema: unknown }) => [tool.name, tool.input_schema])).toEqual([
      ["search", { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false }],
      ["add_note", { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false }],
    ]);
    expect(second.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Are lamps in stock?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Search first, then note it.", signature },
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "toolu_01", name: "search", input: { query: "lamps" } },
          { type: "tool_use", id: "toolu_02", name: "add_note", input: { text: "asked about lamps" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_01", content: result.messages[3]!.toolCallResult!.result },
          { type: "tool_result", tool_use_id: "toolu_02", content: result.messages[4]!.toolCallResult!.result },
        ],
      },
    ]);
  });

  it("streams the same run, thinking and signature included, to the same messages", async () => {
    server.enqueue(...replies.map((reply) => ({ kind: "json" as const, reply })));
    const plain = await notesAgent().run(input());
    const plainSecondRequest = server.requests[1]!.body;
    server.reset();
    server.enqueue(...replies.map((reply) => ({ kind: "sse" as const, reply })));
    const chunks: StreamingChunk[] = [];

    const streamedRun = await notesAgent().run({ ...input(), streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(runSummary(streamedRun)).toEqual(runSummary(plain));
    expect(server.requests[1]!.body.messages).toEqual(plainSecondRequest.messages);
    expect(chunks.slice(0, 2)).toEqual([
      { type: "reasoning", delta: "Search first, then note it." },
      { type: "text", delta: "Let me look." },
    ]);
  });

  it("rejects with ChatGeneratorError carrying the status and Anthropic's message", async () => {
    server.enqueue({ kind: "error", status: 400, type: "invalid_request_error", message: "messages.1.content.2.tool_use.input: Input should be a valid dictionary" });

    const error = (await rejectionOf(notesAgent().run(input()))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("AI SDK request for model 'claude-sonnet-4-5' (anthropic.messages) failed with status 400: messages.1.content.2.tool_use.input: Input should be a valid dictionary");
    expect(error.status).toBe(400);
  });
});
