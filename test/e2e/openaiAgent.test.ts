import { z } from "zod";
import { Agent, ChatGeneratorError, ChatMessage, type StreamingChunk, Tool } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { errorReply, jsonReply, type MockReply, MockOpenAIServer, sseReply } from "../helpers/mockOpenAIServer";

const server = new MockOpenAIServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => expect(server.pending).toBe(0));

function openai(maxRetries = 0): OpenAIChatGenerator {
  return new OpenAIChatGenerator({ model: "test-model", apiKey: "test", baseURL: server.baseURL, maxRetries });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

function weatherTool(calls: unknown[] = []): Tool {
  return new Tool({
    name: "get_weather",
    description: "Current weather of a city.",
    parameters: { type: "object", properties: { city: { type: "string", minLength: 1 } }, required: ["city"] },
    function: (args) => {
      calls.push(args);
      return `Sunny in ${String(args.city)}`;
    },
  });
}

const timeTool = new Tool({
  name: "get_time",
  description: "Local time of a city.",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => ({ city, time: "12:00" }),
});

const parallelCalls: MockReply = {
  toolCalls: [
    { id: "call_w", name: "get_weather", arguments: '{"city":"Paris"}' },
    { id: "call_t", name: "get_time", arguments: '{"city":"Paris"}' },
  ],
  usage: { promptTokens: 30, completionTokens: 18 },
};
const finalAnswer: MockReply = { text: "It is sunny in Paris, and 12:00.", usage: { promptTokens: 70, completionTokens: 9 } };

describe("Agent with OpenAIChatGenerator", () => {
  it("runs parallel tool calls, sends both results back by tool_call_id and ends on the text answer", async () => {
    server.enqueue(jsonReply(parallelCalls), jsonReply(finalAnswer));
    const agent = new Agent({ chatGenerator: openai(), tools: [weatherTool(), timeTool] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Weather and time in Paris?")] });

    expect(result.exitReason).toBe("text");
    expect(result.stepCount).toBe(2);
    expect(result.lastMessage.text).toBe("It is sunny in Paris, and 12:00.");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.body.messages).toEqual([{ role: "user", content: "Weather and time in Paris?" }]);
    expect(server.requests[1]!.body.messages).toEqual([
      { role: "user", content: "Weather and time in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_t", type: "function", function: { name: "get_time", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_w", content: "Sunny in Paris" },
      { role: "tool", tool_call_id: "call_t", content: '{"city":"Paris","time":"12:00"}' },
    ]);
    expect(server.requests[1]!.body.tools).toEqual(server.requests[0]!.body.tools);
  });

  it("gives the same messages and result when streamed, forwarding deltas, tool results and finish chunks", async () => {
    server.enqueue(jsonReply(parallelCalls), jsonReply(finalAnswer));
    const plain = await new Agent({ chatGenerator: openai(), tools: [weatherTool(), timeTool] }).run({ messages: [ChatMessage.fromUser("Weather and time in Paris?")] });
    server.reset();
    server.enqueue(sseReply(parallelCalls, { interleave: true }), sseReply(finalAnswer));
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: openai(), tools: [weatherTool(), timeTool], streamingCallback: (chunk) => void chunks.push(chunk) });

    const streamed = await agent.run({ messages: [ChatMessage.fromUser("Weather and time in Paris?")] });

    expect(streamed).toEqual(plain);
    expect(server.requests.map((r) => r.body.stream_options)).toEqual([{ include_usage: true }, { include_usage: true }]);
    expect(chunks.filter((c) => c.type === "finish" || c.type === "toolResult")).toEqual([
      { type: "finish", finishReason: "tool_calls" },
      { type: "toolResult", index: 0, toolCall: plain.messages[1]!.toolCalls[0], result: plain.messages[2]!.toolCallResult },
      { type: "toolResult", index: 1, toolCall: plain.messages[1]!.toolCalls[1], result: plain.messages[3]!.toolCallResult },
      { type: "finish", finishReason: "tool_call_results" },
      { type: "finish", finishReason: "stop" },
    ]);
    const text = chunks.flatMap((c) => (c.type === "text" ? [c.delta] : [])).join("");
    expect(text).toBe("It is sunny in Paris, and 12:00.");
    const argumentsOf = (index: number) => chunks.flatMap((c) => (c.type === "toolCallDelta" && c.index === index ? [c.argumentsDelta] : [])).join("");
    expect([argumentsOf(0), argumentsOf(1)]).toEqual(['{"city":"Paris"}', '{"city":"Paris"}']);
  });

  it("sends strict schemas for strict-compatible tools, and a null for an optional parameter lets its default apply", async () => {
    const received: unknown[] = [];
    const search = new Tool({
      name: "search",
      description: "Search documents.",
      parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } }, required: ["query"] },
      function: (args) => {
        received.push(args);
        const { query, limit = 5 } = args as { query: string; limit?: number };
        return `${limit} results for ${query}`;
      },
    });
    const listTickets = new Tool({
      name: "list_tickets",
      description: "List tickets.",
      parameters: z.object({ status: z.enum(["open", "closed"]).default("open") }),
      function: ({ status }) => {
        received.push({ status });
        return `${status} tickets: none`;
      },
    });
    const tagTicket = new Tool({
      name: "tag_ticket",
      description: "Set labels on a ticket.",
      parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"] },
      function: () => "tagged",
    });
    server.enqueue(
      jsonReply({
        toolCalls: [
          { id: "call_s", name: "search", arguments: '{"query":"refund","limit":null}' },
          { id: "call_l", name: "list_tickets", arguments: '{"status":null}' },
        ],
      }),
      jsonReply({ text: "Nothing open." }),
    );
    const agent = new Agent({ chatGenerator: openai(), tools: [search, listTickets, tagTicket] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Any refund tickets?")] });

    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "search",
          description: "Search documents.",
          parameters: {
            type: "object",
            properties: { query: { type: "string" }, limit: { type: ["integer", "null"], minimum: 1 } },
            required: ["query", "limit"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      {
        type: "function",
        function: {
          name: "list_tickets",
          description: "List tickets.",
          parameters: {
            type: "object",
            properties: { status: { type: ["string", "null"], enum: ["open", "closed", null], description: 'Default: "open".' } },
            required: ["status"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      {
        type: "function",
        function: {
          name: "tag_ticket",
          description: "Set labels on a ticket.",
          parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"], additionalProperties: false },
        },
      },
    ]);
    expect(received).toEqual([{ query: "refund" }, { status: "open" }]);
    expect(result.messages.flatMap((m) => m.toolCallResults.map((r) => [r.result, r.error]))).toEqual([
      ["5 results for refund", false],
      ["open tickets: none", false],
    ]);
    expect(result.lastMessage.text).toBe("Nothing open.");
  });

  it("answers malformed arguments with an error naming the JSON problem, and runs the corrected call", async () => {
    const calls: unknown[] = [];
    const malformed = '{"city": "Paris"';
    const jsonProblem = (() => {
      try {
        JSON.parse(malformed);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected invalid JSON");
    })();
    server.enqueue(
      jsonReply({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: malformed }] }),
      jsonReply({ toolCalls: [{ id: "call_2", name: "get_weather", arguments: '{"city":"Paris"}' }] }),
      jsonReply({ text: "Sunny in Paris." }),
    );
    const agent = new Agent({ chatGenerator: openai(), tools: [weatherTool(calls)] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Weather in Paris?")] });

    const errorText = `Tool 'get_weather' was called with arguments that are not valid JSON (${jsonProblem}). Send one JSON object with the tool's parameters: city.`;
    expect(server.requests[1]!.body.messages).toEqual([
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: malformed } }] },
      { role: "tool", tool_call_id: "call_1", content: errorText },
    ]);
    expect(result.messages[2]!.toolCallResult).toEqual({ result: errorText, origin: { id: "call_1", toolName: "get_weather", arguments: malformed }, error: true });
    expect(server.requests[2]!.body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_2", content: "Sunny in Paris" });
    expect(calls).toEqual([{ city: "Paris" }]);
    expect(result.stepCount).toBe(3);
    expect(result.lastMessage.text).toBe("Sunny in Paris.");
  });

  it("retries a 500 and goes on with the later success", async () => {
    server.enqueue(errorReply(500, "The server had an error while processing your request."), jsonReply({ text: "Hello." }));
    const agent = new Agent({ chatGenerator: openai(1), tools: [weatherTool()] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });

    expect(server.requests).toHaveLength(2);
    expect(result.lastMessage.text).toBe("Hello.");
    expect(result.stepCount).toBe(1);
  });

  it("rejects the run with ChatGeneratorError on a 401", async () => {
    const message = "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.";
    server.enqueue(errorReply(401, message, "invalid_request_error", "invalid_api_key"));
    const agent = new Agent({ chatGenerator: openai(2), tools: [weatherTool()] });

    const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi")] }));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe(`OpenAI request for model 'test-model' failed with status 401: ${message}`);
    expect((error as ChatGeneratorError).status).toBe(401);
    expect((error as ChatGeneratorError).providerMessage).toBe(message);
    expect(server.requests).toHaveLength(1);
  });
});
