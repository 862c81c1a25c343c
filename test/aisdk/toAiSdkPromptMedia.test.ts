import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, ChatMessage, FileContent, ImageContent, type ModelEndEvent } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { AnthropicReplayServer, anthropicJson } from "../helpers/anthropicReplayServer";
import { GoogleReplayServer, googleJson } from "../helpers/googleReplayServer";
import { base64InText, csv, pdf, pdfBytes, png, pngBase64 } from "../helpers/mediaSamples";
import { jsonReply, MockOpenAIServer } from "../helpers/mockOpenAIServer";
import { responsesJson } from "../helpers/mockResponses";

// The real provider packages over HTTP to servers on 127.0.0.1 in each vendor's wire format; the
// requests they send are captured and checked against the vendor's documented shapes.
const anthropicServer = new AnthropicReplayServer();
const googleServer = new GoogleReplayServer();
const openaiServer = new MockOpenAIServer();
const servers = [anthropicServer, googleServer, openaiServer];
beforeAll(() => Promise.all(servers.map((s) => s.start())));
afterAll(() => Promise.all(servers.map((s) => s.close())));
beforeEach(() => servers.forEach((s) => s.reset()));

const chartCall = { id: "call_chart", toolName: "renderChart", arguments: {} };
const pdfBase64 = pdfBytes.toString("base64");
const descriptor = (type: string, bytes: number) => new RegExp(`\\[${type.replace("/", "\\/")}, ${bytes} bytes, sha256 [0-9a-f]{12}…\\]`);

function chartConversation(): ChatMessage[] {
  return [ChatMessage.fromUser("Chart May's sales."), ChatMessage.fromAssistant(undefined, { toolCalls: [chartCall] }), ChatMessage.fromTool(["Chart of May's sales:", png()], chartCall)];
}

function run(model: ConstructorParameters<typeof AISdkChatGenerator>[0]["model"], messages: ChatMessage[], ends: ModelEndEvent[] = []) {
  return new Agent({ chatGenerator: new AISdkChatGenerator({ model, maxRetries: 0, generationKwargs: { maxOutputTokens: 1024 } }), tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } }).run({ messages });
}

