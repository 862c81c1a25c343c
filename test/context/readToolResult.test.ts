import { Agent, ChatMessage, ConfigurationError, ImageContent, readToolResult, State, Tool, type ToolContext } from "toolwright";
import { toolInternals } from "../../src/tools/tool";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";

const big = Array.from({ length: 25 }, (_, i) => `line ${i}`).join("\n");
const fetchLog = new Tool({ name: "fetch_log", description: "Fetch the log.", parameters: { type: "object", properties: {} }, function: () => big });

describe("readToolResult", () => {
  it("reads a result back by call id from state, a page at a time", async () => {
    const model = new ScriptedChatGenerator([
      toolCallReply(["fetch_log", {}, "log_1"]),
      toolCallReply(["read_tool_result", { id: "log_1" }, "r1"]),
      toolCallReply(["read_tool_result", { id: "log_1", offset: 100 }, "r2"]),
      ChatMessage.fromAssistant("done"),
    ]);
    const agent = new Agent({ chatGenerator: model, tools: [fetchLog, readToolResult({ maxChars: 100 })] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("read the log")] });

    const reads = result.messages.filter((m) => m.toolCallResult?.origin.toolName === "read_tool_result").map((m) => m.toolCallResult!.result);
    expect(reads).toEqual([`${big.slice(0, 100)}\n[characters 0–100 of ${big.length}; call again with offset 100 for more]`, big.slice(100)]);
    expect(reads[0]!.split("\n[")[0]! + reads[1]).toBe(big);
  });

  it("answers the model with an error naming the id when no result has it", async () => {
    const model = new ScriptedChatGenerator([toolCallReply(["read_tool_result", { id: "nope" }, "r1"]), ChatMessage.fromAssistant("sorry")]);
    const agent = new Agent({ chatGenerator: model, tools: [readToolResult()] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("read it")] });

    const answer = result.messages[2]!.toolCallResult!;
    expect(answer.error).toBe(true);
    expect(answer.result).toBe(`Tool 'read_tool_result' failed: No tool result has the call id 'nope'; pass the id after '#' in a "[result of …]" reference.`);
  });

  it("is a tool that uses state, named read_tool_result unless told otherwise", () => {
    expect(readToolResult().usesState).toBe(true);
    expect(readToolResult({ name: "reread" }).name).toBe("reread");
    expect(() => readToolResult({ maxChars: 0 })).toThrow(new ConfigurationError("readToolResult", "readToolResult needs maxChars as a whole number ≥ 1, got 0."));
  });

  it("gives a result with media back as its parts, in order", async () => {
    const image = ImageContent.fromBytes(Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d4948445200000010000000100806000000", "hex"), Buffer.alloc(50)]));
    const origin = { id: "chart_1", toolName: "chart", arguments: {} };
    const messages = [ChatMessage.fromAssistant(undefined, { toolCalls: [origin] }), ChatMessage.fromTool(["Sales by month:", image, "Q3 peaks."], origin)];
    const tool = readToolResult();

    const parts = await toolInternals(tool).run({ id: "chart_1" }, { state: new State(undefined, { messages }) } as unknown as ToolContext);

    expect(parts).toEqual(["Sales by month:", image, "Q3 peaks."]);
    expect((parts as unknown[])[1]).toBe(image);
  });
});
