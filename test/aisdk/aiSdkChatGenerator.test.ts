import { APICallError, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { AbortError, Agent, ChatGeneratorError, ChatMessage, ConfigurationError, type StreamingChunk } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { notesState, notesTools, rejectionOf, runSummary, type ToolLog } from "../helpers/notesAgent";
import { generated, request, scriptedModel, streamed, streamOf, toolCallPart, usage } from "./aiSdkTestKit";

const signature = "EqQBCkYIBxgCKkBsig==";
const thinking = { type: "reasoning" as const, text: "The user asks about lamps; search first.", providerMetadata: { anthropic: { signature } } };

/** Two model calls: reasoning, text and two parallel tool calls; then the answer. */
function notesResults() {
  return [
    generated([thinking, { type: "text", text: "Let me look." }, toolCallPart("call-1", "search", { query: "lamps" }), toolCallPart("call-2", "add_note", { text: "asked about lamps" })], { usage: usage(100, 20) }),
    generated([{ type: "text", text: "Lamps are in stock." }], { usage: usage(150, 8) }),
  ];
}

function notesAgentOn(model: MockLanguageModelV3, log: ToolLog = []) {
  return new Agent({ chatGenerator: new AISdkChatGenerator({ model, maxRetries: 0 }), tools: notesTools(log), stateSchema: notesState, systemPrompt: "You keep notes." });
}

const input = () => ({ messages: [ChatMessage.fromUser("Are lamps in stock?")], customer_id: "c-42" });

describe("AISdkChatGenerator", () => {
  describe("with an Agent", () => {
    it("runs parallel tool calls and answers, with usage in the result", async () => {
      const model = scriptedModel(notesResults());
      const log: ToolLog = [];

      const result = await notesAgentOn(model, log).run(input());

      expect(result.lastMessage.text).toBe("Lamps are in stock.");
      expect(log).toEqual([
        { tool: "search", args: { query: "lamps", customerId: "c-42" } },
        { tool: "add_note", args: { text: "asked about lamps" } },
      ]);
      expect(result.notes).toEqual(["asked about lamps"]);
      expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 28, totalTokens: 278, modelCalls: 2, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { add_note: 1, search: 1 } });
      expect(result.messages[2]!.meta).toEqual({ model: "mock-model-2025", index: 0, finishReason: "tool_calls", rawFinishReason: "tool_use", usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } });
    });

    it("sends the conversation back with the reasoning and its provider options, the tool calls and their results", async () => {
      const model = scriptedModel(notesResults());

      const result = await notesAgentOn(model).run(input());

      const [first, second] = model.doGenerateCalls as [LanguageModelV3CallOptions, LanguageModelV3CallOptions];
      expect(first.prompt).toEqual([
        { role: "system", content: "You keep notes." },
        { role: "user", content: [{ type: "text", text: "Are lamps in stock?" }] },
      ]);
      expect(first.tools).toEqual([
        { type: "function", name: "search", description: "Search the customer's documents.", inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false }, strict: true },
        { type: "function", name: "add_note", description: "Write down a note.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false }, strict: true },
      ]);
      expect(first.toolChoice).toEqual({ type: "auto" });
      expect(second.prompt.slice(2)).toEqual([
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: thinking.text, providerOptions: { anthropic: { signature } } },
            { type: "text", text: "Let me look." },
            { type: "tool-call", toolCallId: "call-1", toolName: "search", input: { query: "lamps" } },
            { type: "tool-call", toolCallId: "call-2", toolName: "add_note", input: { text: "asked about lamps" } },
          ],
        },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "call-1", toolName: "search", output: { type: "text", value: result.messages[3]!.toolCallResult!.result } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "call-2", toolName: "add_note", output: { type: "text", value: result.messages[4]!.toolCallResult!.result } }] },
      ]);
      expect(result.messages[2]!.reasoning).toEqual({ text: thinking.text, extra: { provider: "anthropic.messages", providerMetadata: { anthropic: { signature } } } });
    });

    it("streams text, reasoning and tool-call deltas and ends with the same messages as without streaming", async () => {
      const plain = await notesAgentOn(scriptedModel(notesResults())).run(input());
      const chunks: StreamingChunk[] = [];

      const streamedRun = await notesAgentOn(scriptedModel(notesResults())).run({ ...input(), streamingCallback: (chunk) => void chunks.push(chunk) });

      expect(runSummary(streamedRun)).toEqual(runSummary(plain));
      expect(streamedRun.usage).toEqual(plain.usage);
      const firstCall = chunks.slice(0, chunks.findIndex((chunk) => chunk.type === "finish") + 1);
      expect(firstCall.filter((chunk) => chunk.type === "reasoning").map((chunk) => (chunk as { delta: string }).delta).join("")).toBe(thinking.text);
      expect(firstCall.filter((chunk) => chunk.type === "text")).toEqual([
        { type: "text", delta: "Let " },
        { type: "text", delta: "me l" },
        { type: "text", delta: "ook." },
      ]);
      const calls = firstCall.filter((chunk) => chunk.type === "toolCallDelta");
      expect(calls.filter((chunk) => "id" in chunk)).toEqual([
        { type: "toolCallDelta", index: 0, id: "call-1", toolName: "search", argumentsDelta: "" },
        { type: "toolCallDelta", index: 1, id: "call-2", toolName: "add_note", argumentsDelta: "" },
      ]);
      const argumentsOf = (index: number) => calls.filter((chunk) => chunk.index === index).map((chunk) => chunk.argumentsDelta).join("");
      expect([argumentsOf(0), argumentsOf(1)]).toEqual(['{"query":"lamps"}', '{"text":"asked about lamps"}']);
      expect(chunks.filter((chunk) => chunk.type === "finish")).toEqual([
        { type: "finish", finishReason: "tool_calls" },
        { type: "finish", finishReason: "tool_call_results" },
        { type: "finish", finishReason: "stop" },
      ]);
    });

    it("answers arguments that are not valid JSON with an error the model sees, and sends the call back with empty input", async () => {
      const model = scriptedModel([generated([toolCallPart("call-1", "search", '{"query": "lam')]), generated([{ type: "text", text: "Sorry." }])]);

      const result = await notesAgentOn(model).run(input());

      expect(result.messages[2]!.toolCall).toEqual({ id: "call-1", toolName: "search", arguments: '{"query": "lam' });
      expect(result.messages[3]!.toolCallResult!.error).toBe(true);
      const [, second] = model.doGenerateCalls as [LanguageModelV3CallOptions, LanguageModelV3CallOptions];
      expect(second.prompt[2]).toEqual({ role: "assistant", content: [{ type: "tool-call", toolCallId: "call-1", toolName: "search", input: {} }] });
      expect(second.prompt[3]).toEqual({ role: "tool", content: [{ type: "tool-result", toolCallId: "call-1", toolName: "search", output: { type: "error-text", value: result.messages[3]!.toolCallResult!.result } }] });
    });

    it("rejects promptly with AbortError when the run is aborted mid-stream, and the model's signal is aborted", async () => {
      let started!: () => void;
      const firstDelta = new Promise<void>((resolve) => (started = resolve));
      const model = new MockLanguageModelV3({ doStream: async () => ({ stream: streamOf<LanguageModelV3StreamPart>([{ type: "text-delta", id: "0", delta: "Thinking" }], { open: true }) }) });
      const controller = new AbortController();
      const agent = notesAgentOn(model);

      const run = rejectionOf(agent.run({ ...input(), signal: controller.signal, streamingCallback: () => started() }));
      await firstDelta;
      controller.abort();
      const error = await run;

      expect(error).toBeInstanceOf(AbortError);
      expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    });

    it("rejects with AbortError when aborted while doGenerate has not answered", async () => {
      const model = new MockLanguageModelV3({ doGenerate: () => new Promise(() => undefined) });
      const controller = new AbortController();

      const run = rejectionOf(new AISdkChatGenerator({ model }).run(request({ signal: controller.signal })));
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();

      expect(await run).toBeInstanceOf(AbortError);
      expect((await run).message).toBe("The model request was aborted.");
      expect(model.doGenerateCalls[0]!.abortSignal!.aborted).toBe(true);
    });
  });

  describe("request", () => {
    it("maps generationKwargs to call settings, per-run ones winning key by key", async () => {
      const model = scriptedModel([generated([{ type: "text", text: "Hi." }])]);
      const generator = new AISdkChatGenerator({
        model,
        generationKwargs: { maxOutputTokens: 800, temperature: 0, topP: 0.9, topK: 40, stopSequences: ["END"], presencePenalty: 0.1, frequencyPenalty: 0.2, seed: 7, headers: { "x-team": "notes" }, providerOptions: { anthropic: { sendReasoning: true } } },
      });

      await generator.run(request({ generationKwargs: { temperature: 0.5, providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } } } }));

      const { prompt, abortSignal, ...settings } = model.doGenerateCalls[0]!;
      expect(settings).toEqual({
        maxOutputTokens: 800,
        temperature: 0.5,
        topP: 0.9,
        topK: 40,
        stopSequences: ["END"],
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        seed: 7,
        headers: { "x-team": "notes" },
        providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      });
      expect(prompt).toEqual([{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }]);
      expect(abortSignal).toBeInstanceOf(AbortSignal);
    });

    it("sends reasoning and tool-call provider data only to the provider that made them; reasoning from before origins were kept goes by its metadata's key", async () => {
      const thought = { google: { thoughtSignature: "sig-g" } };
      const turn = ChatMessage.fromAssistant("Checking.", {
        reasoning: [
          { text: "mine", extra: { provider: "anthropic.messages", providerMetadata: { anthropic: { signature: "sig-a" } } } },
          { text: "mine, without metadata", extra: { provider: "anthropic.messages" } },
          { text: "saved before origins", extra: { providerMetadata: { anthropic: { signature: "sig-old" } } } },
          { text: "Gemini's", extra: { provider: "google.generative-ai", providerMetadata: thought } },
          { text: "no origin", extra: {} },
        ],
        toolCalls: [{ id: "c1", toolName: "search", arguments: { query: "lamps" }, extra: { provider: "google.generative-ai", providerMetadata: thought } }],
      });
      const messages = [ChatMessage.fromUser("Lamps?"), turn, ChatMessage.fromTool("3 lamps", turn.toolCall!)];
      const anthropic = scriptedModel([generated([{ type: "text", text: "Hi." }])], { provider: "anthropic.messages" });
      const google = scriptedModel([generated([{ type: "text", text: "Hi." }])], { provider: "google.generative-ai" });

      await new AISdkChatGenerator({ model: anthropic }).run(request({ messages }));
      await new AISdkChatGenerator({ model: google }).run(request({ messages }));

      const call = { type: "tool-call", toolCallId: "c1", toolName: "search", input: { query: "lamps" } };
      expect(anthropic.doGenerateCalls[0]!.prompt[1]).toEqual({
        role: "assistant",
        content: [
          { type: "reasoning", text: "mine", providerOptions: { anthropic: { signature: "sig-a" } } },
          { type: "reasoning", text: "mine, without metadata" },
          { type: "reasoning", text: "saved before origins", providerOptions: { anthropic: { signature: "sig-old" } } },
          { type: "text", text: "Checking." },
          call,
        ],
      });
      expect(google.doGenerateCalls[0]!.prompt[1]).toEqual({
        role: "assistant",
        content: [{ type: "reasoning", text: "Gemini's", providerOptions: thought }, { type: "text", text: "Checking." }, { ...call, providerOptions: thought }],
      });
    });

    it("passes the run's response format as a JSON response format", async () => {
      const model = scriptedModel([generated([{ type: "text", text: '{"city":"Paris"}' }])]);
      const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };

      await new AISdkChatGenerator({ model }).run(request({ responseFormat: { type: "json_schema", name: "weather", description: "The weather.", schema, strict: true } }));

      expect(model.doGenerateCalls[0]!.responseFormat).toEqual({ type: "json", schema, name: "weather", description: "The weather." });
      expect(model.doGenerateCalls[0]!.tools).toBeUndefined();
    });

    it("sends a schema that is not strict-compatible as it is, and none in strict form with toolsStrict: false", async () => {
      const model = scriptedModel([generated([{ type: "text", text: "Hi." }]), generated([{ type: "text", text: "Hi." }])]);
      const parameters = { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } } };
      const tools = [{ name: "tag", description: "Tag.", parameters, strict: false }, { name: "echo", description: "Echo.", parameters: { type: "object", properties: { text: { type: "string" } } }, strict: true }];

      await new AISdkChatGenerator({ model }).run(request({ tools }));
      await new AISdkChatGenerator({ model, toolsStrict: false }).run(request({ tools }));

      expect(model.doGenerateCalls[0]!.tools).toEqual([
        { type: "function", name: "tag", description: "Tag.", inputSchema: parameters },
        { type: "function", name: "echo", description: "Echo.", inputSchema: { type: "object", properties: { text: { type: ["string", "null"] } }, required: ["text"], additionalProperties: false }, strict: true },
      ]);
      expect(model.doGenerateCalls[1]!.tools).toEqual([
        { type: "function", name: "tag", description: "Tag.", inputSchema: parameters },
        { type: "function", name: "echo", description: "Echo.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
      ]);
    });

    it("refuses an unknown generationKwargs key at construction, naming the valid keys", () => {
      const model = scriptedModel([]);

      expect(() => new AISdkChatGenerator({ model, generationKwargs: { maxTokens: 100 } as never })).toThrow(
        new ConfigurationError(
          "AISdkChatGenerator",
          "AISdkChatGenerator received generationKwargs key 'maxTokens', which the AI SDK's call settings do not have; the AI SDK calls it maxOutputTokens. Valid keys: maxOutputTokens, temperature, topP, topK, stopSequences, presencePenalty, frequencyPenalty, seed, providerOptions, headers.",
        ),
      );
    });

    it("refuses an unknown per-run generationKwargs key when called, before calling the model", async () => {
      const model = scriptedModel([generated([{ type: "text", text: "Hi." }])]);

      const error = await rejectionOf(new AISdkChatGenerator({ model }).run(request({ generationKwargs: { response_format: { type: "json_object" } } })));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        "AISdkChatGenerator received the run's generationKwargs key 'response_format', which the AI SDK's call settings do not have. Valid keys: maxOutputTokens, temperature, topP, topK, stopSequences, presencePenalty, frequencyPenalty, seed, providerOptions, headers.",
      );
      expect(model.doGenerateCalls).toHaveLength(0);
    });

    it("refuses a generationKwargs value of the wrong type, and reasoning for a V3 model", () => {
      const model = scriptedModel([]);

      expect(() => new AISdkChatGenerator({ model, generationKwargs: { temperature: "warm" as never } })).toThrow('AISdkChatGenerator needs generationKwargs.temperature to be a finite number, got string "warm".');
      expect(() => new AISdkChatGenerator({ model, generationKwargs: { reasoning: "high" } })).toThrow(
        "AISdkChatGenerator received generationKwargs key 'reasoning', which V3 models (AI SDK 6) do not have; set the effort in providerOptions for model 'mock-model' instead. Valid keys: maxOutputTokens, temperature, topP, topK, stopSequences, presencePenalty, frequencyPenalty, seed, providerOptions, headers.",
      );
    });

    it("refuses a tool call without an id in the conversation", async () => {
      const model = scriptedModel([generated([{ type: "text", text: "Hi." }])]);
      const messages = [ChatMessage.fromUser("Hi"), ChatMessage.fromAssistant(undefined, { toolCalls: [{ toolName: "search", arguments: {} }] })];

      const error = await rejectionOf(new AISdkChatGenerator({ model }).run(request({ messages })));

      expect(error.message).toBe(
        "AISdkChatGenerator cannot send the conversation: messages[1].toolCalls[0] is a call to 'search' without an id; the LanguageModel prompt pairs tool results with calls by id, so give every ToolCall an id.",
      );
    });
  });

  describe("response", () => {
    it.each([
      ["stop", "stop"],
      ["length", "length"],
      ["tool-calls", "tool_calls"],
      ["content-filter", "content_filter"],
      ["error", "error"],
      ["other", "other"],
    ] as const)("maps the finish reason %s to %s", async (unified, finishReason) => {
      const model = scriptedModel([generated([{ type: "text", text: "Hi." }], { unified, raw: "raw-reason" })]);

      const response = await new AISdkChatGenerator({ model }).run(request());

      expect(response.meta).toEqual({ model: "mock-model-2025", id: "resp-1", finishReason, usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } });
      expect(response.replies[0]!.meta).toMatchObject({ finishReason, rawFinishReason: "raw-reason" });
    });

    it("leaves out tool calls the provider ran, their results and sources, and keeps usage counts that are whole numbers only", async () => {
      const model = scriptedModel([
        {
          ...generated([
            { type: "tool-call", toolCallId: "srv-1", toolName: "web_search", input: '{"query":"lamps"}', providerExecuted: true },
            { type: "tool-result", toolCallId: "srv-1", toolName: "web_search", result: { hits: 3 } },
            { type: "source", sourceType: "url", id: "s1", url: "https://example.com" },
            { type: "text", text: "Found " },
            { type: "text", text: "three." },
          ]),
          usage: { inputTokens: { total: Number.NaN, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 4, text: 4, reasoning: undefined } },
        },
      ]);

      const response = await new AISdkChatGenerator({ model }).run(request());

      expect(response.replies[0]!.toJSON().content).toEqual([{ text: "Found three." }]);
      expect(response.meta!.usage).toEqual({ completionTokens: 4 });
    });

    it("rejects with ChatGeneratorError when a V4 model's output was interrupted, and passes reasoning to it", async () => {
      const calls: unknown[] = [];
      const model = {
        specificationVersion: "v4" as const,
        provider: "google.generative-ai",
        modelId: "gemini-3-flash",
        doGenerate: async (options: unknown) => {
          calls.push(options);
          return { content: [{ type: "text", text: "Half" }], finishReason: { unified: "interrupted", raw: undefined }, usage: usage(1, 1), warnings: [] };
        },
        doStream: async () => streamed([]),
      };
      const generator = new AISdkChatGenerator({ model, generationKwargs: { reasoning: "low" } });

      const error = await rejectionOf(generator.run(request()));

      expect(generator.provider).toBe("gcp.gemini");
      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("AI SDK request for model 'gemini-3-flash' (google.generative-ai) failed: the model's output ended without a completion signal (finish reason 'interrupted'); the reply is incomplete.");
      expect(calls[0]).toMatchObject({ reasoning: "low" });
    });

    it("ignores a V4 stream's ping and custom parts", async () => {
      const parts = [
        { type: "ping" },
        { type: "custom", kind: "google.thought" },
        { type: "text-delta", id: "0", delta: "Hi." },
        { type: "finish", finishReason: { unified: "stop", raw: "STOP" }, usage: usage(3, 2) },
      ];
      const model = { specificationVersion: "v4" as const, provider: "google.generative-ai", modelId: "gemini-3-flash", doGenerate: async () => ({}), doStream: async () => ({ stream: streamOf(parts) }) };
      const chunks: StreamingChunk[] = [];

      const response = await new AISdkChatGenerator({ model }).run(request({ streamingCallback: (chunk) => void chunks.push(chunk) }));

      expect(response.replies[0]!.text).toBe("Hi.");
      expect(chunks).toEqual([
        { type: "text", delta: "Hi." },
        { type: "finish", finishReason: "stop" },
      ]);
    });
  });

  describe("errors", () => {
    const overloaded = () =>
      new APICallError({
        message: "Overloaded",
        url: "https://api.anthropic.com/v1/messages",
        requestBodyValues: {},
        statusCode: 529,
        responseHeaders: { "retry-after-ms": "0" },
        responseBody: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      });

    it("retries a retryable APICallError and then succeeds", async () => {
      let calls = 0;
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          if (calls++ === 0) throw overloaded();
          return generated([{ type: "text", text: "Hi." }]);
        },
      });

      const response = await new AISdkChatGenerator({ model, maxRetries: 1 }).run(request());

      expect(response.replies[0]!.text).toBe("Hi.");
      expect(model.doGenerateCalls).toHaveLength(2);
    });

    it("waits a retry-after of an hour no longer than maxRetryDelayMs", async () => {
      let calls = 0;
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          if (calls++ === 0) throw new APICallError({ message: "Rate limited", url: "u", requestBodyValues: {}, statusCode: 429, responseHeaders: { "retry-after": "3600" } });
          return generated([{ type: "text", text: "Hi." }]);
        },
      });

      const response = await new AISdkChatGenerator({ model, maxRetries: 1, maxRetryDelayMs: 10 }).run(request());

      expect(response.replies[0]!.text).toBe("Hi.");
    });

    it("rejects with ChatGeneratorError carrying the status after the retries", async () => {
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          throw overloaded();
        },
      });

      const error = (await rejectionOf(new AISdkChatGenerator({ model, maxRetries: 2 }).run(request()))) as ChatGeneratorError;

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("AI SDK request for model 'mock-model-id' (mock-provider) failed with status 529: Overloaded");
      expect(error.status).toBe(529);
      expect(error.providerMessage).toBe("Overloaded");
      expect(APICallError.isInstance(error.cause)).toBe(true);
      expect(model.doGenerateCalls).toHaveLength(3);
    });

    it("does not retry an APICallError that is not retryable", async () => {
      const model = new MockLanguageModelV3({
        doStream: async () => {
          throw new APICallError({ message: "max_tokens: must be at least 1", url: "u", requestBodyValues: {}, statusCode: 400 });
        },
      });

      const error = (await rejectionOf(new AISdkChatGenerator({ model }).run(request({ streamingCallback: () => undefined })))) as ChatGeneratorError;

      expect(error.message).toBe("AI SDK request for model 'mock-model-id' (mock-provider) failed with status 400: max_tokens: must be at least 1");
      expect(error.status).toBe(400);
      expect(model.doStreamCalls).toHaveLength(1);
    });

    it("rejects with ChatGeneratorError on an error stream part, after forwarding what came before", async () => {
      const parts: LanguageModelV3StreamPart[] = [
        { type: "text-delta", id: "0", delta: "It is" },
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ];
      const model = new MockLanguageModelV3({ doStream: async () => streamed(parts) });
      const chunks: StreamingChunk[] = [];

      const error = (await rejectionOf(new AISdkChatGenerator({ model }).run(request({ streamingCallback: (chunk) => void chunks.push(chunk) })))) as ChatGeneratorError;

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("AI SDK request for model 'mock-model-id' (mock-provider) failed: the stream sent an error: Overloaded");
      expect(error.providerMessage).toBe("Overloaded");
      expect(chunks).toEqual([{ type: "text", delta: "It is" }]);
    });

    it("rejects with ChatGeneratorError when the stream ends without a finish part", async () => {
      const model = new MockLanguageModelV3({ doStream: async () => streamed([{ type: "text-delta", id: "0", delta: "It is" }]) });

      const error = await rejectionOf(new AISdkChatGenerator({ model }).run(request({ streamingCallback: () => undefined })));

      expect(error.message).toBe("AI SDK request for model 'mock-model-id' (mock-provider) failed: the stream ended before the model finished (no finish part); the reply is incomplete.");
    });

    it("rejects with ChatGeneratorError when the parts add up to more than the reply limit", async () => {
      const part = { type: "text" as const, text: "x".repeat(1_000_000) };
      const model = scriptedModel([generated(Array.from({ length: 70 }, () => part))]);

      const error = await rejectionOf(new AISdkChatGenerator({ model }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        "AI SDK request for model 'mock-model' (anthropic.messages) failed: the reply is longer than 67108864 characters (its text, reasoning, tool names, ids and inputs), the limit, so it is not used.",
      );
    });

    it("rejects with ChatGeneratorError when the model throws something else", async () => {
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'content')");
        },
      });

      const error = await rejectionOf(new AISdkChatGenerator({ model }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("AI SDK request for model 'mock-model-id' (mock-provider) failed: the model threw TypeError: Cannot read properties of undefined (reading 'content').");
    });

    it("rejects with ChatGeneratorError when a stream goes silent for streamIdleTimeoutMs", async () => {
      const model = new MockLanguageModelV3({ doStream: async () => ({ stream: streamOf<LanguageModelV3StreamPart>([], { open: true }) }) });

      const error = await rejectionOf(new AISdkChatGenerator({ model, streamIdleTimeoutMs: 50 }).run(request({ streamingCallback: () => undefined })));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        "AI SDK request for model 'mock-model-id' (mock-provider) failed: the stream sent nothing for streamIdleTimeoutMs (50 ms), so it was aborted; raise streamIdleTimeoutMs if the model pauses longer, as reasoning models do before their first token.",
      );
      expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    });
  });

  describe("construction", () => {
    it("names the model and the provider as OpenTelemetry does", () => {
      const generator = new AISdkChatGenerator({ model: scriptedModel([], { provider: "anthropic.messages", modelId: "claude-sonnet-4-5" }) });

      expect([generator.model, generator.provider]).toEqual(["claude-sonnet-4-5", "anthropic"]);
    });

    it("refuses a model id string and a model of another specification version", () => {
      expect(() => new AISdkChatGenerator({ model: "anthropic/claude-sonnet-4-5" as never })).toThrow(
        'AISdkChatGenerator needs a LanguageModel object from an AI SDK provider package, e.g. new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") }) with anthropic from @ai-sdk/anthropic, got string "anthropic/claude-sonnet-4-5"; a model id string is not resolved here, pass the provider\'s model object.',
      );
      expect(() => new AISdkChatGenerator({ model: { ...scriptedModel([]), specificationVersion: "v2" } as never })).toThrow(
        "AISdkChatGenerator needs a model of the LanguageModel specification v3 (AI SDK 6 provider packages) or v4 (AI SDK 7), got specificationVersion string \"v2\"; upgrade the provider package, e.g. npm i @ai-sdk/anthropic@3.",
      );
    });

    it("refuses retry and time-limit options out of range, as a ConfigurationError naming the option", () => {
      const refusal = (options: Record<string, unknown>) => {
        try {
          new AISdkChatGenerator({ model: scriptedModel([]), ...options });
        } catch (error) {
          return [(error as Error).name, (error as Error).message];
        }
        return undefined;
      };

      expect(refusal({ maxRetries: -1 })).toEqual(["ConfigurationError", "AISdkChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got number -1."]);
      expect(refusal({ maxRetryDelayMs: -5 })).toEqual(["ConfigurationError", "AISdkChatGenerator needs maxRetryDelayMs to be a number of milliseconds from 0 to 2147483647, e.g. maxRetryDelayMs: 60000, got number -5."]);
      expect(refusal({ deadlineMs: 0 })).toEqual(["ConfigurationError", "AISdkChatGenerator needs deadlineMs to be a number of milliseconds greater than 0 and at most 2147483647, e.g. deadlineMs: 600000, got number 0."]);
      expect(refusal({ streamIdleTimeoutMs: "5s" })).toEqual([
        "ConfigurationError",
        'AISdkChatGenerator needs streamIdleTimeoutMs to be a number of milliseconds greater than 0 and at most 2147483647, e.g. streamIdleTimeoutMs: 300000, got string "5s".',
      ]);
      expect(refusal({ maxRetries: 0, maxRetryDelayMs: 0, deadlineMs: 2_147_483_647, streamIdleTimeoutMs: 1 })).toBeUndefined();
    });
  });
});
