import { createServer } from "node:net";
import OpenAI from "openai";
import { AbortError, ChatGeneratorError, ChatMessage, ConfigurationError, type StreamingChunk } from "toolwright";
import { OpenAIChatGenerator, type OpenAIChatGeneratorOptions } from "toolwright/openai";
import { errorReply, hangingReply, jsonReply, type MockReply, sseReply } from "../../helpers/mockOpenAIServer";
import { describeOpenAIContract } from "./generatorContract";
import { generatorOn, rejectionOf, request, specOf, tagTool, thrownBy, useMockServer, weatherStrictParameters, weatherTool } from "./openaiTestKit";

const server = useMockServer();

describeOpenAIContract(server, { name: "OpenAIChatGenerator", generator: (options) => generatorOn(server, options), json: jsonReply, hangingStream: (reply) => sseReply(reply, { hang: true }) });

function generator(options: Partial<OpenAIChatGeneratorOptions> = {}): OpenAIChatGenerator {
  return generatorOn(server, options);
}

const weatherStrict = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather of a city.",
    parameters: weatherStrictParameters,
    strict: true,
  },
};

const twoCalls: MockReply = {
  toolCalls: [
    { id: "call_w", name: "get_weather", arguments: '{"city":"Paris","units":"C"}' },
    { id: "call_t", name: "get_time", arguments: '{"city":"Paris","zone":{"dst":true}}' },
  ],
  usage: { promptTokens: 40, completionTokens: 22 },
};

