import { Agent, ChatMessage, FileContent, ImageContent, type ModelEndEvent } from "toolwright";
import { responsesJson } from "../../helpers/mockResponses";
import { base64InText, bmp, csv, pdf, pdfBytes, png, pngBase64 } from "../../helpers/mediaSamples";
import { responsesGeneratorOn, useMockServer } from "./openaiTestKit";

// The real `openai` SDK against a server on 127.0.0.1; each request is captured and checked against
// the Responses API's documented input shapes (input_text, input_image { image_url, detail },
// input_file { file_data, filename } or { file_url }, function_call_output with an output list).
const server = useMockServer();

const chartCall = { id: "call_chart", toolName: "renderChart", arguments: { month: "May" } };
const pngDataUrl = `data:image/png;base64,${pngBase64}`;

function agentWith(ends: ModelEndEvent[]) {
  return new Agent({ chatGenerator: responsesGeneratorOn(server, { includeEncryptedReasoning: false }), tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } });
}

describe("toResponsesInput", () => {
  it("sends a user's image, PDF, CSV and file URL as input_image and input_file parts", async () => {
    server.enqueue(responsesJson({ text: "Seen." }));
    const ends: ModelEndEvent[] = [];

    await agentWith(ends).run({ messages: [ChatMessage.fromUser(["Read these.", png("high"), pdf(), csv(), FileContent.fromUrl("https://example.com/q3.pdf", { mimeType: "application/pdf" })])] });

    expect(server.requests[0]!.body.input).toEqual([
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "Read these." },
          { type: "input_image", image_url: pngDataUrl, detail: "high" },
          { type: "input_file", file_data: `data:application/pdf;base64,${pdfBytes.toString("base64")}`, filename: "invoice.pdf" },
          { type: "input_file", file_data: `data:text/csv;base64,${Buffer.from("a,b\n1,2\n").toString("base64")}`, filename: "data.csv" },
          { type: "input_file", file_url: "https://example.com/q3.pdf" },
        ],
      },
    ]);
    expect(ends[0]!.warnings).toEqual([]);
  });

  it("sends a tool result's text and PNG as a function_call_output output list", async () => {
    server.enqueue(responsesJson({ text: "Sales rose in May." }));
    const messages = [ChatMessage.fromUser("Chart May's sales."), ChatMessage.fromAssistant(undefined, { toolCalls: [chartCall] }), ChatMessage.fromTool(["Chart of May's sales:", png()], chartCall)];

    const result = await agentWith([]).run({ messages });

    expect(result.lastMessage.text).toBe("Sales rose in May.");
    expect(server.requests[0]!.body.input[2]).toEqual({
      type: "function_call_output",
      call_id: "call_chart",
      output: [
        { type: "input_text", text: "Chart of May's sales:" },
        { type: "input_image", image_url: pngDataUrl, detail: "auto" },
      ],
    });
    expect(base64InText(server.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("describes an assistant's image and an image type OpenAI does not read, and reports both in ModelEndEvent.warnings", async () => {
    server.enqueue(responsesJson({ text: "Noted." }));
    const ends: ModelEndEvent[] = [];
    const assistant = ChatMessage.fromJSON({ role: "assistant", meta: {}, name: null, content: [{ text: "Here it is." }, { image: png().toJSON() }] });

    await agentWith(ends).run({ messages: [ChatMessage.fromUser(["Look:", bmp()]), assistant, ChatMessage.fromUser("And?")] });

    const input = server.requests[0]!.body.input;
    expect(input[0].content[1]).toEqual({ type: "input_text", text: expect.stringMatching(/^\[image image\/bmp, 14 bytes, sha256 [0-9a-f]{12}…\]$/) });
    expect(input[1]).toEqual({ type: "message", role: "assistant", content: "Here it is." });
    expect(input[2]).toEqual({ type: "message", role: "assistant", content: expect.stringMatching(/^\[image image\/png, 68 bytes, sha256 [0-9a-f]{12}…\]$/) });
    expect(ends[0]!.warnings).toEqual([
      expect.stringMatching(/^OpenAIResponsesChatGenerator sent messages\[0\]'s \[image image\/bmp, .*\] as a description: OpenAI reads PNG, JPEG, WebP and GIF images, not image\/bmp\.$/),
      expect.stringMatching(/^OpenAIResponsesChatGenerator sent messages\[1\]'s \[image image\/png, .*\] as a description: the Responses API takes no images or files in assistant messages\.$/),
    ]);
    expect(base64InText(server.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("sends an image URL as it is", async () => {
    server.enqueue(responsesJson({ text: "A cat." }));

    await agentWith([]).run({ messages: [ChatMessage.fromUser([ImageContent.fromUrl("https://example.com/cat.jpg")])] });

    expect(server.requests[0]!.body.input[0].content).toEqual([{ type: "input_image", image_url: "https://example.com/cat.jpg", detail: "auto" }]);
  });
});
