// A streaming run whose tool returns a PNG, with the real `openai` SDK against a server on
// 127.0.0.1 speaking Chat Completions SSE: the follow-up request carries the image as an image_url
// part of the user message after the tool message (tool messages take text only), and the stream's
// toolResult chunk carries the result's parts, the form a UI renders.
import { createHash } from "node:crypto";
import { Agent, ChatMessage, ImageContent, type StreamingChunk, Tool } from "toolwright";
import { sseReply } from "../../helpers/mockOpenAIServer";
import { base64InText } from "../../helpers/mediaSamples";
import { pngImage } from "../../helpers/pngImage";
import { generatorOn, useMockServer } from "./openaiTestKit";

const server = useMockServer();

const png = pngImage(24, 12, [30, 140, 60, 255]);
const pngBase64 = png.toString("base64");

const chartTool = new Tool({
  name: "chart",
  description: "Draw a chart of a metric.",
  parameters: { type: "object", properties: { metric: { type: "string" } }, required: ["metric"] },
  function: ({ metric }) => [`Chart of ${String(metric)}:`, ImageContent.fromBytes(png)],
});

describe("OpenAIChatGenerator streaming a run with a tool's image", () => {
  it("sends the tool's PNG as an image_url part after the tool message, and streams the result's parts", async () => {
    server.enqueue(sseReply({ toolCalls: [{ id: "call_chart", name: "chart", arguments: '{"metric":"sales"}' }] }), sseReply({ text: "Sales rise in March." }));
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: generatorOn(server), tools: [chartTool], streamingCallback: (chunk) => void chunks.push(chunk) });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Chart the sales and tell me what you see.")] });

    expect(result.lastMessage.text).toBe("Sales rise in March.");
    expect(server.requests).toHaveLength(2);
    const body = server.requests[1]!.body;
    expect(body.stream).toBe(true);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(body.messages[1].tool_calls).toEqual([{ id: "call_chart", type: "function", function: { name: "chart", arguments: '{"metric":"sales"}' } }]);
    expect(body.messages[2].tool_call_id).toBe("call_chart");
    const sha = createHash("sha256").update(png).digest("hex");
    expect(body.messages[2].content).toBe(`Chart of sales:\n[image image/png, ${png.length} bytes, sha256 ${sha.slice(0, 12)}…]\n(This image or file follows in the next user message.)`);
    expect(body.messages[3]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "The images and files of tool 'chart' (call call_chart):" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } },
      ],
    });
    expect(base64InText(body, pngBase64)).toBe(false);

    const results = chunks.filter((chunk) => chunk.type === "toolResult");
    expect(results).toHaveLength(1);
    const streamed = results[0]!.type === "toolResult" ? results[0]!.result : undefined;
    expect(streamed!.result).toBe("Chart of sales:");
    expect(streamed!.parts!.map((part) => part.type)).toEqual(["text", "image"]);
    const image = streamed!.parts![1]!.type === "image" ? streamed!.parts![1]!.image : undefined;
    expect(image!.describe()).toEqual({ type: "image", mimeType: "image/png", bytes: png.length, sha256: sha, url: undefined });
    expect(Buffer.from(image!.bytes!).equals(png)).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
  });
});