describe("OpenAIChatGenerator", () => {
  describe("requests", () => {
    it("sends system, user, assistant (text and several tool calls) and tool messages to /v1/chat/completions", async () => {
      server.enqueue(jsonReply({ text: "It is sunny." }));
      const weatherCall = { id: "call_w", toolName: "get_weather", arguments: { city: "Paris" } };
      const timeCall = { id: "call_t", toolName: "get_time", arguments: '{"city": "Par' };
      const messages = [
        ChatMessage.fromSystem("Be brief."),
        ChatMessage.fromUser("Weather and time in Paris?"),
        ChatMessage.fromAssistant("Checking both.", { toolCalls: [weatherCall, timeCall] }),
        ChatMessage.fromTool("Sunny", weatherCall),
        ChatMessage.fromTool("Tool 'get_time' was called with arguments that are not valid JSON.", timeCall, { error: true }),
      ];

      await generator().run(request({ messages }));

      expect(server.requests).toHaveLength(1);
      const [sent] = server.requests;
      expect(sent!.method).toBe("POST");
      expect(sent!.url).toBe("/v1/chat/completions");
      expect(sent!.body).toEqual({
        model: "test-model",
        stream: false,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Weather and time in Paris?" },
          {
            role: "assistant",
            content: "Checking both.",
            tool_calls: [
              { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
              { id: "call_t", type: "function", function: { name: "get_time", arguments: '{"city": "Par' } },
            ],
          },
          { role: "tool", tool_call_id: "call_w", content: "Sunny" },
          { role: "tool", tool_call_id: "call_t", content: "Tool 'get_time' was called with arguments that are not valid JSON." },
        ],
      });
    });

    it("sends strict-compatible tools in strict form with strict: true, and the others non-strict", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      await generator().run(request({ tools: [specOf(weatherTool), specOf(tagTool)] }));

      expect(server.requests[0]!.body.tools).toEqual([
        weatherStrict,
        {
          type: "function",
          function: {
            name: "tag_ticket",
            description: "Set tags on a ticket.",
            parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"], additionalProperties: false },
          },
        },
      ]);
    });

    it("sends every tool as it is with toolsStrict: false", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      await generator({ toolsStrict: false }).run(request({ tools: [specOf(weatherTool), specOf(tagTool)] }));

      expect(server.requests[0]!.body.tools).toEqual([
        { type: "function", function: { name: "get_weather", description: "Current weather of a city.", parameters: weatherTool.parameters } },
        { type: "function", function: { name: "tag_ticket", description: "Set tags on a ticket.", parameters: tagTool.parameters } },
      ]);
    });

    it("merges the constructor's and the request's generationKwargs, the request's winning", async () => {
      server.enqueue(jsonReply({ text: "ok" }));
      const model = generator({ generationKwargs: { temperature: 0.2, max_tokens: 100, parallel_tool_calls: false } });

      await model.run(request({ tools: [specOf(weatherTool)], generationKwargs: { temperature: 0.7, seed: 7 } }));

      const { messages: _messages, tools: _tools, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({ model: "test-model", stream: false, temperature: 0.7, max_tokens: 100, parallel_tool_calls: false, seed: 7 });
    });

    it("drops parallel_tool_calls and tool_choice and sends no tools key when there are no tools", async () => {
      server.enqueue(jsonReply({ text: "ok" }));
      const model = generator({ generationKwargs: { parallel_tool_calls: true, temperature: 0 } });

      await model.run(request({ generationKwargs: { tool_choice: "auto" } }));

      const { messages: _messages, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({ model: "test-model", stream: false, temperature: 0 });
    });

    it("sends the request's responseFormat as response_format, in place of one in generationKwargs", async () => {
      server.enqueue(jsonReply({ text: '{"city":"Paris","sunny":true}' }));
      const schema = { type: "object", properties: { city: { type: "string" }, sunny: { type: "boolean" } }, required: ["city", "sunny"], additionalProperties: false };
      const responseFormat = { type: "json_schema", name: "weather_answer", schema, strict: true } as const;

      await generator({ generationKwargs: { response_format: { type: "json_object" } } }).run(request({ responseFormat }));

      expect(server.requests[0]!.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "weather_answer", schema, strict: true } });
    });

    it("sends a responseFormat's description, and strict: false for a schema that is not strict-compatible", async () => {
      server.enqueue(jsonReply({ text: "{}" }));
      const schema = { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } } };

      await generator().run(request({ responseFormat: { type: "json_schema", name: "tags", description: "The ticket's tags.", schema, strict: false } }));

      expect(server.requests[0]!.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "tags", description: "The ticket's tags.", schema, strict: false } });
    });

    it("sends generationKwargs' response_format as it is without a responseFormat", async () => {
      server.enqueue(jsonReply({ text: "{}" }));

      await generator({ generationKwargs: { response_format: { type: "json_object" } } }).run(request());

      expect(server.requests[0]!.body.response_format).toEqual({ type: "json_object" });
    });

    it("does not let generationKwargs replace the model, the messages or the stream flag", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      await generator().run(request({ generationKwargs: { model: "other", messages: [], stream: true } }));

      const body = server.requests[0]!.body;
      expect(body.model).toBe("test-model");
      expect(body.stream).toBe(false);
      expect(body.messages).toEqual([{ role: "user", content: "Weather in Paris?" }]);
    });
  });

  describe("responses", () => {
    it("returns a text reply with model, usage and finish reason in the response and message meta", async () => {
      server.enqueue(jsonReply({ text: "It is sunny.", usage: { promptTokens: 12, completionTokens: 5 } }));

      const response = await generator().run(request());

      const usage = { promptTokens: 12, completionTokens: 5, totalTokens: 17 };
      expect(response).toEqual({
        replies: [ChatMessage.fromAssistant("It is sunny.", { meta: { model: "mock-model-1", index: 0, finishReason: "stop", usage } })],
        meta: { model: "mock-model-1", usage, finishReason: "stop" },
      });
    });

    it("reports finish_reason length in the response and message meta", async () => {
      server.enqueue(jsonReply({ text: "It is sun", finishReason: "length" }));

      const response = await generator().run(request());

      expect(response.meta?.finishReason).toBe("length");
      expect(response.replies[0]!.meta.finishReason).toBe("length");
      expect(response.replies[0]!.text).toBe("It is sun");
    });

  });

  describe("streaming", () => {
    async function streamed(reply: MockReply, options?: Parameters<typeof sseReply>[1]) {
      server.enqueue(sseReply(reply, options));
      const chunks: StreamingChunk[] = [];
      const response = await generator().run(request({ streamingCallback: (chunk) => void chunks.push(chunk) }));
      return { response, chunks };
    }

    async function notStreamed(reply: MockReply) {
      server.enqueue(jsonReply(reply));
      return generator().run(request());
    }

    it("forwards text deltas in order, ends with a finish chunk and asks for usage", async () => {
      const { response, chunks } = await streamed({ text: "It is sunny in Paris.", usage: { promptTokens: 9, completionTokens: 6 } });

      expect(chunks).toEqual([
        { type: "text", delta: "It is s" },
        { type: "text", delta: "unny in" },
        { type: "text", delta: " Paris." },
        { type: "finish", finishReason: "stop" },
      ]);
      expect(response.replies.map((r) => r.text)).toEqual(["It is sunny in Paris."]);
      expect(response.meta).toEqual({ model: "mock-model-1", usage: { promptTokens: 9, completionTokens: 6, totalTokens: 15 }, finishReason: "stop" });
      const { messages: _messages, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({ model: "test-model", stream: true, stream_options: { include_usage: true } });
    });

    it("assembles a streamed text reply into the message a non-streaming call returns", async () => {
      const reply: MockReply = { text: "It is sunny in Paris.", usage: { promptTokens: 9, completionTokens: 6 } };

      const { response } = await streamed(reply);

      expect(response).toEqual(await notStreamed(reply));
    });

    it("assembles two interleaved parallel calls split into deltas by index into the non-streaming message", async () => {
      const { response, chunks } = await streamed(twoCalls, { interleave: true });

      expect(response).toEqual(await notStreamed(twoCalls));
      expect(chunks).toEqual([
        { type: "toolCallDelta", index: 0, id: "call_w", toolName: "get_weather", argumentsDelta: "" },
        { type: "toolCallDelta", index: 1, id: "call_t", toolName: "get_time", argumentsDelta: "" },
        { type: "toolCallDelta", index: 0, argumentsDelta: '{"city":"P' },
        { type: "toolCallDelta", index: 1, argumentsDelta: '{"city":"Par' },
        { type: "toolCallDelta", index: 0, argumentsDelta: 'aris","uni' },
        { type: "toolCallDelta", index: 1, argumentsDelta: 'is","zone":{' },
        { type: "toolCallDelta", index: 0, argumentsDelta: 'ts":"C"}' },
        { type: "toolCallDelta", index: 1, argumentsDelta: '"dst":true}}' },
        { type: "finish", finishReason: "tool_calls" },
      ]);
    });

    it("assembles text followed by tool calls into the non-streaming message", async () => {
      const reply: MockReply = { ...twoCalls, text: "Checking both." };

      const { response } = await streamed(reply);

      expect(response).toEqual(await notStreamed(reply));
      expect(response.replies[0]!.text).toBe("Checking both.");
    });

    it("keeps streamed arguments that are not valid JSON as the raw string", async () => {
      const reply: MockReply = { toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city": "Paris"' }] };

      const { response } = await streamed(reply);

      expect(response.replies[0]!.toolCalls).toEqual([{ id: "call_1", toolName: "get_weather", arguments: '{"city": "Paris"' }]);
      expect(response).toEqual(await notStreamed(reply));
    });

    it("assembles the deltas of a call that carry no index (some compatible servers)", async () => {
      const delta = (part: object) => ({ model: "mock-model-1", choices: [{ index: 0, delta: { tool_calls: [part] }, finish_reason: null }] });
      server.enqueue({
        kind: "sse",
        chunks: [
          delta({ id: "call_1", function: { name: "get_weather", arguments: '{"city":' } }),
          delta({ function: { arguments: '"Paris"}' } }),
          { model: "mock-model-1", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
        ],
      });

      const response = await generator().run(request({ streamingCallback: () => undefined }));

      expect(response.replies[0]!.toolCalls).toEqual([{ id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } }]);
    });

    it("reports a streamed finish_reason length in meta and the finish chunk", async () => {
      const { response, chunks } = await streamed({ text: "It is sun", finishReason: "length" });

      expect(response.meta?.finishReason).toBe("length");
      expect(response.replies[0]!.meta.finishReason).toBe("length");
      expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "length" });
    });

    it("assembles a streamed refusal into the non-streaming message", async () => {
      const reply: MockReply = { refusal: "I can't help with that." };

      const { response } = await streamed(reply);

      expect(response).toEqual(await notStreamed(reply));
      expect(response.replies[0]!.text).toBe("I can't help with that.");
    });

    it("assembles an empty reply into the non-streaming message", async () => {
      const reply: MockReply = { text: "" };

      const { response } = await streamed(reply);

      expect(response).toEqual(await notStreamed(reply));
    });
  });

  describe("errors", () => {
    it("retries a 500 within maxRetries and returns the later success", async () => {
      server.enqueue(errorReply(500, "The server had an error."), jsonReply({ text: "It is sunny." }));

      const response = await generator({ maxRetries: 1 }).run(request());

      expect(response.replies[0]!.text).toBe("It is sunny.");
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
    });

    it("rejects with ChatGeneratorError when a stream carries an error event", async () => {
      server.enqueue({ kind: "sse", chunks: [{ error: { message: "The model overloaded mid-stream.", type: "server_error", code: null } }] });

      const error = await rejectionOf(generator().run(request({ streamingCallback: () => undefined })));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: The model overloaded mid-stream.");
      expect((error as ChatGeneratorError).status).toBeUndefined();
      expect((error as ChatGeneratorError).providerMessage).toBe("The model overloaded mid-stream.");
      expect(error.cause).toBeInstanceOf(OpenAI.APIError);
    });

    it("rejects with ChatGeneratorError when the server refuses the connection", async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });

      const error = await rejectionOf(generator({ baseURL: `http://127.0.0.1:${closedPort}/v1` }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        `OpenAI request for model 'test-model' could not connect to http://127.0.0.1:${closedPort}/v1 (Connection error: connect ECONNREFUSED 127.0.0.1:${closedPort}); check baseURL / OPENAI_BASE_URL and that the server is up.`,
      );
      expect((error as ChatGeneratorError).status).toBeUndefined();
      expect(error.cause).toBeInstanceOf(OpenAI.APIConnectionError);
    });

    it("rejects with an AbortError promptly when the signal aborts while the server has not answered", async () => {
      server.enqueue(hangingReply());
      const controller = new AbortController();
      const pending = rejectionOf(generator().run(request({ signal: controller.signal })));
      await server.received(1);

      const abortedAt = Date.now();
      controller.abort();
      const error = await pending;

      expect(Date.now() - abortedAt).toBeLessThan(500);
      expect(error).toBeInstanceOf(AbortError);
      expect(error.name).toBe("AbortError");
      expect(error.message).toBe("The model request was aborted.");
    });

    it("rejects with an AbortError without sending anything when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort();

      const error = await rejectionOf(generator().run(request({ signal: controller.signal })));

      expect(error.name).toBe("AbortError");
      expect(server.requests).toHaveLength(0);
    });

  });

  describe("configuration", () => {
    const savedEnv = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
    beforeEach(() => {
      delete process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_BASE_URL;
    });
    afterEach(() => {
      for (const [name, value] of [["OPENAI_API_KEY", savedEnv.key], ["OPENAI_BASE_URL", savedEnv.baseURL]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it("sends apiKey as the bearer token to baseURL", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      await new OpenAIChatGenerator({ model: "test-model", apiKey: "sk-given", baseURL: server.baseURL, maxRetries: 0 }).run(request());

      expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-given");
    });

    it("sends organization as the OpenAI-Organization header", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      await generator({ organization: "org-42" }).run(request());

      expect(server.requests[0]!.headers["openai-organization"]).toBe("org-42");
    });

    it("uses OPENAI_API_KEY and OPENAI_BASE_URL when the options leave them out", async () => {
      process.env.OPENAI_API_KEY = "sk-from-env";
      process.env.OPENAI_BASE_URL = server.baseURL;
      server.enqueue(jsonReply({ text: "ok" }));

      const response = await new OpenAIChatGenerator({ model: "test-model", maxRetries: 0 }).run(request());

      expect(response.replies[0]!.text).toBe("ok");
      expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-env");
    });

    it("prefers the apiKey and baseURL options to the environment", async () => {
      process.env.OPENAI_API_KEY = "sk-from-env";
      process.env.OPENAI_BASE_URL = "http://127.0.0.1:1/v1";
      server.enqueue(jsonReply({ text: "ok" }));

      await generator().run(request());

      expect(server.requests[0]!.headers.authorization).toBe("Bearer test-key");
    });

    it("needs no API key for a local server given by baseURL", async () => {
      server.enqueue(jsonReply({ text: "ok" }));

      const response = await new OpenAIChatGenerator({ model: "llama3.1", baseURL: server.baseURL, maxRetries: 0 }).run(request());

      expect(response.replies[0]!.text).toBe("ok");
      expect(server.requests[0]!.body.model).toBe("llama3.1");
    });

    it("uses a given client and its connection options", async () => {
      server.enqueue(jsonReply({ text: "ok" }));
      const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL, maxRetries: 0 });

      const model = new OpenAIChatGenerator({ model: "test-model", client, apiKey: "ignored", baseURL: "http://127.0.0.1:1/v1" });
      await model.run(request());

      expect(model.client).toBe(client);
      expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-client");
    });

    it("throws ConfigurationError without an API key or a baseURL", () => {
      const error = thrownBy(() => new OpenAIChatGenerator({ model: "gpt-4o-mini" }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).subject).toBe("OpenAIChatGenerator");
      expect(error.message).toBe(
        "OpenAIChatGenerator needs an API key: pass apiKey or set OPENAI_API_KEY; for a local OpenAI-compatible server, pass baseURL (or set OPENAI_BASE_URL) instead.",
      );
    });

    it("throws ConfigurationError without a model", () => {
      const missing = thrownBy(() => new OpenAIChatGenerator({ apiKey: "test-key" } as OpenAIChatGeneratorOptions));
      const empty = thrownBy(() => new OpenAIChatGenerator({ model: "", apiKey: "test-key" }));

      expect(missing).toBeInstanceOf(ConfigurationError);
      expect(missing.message).toBe('OpenAIChatGenerator needs a model name, e.g. new OpenAIChatGenerator({ model: "gpt-4o-mini" }), got undefined.');
      expect(empty.message).toBe('OpenAIChatGenerator needs a model name, e.g. new OpenAIChatGenerator({ model: "gpt-4o-mini" }), got string "".');
    });

    it.each([
      ["deadlineMs", 600000, 0, "number 0"],
      ["streamIdleTimeoutMs", 300000, -1, "number -1"],
      ["timeout", 600000, Number.NaN, "number NaN"],
      ["deadlineMs", 600000, Number.POSITIVE_INFINITY, "number Infinity"],
      ["streamIdleTimeoutMs", 300000, "5000", 'string "5000"'],
      ["deadlineMs", 600000, 2 ** 31, "number 2147483648"],
    ] as const)("throws ConfigurationError for %s %p", (name, example, value, got) => {
      const error = thrownBy(() => generator({ [name]: value }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).subject).toBe("OpenAIChatGenerator");
      expect(error.message).toBe(`OpenAIChatGenerator needs ${name} to be a number of milliseconds greater than 0 and at most 2147483647, e.g. ${name}: ${example}, got ${got}.`);
    });

    it("throws ConfigurationError for a maxRetryDelayMs below 0, and accepts 0", () => {
      const error = thrownBy(() => generator({ maxRetryDelayMs: -5 }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("OpenAIChatGenerator needs maxRetryDelayMs to be a number of milliseconds from 0 to 2147483647, e.g. maxRetryDelayMs: 60000, got number -5.");
      expect(() => generator({ maxRetryDelayMs: 0 })).not.toThrow();
    });

    it.each([
      [1.5, "number 1.5"],
      [-1, "number -1"],
      [Number.POSITIVE_INFINITY, "number Infinity"],
      ["2", 'string "2"'],
    ])("throws ConfigurationError for maxRetries %p", (value, got) => {
      const error = thrownBy(() => generator({ maxRetries: value as number }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(`OpenAIChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got ${got}.`);
    });

    it("throws ConfigurationError for missing options", () => {
      const error = thrownBy(() => new OpenAIChatGenerator(undefined as unknown as OpenAIChatGeneratorOptions));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe('OpenAIChatGenerator needs a model name, e.g. new OpenAIChatGenerator({ model: "gpt-4o-mini" }), got undefined.');
    });
  });
});
