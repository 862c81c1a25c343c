import { Agent, ChatMessage, ConfigurationError, FileContent, ImageContent, pruneToolResults, type ToolCall } from "toolwright";
import { checkToolPairing } from "../helpers/checkToolPairing";
import { ScriptedChatGenerator } from "toolwright/testing";

const call = (id: string | undefined, toolName = "search"): ToolCall => ({ ...(id === undefined ? {} : { id }), toolName, arguments: {} });
const turn = (id: string | undefined, result: string, toolName = "search") => [ChatMessage.fromAssistant(undefined, { toolCalls: [call(id, toolName)] }), ChatMessage.fromTool(result, call(id, toolName))];

describe("pruneToolResults", () => {
  it("replaces old long results by a reference in what is sent, keeps the newest and short ones, and state keeps every text", async () => {
    const conversation = [
      ChatMessage.fromUser("go"),
      ...turn("c1", "a".repeat(300), "fetch_page"),
      ...turn("c2", "short"),
      ...turn(undefined, "b".repeat(300)),
      ...turn("c4", "c".repeat(300)),
      ...turn("c5", "d".repeat(300)),
      ChatMessage.fromUser("and?"),
    ];
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const agent = new Agent({ chatGenerator: model, middleware: [pruneToolResults({ keepLast: 2, maxChars: 100 })] });

    const result = await agent.run({ messages: conversation });

    expect(model.requests[0]!.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result)).toEqual([
      "[result of fetch_page #c1: 300 chars; call read_tool_result to read it]",
      "short",
      "b".repeat(300), // no call id: nothing would read it back
      "c".repeat(300),
      "d".repeat(300),
    ]);
    expect(model.requests[0]!.messages[2]!.toolCallResult!.origin).toEqual(call("c1", "fetch_page"));
    expect(result.messages.slice(0, conversation.length)).toEqual(conversation);
  });

  it("names the read tool the options give", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const agent = new Agent({ chatGenerator: model, middleware: [pruneToolResults({ keepLast: 0, maxChars: 1, readToolName: "reread" })] });

    await agent.run({ messages: [ChatMessage.fromUser("go"), ...turn("c1", "long"), ChatMessage.fromUser("next")] });

    expect(model.requests[0]!.messages[2]!.toolCallResult!.result).toBe("[result of search #c1: 4 chars; call reread to read it]");
  });

  it("throws a ConfigurationError for a negative keepLast", () => {
    expect(() => pruneToolResults({ keepLast: -1 })).toThrow(new ConfigurationError("pruneToolResults", "pruneToolResults needs keepLast as a whole number ≥ 0, got -1."));
  });

  it("replaces an old result with media by a reference describing each part, whatever its length, and keeps the pairing", async () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d4948445200000010000000100806000000", "hex"), Buffer.alloc(100)]);
    const pdf = Buffer.from("%PDF-1.7\n%%EOF\n");
    const media = [ChatMessage.fromAssistant(undefined, { toolCalls: [call("m1", "chart")] }), ChatMessage.fromTool(["Chart:", ImageContent.fromBytes(png), FileContent.fromBytes(pdf, { filename: "data.pdf" })], call("m1", "chart"))];
    const conversation = [ChatMessage.fromUser("go"), ...media, ...turn("c2", "short"), ChatMessage.fromUser("and?")];
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const agent = new Agent({ chatGenerator: model, middleware: [pruneToolResults({ keepLast: 1, maxChars: 100 })] });

    const result = await agent.run({ messages: conversation });

    const sent = model.requests[0]!.messages;
    const image = ImageContent.fromBytes(png).describe().sha256!.slice(0, 12);
    const file = FileContent.fromBytes(pdf).describe().sha256!.slice(0, 12);
    expect(sent[2]!.toolCallResult!.result).toBe(`[result of chart #m1: 6 chars, [image image/png, ${png.length} bytes, sha256 ${image}…], [file data.pdf application/pdf, ${pdf.length} bytes, sha256 ${file}…]; call read_tool_result to read it]`);
    expect(sent[2]!.images).toEqual([]);
    expect(checkToolPairing(sent)).toEqual([]);
    expect(result.messages[2]!.images).toHaveLength(1);
    expect(result.messages[2]!.files).toHaveLength(1);
  });
});
