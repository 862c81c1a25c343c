import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type OpenAI from "openai";
import { AbortError, ChatGeneratorError, type ChatGenerator, type StreamingChunk } from "toolwright";
import { errorReply, type MockOpenAIServer, type MockReply, type MockResponse } from "../../helpers/mockOpenAIServer";
import { rejectionOf, request } from "./openaiTestKit";
import { clientOn, sdkMajors } from "./sdkMajors";

/** One OpenAI API as the contract tests speak it: its generator on the mock server, and its scripted answers. */
export interface OpenAIApi {
  readonly name: string;
  generator(options?: { maxRetries?: number; client?: OpenAI }): ChatGenerator;
  /** A non-streaming answer with this reply. */
  json(reply: MockReply): MockResponse;
  /** A streamed answer with this reply that stays open after its last event. */
  hangingStream(reply: MockReply): MockResponse;
}

/**
 * The tests both OpenAI generators pass alike: tool calls, refusals, provider errors and aborts;
 * once per supported major of the `openai` package, the generator given a client of that major.
 */
export function describeOpenAIContract(server: MockOpenAIServer, api: OpenAIApi): void {
  describe.each(sdkMajors)(`${api.name}, as every OpenAI generator, through %s`, (_major, Sdk) => {
    const generator = (options: { maxRetries?: number } = {}) => api.generator({ ...options, client: clientOn(Sdk, server) });

    it("returns several tool calls with their ids and parsed arguments", async () => {
      server.enqueue(
        api.json({
          toolCalls: [
            { id: "call_w", name: "get_weather", arguments: '{"city":"Paris","units":"C"}' },
            { id: "call_t", name: "get_time", arguments: '{"city":"Paris","zone":{"dst":true}}' },
          ],
        }),
      );

      const response = await generator().run(request());

      expect(response.replies).toHaveLength(1);
      expect(response.replies[0]!.text).toBeUndefined();
      expect(response.replies[0]!.toolCalls).toEqual([
        { id: "call_w", toolName: "get_weather", arguments: { city: "Paris", units: "C" } },
        { id: "call_t", toolName: "get_time", arguments: { city: "Paris", zone: { dst: true } } },
      ]);
      expect(response.meta?.finishReason).toBe("tool_calls");
    });

    it("keeps tool-call arguments that are not valid JSON as the raw string", async () => {
      server.enqueue(api.json({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city": "Par' }, { id: "call_2", name: "get_time", arguments: "" }] }));

      const response = await generator().run(request());

      expect(response.replies[0]!.toolCalls).toEqual([
        { id: "call_1", toolName: "get_weather", arguments: '{"city": "Par' },
        { id: "call_2", toolName: "get_time", arguments: {} },
      ]);
    });

    it("makes a refusal visible as the text and in meta.refusal", async () => {
      server.enqueue(api.json({ refusal: "I can't help with that." }));

      const response = await generator().run(request());

      expect(response.replies[0]!.text).toBe("I can't help with that.");
      expect(response.replies[0]!.meta.refusal).toBe("I can't help with that.");
      expect(response.meta?.finishReason).toBe("stop");
    });

    it("rejects with ChatGeneratorError when 429s outlast maxRetries", async () => {
      const message = "Rate limit reached for test-model on tokens per min. Please try again in 1ms.";
      server.enqueue(...[1, 2, 3].map(() => errorReply(429, message, "tokens", "rate_limit_exceeded")));

      const error = await rejectionOf(generator({ maxRetries: 2 }).run(request()));

      expect(server.requests).toHaveLength(3);
      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.name).toBe("ChatGeneratorError");
      expect(error).toMatchObject({ message: `OpenAI request for model 'test-model' failed with status 429: ${message}`, status: 429, providerMessage: message });
      expect(error.cause).toBeInstanceOf(Sdk.RateLimitError);
      expect((error.cause as InstanceType<typeof Sdk.APIError>).code).toBe("rate_limit_exceeded");
    });

    it("rejects a 401 at once with ChatGeneratorError carrying the provider's message", async () => {
      const message = "Incorrect API key provided: test-key. You can find your API key at https://platform.openai.com/account/api-keys.";
      server.enqueue(errorReply(401, message, "invalid_request_error", "invalid_api_key"));

      const error = await rejectionOf(generator({ maxRetries: 2 }).run(request()));

      expect(server.requests).toHaveLength(1);
      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error).toMatchObject({ message: `OpenAI request for model 'test-model' failed with status 401: ${message}`, status: 401, providerMessage: message });
      expect(error.cause).toBeInstanceOf(Sdk.AuthenticationError);
    });

    it("retries a 503 the SDK marks retryable and returns the later success", async () => {
      server.enqueue(errorReply(503, "The server is overloaded."), api.json({ text: "It is sunny." }));

      const response = await generator({ maxRetries: 1 }).run(request());

      expect(server.requests).toHaveLength(2);
      expect(response.replies[0]!.text).toBe("It is sunny.");
    });

    it("rejects with a ChatGeneratorError that says it could not connect when nothing listens at baseURL", async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const client = new Sdk({ apiKey: "test-key", baseURL: `http://127.0.0.1:${closedPort}/v1`, maxRetries: 0 }) as OpenAI;

      const error = await rejectionOf(api.generator({ client }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        `OpenAI request for model 'test-model' could not connect to http://127.0.0.1:${closedPort}/v1 (Connection error: connect ECONNREFUSED 127.0.0.1:${closedPort}); check baseURL / OPENAI_BASE_URL and that the server is up.`,
      );
      expect(error.cause).toBeInstanceOf(Sdk.APIConnectionError);
    });

    it("rejects with an AbortError, and sends no finish chunk, when the signal aborts during a stream", async () => {
      server.enqueue(api.hangingStream({ text: "It is sunny in Paris." }));
      const controller = new AbortController();
      const chunks: StreamingChunk[] = [];
      const streamingCallback = (chunk: StreamingChunk) => {
        chunks.push(chunk);
        if (chunk.type === "text") controller.abort();
      };

      const error = await rejectionOf(generator().run(request({ signal: controller.signal, streamingCallback })));

      expect(error).toBeInstanceOf(AbortError);
      expect(error.message).toBe("The model request was aborted.");
      expect(chunks).toEqual([{ type: "text", delta: "It is s" }]);
    });
  });
}
