import { type ChatGeneratorRequest, ChatMessage } from "toolwright";
import { OpenAIChatGenerator, type OpenAIChatGeneratorOptions } from "toolwright/openai";
import { MockOpenAIServer } from "../../helpers/mockOpenAIServer";

import { rejectionOf } from "../../helpers/notesAgent";

export { rejectionOf };

/** A MockOpenAIServer started before the file's tests, reset before each and closed after all. */
export function useMockServer(): MockOpenAIServer {
  const server = new MockOpenAIServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  return server;
}

/** A generator for model `test-model` on `server`, without retries unless the options say so. */
export function generatorOn(server: MockOpenAIServer, options: Partial<OpenAIChatGeneratorOptions> = {}): OpenAIChatGenerator {
  return new OpenAIChatGenerator({ model: "test-model", apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0, ...options });
}

/** A one-message request without tools. */
export function request(extra: Partial<ChatGeneratorRequest> = {}): ChatGeneratorRequest {
  return { messages: [ChatMessage.fromUser("Weather in Paris?")], tools: [], ...extra };
}

/** How many ms `promise` takes to settle, and the error it rejects with. */
export async function timedRejectionOf(promise: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const start = performance.now();
  const error = await rejectionOf(promise);
  return { error, ms: performance.now() - start };
}

/** A `chat.completion.chunk` of choice 0 with this delta and finish reason. */
export function chunk(delta: object, finishReason: string | null = null): string {
  return JSON.stringify({ id: "chatcmpl-mock", object: "chat.completion.chunk", model: "mock-model-1", choices: [{ index: 0, delta, finish_reason: finishReason }] });
}

/** Resolves after `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