describe("toAiSdkPrompt", () => {
  const anthropic = () => createAnthropic({ baseURL: anthropicServer.baseURL, apiKey: "test-key" })("claude-sonnet-4-5");

  it("sends a tool's PNG to Anthropic as an image block inside tool_result", async () => {
    anthropicServer.enqueue(anthropicJson("anthropic-text"));

    await run(anthropic(), chartConversation());

    const body = anthropicServer.requests[0]!.body;
    expect(body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_chart",
          content: [
            { type: "text", text: "Chart of May's sales:" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          ],
        },
      ],
    });
    expect(base64InText(body, pngBase64)).toBe(false);
  });

  it("sends a user's image, PDF and image URL to Anthropic as image and document blocks, and describes a CSV with a warning", async () => {
    anthropicServer.enqueue(anthropicJson("anthropic-text"));
    const ends: ModelEndEvent[] = [];

    await run(anthropic(), [ChatMessage.fromUser(["Read these.", png(), pdf(), ImageContent.fromUrl("https://example.com/cat.jpg"), csv()])], ends);

    const content = anthropicServer.requests[0]!.body.messages[0].content;
    expect(content.slice(0, 4)).toEqual([
      { type: "text", text: "Read these." },
      { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: pdfBase64 }, title: "invoice.pdf" },
      { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
    ]);
    expect(content[4]).toEqual({ type: "text", text: expect.stringMatching(/^\[file data\.csv text\/csv, 8 bytes, sha256 [0-9a-f]{12}…\]$/) });
    expect(ends[0]!.warnings).toEqual([expect.stringMatching(/^AISdkChatGenerator sent messages\[0\]'s \[file data\.csv text\/csv, .*\] as a description: the provider takes no text\/csv files\.$/)]);
  });

  it("describes an image URL the provider's supportedUrls does not list, and an assistant's image, with warnings", async () => {
    googleServer.enqueue(googleJson("google-text"));
    const ends: ModelEndEvent[] = [];
    const assistant = ChatMessage.fromJSON({ role: "assistant", meta: {}, name: null, content: [{ text: "Here." }, { image: png().toJSON() }] });
    const google = createGoogleGenerativeAI({ baseURL: googleServer.baseURL, apiKey: "test-key" })("gemini-2.5-flash");

    await run(google, [ChatMessage.fromUser(["Look:", ImageContent.fromUrl("https://example.com/cat.jpg")]), assistant, ChatMessage.fromUser("And?")], ends);

    const contents = googleServer.requests[0]!.body.contents;
    expect(contents[0]).toEqual({ role: "user", parts: [{ text: "Look:" }, { text: "[image of unknown type at https://example.com/cat.jpg]" }] });
    expect(contents[1].parts[0].text).toMatch(/^Here\.\n\[image image\/png, 68 bytes, sha256 [0-9a-f]{12}…\]$/);
    expect(ends[0]!.warnings).toEqual([
      "AISdkChatGenerator sent messages[0]'s [image of unknown type at https://example.com/cat.jpg] as a description: the provider does not take this URL (its supportedUrls), and toolwright does not download; give the bytes.",
      expect.stringMatching(/^AISdkChatGenerator sent messages\[1\]'s \[image image\/png, .*\] as a description: toolwright sends no images or files in assistant messages\.$/),
    ]);
  });

  it("sends a tool's PNG and a user's PDF to Gemini 3 as inline data (functionResponse parts)", async () => {
    googleServer.enqueue(googleJson("google-text"));
    const google = createGoogleGenerativeAI({ baseURL: googleServer.baseURL, apiKey: "test-key" })("gemini-3-pro-preview");

    await run(google, [ChatMessage.fromUser(["Also this:", pdf()]), ...chartConversation().slice(1)]);

    const contents = googleServer.requests[0]!.body.contents;
    expect(contents[0]).toEqual({ role: "user", parts: [{ text: "Also this:" }, { inlineData: { mimeType: "application/pdf", data: pdfBase64 } }] });
    expect(contents[2].parts[0].functionResponse).toEqual({
      id: "call_chart",
      name: "renderChart",
      response: { name: "renderChart", content: "Chart of May's sales:" },
      parts: [{ inlineData: { mimeType: "image/png", data: pngBase64 } }],
    });
    expect(base64InText(googleServer.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("sends a tool's PNG to Gemini 2.5 as inline data after the function response, as the provider does for models without functionResponse parts", async () => {
    googleServer.enqueue(googleJson("google-text"));
    const google = createGoogleGenerativeAI({ baseURL: googleServer.baseURL, apiKey: "test-key" })("gemini-2.5-flash");

    await run(google, chartConversation());

    const parts = googleServer.requests[0]!.body.contents[2].parts;
    expect(parts).toEqual([
      { functionResponse: { id: "call_chart", name: "renderChart", response: { name: "renderChart", content: "Chart of May's sales:" } } },
      { inlineData: { mimeType: "image/png", data: pngBase64 } },
      { text: "Tool executed successfully and returned this image as a response" },
    ]);
    expect(base64InText(googleServer.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("sends a tool's PNG through @ai-sdk/openai's chat model in a user message after the tool message, never as text", async () => {
    openaiServer.enqueue(jsonReply({ text: "Sales rose." }));
    const model = createOpenAI({ apiKey: "test-key", baseURL: openaiServer.baseURL }).chat("gpt-4.1-mini");

    await run(model, chartConversation());

    const messages = openaiServer.requests[0]!.body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(messages[2].content).toMatch(new RegExp(`^Chart of May's sales:\\n${descriptor("image image/png", 68).source}\\n\\(This image or file follows in the next user message\\.\\)$`));
    expect(messages[3]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "The images and files of tool 'renderChart' (call call_chart):" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
      ],
    });
    expect(base64InText(openaiServer.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("sends a tool's PNG and PDF through @ai-sdk/openai's responses model as function_call_output parts", async () => {
    openaiServer.enqueue(responsesJson({ text: "Sales rose." }));
    const model = createOpenAI({ apiKey: "test-key", baseURL: openaiServer.baseURL }).responses("gpt-4.1-mini");
    const messages = [...chartConversation().slice(0, 2), ChatMessage.fromTool(["Chart and invoice:", png(), FileContent.fromBytes(pdfBytes, { filename: "may.pdf" })], chartCall)];

    await run(model, messages);

    const output = openaiServer.requests[0]!.body.input.find((item: { type: string }) => item.type === "function_call_output");
    expect(output).toEqual({
      type: "function_call_output",
      call_id: "call_chart",
      output: [
        { type: "input_text", text: "Chart and invoice:" },
        { type: "input_image", image_url: `data:image/png;base64,${pngBase64}` },
        { type: "input_file", filename: "may.pdf", file_data: `data:application/pdf;base64,${pdfBase64}` },
      ],
    });
  });
});
