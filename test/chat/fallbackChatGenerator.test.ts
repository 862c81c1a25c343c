import { createOpenAI } from "@ai-sdk/openai";
import {
  Agent,
  ChatGeneratorError,
  type ChatGeneratorRequest,
  ChatMessage,
  ConfigurationError,
  FallbackChatGenerator,
  FallbackChatGeneratorError,
  FallbackPolicyError,
  isTransientFailure,
  type ModelEndEvent,
  type StreamingChunk,
} from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";
import { ScriptedChatGenerator } from "toolwright/testing";
import { errorReply, jsonReply, MockOpenAIServer, sseEvents, sseReply } from "../helpers/mockOpenAIServer";
import { responsesJson } from "../helpers/mockResponses";
import { notesState, notesTools, rejectionOf, type ToolLog } from "../helpers/notesAgent";

// Two local servers: the primary fails on purpose, the backup answers.
const primary = new MockOpenAIServer();
const backup = new MockOpenAIServer();
beforeAll(async () => {
  await primary.start();
  await backup.start();
});
afterAll(async () => {
  await primary.close();
  await backup.close();
});
beforeEach(() => {
  primary.reset();
  backup.reset();
});

const rateLimited = () => errorReply(429, "Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3.", "requests", "rate_limit_exceeded");
const openai = (server: MockOpenAIServer, model: string) => new OpenAIChatGenerator({ model, apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 });
const responses = (server: MockOpenAIServer, model: string) => new OpenAIResponsesChatGenerator({ model, apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 });
const aiSdk = (server: MockOpenAIServer, model: string) => new AISdkChatGenerator({ model: createOpenAI({ baseURL: server.baseURL, apiKey: "test-key" }).chat(model), maxRetries: 0 });
const request = (extra: Partial<ChatGeneratorRequest> = {}): ChatGeneratorRequest => ({ messages: [ChatMessage.fromUser("Are lamps in stock?")], tools: [], ...extra });
const failing = (status: number | undefined, message = "boom.") => new ScriptedChatGenerator([() => Promise.reject(new ChatGeneratorError(message, status === undefined ? {} : { status }))]);

function notesAgent(chatGenerator: FallbackChatGenerator, log: ToolLog, events: ModelEndEvent[]) {
  return new Agent({ chatGenerator, tools: notesTools(log), stateSchema: notesState, systemPrompt: "You keep notes.", hooks: { onModelEnd: (event) => void events.push(event) } });
}

