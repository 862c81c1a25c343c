import { createAnthropic } from "@ai-sdk/anthropic";
import { readUIMessageStream, type UIMessage } from "ai";
import { createHash } from "node:crypto";
import { Agent, ChatMessage, ConfigurationError, ImageContent, Tool } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { ScriptedChatGenerator } from "toolwright/testing";
import { toUIMessageStream, type ToUIMessageStreamOptions, type UIStreamSource } from "toolwright/ui";
import { AnthropicReplayServer, anthropicStream } from "../helpers/anthropicReplayServer";
import { pngImage } from "../helpers/pngImage";

// The mappings of UIChunkMapper no other test shows, each read as ai 6's useChat reads the stream.
async function read(source: UIStreamSource, options: ToUIMessageStreamOptions = {}): Promise<{ parts: UIMessage["parts"]; errors: string[] }> {
  const errors: string[] = [];
  let message: UIMessage | undefined;
  for await (const next of readUIMessageStream({ stream: toUIMessageStream(source, options), onError: (error) => errors.push(String(error)) })) message = next;
  return { parts: (JSON.parse(JSON.stringify(message)) as UIMessage).parts, errors };
}

function oneCall(tool: Tool, args: Record<string, unknown> | string, answer = "Done.") {
  const model = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: tool.name, arguments: args }] }), ChatMessage.fromAssistant(answer)]);
  return new Agent({ chatGenerator: model, tools: [tool] }).stream({ messages: [ChatMessage.fromUser("Go.")] });
}

const png = pngImage(2, 2);
const pngDescriptor = { type: "image", mimeType: "image/png", bytes: png.length, sha256: createHash("sha256").update(png).digest("hex") };
const chart = () => new Tool({ name: "chart", description: "Draws a chart.", parameters: { type: "object", properties: {} }, function: () => ImageContent.fromBytes(png, { mimeType: "image/png" }) });

describe("UIChunkMapper", () => {
  describe("reasoning", () => {
    const server = new AnthropicReplayServer();
    beforeAll(() => server.start());
    afterAll(() => server.close());

    it("streams a model's reasoning deltas as one reasoning part before the text", async () => {
      // The Messages stream recorded from Claude (the @ai-sdk/anthropic package's fixture), through the real provider.
      server.enqueue(anthropicStream("anthropic-clear-thinking.1"));
      const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
      const agent = new Agent({ chatGenerator: new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5"), maxRetries: 0, generationKwargs: { maxOutputTokens: 1024 } }) });

      const { parts, errors } = await read(agent.stream({ messages: [ChatMessage.fromUser("Divide it by 5.")] }));

      expect(errors).toEqual([]);
      expect(parts).toEqual([
        { type: "step-start" },
        { type: "reasoning", id: "reasoning-1", text: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185", state: "done" },
        { type: "text", text: "925 ÷ 5 = 185", state: "done" },
      ]);
    });
  });

  it("streams a tool's reported progress as preliminary output, replaced by its result", async () => {
    const seen: unknown[] = [];
    const tool = new Tool({
      name: "export",
      description: "Exports the orders.",
      parameters: { type: "object", properties: {} },
      function: (_args, context) => {
        context.reportProgress({ progress: 1, total: 3, message: "Reading orders" });
        context.reportProgress({ progress: 3, total: 3 });
        return "Exported 3 orders.";
      },
    });
    const stream = toUIMessageStream(oneCall(tool, {}));
    const errors: string[] = [];
    let parts: UIMessage["parts"] = [];
    for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push(String(error)) })) {
      const part = message.parts.find((p) => p.type === "tool-export") as { state: string; output?: unknown; preliminary?: boolean } | undefined;
      if (part?.preliminary) seen.push(JSON.parse(JSON.stringify(part.output)));
      parts = JSON.parse(JSON.stringify(message.parts)) as UIMessage["parts"];
    }

    expect(errors).toEqual([]);
    expect(seen).toEqual([
      { type: "progress", progress: 1, total: 3, message: "Reading orders" },
      { type: "progress", progress: 3, total: 3 },
    ]);
    expect(parts).toEqual([
      { type: "step-start" },
      { type: "tool-export", toolCallId: "c1", state: "output-available", input: {}, output: "Exported 3 orders." },
      { type: "step-start" },
      { type: "text", text: "Done.", state: "done" },
    ]);
  });

  it("sends a tool's image as its descriptor by default, never its bytes", async () => {
    const { parts, errors } = await read(oneCall(chart(), {}));

    expect(errors).toEqual([]);
    expect(parts[1]).toEqual({ type: "tool-chart", toolCallId: "c1", state: "output-available", input: {}, output: [{ type: "image", media: pngDescriptor }] });
  });

  it("adds a data URL to a tool's image with media dataUrl", async () => {
    const { parts } = await read(oneCall(chart(), {}), { media: "dataUrl" });

    expect(parts[1]).toEqual({ type: "tool-chart", toolCallId: "c1", state: "output-available", input: {}, output: [{ type: "image", media: pngDescriptor, url: `data:image/png;base64,${png.toString("base64")}` }] });
  });

  it("shows a call whose arguments are not valid JSON as input-error, then the error the model gets", async () => {
    const lookup = new Tool({ name: "lookup", description: "Looks up an order.", parameters: { type: "object", properties: { orderId: { type: "string" } } }, function: () => "found" });

    const seen: string[] = [];
    let parts: UIMessage["parts"] = [];
    for await (const message of readUIMessageStream({ stream: toUIMessageStream(oneCall(lookup, '{"orderId": "A-1')) })) {
      const part = message.parts.find((p) => p.type === "tool-lookup") as { state: string; errorText?: string } | undefined;
      if (part && seen.at(-1) !== `${part.state}: ${part.errorText}`) seen.push(`${part.state}: ${part.errorText}`);
      parts = JSON.parse(JSON.stringify(message.parts)) as UIMessage["parts"];
    }

    const modelError = "Tool 'lookup' was called with arguments that are not valid JSON (Unterminated string in JSON at position 16). Send one JSON object with the tool's parameters: orderId.";
    expect(seen).toEqual(["input-streaming: undefined", "output-error: Tool 'lookup' was called with arguments that are not valid JSON.", `output-error: ${modelError}`]);
    expect(parts).toEqual([
      { type: "step-start" },
      { type: "tool-lookup", toolCallId: "c1", state: "output-error", rawInput: '{"orderId": "A-1', errorText: modelError },
      { type: "step-start" },
      { type: "text", text: "Done.", state: "done" },
    ]);
  });
});

describe("toUIMessageStream", () => {
  it.each([[0], [1023], [1.5], [Number.NaN], ["4096"]])("refuses maxBufferedBytes %p", (value) => {
    const run = () => toUIMessageStream(noEvents(), { maxBufferedBytes: value as number });

    expect(run).toThrow(ConfigurationError);
    expect(run).toThrow(`toUIMessageStream was given maxBufferedBytes ${String(value)}; give a whole number of bytes of at least 1024.`);
  });

  it("takes 1024 bytes, the smallest limit", async () => {
    const chunks: unknown[] = [];
    for await (const chunk of toUIMessageStream(noEvents(), { maxBufferedBytes: 1024 })) chunks.push(chunk);

    expect(chunks).toEqual([{ type: "start" }, { type: "finish" }]);
  });
});

async function* noEvents(): AsyncGenerator<never> {}
