import { type ChatGeneratorRequest, ChatMessage, Tool, type ToolSpec } from "toolwright";
import { OpenAIChatGenerator, type OpenAIChatGeneratorOptions, OpenAIResponsesChatGenerator, type OpenAIResponsesChatGeneratorOptions } from "toolwright/openai";
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

/** A Responses API generator for model `test-model` on `server`, without retries unless the options say so. */
export function responsesGeneratorOn(server: MockOpenAIServer, options: Partial<OpenAIResponsesChatGeneratorOptions> = {}): OpenAIResponsesChatGenerator {
  return new OpenAIResponsesChatGenerator({ model: "test-model", apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0, ...options });
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

/** The spec a generator receives for `tool`. */
export function specOf(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strictCompatibility.compatible };
}

/** The error `fn` throws. */
export function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the function to throw");
}

/** A strict-compatible tool: its strict form makes `units` required and nullable, and drops `minLength`. */
export const weatherTool = new Tool({
  name: "get_weather",
  description: "Current weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string", minLength: 1 }, units: { type: "string", enum: ["C", "F"] } }, required: ["city"] },
  function: () => "Sunny",
});

/** `weatherTool`'s parameters in strict form, as a generator with `toolsStrict` sends them. */
export const weatherStrictParameters = {
  type: "object",
  properties: { city: { type: "string" }, units: { type: ["string", "null"], enum: ["C", "F", null] } },
  required: ["city", "units"],
  additionalProperties: false,
};

/** A tool whose schema is not strict-compatible (a map of labels). */
export const tagTool = new Tool({
  name: "tag_ticket",
  description: "Set tags on a ticket.",
  parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"] },
  function: () => "tagged",
});
