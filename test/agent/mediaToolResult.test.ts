// A tool that returns an image: through an Agent run on the scripted model, into the model's next
// request, the result's messages, a JSON snapshot and the stream; and the limits that bound it.
import { z } from "zod";
import {
  Agent,
  type AgentHooks,
  type AgentSnapshot,
  BreakpointError,
  ChatMessage,
  clientEvent,
  FileContent,
  ImageContent,
  type Middleware,
  type StreamingChunk,
  Tool,
  type ToolCall,
  type ToolErrorEvent,
  toolGuardrail,
} from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { pngImage } from "../helpers/pngImage";
import { rejectionOf } from "../helpers/notesAgent";

const png = pngImage(16, 8, [20, 120, 220, 255]);
const chartCall: ToolCall = { id: "c1", toolName: "chart", arguments: { metric: "sales" } };
const script = () => [ChatMessage.fromAssistant(undefined, { toolCalls: [chartCall] }), ChatMessage.fromAssistant("Sales rise in March.")];
const chartState = { chart: { type: z.custom<ImageContent>(ImageContent.isImageContent) } };

function chartTool(fn: (args: Record<string, unknown>) => unknown = ({ metric }) => [`Chart of ${String(metric)}:`, ImageContent.fromBytes(png)], writesChart = true): Tool {
  return new Tool({
    name: "chart",
    description: "Draw a chart of a metric.",
    parameters: { type: "object", properties: { metric: { type: "string" } }, required: ["metric"] },
    ...(writesChart && { outputsToState: { chart: { handler: (_old: unknown, parts: unknown[]) => parts[1] } } }),
    function: fn,
  });
}

function chartAgent(tool: Tool = chartTool(), extra: { middleware?: Middleware[]; maxToolResultChars?: number } = {}) {
  const chatGenerator = new ScriptedChatGenerator(script());
  return { chatGenerator, agent: new Agent({ chatGenerator, tools: [tool], stateSchema: chartState, ...extra }) };
}

const user = () => ChatMessage.fromUser("How are sales?");

describe("Agent (a tool that returns an image)", () => {
  it("sends the model the tool's image as a part of the tool message, after its text", async () => {
    const { agent, chatGenerator } = chartAgent();

    const result = await agent.run({ messages: [user()] });

    const toolMessage = chatGenerator.requests[1]!.messages.at(-1)!;
    expect(toolMessage.role).toBe("tool");
    const sent = toolMessage.toolCallResult!;
    expect(sent.result).toBe("Chart of sales:");
    expect(sent.parts!.map((p) => p.type)).toEqual(["text", "image"]);
    const image = toolMessage.images[0]!;
    expect(Buffer.from(image.bytes!)).toEqual(png);
    expect(image.mimeType).toBe("image/png");
    expect(result.messages[2]).toBe(toolMessage);
    expect(result.lastMessage.text).toBe("Sales rise in March.");
  });

  it("gives outputsToState the tool's own value: state holds the ImageContent", async () => {
    const { agent } = chartAgent();

    const result = await agent.run({ messages: [user()] });

    expect(ImageContent.isImageContent(result.chart)).toBe(true);
    expect(result.chart!.describe()).toEqual(result.messages[2]!.images[0]!.describe());
  });

  it("keeps the image in a JSON snapshot, messages and state, and a resumed run sends it again", async () => {
    const { agent } = chartAgent();
    const error = await rejectionOf(agent.run({ messages: [user()], breakpoint: { at: "chat_generator", visit: 1 } }));
    expect(error).toBeInstanceOf(BreakpointError);
    const snapshot = (error as BreakpointError).snapshot;

    const text = JSON.stringify(snapshot);
    const fromJson = JSON.parse(text) as AgentSnapshot;
    // A fresh Agent, as in another process: its model answers the script's entries after the breakpoint.
    const chatGenerator = new ScriptedChatGenerator(script().slice(1));
    const result = await new Agent({ chatGenerator, tools: [chartTool()], stateSchema: chartState }).run({ snapshot: fromJson });

    expect(text).toContain(png.toString("base64"));
    expect(ImageContent.isImageContent(result.chart)).toBe(true);
    expect(Buffer.from(result.chart!.bytes!)).toEqual(png);
    const toolMessage = chatGenerator.requests[0]!.messages.at(-1)!;
    expect(toolMessage.role).toBe("tool");
    expect(Buffer.from(toolMessage.images[0]!.bytes!)).toEqual(png);
    expect(result.messages.map((m) => m.toJSON())).toEqual([...(fromJson.state.messages as unknown[]), result.lastMessage.toJSON()]);
    expect((fromJson.state.chart as { base64_image: string }).base64_image).toBe(png.toString("base64"));
    expect(toolMessage.toJSON()).toEqual(ChatMessage.fromJSON(toolMessage.toJSON()).toJSON());
  });

  it("streams a toolResult chunk whose parts hold the image, and whose text holds no base64", async () => {
    const { agent } = chartAgent();
    const chunks: StreamingChunk[] = [];

    for await (const event of agent.stream({ messages: [user()] })) if (event.type !== "result") chunks.push(event);

    const chunk = chunks.find((c) => c.type === "toolResult") as Extract<StreamingChunk, { type: "toolResult" }>;
    expect(chunk.result.result).toBe("Chart of sales:");
    const part = chunk.result.parts![1]!;
    expect(part.type === "image" && part.image.describe()).toEqual({ type: "image", mimeType: "image/png", bytes: png.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), url: undefined });
    expect(part.type === "image" && part.image.toDataUrl()).toBe(`data:image/png;base64,${png.toString("base64")}`);
    // What a service writes to its client: the image in Haystack's dict (base64 in its own field), never in the text.
    const wire = JSON.parse(JSON.stringify(clientEvent(chunk, () => null))) as { result: { result: string; parts: unknown[] } };
    expect(wire.result.result).toBe("Chart of sales:");
    expect(wire.result.parts).toEqual([{ type: "text", text: "Chart of sales:" }, { type: "image", image: { base64_image: png.toString("base64"), mime_type: "image/png", detail: null, meta: {}, validation: true } }]);
  });

  it("sends a file a tool returns alone as the tool message's one part", async () => {
    const csv = FileContent.fromBytes(Buffer.from("month,sales\nMarch,12\n"), { mimeType: "text/csv", filename: "sales.csv" });
    const { agent, chatGenerator } = chartAgent(chartTool(() => csv, false));

    await agent.run({ messages: [user()] });

    const sent = chatGenerator.requests[1]!.messages.at(-1)!;
    expect(sent.toolCallResult!.result).toBe("");
    expect(sent.files).toEqual([csv]);
  });

  it("caps the text parts at maxToolResultChars and keeps the image", async () => {
    const { agent, chatGenerator } = chartAgent(chartTool(() => ["x".repeat(30), ImageContent.fromBytes(png)]), { maxToolResultChars: 10 });

    await agent.run({ messages: [user()] });

    const sent = chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult!;
    expect(sent.result).toBe(`${"x".repeat(10)}\n[Tool 'chart' returned 30 characters of text; the first 10 are shown]`);
    expect(sent.parts!.map((p) => p.type)).toEqual(["text", "image"]);
  });

  it("shows afterTool middleware the tool's value and toolGuardrail the text parts only", async () => {
    const seen: unknown[] = [];
    const texts: string[] = [];
    const spy: Middleware = { name: "spy", afterTool: (context) => void seen.push(context.result) };
    const guard = toolGuardrail({ name: "no-secrets", check: (input) => (texts.push(input.text), input.text.includes("sales") ? { block: "Charts of sales are private." } : { pass: true as const }) }, { when: "after" });
    const { agent, chatGenerator } = chartAgent(chartTool(), { middleware: [spy, guard] });

    await agent.run({ messages: [user()] });

    expect(Array.isArray(seen[0]) && ImageContent.isImageContent((seen[0] as unknown[])[1])).toBe(true);
    expect(texts).toEqual(["Chart of sales:"]);
    // A block replaces what the model gets: the image goes too.
    const sent = chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult!;
    expect(sent).toEqual({ result: "Charts of sales are private.", origin: chartCall, error: false });
  });
});

