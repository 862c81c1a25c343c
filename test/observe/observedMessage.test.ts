// Images and files never reach a hook, a span or the debug log as bytes: events carry each part's
// descriptor (type, MIME type, bytes, SHA-256 or URL), and redaction of injected state values works
// the same in a run whose messages hold media.
import { createHash, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { Agent, type AgentHooks, ChatMessage, FileContent, ImageContent, type ModelEndEvent, type ModelStartEvent, Tool, type ToolEndEvent } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { ScriptedChatGenerator } from "toolwright/testing";
import { observedMessageJSON, resultMedia } from "../../src/observe/observedMessage";

// A PNG signature and IHDR of a 640×480 image, then 3 KB of noise: long enough that any slice of its base64 is unmistakable.
const png = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d4948445200000280000001e00806000000", "hex"), randomBytes(3000)]);
const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(2000)]);
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const origin = { id: "call_chart", toolName: "chart", arguments: {} };

// Every slice of 40 characters of the data's base64 that could appear in text told to an observer.
function expectNoBytes(told: string): void {
  for (const data of [png, pdf]) {
    const base64 = data.toString("base64");
    for (let i = 0; i + 40 <= base64.length; i += 400) expect(told).not.toContain(base64.slice(i, i + 40));
  }
}

describe("observedMessageJSON", () => {
  it("gives images and files as their descriptors, a tool result's parts included", () => {
    const image = ImageContent.fromBytes(png, { detail: "high", meta: { page: 1 } });
    const remote = ImageContent.fromUrl("https://example.com/cat.jpg", { mimeType: "image/jpeg" });
    const file = FileContent.fromBytes(pdf, { filename: "invoice.pdf" });
    const user = ChatMessage.fromUser(["Look:", image, remote, file]);
    const tool = ChatMessage.fromTool(["Chart drawn.", image], origin);

    expect(observedMessageJSON(user)).toEqual({
      role: "user",
      meta: {},
      name: null,
      content: [
        { text: "Look:" },
        { image: { type: "image", mimeType: "image/png", bytes: png.length, sha256: sha(png), url: undefined } },
        { image: { type: "image", mimeType: "image/jpeg", bytes: undefined, sha256: undefined, url: "https://example.com/cat.jpg" } },
        { file: { type: "file", mimeType: "application/pdf", bytes: pdf.length, sha256: sha(pdf), url: undefined, filename: "invoice.pdf" } },
      ],
    });
    expect(observedMessageJSON(tool).content).toEqual([
      {
        tool_call_result: {
          result: [{ text: "Chart drawn." }, { image: { type: "image", mimeType: "image/png", bytes: png.length, sha256: sha(png), url: undefined } }],
          origin: { tool_name: "chart", arguments: {}, id: "call_chart" },
          error: false,
        },
      },
    ]);
    expectNoBytes(JSON.stringify([observedMessageJSON(user), observedMessageJSON(tool)]));
  });

  it("gives a message without media exactly as toJSON does", () => {
    const message = ChatMessage.fromAssistant("Hi.", { toolCalls: [origin], meta: { model: "m" } });

    expect(observedMessageJSON(message)).toEqual(message.toJSON());
    expect(observedMessageJSON(ChatMessage.fromTool("plain", origin))).toEqual(ChatMessage.fromTool("plain", origin).toJSON());
  });

  it("leaves the bytes out of what util.inspect (and so the debug log) prints of a message", () => {
    const message = ChatMessage.fromUser(["Look:", ImageContent.fromBytes(png), FileContent.fromBytes(pdf)]);

    const printed = inspect(message, { depth: 20 });

    expect(printed).toContain("mimeType: 'image/png'");
    expectNoBytes(printed);
  });
});

describe("resultMedia", () => {
  it("gives the descriptors of a tool result's images and files in order, and none for a text result", () => {
    const message = ChatMessage.fromTool(["Two charts.", ImageContent.fromBytes(png), FileContent.fromBytes(pdf)], origin);

    expect(resultMedia(message)).toEqual([
      { type: "image", mimeType: "image/png", bytes: png.length, sha256: sha(png), url: undefined },
      { type: "file", mimeType: "application/pdf", bytes: pdf.length, sha256: sha(pdf), url: undefined },
    ]);
    expect(resultMedia(ChatMessage.fromTool("text", origin))).toEqual([]);
  });
});