describe("FallbackChatGenerator", () => {
  it("completes an Agent run on the backup OpenAI server after the primary answers 429", async () => {
    // Each model call starts with the primary: the second step finds it answering again.
    primary.enqueue(rateLimited(), jsonReply({ model: "primary-model", text: "Lamps are in stock.", usage: { promptTokens: 150, completionTokens: 8 } }));
    backup.enqueue(jsonReply({ model: "backup-model", toolCalls: [{ id: "call_1", name: "search", arguments: '{"query":"lamps"}' }], usage: { promptTokens: 100, completionTokens: 20 } }));
    const log: ToolLog = [];
    const events: ModelEndEvent[] = [];
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), openai(backup, "backup-model")] });

    const result = await notesAgent(generator, log, events).run({ messages: [ChatMessage.fromUser("Are lamps in stock?")], customer_id: "c-42" });

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(log).toEqual([{ tool: "search", args: { query: "lamps", customerId: "c-42" } }]);
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(1);
    expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 28, modelCalls: 2 });
    expect(events.map((e) => [e.model, e.responseModel, e.error])).toEqual([
      ["primary-model", "backup-model", undefined],
      ["primary-model", "primary-model", undefined],
    ]);
  });

  it("lists every attempt in the answer's meta and keeps the answering generator's usage", async () => {
    primary.enqueue(rateLimited());
    backup.enqueue(jsonReply({ model: "backup-model", text: "Yes.", usage: { promptTokens: 10, completionTokens: 2 } }));
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), openai(backup, "backup-model")] });

    const response = await generator.run(request());

    expect(response.replies[0]!.text).toBe("Yes.");
    expect(response.meta?.usage).toEqual({ promptTokens: 10, completionTokens: 2, totalTokens: 12 });
    expect(response.meta?.fallbackAttempts).toEqual([
      {
        index: 0,
        model: "primary-model",
        provider: "openai",
        outcome: "failed",
        status: 429,
        error: "OpenAI request for model 'primary-model' failed with status 429: Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3.",
      },
      { index: 1, model: "backup-model", provider: "openai", outcome: "answered" },
    ]);
    expect(generator.model).toBe("primary-model");
    expect(generator.provider).toBe("openai");
    expect(generator.serverUrl).toBe(primary.baseURL);
  });

  it("falls back from the Responses API generator after a 500", async () => {
    primary.enqueue(errorReply(500, "The server had an error while processing your request."));
    backup.enqueue(responsesJson({ text: "From the backup." }));
    const generator = new FallbackChatGenerator({ generators: [responses(primary, "primary-model"), responses(backup, "backup-model")] });

    const response = await generator.run(request());

    expect(response.replies[0]!.text).toBe("From the backup.");
    expect(backup.requests[0]!.url).toBe("/v1/responses");
    expect(response.meta?.fallbackAttempts).toMatchObject([{ index: 0, outcome: "failed", status: 500 }, { index: 1, outcome: "answered" }]);
  });

  it("falls back from an @ai-sdk/openai model to the openai SDK after a 429 and completes an Agent run", async () => {
    primary.enqueue(rateLimited(), rateLimited());
    backup.enqueue(jsonReply({ toolCalls: [{ id: "call_1", name: "add_note", arguments: '{"text":"lamps"}' }] }), jsonReply({ text: "Noted." }));
    const log: ToolLog = [];
    const events: ModelEndEvent[] = [];
    const generator = new FallbackChatGenerator({ generators: [aiSdk(primary, "primary-model"), openai(backup, "backup-model")] });

    const result = await notesAgent(generator, log, events).run({ messages: [ChatMessage.fromUser("Note lamps.")], customer_id: "c-42" });

    expect(result.lastMessage.text).toBe("Noted.");
    expect(result.notes).toEqual(["lamps"]);
    expect(primary.requests.map((r) => r.url)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(events.map((e) => [e.model, e.provider])).toEqual([
      ["primary-model", "openai"],
      ["primary-model", "openai"],
    ]);
  });

  it("falls back to an @ai-sdk/openai model when the primary's connection fails", async () => {
    backup.enqueue(jsonReply({ text: "Reached." }));
    const closed = new OpenAIChatGenerator({ model: "primary-model", apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", maxRetries: 0 });
    const generator = new FallbackChatGenerator({ generators: [closed, aiSdk(backup, "backup-model")] });

    const response = await generator.run(request());

    expect(response.replies[0]!.text).toBe("Reached.");
    expect(response.meta?.fallbackAttempts).toMatchObject([{ index: 0, outcome: "failed", error: expect.stringMatching(/^OpenAI request for model 'primary-model' could not connect to http:\/\/127\.0\.0\.1:9\/v1 \(Connection error: bad port\); /) }, { index: 1, model: "backup-model", outcome: "answered" }]);
  });

  it("falls back before the first chunk when streaming, and streams only the backup's chunks", async () => {
    primary.enqueue(rateLimited());
    backup.enqueue(sseReply({ text: "Lamps are in stock." }));
    const chunks: StreamingChunk[] = [];
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), aiSdk(backup, "backup-model")] });

    const response = await generator.run(request({ streamingCallback: (chunk) => void chunks.push(chunk) }));

    expect(response.replies[0]!.text).toBe("Lamps are in stock.");
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { delta: string }).delta).join("")).toBe("Lamps are in stock.");
  });

  it("does not fall back once the failing generator has streamed a chunk, and throws its error as it is", async () => {
    const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "primary-model", choices: [{ index: 0, delta: { role: "assistant", content: "Lamps " }, finish_reason: null }] };
    primary.enqueue(sseEvents([JSON.stringify(chunk)], "reset"));
    const chunks: StreamingChunk[] = [];
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), openai(backup, "backup-model")] });

    const error = await rejectionOf(generator.run(request({ streamingCallback: (c) => void chunks.push(c) })));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error).not.toBeInstanceOf(FallbackChatGeneratorError);
    expect(error.message).toMatch(/^OpenAI request for model 'primary-model' failed: /);
    expect(chunks).toEqual([{ type: "text", delta: "Lamps " }]);
    expect(backup.requests).toHaveLength(0);
  });

  it("throws an error its policy does not fall back on as it is, without trying the next generator", async () => {
    primary.enqueue(errorReply(400, "Invalid value for 'temperature'.", "invalid_request_error"));
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), openai(backup, "backup-model")] });

    const error = await rejectionOf(generator.run(request()));

    expect(error.message).toBe("OpenAI request for model 'primary-model' failed with status 400: Invalid value for 'temperature'.");
    expect(backup.requests).toHaveLength(0);
  });

  it("rejects with a FallbackChatGeneratorError listing every attempt when all fail", async () => {
    primary.enqueue(rateLimited());
    backup.enqueue(errorReply(503, "Service unavailable."));
    const generator = new FallbackChatGenerator({ generators: [openai(primary, "primary-model"), openai(backup, "backup-model")] });

    const error = (await rejectionOf(generator.run(request()))) as FallbackChatGeneratorError;

    expect(error).toBeInstanceOf(FallbackChatGeneratorError);
    expect(error.message).toBe(
      "FallbackChatGenerator tried 2 generators and each failed: generators[0] (model 'primary-model'): OpenAI request for model 'primary-model' failed with status 429: Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3; generators[1] (model 'backup-model'): OpenAI request for model 'backup-model' failed with status 503: Service unavailable.",
    );
    expect(error.status).toBe(503);
    expect(error.providerMessage).toBe("Service unavailable.");
    expect(error.attempts.map((a) => [a.index, a.status])).toEqual([
      [0, 429],
      [1, 503],
    ]);
    expect((error.cause as ChatGeneratorError).status).toBe(503);
  });

  it("falls back on a refusal when the user's policy says so", async () => {
    primary.enqueue(jsonReply({ refusal: "I can't help with that.", usage: { promptTokens: 9, completionTokens: 5 } }));
    backup.enqueue(jsonReply({ text: "Here is how." }));
    const generator = new FallbackChatGenerator({
      generators: [openai(primary, "primary-model"), openai(backup, "backup-model")],
      shouldFallBack: (o) => (o.response ? o.response.replies.some((r) => r.meta.refusal !== undefined) : isTransientFailure(o.error)),
    });

    const response = await generator.run(request());

    expect(response.replies[0]!.text).toBe("Here is how.");
    expect(response.meta?.fallbackAttempts).toEqual([
      { index: 0, model: "primary-model", provider: "openai", outcome: "refused", usage: { promptTokens: 9, completionTokens: 5, totalTokens: 14 } },
      { index: 1, model: "backup-model", provider: "openai", outcome: "answered" },
    ]);
  });

  it("does not fall back when the caller aborts", async () => {
    const controller = new AbortController();
    const second = new ScriptedChatGenerator([ChatMessage.fromAssistant("Never.")]);
    const first = new ScriptedChatGenerator([
      () => {
        controller.abort();
        return Promise.reject(new ChatGeneratorError("late.", { status: 503 }));
      },
    ]);

    const error = await rejectionOf(new FallbackChatGenerator({ generators: [first, second] }).run(request({ signal: controller.signal })));

    expect(error.message).toBe("late.");
    expect(second.requests).toHaveLength(0);
  });

  it("falls back over scripted generators on 429 and on an error without status, and sets the answering model", async () => {
    const last = new ScriptedChatGenerator([ChatMessage.fromAssistant("Third time.")]);
    const generator = new FallbackChatGenerator({ generators: [failing(429), failing(undefined, "the call did not finish within deadlineMs (5 ms)."), last] });

    const response = await generator.run(request());

    expect(response.replies[0]!.text).toBe("Third time.");
    expect(response.meta?.model).toBe("scripted");
    expect((response.meta?.fallbackAttempts as unknown[]).length).toBe(3);
  });

  it("reports a policy that throws or returns a non-boolean as a FallbackPolicyError", async () => {
    const throwing = new FallbackChatGenerator({
      generators: [failing(429), failing(429)],
      shouldFallBack: () => {
        throw new Error("no table");
      },
    });
    const lax = new FallbackChatGenerator({ generators: [failing(429), failing(429)], shouldFallBack: (() => "yes") as unknown as () => boolean });

    const thrown = await rejectionOf(throwing.run(request()));
    const returned = await rejectionOf(lax.run(request()));

    expect(thrown).toBeInstanceOf(FallbackPolicyError);
    expect(thrown.message).toBe("FallbackChatGenerator's shouldFallBack threw on generators[0]'s error: no table; make it return true or false.");
    expect(returned.message).toBe("FallbackChatGenerator's shouldFallBack returned string \"yes\" for generators[0]'s error; it must return true or false (a promise is not awaited).");
  });

  it("refuses options without generators, with a non-generator, or with a policy that is not a function", () => {
    expect(() => new FallbackChatGenerator({ generators: [] })).toThrow(
      new ConfigurationError("FallbackChatGenerator", "FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got an empty array."),
    );
    expect(() => new FallbackChatGenerator({ generators: [failing(429), "gpt-4o" as never] })).toThrow("FallbackChatGenerator needs generators[1] to be a chat generator (an object with run(request)), got string \"gpt-4o\".");
    expect(() => new FallbackChatGenerator({ generators: [failing(429)], shouldFallBack: true as never })).toThrow("FallbackChatGenerator needs shouldFallBack to be a function (outcome) => boolean, got boolean true.");
  });
});

describe("isTransientFailure", () => {
  it("accepts 408, 409, 429, 5xx and status-less ChatGeneratorErrors and nothing else", () => {
    const verdicts = [undefined, 400, 401, 404, 408, 409, 422, 429, 500, 503, 529].map((status) => [status, isTransientFailure(new ChatGeneratorError("x.", status === undefined ? {} : { status }))]);
    expect(verdicts).toEqual([
      [undefined, true],
      [400, false],
      [401, false],
      [404, false],
      [408, true],
      [409, true],
      [422, false],
      [429, true],
      [500, true],
      [503, true],
      [529, true],
    ]);
    expect(isTransientFailure(new Error("socket hang up"))).toBe(false);
  });
});
