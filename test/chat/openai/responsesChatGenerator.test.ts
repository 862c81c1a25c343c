import OpenAI from "openai";
import { AbortError, ChatGeneratorError, ChatMessage, ConfigurationError, type ResponseFormat } from "toolwright";
import { OpenAIResponsesChatGenerator, type OpenAIResponsesChatGeneratorOptions } from "toolwright/openai";
import { errorReply, hangingReply } from "../../helpers/mockOpenAIServer";
import { type MockResponsesReply, responseObject, responsesJson, responsesStream } from "../../helpers/mockResponses";
import { describeOpenAIContract } from "./generatorContract";
import { rejectionOf, request, responsesGeneratorOn, specOf, tagTool, thrownBy, useMockServer, weatherStrictParameters, weatherTool } from "./openaiTestKit";

const server = useMockServer();

describeOpenAIContract(server, {
  name: "OpenAIResponsesChatGenerator",
  generator: (options) => responsesGeneratorOn(server, options),
  json: responsesJson,
  hangingStream: (reply) => responsesStream(reply, { hang: true }),
});

function generator(options: Partial<OpenAIResponsesChatGeneratorOptions> = {}): OpenAIResponsesChatGenerator {
  return responsesGeneratorOn(server, options);
}

const reasoningItem = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "The user wants the weather." }], encrypted_content: "enc-1" };

const answerFormat: ResponseFormat = {
  type: "json_schema",
  name: "weather_answer",
  description: "The weather, as JSON.",
  schema: { type: "object", properties: { city: { type: "string" }, sunny: { type: "boolean" } }, required: ["city", "sunny"], additionalProperties: false },
  strict: true,
};