describe("RunObserver with media", () => {
  function agentWith(events: Array<[string, unknown]>) {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const hooks: AgentHooks = {
      onModelStart: (event) => void events.push(["onModelStart", event]),
      onModelEnd: (event) => void events.push(["onModelEnd", event]),
      onToolStart: (event) => void events.push(["onToolStart", event]),
      onToolEnd: (event) => void events.push(["onToolEnd", event]),
    };
    const lookup = new Tool({
      name: "lookup",
      description: "Looks a topic up with the account's token.",
      parameters: { type: "object", properties: { q: { type: "string" }, token: { type: "string" } }, required: ["q", "token"] },
      inputsFromState: { token: "token" },
      function: (args) => `found ${String(args.q)} for ${String(args.token)}`,
    });
    const script = [
      ChatMessage.fromAssistant("Looking up sk-secret-42.", { toolCalls: [{ id: "call_1", toolName: "lookup", arguments: { q: "the chart" } }] }),
      ChatMessage.fromAssistant("The chart shows sk-secret-42."),
    ];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(script), tools: [lookup], stateSchema: { token: { type: z.string() } }, tracing: openTelemetry({ tracerProvider: provider, captureContent: true }), hooks });
    return { agent, spans: () => exporter.getFinishedSpans() };
  }

  const conversation = () => [
    ChatMessage.fromUser(["What does this show?", ImageContent.fromBytes(png), FileContent.fromBytes(pdf, { filename: "data.pdf" }), ImageContent.fromUrl("https://example.com/x.png?sig=sk-secret-42")]),
    ChatMessage.fromAssistant(undefined, { toolCalls: [origin] }),
    ChatMessage.fromTool(["Chart drawn.", ImageContent.fromBytes(png)], origin),
  ];

  it("tells hooks and spans each image and file as a descriptor, never its bytes", async () => {
    const events: Array<[string, unknown]> = [];
    const { agent, spans } = agentWith(events);

    await agent.run({ messages: conversation(), token: "sk-secret-42" });

    const start = events.find(([name]) => name === "onModelStart")![1] as ModelStartEvent;
    expect(start.messages[0]!.content[1]).toEqual({ image: { type: "image", mimeType: "image/png", bytes: png.length, sha256: sha(png) } });
    expect(start.messages[0]!.content[2]).toEqual({ file: { type: "file", mimeType: "application/pdf", bytes: pdf.length, sha256: sha(pdf), filename: "data.pdf" } });
    expect(start.messages[2]!.content[0]).toEqual({
      tool_call_result: { result: [{ text: "Chart drawn." }, { image: { type: "image", mimeType: "image/png", bytes: png.length, sha256: sha(png) } }], origin: { tool_name: "chart", arguments: {}, id: "call_chart" }, error: false },
    });
    const chat = spans().find((s) => s.name.startsWith("chat"))!;
    expect(JSON.parse(chat.attributes["gen_ai.input.messages"] as string)[0]).toEqual({
      role: "user",
      parts: [
        { type: "text", content: "What does this show?" },
        { type: "toolwright.blob", modality: "image", mime_type: "image/png", size_bytes: png.length, sha256: sha(png) },
        { type: "toolwright.blob", modality: "document", mime_type: "application/pdf", size_bytes: pdf.length, sha256: sha(pdf), filename: "data.pdf" },
        { type: "uri", modality: "image", mime_type: null, uri: "https://example.com/x.png?sig=[token]" },
      ],
    });
    expect(JSON.parse(chat.attributes["gen_ai.input.messages"] as string)[2]).toEqual({
      role: "tool",
      parts: [{ type: "tool_call_response", id: "call_chart", response: [{ type: "text", content: "Chart drawn." }, { type: "toolwright.blob", modality: "image", mime_type: "image/png", size_bytes: png.length, sha256: sha(png) }] }],
    });
    const told = JSON.stringify(events) + JSON.stringify(spans().map((s) => ({ attributes: s.attributes, events: s.events })));
    expectNoBytes(told);
  });

  it("still redacts an injected secret in a run whose messages hold images", async () => {
    const events: Array<[string, unknown]> = [];
    const { agent, spans } = agentWith(events);

    const result = await agent.run({ messages: conversation(), token: "sk-secret-42" });

    expect(result.exitReason).toBe("text");
    const told = JSON.stringify(events) + JSON.stringify(spans().map((s) => ({ attributes: s.attributes, events: s.events })));
    expect(told).not.toContain("sk-secret-42");
    expect(told).toContain("found the chart for [token]");
    expect(told).toContain("https://example.com/x.png?sig=[token]");
    const end = events.filter(([name]) => name === "onModelEnd").map(([, e]) => (e as ModelEndEvent).replies[0]!.content[0]);
    expect(end).toEqual([{ text: "Looking up [token]." }, { text: "The chart shows [token]." }]);
  });

  it("gives a tool's end event the descriptors of its result's media, and none for a text result", async () => {
    const events: Array<[string, unknown]> = [];
    const { agent } = agentWith(events);

    await agent.run({ messages: conversation(), token: "sk-secret-42" });

    const ends = events.filter(([name]) => name === "onToolEnd").map(([, e]) => e as ToolEndEvent);
    expect(ends.map((e) => [e.toolName, e.result, e.media])).toEqual([["lookup", "found the chart for [token]", []]]);
  });
});