describe("Agent (a tool that returns too much media)", () => {
  function recorder(): { hooks: AgentHooks; errors: ToolErrorEvent[] } {
    const errors: ToolErrorEvent[] = [];
    return { errors, hooks: { onToolError: (e) => void errors.push(e) } };
  }

  it("tells the model and onToolError when the tool makes a 30 MB image", async () => {
    const { agent, chatGenerator } = chartAgent(chartTool(() => ImageContent.fromBytes(Buffer.concat([png, Buffer.alloc(30 * 1024 * 1024)]))));
    const { hooks, errors } = recorder();

    await agent.run({ messages: [user()], hooks });

    const expected = `Tool 'chart' failed: ImageContent.fromBytes holds ${png.length + 30 * 1024 * 1024} bytes, over the limit of 20971520 bytes per image or file; send a smaller or compressed one (providers refuse larger ones too).`;
    expect(chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult).toEqual({ result: expected, origin: chartCall, error: true });
    expect(errors.map((e) => [e.toolName, e.kind, e.message])).toEqual([["chart", "threw", `Tool 'chart' threw ConfigurationError: ${expected.slice("Tool 'chart' failed: ".length)}`]]);
  });

  it("tells the model and onToolError when the parts hold more than mediaLimits.maxMessageBytes together", async () => {
    const big = ImageContent.fromBytes(Buffer.concat([png, Buffer.alloc(18 * 1024 * 1024)]));
    const { agent, chatGenerator } = chartAgent(chartTool(() => ["three shots", big, big, big]));
    const { hooks, errors } = recorder();

    const result = await agent.run({ messages: [user()], hooks });

    const detail = `the result holds ${(big.byteLength * 3).toLocaleString("en-US")} bytes of images and files, over the limit of 52,428,800 bytes per tool result (mediaLimits.maxMessageBytes); return fewer or smaller ones, or URL references (ImageContent.fromUrl).`;
    expect(chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult).toEqual({ result: `Tool 'chart' ran, but its result could not be turned into text: ${detail}`, origin: chartCall, error: true });
    expect(errors.map((e) => [e.toolName, e.kind, e.message])).toEqual([["chart", "outputsToString", `Tool 'chart' ran, but its result could not be turned into text: ConfigurationError: ${detail}`]]);
    // outputsToState still got the value.
    expect(result.chart).toBe(big);
  });
});
