import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";
import { Agent, ChatMessage, type ResponseFormat, Tool } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { responseFormatProviderOptions, toAiSdkResponseFormat } from "../../src/aisdk/toAiSdkPrompt";
import { jsonReply } from "../helpers/mockOpenAIServer";
import { responsesJson } from "../helpers/mockResponses";
import { openaiStrictViolations } from "../helpers/openaiStrictRules";
import { useMockServer } from "../chat/openai/openaiTestKit";

const server = useMockServer();
afterEach(() => {
  expect(server.refusals).toEqual([]);
  expect(server.pending).toBe(0);
});

const report = z.object({ title: z.string(), owner: z.object({ name: z.string(), email: z.string().optional() }).optional() });
const labels = z.object({ labels: z.record(z.string(), z.string()) });
const question = () => ({ messages: [ChatMessage.fromUser("Summarize.")] });

describe.each(["chat", "responses"] as const)("AISdkChatGenerator with @ai-sdk/openai's %s model and an outputSchema", (api) => {
  const generator = (providerOptions?: Record<string, Record<string, boolean>>) => {
    const provider = createOpenAI({ apiKey: "test-key", baseURL: server.baseURL });
    return new AISdkChatGenerator({ model: api === "chat" ? provider.chat("gpt-4.1-mini") : provider.responses("gpt-4.1-mini"), maxRetries: 0, ...(providerOptions && { generationKwargs: { providerOptions } }) });
  };
  const answer = (text: string) => (api === "chat" ? jsonReply({ text }) : responsesJson({ text }));
  const sent = () => {
    const body = server.requests[0]!.body;
    return api === "chat" ? body.response_format.json_schema : body.text.format;
  };

  it("sends the strict form with strict: true, which OpenAI accepts, and maps the nulls back", async () => {
    server.enqueue(answer('{"title":"T","owner":{"name":"Ana","email":null}}'));

    const result = await new Agent({ chatGenerator: generator(), outputSchema: report }).run(question());

    expect(result.output).toEqual({ title: "T", owner: { name: "Ana" } });
    expect(sent().strict).toBe(true);
    expect(openaiStrictViolations(sent().schema)).toEqual([]);
  });

  it("sends a schema that cannot be strict with strict: false", async () => {
    server.enqueue(answer('{"labels":{"a":"b"}}'));

    const result = await new Agent({ chatGenerator: generator(), outputSchema: labels }).run(question());

    expect(result.output).toEqual({ labels: { a: "b" } });
    expect(sent()).toMatchObject({ name: "final_output", strict: false });
  });

  it("keeps a strictJsonSchema the caller set", async () => {
    server.enqueue(answer('{"title":"T","owner":null}'));

    await new Agent({ chatGenerator: generator({ openai: { strictJsonSchema: false } }), outputSchema: report }).run(question());

    expect(sent().strict).toBe(false);
    expect(sent().schema.required).toEqual(["title", "owner"]);
  });
});

const strictFormat: ResponseFormat = { type: "json_schema", name: "a", schema: { type: "object", properties: { n: { type: "number" } } }, strict: true };

describe("toAiSdkResponseFormat", () => {
  it("sends a strict-compatible schema in strict form and any other as it is", () => {
    const open = { type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } };

    expect(toAiSdkResponseFormat(strictFormat).schema).toEqual({ type: "object", properties: { n: { type: ["number", "null"] } }, required: ["n"], additionalProperties: false });
    expect(toAiSdkResponseFormat({ ...strictFormat, schema: open, strict: false }).schema).toBe(open);
  });
});

describe("responseFormatProviderOptions", () => {
  it("adds openai.strictJsonSchema: false for a schema that cannot be strict, keeping the other options", () => {
    const options = { openai: { store: false }, anthropic: { sendReasoning: true } };

    expect(responseFormatProviderOptions(options, { ...strictFormat, strict: false })).toEqual({ openai: { store: false, strictJsonSchema: false }, anthropic: { sendReasoning: true } });
    expect(responseFormatProviderOptions(undefined, { ...strictFormat, strict: false })).toEqual({ openai: { strictJsonSchema: false } });
    expect(responseFormatProviderOptions(options, strictFormat)).toBe(options);
  });
});

describe.each(["chat", "responses"] as const)("AISdkChatGenerator with @ai-sdk/openai's %s model and a tool that cannot be strict", (api) => {
  // An open map: strict mode refuses it, and the Responses API takes a tool sent without `strict` as strict.
  const tag = new Tool({
    name: "tag",
    description: "Tag the ticket.",
    parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } }, required: ["labels"] },
    function: ({ labels }) => `tagged ${Object.keys(labels as object).join(", ")}`,
  });

  it("sends the tool as not strict, which OpenAI accepts, and runs it", async () => {
    const provider = createOpenAI({ apiKey: "test-key", baseURL: server.baseURL });
    const model = api === "chat" ? provider.chat("gpt-4.1-mini") : provider.responses("gpt-4.1-mini");
    const call = { id: "call_1", name: "tag", arguments: '{"labels":{"area":"billing"}}' };
    server.enqueue(...(api === "chat" ? [jsonReply({ toolCalls: [call] }), jsonReply({ text: "Tagged." })] : [responsesJson({ toolCalls: [call] }), responsesJson({ text: "Tagged." })]));

    const result = await new Agent({ chatGenerator: new AISdkChatGenerator({ model, maxRetries: 0 }), tools: [tag] }).run(question());

    expect(result.lastMessage.text).toBe("Tagged.");
    expect(result.messages.find((m) => m.role === "tool")!.toolCallResult!.result).toBe("tagged area");
    const sentTool = server.requests[0]!.body.tools[0];
    expect(api === "chat" ? sentTool.function.strict : sentTool.strict).toBe(api === "chat" ? undefined : false);
  });
});
