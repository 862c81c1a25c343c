import OpenAI7 from "openai7";
import { z } from "zod";
import { Agent, ChatGeneratorError, ChatMessage, type StreamingChunk, Tool } from "toolwright";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";
import { errorReply, sseReply } from "../../helpers/mockOpenAIServer";
import { responsesJson, responsesStream } from "../../helpers/mockResponses";
import { rejectionOf, useMockServer } from "./openaiTestKit";

// As after `npm i toolwright openai@7`: the `openai` that toolwright imports is openai 7.
jest.mock("openai", () => jest.requireActual("openai7"));

const server = useMockServer();
afterEach(() => expect(server.refusals).toEqual([]));

const options = () => ({ model: "test-model", apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 });
const weather = new Tool({
  name: "get_weather",
  description: "Current weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string" }, units: { type: "string", enum: ["C", "F"] } }, required: ["city"] },
  function: (args) => `Sunny in ${String(args.city)}`,
});

describe("OpenAIChatGenerator with openai 7 installed", () => {
  it("builds its client with openai 7, on Node " + process.versions.node.split(".")[0] + " (openai 7 declares node >= 22)", () => {
    expect(new OpenAIChatGenerator(options()).client).toBeInstanceOf(OpenAI7);
    expect(new OpenAIResponsesChatGenerator(options()).client).toBeInstanceOf(OpenAI7);
  });

  it("runs an agent that calls a strict tool and streams its typed answer", async () => {
    server.enqueue(
      sseReply({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris","units":null}' }] }),
      sseReply({ text: '{"summary":"Sunny","city":"Paris"}' }),
    );
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: new OpenAIChatGenerator(options()), tools: [weather], outputSchema: z.object({ summary: z.string(), city: z.string().optional() }) });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Weather in Paris?")], streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(result.output).toEqual({ summary: "Sunny", city: "Paris" });
    expect(result.messages[2]!.toolCallResults[0]!.result).toBe("Sunny in Paris");
    expect(server.requests[0]!.body.tools[0].function.strict).toBe(true);
    expect(server.requests[0]!.body.response_format.json_schema.strict).toBe(true);
    expect(chunks.some((chunk) => chunk.type === "text")).toBe(true);
  });

  it("turns openai 7's status errors into ChatGeneratorError with the provider's message", async () => {
    server.enqueue(errorReply(400, "Unsupported parameter: 'temperature'.", "invalid_request_error", "unsupported_parameter"));

    const error = await rejectionOf(new OpenAIChatGenerator(options()).run({ messages: [ChatMessage.fromUser("Hi")], tools: [] }));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toBe("OpenAI request for model 'test-model' failed with status 400: Unsupported parameter: 'temperature'.");
    expect(error.cause).toBeInstanceOf(OpenAI7.BadRequestError);
  });
});

describe("OpenAIResponsesChatGenerator with openai 7 installed", () => {
  it("generates and streams a reply", async () => {
    server.enqueue(responsesJson({ text: "Sunny." }), responsesStream({ text: "Sunny again." }));
    const generator = new OpenAIResponsesChatGenerator(options());
    const chunks: StreamingChunk[] = [];

    const plain = await generator.run({ messages: [ChatMessage.fromUser("Weather?")], tools: [] });
    const streamed = await generator.run({ messages: [ChatMessage.fromUser("Weather?")], tools: [], streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(plain.replies[0]!.text).toBe("Sunny.");
    expect(streamed.replies[0]!.text).toBe("Sunny again.");
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { delta: string }).delta).join("")).toBe("Sunny again.");
  });
});
