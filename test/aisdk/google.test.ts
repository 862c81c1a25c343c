import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { Agent, BreakpointError, ChatGeneratorError, ChatMessage, type JsonSchema, type ModelEndEvent, type StreamingChunk, Tool, type ToolCall } from "toolwright";
import { AISdkChatGenerator, type AISdkChatGeneratorOptions } from "toolwright/ai-sdk";
import { rejectionOf } from "../helpers/notesAgent";
import { GoogleReplayServer, googleError, googleJson, googleStream } from "../helpers/googleReplayServer";
import { vendorFixture } from "../helpers/replayHttpServer";

// The real @ai-sdk/google provider, over HTTP to a server on 127.0.0.1 that replays responses
// recorded from the Gemini API (the provider package's own fixtures, test/fixtures/vendors/google).
const server = new GoogleReplayServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());

function generator(modelId: string, options: Partial<AISdkChatGeneratorOptions> = {}): AISdkChatGenerator {
  const google = createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: "test-key" });
  return new AISdkChatGenerator({ model: google(modelId), maxRetries: 0, ...options });
}

type Calls = Array<{ tool: string; args: Record<string, unknown> }>;

// The tools of the recorded calls: weather (google-tool-call), read_theme and read_screen (google-stream-no-args-tool-call).
function tools(calls: Calls): Tool[] {
  const tool = (name: string, properties: Record<string, JsonSchema>, answer: (args: Record<string, unknown>) => string) =>
    new Tool({
      name,
      description: `The ${name} tool.`,
      parameters: { type: "object", properties, required: Object.keys(properties) },
      function: (args) => {
        calls.push({ tool: name, args });
        return answer(args);
      },
    });
  return [
    tool("weather", { location: { type: "string" } }, (args) => `Sunny in ${String(args.location)}.`),
    tool("read_theme", {}, () => "dark"),
    tool("read_screen", { id: { type: "string" } }, (args) => `screen ${String(args.id)}`),
  ];
}

function agentOn(chatGenerator: AISdkChatGenerator, calls: Calls = [], ends: ModelEndEvent[] = []) {
  return new Agent({ chatGenerator, tools: tools(calls), hooks: { onModelEnd: (event) => void ends.push(event) } });
}

const recorded = (file: string) => JSON.parse(vendorFixture("google", file));
const recordedChunks = (file: string) =>
  vendorFixture("google", file)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
const sentinel = "skip_thought_signature_validator";