describe("OpenAIResponsesChatGenerator", () => {
  describe("requests", () => {
    it("sends system and user messages, assistant text, reasoning and calls, and tool results as input items to /v1/responses", async () => {
      server.enqueue(responsesJson({ text: "It is sunny." }));
      const weatherCall = { id: "call_w", toolName: "get_weather", arguments: { city: "Paris" } };
      const timeCall = { id: "call_t", toolName: "get_time", arguments: '{"city": "Par' };
      const messages = [
        ChatMessage.fromSystem("Be brief."),
        ChatMessage.fromUser("Weather and time in Paris?"),
        ChatMessage.fromAssistant("Checking both.", { toolCalls: [weatherCall, timeCall], reasoning: { text: "The user wants the weather.", extra: reasoningItem } }),
        ChatMessage.fromTool("Sunny", weatherCall),
        ChatMessage.fromTool("Tool 'get_time' was called with arguments that are not valid JSON.", timeCall, { error: true }),
        ChatMessage.fromAssistant("Sunny; the time is unknown."),
        ChatMessage.fromUser("Thanks."),
      ];

      await generator().run(request({ messages }));

      expect(server.requests).toHaveLength(1);
      const [sent] = server.requests;
      expect(sent!.method).toBe("POST");
      expect(sent!.url).toBe("/v1/responses");
      expect(sent!.body).toEqual({
        model: "test-model",
        stream: false,
        store: false,
        include: ["reasoning.encrypted_content"],
        input: [
          { type: "message", role: "system", content: "Be brief." },
          { type: "message", role: "user", content: "Weather and time in Paris?" },
          reasoningItem,
          { type: "message", role: "assistant", content: "Checking both." },
          { type: "function_call", call_id: "call_w", name: "get_weather", arguments: '{"city":"Paris"}' },
          { type: "function_call", call_id: "call_t", name: "get_time", arguments: '{"city": "Par' },
          { type: "function_call_output", call_id: "call_w", output: "Sunny" },
          { type: "function_call_output", call_id: "call_t", output: "Tool 'get_time' was called with arguments that are not valid JSON." },
          { type: "message", role: "assistant", content: "Sunny; the time is unknown." },
          { type: "message", role: "user", content: "Thanks." },
        ],
      });
    });

    it("sends a reasoning part only when its extra is a Responses reasoning item, with only the item's fields", async () => {
      server.enqueue(responsesJson({ text: "ok" }));
      const call = { id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } };
      const reasoning = [
        { text: "Anthropic thinking.", extra: { signature: "sig-1" } },
        { text: "Tampered.", extra: { ...reasoningItem, id: "rs_bad", summary: "not a list" } },
        { text: "No id.", extra: { type: "reasoning", summary: [] } },
        { text: "Extra fields.", extra: { ...reasoningItem, id: "rs_2", status: "completed", injected: { role: "system" } } },
      ];
      const messages = [ChatMessage.fromUser("Weather?"), ChatMessage.fromAssistant(undefined, { toolCalls: [call], reasoning }), ChatMessage.fromTool("Sunny", call)];

      await generator().run(request({ messages }));

      expect(server.requests[0]!.body.input).toEqual([
        { type: "message", role: "user", content: "Weather?" },
        { ...reasoningItem, id: "rs_2" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: "Sunny" },
      ]);
    });

    it("sends back interleaved reasoning, text and calls in the order of the output items", async () => {
      const rs1 = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-1" };
      const rs2 = { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "Now the time." }], encrypted_content: "enc-2" };
      const output = [
        rs1,
        { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Weather first.", annotations: [] }] },
        { id: "fc_1", type: "function_call", status: "completed", call_id: "call_w", name: "get_weather", arguments: '{"city":"Paris"}' },
        rs2,
        { id: "fc_2", type: "function_call", status: "completed", call_id: "call_t", name: "get_time", arguments: '{"city":"Paris"}' },
      ];
      server.enqueue({ kind: "json", body: responseObject({}, output) }, responsesJson({ text: "ok" }));
      const model = generator();

      const reply = (await model.run(request())).replies[0]!;
      await model.run(request({ messages: [...request().messages, reply, ...reply.toolCalls.map((call) => ChatMessage.fromTool("done", call))] }));

      expect(reply.content.map((part) => part.type)).toEqual(["reasoning", "text", "toolCall", "reasoning", "toolCall"]);
      expect(reply.text).toBe("Weather first.");
      expect(server.requests[1]!.body.input).toEqual([
        { type: "message", role: "user", content: "Weather in Paris?" },
        rs1,
        { type: "message", role: "assistant", content: "Weather first." },
        { type: "function_call", call_id: "call_w", name: "get_weather", arguments: '{"city":"Paris"}' },
        rs2,
        { type: "function_call", call_id: "call_t", name: "get_time", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_w", output: "done" },
        { type: "function_call_output", call_id: "call_t", output: "done" },
      ]);
    });

    it("leaves out a reasoning item that another reasoning item follows, which the API would refuse", async () => {
      server.enqueue(responsesJson({ text: "ok" }));
      const call = { id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } };
      const reasoning = [
        { text: "", extra: { ...reasoningItem, id: "rs_alone" } },
        { text: "", extra: reasoningItem },
      ];
      const messages = [ChatMessage.fromUser("Weather?"), ChatMessage.fromAssistant(undefined, { toolCalls: [call], reasoning }), ChatMessage.fromTool("Sunny", call)];

      await generator().run(request({ messages }));

      expect(server.requests[0]!.body.input.map((item: { type: string; id?: string }) => item.id ?? item.type)).toEqual(["message", "rs_1", "function_call", "function_call_output"]);
    });

    it("sends reasoning without encrypted content only with store: true, where OpenAI finds it by its id", async () => {
      server.enqueue(responsesJson({ text: "ok" }), responsesJson({ text: "ok" }));
      const call = { id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } };
      const stored = { type: "reasoning", id: "rs_stored", summary: [] };
      const messages = [ChatMessage.fromUser("Weather?"), ChatMessage.fromAssistant(undefined, { toolCalls: [call], reasoning: { text: "", extra: stored } }), ChatMessage.fromTool("Sunny", call)];

      await generator().run(request({ messages }));
      await generator({ store: true }).run(request({ messages }));

      expect(server.requests[0]!.body.input.map((item: { type: string }) => item.type)).toEqual(["message", "function_call", "function_call_output"]);
      expect(server.requests[1]!.body.input[1]).toEqual(stored);
    });

    it("leaves out the reasoning of an assistant message that has neither text nor tool calls", async () => {
      server.enqueue(responsesJson({ text: "ok" }));
      const messages = [ChatMessage.fromUser("Hi"), ChatMessage.fromAssistant(undefined, { reasoning: { text: "", extra: reasoningItem } }), ChatMessage.fromUser("Hello?")];

      await generator().run(request({ messages }));

      expect(server.requests[0]!.body.input).toEqual([
        { type: "message", role: "user", content: "Hi" },
        { type: "message", role: "assistant", content: "" },
        { type: "message", role: "user", content: "Hello?" },
      ]);
    });

    it("sends strict-compatible tools in strict form with strict: true, and the others with strict: false", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator().run(request({ tools: [specOf(weatherTool), specOf(tagTool)] }));

      expect(server.requests[0]!.body.tools).toEqual([
        { type: "function", name: "get_weather", description: "Current weather of a city.", parameters: weatherStrictParameters, strict: true },
        { type: "function", name: "tag_ticket", description: "Set tags on a ticket.", parameters: tagTool.parameters, strict: false },
      ]);
    });

    it("sends every tool as it is with strict: false when toolsStrict is false", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator({ toolsStrict: false }).run(request({ tools: [specOf(weatherTool)] }));

      expect(server.requests[0]!.body.tools).toEqual([{ type: "function", name: "get_weather", description: "Current weather of a city.", parameters: weatherTool.parameters, strict: false }]);
    });

    it("sends the request's responseFormat as text.format, keeping the other text options of generationKwargs", async () => {
      server.enqueue(responsesJson({ text: '{"city":"Paris","sunny":true}' }));

      await generator({ generationKwargs: { text: { verbosity: "low", format: { type: "text" } } } }).run(request({ responseFormat: answerFormat }));

      expect(server.requests[0]!.body.text).toEqual({
        verbosity: "low",
        format: { type: "json_schema", name: "weather_answer", description: "The weather, as JSON.", schema: answerFormat.schema, strict: true },
      });
    });

    it("sends generationKwargs' text as it is without a responseFormat", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator({ generationKwargs: { text: { format: { type: "json_object" } } } }).run(request());

      expect(server.requests[0]!.body.text).toEqual({ format: { type: "json_object" } });
    });

    it("merges the constructor's and the request's generationKwargs, the request's winning, and adds to their include", async () => {
      server.enqueue(responsesJson({ text: "ok" }));
      const model = generator({ generationKwargs: { temperature: 0.2, max_output_tokens: 100, parallel_tool_calls: false, include: ["message.output_text.logprobs"] } });

      await model.run(request({ tools: [specOf(weatherTool)], generationKwargs: { temperature: 0.7, reasoning: { effort: "low", summary: "auto" } } }));

      const { input: _input, tools: _tools, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({
        model: "test-model",
        stream: false,
        store: false,
        include: ["message.output_text.logprobs", "reasoning.encrypted_content"],
        temperature: 0.7,
        max_output_tokens: 100,
        parallel_tool_calls: false,
        reasoning: { effort: "low", summary: "auto" },
      });
    });

    it("sends store: true and no include with store: true and includeEncryptedReasoning: false", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator({ store: true, includeEncryptedReasoning: false }).run(request());

      const { input: _input, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({ model: "test-model", stream: false, store: true });
    });

    it("drops parallel_tool_calls and tool_choice and sends no tools key when there are no tools", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator({ generationKwargs: { parallel_tool_calls: true, temperature: 0 } }).run(request({ generationKwargs: { tool_choice: "auto" } }));

      const { input: _input, ...rest } = server.requests[0]!.body;
      expect(rest).toEqual({ model: "test-model", stream: false, store: false, include: ["reasoning.encrypted_content"], temperature: 0 });
    });

    it("does not let generationKwargs replace the model, the input, the stream flag or store", async () => {
      server.enqueue(responsesJson({ text: "ok" }));

      await generator().run(request({ generationKwargs: { model: "other", input: [], stream: true, store: true } }));

      const body = server.requests[0]!.body;
      expect([body.model, body.stream, body.store]).toEqual(["test-model", false, false]);
      expect(body.input).toEqual([{ type: "message", role: "user", content: "Weather in Paris?" }]);
    });

    it("rejects previous_response_id in a request's generationKwargs with ConfigurationError, sending nothing", async () => {
      const error = await rejectionOf(generator().run(request({ generationKwargs: { previous_response_id: "resp_1" } })));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        "OpenAIResponsesChatGenerator sends the whole conversation on every call, so generationKwargs.previous_response_id would send a stored one with it; leave previous_response_id out.",
      );
      expect(server.requests).toHaveLength(0);
    });
  });

  describe("responses", () => {
    it("returns a text reply with model, id, status, usage and finish reason in the response and message meta", async () => {
      server.enqueue(responsesJson({ text: "It is sunny.", usage: { promptTokens: 12, completionTokens: 5 } }));

      const response = await generator().run(request());

      const meta = { model: "mock-model-1", id: "resp_mock", status: "completed", finishReason: "stop", usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 } };
      expect(response).toEqual({ replies: [ChatMessage.fromAssistant("It is sunny.", { meta })], meta });
    });

    it("returns reasoning items as reasoning parts: the summary texts joined, the item as extra", async () => {
      const reasoning = [
        { id: "rs_1", summary: ["First, the city.", "Then the units."], encryptedContent: "enc-1" },
        { id: "rs_2", summary: [] },
      ];
      server.enqueue(responsesJson({ reasoning, toolCalls: [{ id: "call_w", name: "get_weather", arguments: '{"city":"Paris"}' }] }));

      const response = await generator().run(request());

      const reply = response.replies[0]!;
      expect(reply.content.filter((part) => part.type === "reasoning")).toEqual([
        {
          type: "reasoning",
          reasoning: {
            text: "First, the city.\n\nThen the units.",
            extra: {
              type: "reasoning",
              id: "rs_1",
              summary: [
                { type: "summary_text", text: "First, the city." },
                { type: "summary_text", text: "Then the units." },
              ],
              encrypted_content: "enc-1",
            },
          },
        },
        { type: "reasoning", reasoning: { text: "", extra: { type: "reasoning", id: "rs_2", summary: [] } } },
      ]);
      expect(reply.toolCalls).toHaveLength(1);
    });

    it.each([
      ["max_output_tokens", "length"],
      ["content_filter", "content_filter"],
    ] as const)("reports an incomplete response cut by %s as finish reason %s", async (reason, finishReason) => {
      server.enqueue(responsesJson({ text: "It is sun", status: "incomplete", incompleteReason: reason }));

      const response = await generator().run(request());

      expect(response.meta).toEqual({ model: "mock-model-1", id: "resp_mock", status: "incomplete", finishReason });
      expect(response.replies[0]!.meta.finishReason).toBe(finishReason);
      expect(response.replies[0]!.text).toBe("It is sun");
    });

    it("leaves out output items of kinds it does not use", async () => {
      const body = responseObject({ text: "Found it." }, [
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Found it.", annotations: [{ type: "url_citation" }] }, { type: "future_part" }] },
      ]);
      server.enqueue({ kind: "json", body });

      const response = await generator().run(request());

      expect(response.replies[0]!.content).toEqual([{ type: "text", text: "Found it." }]);
    });
  });

  describe("errors", () => {
    it("rejects a failed response with ChatGeneratorError carrying the provider's message", async () => {
      server.enqueue(responsesJson({ status: "failed", error: { code: "server_error", message: "The model crashed." } }));

      const error = await rejectionOf(generator().run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error).toMatchObject({ message: "OpenAI request for model 'test-model' failed: The model crashed.", providerMessage: "The model crashed.", status: undefined });
    });

    it("says to pass includeEncryptedReasoning: false when a model that does not reason refuses encrypted content", async () => {
      server.enqueue(errorReply(400, "Encrypted content is not supported with this model.", "invalid_request_error"));

      const error = await rejectionOf(generator().run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        "OpenAI request for model 'test-model' failed with status 400: Encrypted content is not supported with this model. Pass includeEncryptedReasoning: false for a model that does not reason.",
      );
      expect((error as ChatGeneratorError).status).toBe(400);
      expect((error as ChatGeneratorError).providerMessage).toBe("Encrypted content is not supported with this model.");
    });

    it("retries a 500 within maxRetries and rejects with ChatGeneratorError when they are used up", async () => {
      server.enqueue(errorReply(500, "The server had an error."), errorReply(503, "The engine is overloaded."));

      const error = await rejectionOf(generator({ maxRetries: 1 }).run(request()));

      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error).toMatchObject({ message: "OpenAI request for model 'test-model' failed with status 503: The engine is overloaded.", status: 503 });
    });

    it.each([
      [{ object: "response", output: 5 }, "OpenAI request for model 'test-model' failed: the response does not have the Responses API shape (output: expected array, got number)."],
      [{ object: "response" }, "OpenAI request for model 'test-model' failed: the response has no output list; check that baseURL points at an OpenAI-compatible /v1 endpoint that serves the Responses API."],
      [{ ...responseObject({ text: "ok" }), status: "queued" }, "OpenAI request for model 'test-model' failed: the response has status 'queued', not completed; toolwright waits for each response and does not poll background ones, so leave background out of generationKwargs."],
      ["<html>Bad gateway</html>", 'OpenAI request for model \'test-model\' failed: the response is not JSON (it starts with "<html>Bad gateway</html>"); check that baseURL points at an OpenAI-compatible /v1 endpoint.'],
    ])("rejects a body that is not a finished response (%p) with ChatGeneratorError", async (body, message) => {
      server.enqueue(typeof body === "string" ? { kind: "raw", status: 200, headers: { "content-type": "text/html" }, body, ending: "end" } : { kind: "json", body });

      const error = await rejectionOf(generator().run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(message);
    });

    it("rejects with an AbortError when the signal aborts while the server has not answered", async () => {
      server.enqueue(hangingReply());
      const controller = new AbortController();
      const pending = rejectionOf(generator().run(request({ signal: controller.signal })));
      await server.received(1);

      controller.abort();
      const error = await pending;

      expect(error).toBeInstanceOf(AbortError);
      expect(error.message).toBe("The model request was aborted.");
    });
  });

  describe("configuration", () => {
    it("throws ConfigurationError without a model, naming the class", () => {
      const error = thrownBy(() => new OpenAIResponsesChatGenerator({ model: "", apiKey: "test-key" }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).subject).toBe("OpenAIResponsesChatGenerator");
      expect(error.message).toBe('OpenAIResponsesChatGenerator needs a model name, e.g. new OpenAIResponsesChatGenerator({ model: "gpt-5-mini" }), got string "".');
    });

    it("throws ConfigurationError for a bad time limit, naming the class", () => {
      const error = thrownBy(() => generator({ deadlineMs: 0 }));

      expect(error.message).toBe("OpenAIResponsesChatGenerator needs deadlineMs to be a number of milliseconds greater than 0 and at most 2147483647, e.g. deadlineMs: 600000, got number 0.");
    });

    it("throws ConfigurationError for a store that is not a boolean", () => {
      const error = thrownBy(() => generator({ store: "false" as unknown as boolean }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe('OpenAIResponsesChatGenerator needs store to be true or false, got string "false".');
    });

    it("throws ConfigurationError for conversation in the constructor's generationKwargs", () => {
      const error = thrownBy(() => generator({ generationKwargs: { conversation: "conv_1" } }));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("OpenAIResponsesChatGenerator sends the whole conversation on every call, so generationKwargs.conversation would send a stored one with it; leave conversation out.");
    });

    it("uses a given client, sending its API key", async () => {
      server.enqueue(responsesJson({ text: "ok" } satisfies MockResponsesReply));
      const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL, maxRetries: 0 });

      const model = new OpenAIResponsesChatGenerator({ model: "test-model", client });
      await model.run(request());

      expect(model.client).toBe(client);
      expect(model.provider).toBe("openai");
      expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-client");
    });
  });
});
