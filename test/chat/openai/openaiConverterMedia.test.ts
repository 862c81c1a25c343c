import { Agent, ChatMessage, FileContent, ImageContent, type ModelEndEvent } from "toolwright";
import { jsonReply } from "../../helpers/mockOpenAIServer";
import { base64InText, bmp, csv, pdf, pdfBytes, png, pngBase64 } from "../../helpers/mediaSamples";
import { generatorOn, useMockServer } from "./openaiTestKit";

// The real `openai` SDK against a server on 127.0.0.1; each request is captured and checked against
// OpenAI's documented Chat Completions shapes (vision guide: image_url; file inputs guide: file with
// file_data and filename, PDF only; tool messages take text).
const server = useMockServer();

const chartCall = { id: "call_chart", toolName: "renderChart", arguments: { month: "May" } };
const pngDataUrl = `data:image/png;base64,${pngBase64}`;
const pngLine = /^\[image image\/png, 68 bytes, sha256 [0-9a-f]{12}…\]$/;

function agentWith(ends: ModelEndEvent[]) {
  return new Agent({ chatGenerator: generatorOn(server), tools: [], hooks: { onModelEnd: (event) => void ends.push(event) } });
}

describe("toOpenAIMessages", () => {
  it("sends a user's image as an image_url part with its data URL and detail, and a PDF as a file part", async () => {
    server.enqueue(jsonReply({ text: "A dot and an invoice." }));
    const ends: ModelEndEvent[] = [];

    await agentWith(ends).run({ messages: [ChatMessage.fromUser(["What is in these?", png("low"), pdf(), ImageContent.fromUrl("https://example.com/cat.jpg")])] });

    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image_url", image_url: { url: pngDataUrl, detail: "low" } },
          { type: "file", file: { file_data: `data:application/pdf;base64,${pdfBytes.toString("base64")}`, filename: "invoice.pdf" } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
        ],
      },
    ]);
    expect(ends[0]!.warnings).toEqual([]);
  });

  it("sends a tool result's PNG in a user message after the step's tool messages, the tool message saying it follows", async () => {
    server.enqueue(jsonReply({ text: "Sales rose in May." }));
    const messages = [
      ChatMessage.fromUser("Chart May's sales and tell me what you see."),
      ChatMessage.fromAssistant(undefined, { toolCalls: [chartCall, { id: "call_total", toolName: "total", arguments: {} }] }),
      ChatMessage.fromTool(["Chart of May's sales:", png()], chartCall),
      ChatMessage.fromTool("1,204 units", { id: "call_total", toolName: "total", arguments: {} }),
    ];

    const result = await agentWith([]).run({ messages });

    expect(result.lastMessage.text).toBe("Sales rose in May.");
    const sent = server.requests[0]!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(sent[2].tool_call_id).toBe("call_chart");
    const lines = sent[2].content.split("\n");
    expect(lines[0]).toBe("Chart of May's sales:");
    expect(lines[1]).toMatch(pngLine);
    expect(lines[2]).toBe("(This image or file follows in the next user message.)");
    expect(sent[3]).toEqual({ role: "tool", tool_call_id: "call_total", content: "1,204 units" });
    expect(sent[4]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "The images and files of tool 'renderChart' (call call_chart):" },
        { type: "image_url", image_url: { url: pngDataUrl } },
      ],
    });
    expect(base64InText(server.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("describes what the API cannot take and reports each in the run's ModelEndEvent.warnings", async () => {
    server.enqueue(jsonReply({ text: "Noted." }));
    const ends: ModelEndEvent[] = [];
    const assistant = ChatMessage.fromJSON({ role: "assistant", meta: {}, name: null, content: [{ text: "Here is the chart." }, { image: png().toJSON() }] });

    await agentWith(ends).run({ messages: [ChatMessage.fromUser(["Look:", csv(), bmp(), FileContent.fromUrl("https://example.com/a.pdf")]), assistant, ChatMessage.fromUser("And?")] });

    const [user, reply] = server.requests[0]!.body.messages;
    expect(user.content[0]).toEqual({ type: "text", text: "Look:" });
    expect(user.content[1]).toEqual({ type: "text", text: expect.stringMatching(/^\[file data\.csv text\/csv, 8 bytes, sha256 [0-9a-f]{12}…\]$/) });
    expect(user.content[2]).toEqual({ type: "text", text: expect.stringMatching(/^\[image image\/bmp, 14 bytes, sha256 [0-9a-f]{12}…\]$/) });
    expect(user.content[3]).toEqual({ type: "text", text: "[file of unknown type at https://example.com/a.pdf]" });
    expect(reply.content.split("\n")[0]).toBe("Here is the chart.");
    expect(reply.content.split("\n")[1]).toMatch(pngLine);
    const warnings = ends[0]!.warnings;
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^OpenAIChatGenerator sent messages\[0\]'s \[file data\.csv text\/csv, 8 bytes, sha256 [0-9a-f]{12}…\] as a description: the Chat Completions API takes PDF files only, not text\/csv; use OpenAIResponsesChatGenerator, or send the file's text\.$/);
    expect(warnings[1]).toMatch(/as a description: OpenAI reads PNG, JPEG, WebP and GIF images, not image\/bmp\.$/);
    expect(warnings[2]).toBe("OpenAIChatGenerator sent messages[0]'s [file of unknown type at https://example.com/a.pdf] as a description: the Chat Completions API takes no file URLs (only PDF data); use OpenAIResponsesChatGenerator, or give the bytes.");
    expect(warnings[3]).toMatch(/^OpenAIChatGenerator sent messages\[1\]'s \[image image\/png, .*\] as a description: the Chat Completions API takes no images or files in assistant messages\.$/);
    expect(base64InText(server.requests[0]!.body, pngBase64)).toBe(false);
  });

  it("keeps a text-only user message as a string", async () => {
    server.enqueue(jsonReply({ text: "Hi." }));

    await agentWith([]).run({ messages: [ChatMessage.fromUser("Hello")] });

    expect(server.requests[0]!.body.messages).toEqual([{ role: "user", content: "Hello" }]);
  });
});