describe("AISdkChatGenerator with @ai-sdk/google (recorded responses)", () => {
  it("keeps the thought signature of a recorded Gemini 2.5 function call and sends it back on that functionCall part", async () => {
    server.enqueue(googleJson("google-tool-call"), googleJson("google-text"));
    const calls: Calls = [];
    const signature: string = recorded("google-tool-call.json").candidates[0].content.parts[0].thoughtSignature;

    const result = await agentOn(generator("gemini-2.5-flash"), calls).run({ messages: [ChatMessage.fromUser("Weather in San Francisco?")] });

    expect(calls).toEqual([{ tool: "weather", args: { location: "San Francisco" } }]);
    const call = result.messages[1]!.toolCall!;
    expect(call).toEqual({ id: expect.any(String), toolName: "weather", arguments: { location: "San Francisco" }, extra: { provider: "google.generative-ai", providerMetadata: { google: { thoughtSignature: signature } } } });
    // @ai-sdk/google does not read the response's modelVersion: the reply names the model asked for.
    expect(result.messages[1]!.meta).toEqual({ model: "gemini-2.5-flash", index: 0, finishReason: "tool_calls", rawFinishReason: "STOP", usage: { promptTokens: 29, completionTokens: 908, totalTokens: 937 } });
    expect(result.lastMessage.text).toBe(recorded("google-text.json").candidates[0].content.parts[0].text);
    expect(result.usage).toEqual({ inputTokens: 38, outputTokens: 1180, totalTokens: 1218, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { weather: 1 } });
    expect(server.requests.map((request) => request.url)).toEqual(["/v1beta/models/gemini-2.5-flash:generateContent", "/v1beta/models/gemini-2.5-flash:generateContent"]);
    expect(server.requests[1]!.body.contents).toEqual([
      { role: "user", parts: [{ text: "Weather in San Francisco?" }] },
      { role: "model", parts: [{ functionCall: { id: call.id, name: "weather", args: { location: "San Francisco" } }, thoughtSignature: signature }] },
      { role: "user", parts: [{ functionResponse: { id: call.id, name: "weather", response: { name: "weather", content: "Sunny in San Francisco." } } }] },
    ]);
  });

  it("keeps a call's thought signature in a snapshot taken as JSON text, and sends it when the run resumes", async () => {
    server.enqueue(googleJson("google-tool-call"), googleJson("google-text"));
    const signature: string = recorded("google-tool-call.json").candidates[0].content.parts[0].thoughtSignature;
    const agent = agentOn(generator("gemini-3-pro-preview"));

    const paused = (await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Weather in San Francisco?")], breakpoint: { at: "tool" } }))) as BreakpointError;
    const result = await agent.run({ snapshot: JSON.parse(JSON.stringify(paused.snapshot)) });

    expect(paused).toBeInstanceOf(BreakpointError);
    expect(result.lastMessage.text).toBe(recorded("google-text.json").candidates[0].content.parts[0].text);
    expect(server.requests[1]!.body.contents[1].parts).toEqual([{ functionCall: { id: result.messages[1]!.toolCall!.id, name: "weather", args: { location: "San Francisco" } }, thoughtSignature: signature }]);
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain(sentinel);
  });

  it("streams a recorded Gemini 3 turn of thinking and four calls, and sends its signature back on the first call only, with no placeholder", async () => {
    server.enqueue(googleStream("google-stream-no-args-tool-call"), googleStream("google-text"));
    const calls: Calls = [];
    const ends: ModelEndEvent[] = [];
    const chunks: StreamingChunk[] = [];
    const [thinkingChunk, signedChunk] = recordedChunks("google-stream-no-args-tool-call.chunks.txt");
    const thinking: string = thinkingChunk.candidates[0].content.parts[0].text;
    const signature: string = signedChunk.candidates[0].content.parts[0].thoughtSignature;

    const result = await agentOn(generator("gemini-3-flash-preview"), calls, ends).run({ messages: [ChatMessage.fromUser("Read the theme, then screens A, B and C.")], streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(calls).toEqual([
      { tool: "read_theme", args: {} },
      { tool: "read_screen", args: { id: "A" } },
      { tool: "read_screen", args: { id: "B" } },
      { tool: "read_screen", args: { id: "C" } },
    ]);
    expect(chunks[0]).toEqual({ type: "reasoning", delta: thinking });
    const turn = result.messages[1]!;
    expect(turn.reasoning).toEqual({ text: thinking, extra: { provider: "google.generative-ai" } });
    expect(turn.toolCalls.map((call) => call.extra)).toEqual([{ provider: "google.generative-ai", providerMetadata: { google: { thoughtSignature: signature } } }, undefined, undefined, undefined]);
    const ids = turn.toolCalls.map((call) => call.id);
    expect(server.requests.map((request) => request.url)).toEqual(["/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse", "/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse"]);
    const sent = server.requests[1]!.body;
    expect(sent.contents[1]).toEqual({
      role: "model",
      parts: [
        { text: thinking, thought: true },
        { functionCall: { id: ids[0], name: "read_theme", args: {} }, thoughtSignature: signature },
        { functionCall: { id: ids[1], name: "read_screen", args: { id: "A" } } },
        { functionCall: { id: ids[2], name: "read_screen", args: { id: "B" } } },
        { functionCall: { id: ids[3], name: "read_screen", args: { id: "C" } } },
      ],
    });
    expect(JSON.stringify(sent)).not.toContain(sentinel);
    expect(ends.map((event) => event.warnings)).toEqual([[], []]);
    expect(result.lastMessage.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(result.lastMessage.meta.usage).toEqual({ promptTokens: 9, completionTokens: 208, totalTokens: 217 });
  });

  it("hands Gemini 3's warning about a call that lost its signature to the run: onModelEnd and the reply's meta", async () => {
    server.enqueue(googleJson("google-text"));
    const ends: ModelEndEvent[] = [];
    // A call kept without its provider data (written by hand, or saved by code that dropped `extra`).
    const unsigned: ToolCall = { id: "call_1", toolName: "weather", arguments: { location: "Paris" } };
    const messages = [ChatMessage.fromUser("Weather in Paris?"), ChatMessage.fromAssistant(undefined, { toolCalls: [unsigned] }), ChatMessage.fromTool("Sunny in Paris.", unsigned)];

    const result = await agentOn(generator("gemini-3-pro-preview"), [], ends).run({ messages });

    const warning =
      "other: Replayed 1 `functionCall` part(s) for a Gemini 3 model without a `thoughtSignature` (tools: `weather`). Injected the documented `skip_thought_signature_validator` sentinel to keep the request from failing with HTTP 400. The likely cause is application code that drops `providerOptions.google.thoughtSignature` when persisting or serializing assistant tool-call messages. See https://ai.google.dev/gemini-api/docs/thought-signatures.";
    expect(ends.map((event) => event.warnings)).toEqual([[warning]]);
    expect(result.lastMessage.meta.warnings).toEqual([warning]);
    expect(server.requests[0]!.body.contents[1]).toEqual({ role: "model", parts: [{ functionCall: { id: "call_1", name: "weather", args: { location: "Paris" } }, thoughtSignature: sentinel }] });
  });

  it("hands the warnings of a stream's start to the run", async () => {
    server.enqueue(googleStream("google-text"));
    const ends: ModelEndEvent[] = [];

    const result = await agentOn(generator("gemini-2.5-flash", { generationKwargs: { frequencyPenalty: 0.5 } }), [], ends).run({ messages: [ChatMessage.fromUser("How many r's in strawberry?")], streamingCallback: () => undefined });

    expect(ends.map((event) => event.warnings)).toEqual([["unsupported: frequencyPenalty"]]);
    expect(result.lastMessage.meta.warnings).toEqual(["unsupported: frequencyPenalty"]);
  });

  it("leaves out reasoning another provider made: a Responses API item and Anthropic's thinking", async () => {
    server.enqueue(googleJson("google-text"));
    // The reasoning part OpenAIResponsesChatGenerator makes (test/aisdk/anthropic.test.ts runs it), and the one this adapter makes for Anthropic.
    const responsesTurn = ChatMessage.fromAssistant("The tracker has 3 open issues.", {
      reasoning: { text: "Check the tracker.", extra: { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Check the tracker." }], encrypted_content: "enc-1" } },
    });
    const anthropicTurn = ChatMessage.fromAssistant("925 ÷ 5 = 185", { reasoning: { text: "925 divided by 5 = 185", extra: { provider: "anthropic.messages", providerMetadata: { anthropic: { signature: "Er4BCkYICxgCKkCo" } } } } });

    await generator("gemini-2.5-flash").run({ messages: [ChatMessage.fromUser("Issues?"), responsesTurn, ChatMessage.fromUser("925 / 5?"), anthropicTurn, ChatMessage.fromUser("Thanks.")], tools: [] });

    expect(server.requests[0]!.body.contents).toEqual([
      { role: "user", parts: [{ text: "Issues?" }] },
      { role: "model", parts: [{ text: "The tracker has 3 open issues." }] },
      { role: "user", parts: [{ text: "925 / 5?" }] },
      { role: "model", parts: [{ text: "925 ÷ 5 = 185" }] },
      { role: "user", parts: [{ text: "Thanks." }] },
    ]);
  });

  it.each([
    [429, "google-429-retry-info", "You exceeded your current quota, please check your plan."],
    [500, "google-500-internal", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"],
  ])("rejects a recorded %i with a ChatGeneratorError carrying the status and Google's message", async (status, body, message) => {
    server.enqueue(googleError(body, status));

    const error = (await rejectionOf(agentOn(generator("gemini-2.5-flash")).run({ messages: [ChatMessage.fromUser("Hi")] }))) as ChatGeneratorError;

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe(`AI SDK request for model 'gemini-2.5-flash' (google.generative-ai) failed with status ${status}: ${message}`);
    expect(error.status).toBe(status);
    expect(error.providerMessage).toBe(message);
  });

  it("retries recorded 429 and 500 answers, then streams the answer", async () => {
    server.enqueue(googleError("google-429-retry-info", 429), googleError("google-500-internal", 500), googleStream("google-text"));

    const result = await agentOn(generator("gemini-2.5-flash", { maxRetries: 2, maxRetryDelayMs: 0 })).run({ messages: [ChatMessage.fromUser("Hi")], streamingCallback: () => undefined });

    expect(result.lastMessage.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(server.requests).toHaveLength(3);
  });
});
