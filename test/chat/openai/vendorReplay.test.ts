import { createOpenAI } from "@ai-sdk/openai";
import { Agent, ChatGeneratorError, type ChatGenerator, ChatMessage, type StreamingChunk, Tool } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";
import { jsonReply, sseReply } from "../../helpers/mockOpenAIServer";
import { responseObject } from "../../helpers/mockResponses";
import { openaiStrictViolations } from "../../helpers/openaiStrictRules";
import { chatJsonReplay, chatStreamReplay, recordedBody, recordedEvents, responsesJsonReplay, responsesStreamReplays } from "../../helpers/vendorReplay";
import { rejectionOf, useMockServer } from "./openaiTestKit";
import { clientOn, sdkMajors } from "./sdkMajors";

// Recorded OpenAI responses (test/fixtures/vendors/openai/README.md) replayed to the real clients:
// the openai SDK (6 and 7) under both toolwright generators, and @ai-sdk/openai's chat and
// responses models under AISdkChatGenerator.
const server = useMockServer();
afterEach(() => {
  expect(server.refusals).toEqual([]);
  expect(server.pending).toBe(0);
});

const chatBody = recordedBody("openai", "chat-text.json");
const chatText: string = chatBody.choices[0].message.content;
const streamedUsage = recordedEvents("openai", "chat-text.chunks.txt").at(-1).usage;
const streamedChatText = recordedEvents("openai", "chat-text.chunks.txt")
  .map((chunk) => chunk.choices[0]?.delta?.content ?? "")
  .join("");
const reasoningBody = recordedBody("openai", "responses-reasoning.json");
const quotaMessage: string = recordedBody("openai", "responses-error.json").error.message;

/** The recording's strict calculator, run for real: the loop it recorded is 12 + 7, × 3, × 10. */
function calculator(calls: unknown[]): Tool {
  return new Tool({
    name: "calculator",
    description: "A minimal calculator for basic arithmetic. Call it once per step.",
    parameters: {
      type: "object",
      properties: {
        a: { type: "number", description: "First operand." },
        b: { type: "number", description: "Second operand." },
        op: { type: "string", enum: ["add", "subtract", "multiply", "divide"], description: "Arithmetic operation to perform." },
      },
      required: ["a", "b", "op"],
    },
    function: (args) => {
      calls.push(args);
      const { a, b, op } = args as { a: number; b: number; op: string };
      return String(op === "add" ? a + b : op === "subtract" ? a - b : op === "multiply" ? a * b : a / b);
    },
  });
}

const question = () => ({ messages: [ChatMessage.fromUser("Compute (12 + 7) × 3 × 10 with the calculator.")] });
const textOf = (chunks: StreamingChunk[]) => chunks.filter((c) => c.type === "text").map((c) => (c as { delta: string }).delta).join("");

function aiSdk(api: "chat" | "responses"): ChatGenerator {
  const provider = createOpenAI({ apiKey: "test-key", baseURL: server.baseURL });
  return new AISdkChatGenerator({ model: api === "chat" ? provider.chat("gpt-4.1-nano") : provider.responses("gpt-5-mini"), maxRetries: 0 });
}

const chatGenerators: Array<[string, () => ChatGenerator]> = [
  ...sdkMajors.map(([major, Sdk]): [string, () => ChatGenerator] => [`OpenAIChatGenerator through ${major}`, () => new OpenAIChatGenerator({ model: "gpt-4.1-nano", client: clientOn(Sdk, server), maxRetries: 0 })]),
  ["AISdkChatGenerator with @ai-sdk/openai's chat model", () => aiSdk("chat")],
];
const responsesGenerators: Array<[string, () => ChatGenerator]> = [
  ...sdkMajors.map(([major, Sdk]): [string, () => ChatGenerator] => [`OpenAIResponsesChatGenerator through ${major}`, () => new OpenAIResponsesChatGenerator({ model: "gpt-5-mini", client: clientOn(Sdk, server), maxRetries: 0 })]),
  ["AISdkChatGenerator with @ai-sdk/openai's responses model", () => aiSdk("responses")],
];

describe.each(chatGenerators)("%s, on recorded Chat Completions", (_name, generator) => {
  it("reads a recorded completion's text and usage", async () => {
    server.enqueue(chatJsonReplay("chat-text.json"));

    const response = await generator().run({ ...question(), tools: [] });

    expect(response.replies[0]!.text).toBe(chatText);
    expect(response.meta?.usage).toMatchObject({ promptTokens: chatBody.usage.prompt_tokens, completionTokens: chatBody.usage.completion_tokens });
  });

  it("streams a recorded completion delta by delta, usage chunk included", async () => {
    server.enqueue(chatStreamReplay("chat-text.chunks.txt"));
    const chunks: StreamingChunk[] = [];

    const response = await generator().run({ ...question(), tools: [], streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(response.replies[0]!.text).toBe(streamedChatText);
    expect(textOf(chunks)).toBe(streamedChatText);
    expect(response.meta?.usage).toMatchObject({ promptTokens: streamedUsage.prompt_tokens, completionTokens: streamedUsage.completion_tokens });
  });
});

describe.each(responsesGenerators)("%s, on recorded Responses API answers", (_name, generator) => {
  it("reads a recorded response's reasoning summary and text", async () => {
    server.enqueue(responsesJsonReplay("responses-reasoning.json"));

    const response = await generator().run({ ...question(), tools: [] });

    expect(response.replies[0]!.text).toBe(reasoningBody.output[1].content[0].text);
    expect(response.replies[0]!.reasoning?.text).toBe(reasoningBody.output[0].summary[0].text);
  });

  it("runs the recorded streamed tool loop: three strict calculator calls, then the answer", async () => {
    server.enqueue(...responsesStreamReplays("responses-calculator.chunks.txt"));
    const calls: unknown[] = [];
    const chunks: StreamingChunk[] = [];

    const result = await new Agent({ chatGenerator: generator(), tools: [calculator(calls)] }).run({ ...question(), streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(calls).toEqual([
      { a: 12, b: 7, op: "add" },
      { a: 19, b: 3, op: "multiply" },
      { a: 57, b: 10, op: "multiply" },
    ]);
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResults[0]!.result)).toEqual(["19", "57", "570"]);
    expect(result.lastMessage.text).toBe("The final result is **570**.");
    expect(textOf(chunks)).toBe("The final result is **570**.");
    expect(result.stepCount).toBe(4);
    expect(server.requests[0]!.body.tools[0].strict).toBe(true);
  });

  it("rejects with the recorded 429 quota error's message", async () => {
    server.enqueue({ kind: "raw", status: 429, headers: { "content-type": "application/json", "x-should-retry": "false" }, body: JSON.stringify(recordedBody("openai", "responses-error.json")), ending: "end" });

    const error = await rejectionOf(generator().run({ ...question(), tools: [] }));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toContain(quotaMessage);
  });

  it("rejects with the provider's message when a recorded stream fails with an error event", async () => {
    server.enqueue(...responsesStreamReplays("responses-error.chunks.txt"));

    const error = await rejectionOf(generator().run({ ...question(), tools: [], streamingCallback: () => undefined }));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect(error.message).toContain(quotaMessage);
  });
});

describe("openaiStrictViolations", () => {
  it("accepts the strict tool of the recording, whose 'default' OpenAI took although the documented list leaves it out", () => {
    const recordedTool = recordedEvents("openai", "responses-calculator.chunks.txt")[0].response.tools[0];

    expect(recordedTool.strict).toBe(true);
    expect(recordedTool.parameters.properties.op.default).toBe("add");
    expect(openaiStrictViolations(recordedTool.parameters)).toEqual([]);
  });
});

/** The keys of an object, and of its object-valued fields, as `a`, `a.b`, sorted: the shape without the values. */
function shapeOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value)
    .flatMap(([key, field]) => [`${prefix}${key}`, ...shapeOf(field, `${prefix}${key}.`)])
    .sort();
}

describe("jsonReply, sseReply and responseObject", () => {
  it("script answers with the fields of the recorded ones", () => {
    const completion = (jsonReply({ text: "Hi", usage: { promptTokens: 1, completionTokens: 1 } }) as unknown as { body: any }).body;
    const chunks = (sseReply({ text: "Hi", usage: { promptTokens: 1, completionTokens: 1 } }) as unknown as { chunks: any[] }).chunks;
    const recordedChunks = recordedEvents("openai", "chat-text.chunks.txt");
    const response = responseObject({ text: "Hi", usage: { promptTokens: 1, completionTokens: 1 } }) as any;

    expect(shapeOf(completion)).toEqual(shapeOf(chatBody));
    expect(shapeOf(completion.choices[0].message)).toEqual(shapeOf(chatBody.choices[0].message));
    expect(shapeOf(completion.choices[0])).toEqual(shapeOf(chatBody.choices[0]));
    // The recorded stream's `obfuscation` padding is left out: clients ignore it.
    const withoutPadding = (chunk: object) => shapeOf(chunk).filter((key) => key !== "obfuscation");
    expect(shapeOf(chunks[0])).toEqual(withoutPadding(recordedChunks[0]));
    expect(shapeOf(chunks[0].choices[0])).toEqual(shapeOf(recordedChunks[0].choices[0]));
    expect(shapeOf(chunks.at(-1))).toEqual(withoutPadding(recordedChunks.at(-1)));
    expect(shapeOf(response).filter((key) => !key.startsWith("output."))).toEqual(shapeOf(reasoningBody).filter((key) => !key.startsWith("output.")));
  });
});
