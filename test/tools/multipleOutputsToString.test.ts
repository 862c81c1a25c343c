// Haystack's several-outputs form of outputs_to_string (haystack/components/agents/tool_calling.py
// _build_tool_result_message at c7cb46c0f2): each output is rendered as the single form renders it
// (source, then handler, else JSON), and the model gets one JSON object of those texts. Haystack
// writes it with json.dumps (`{"docs": "…", "total": "2"}`, spaces after , and :); toolwright with
// JSON.stringify (no spaces), as for every JSON result.
import { Agent, ChatMessage, ConfigurationError, Tool } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { ImageContent } from "toolwright";
import { pngImage } from "../helpers/pngImage";

const parameters = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
const searchResult = { documents: [{ title: "Intro" }, { title: "Setup" }], count: 2, took: "3 ms" };

function searchTool(outputsToString: unknown, result: unknown = searchResult): Tool {
  return new Tool({ name: "search", description: "Search the docs.", parameters, outputsToString: outputsToString as never, function: () => result });
}

async function toolMessage(tool: Tool): Promise<ChatMessage> {
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["search", { query: "start" }]), ChatMessage.fromAssistant("Done.")]);
  const result = await new Agent({ chatGenerator, tools: [tool] }).run({ messages: [ChatMessage.fromUser("How do I start?")] });
  return result.messages.find((message) => message.role === "tool")!;
}

describe("outputsToString with several outputs", () => {
  it("sends a JSON object of each output's text: a handler's string, a source's value as JSON", async () => {
    const tool = searchTool({ docs: { source: "documents", handler: (docs: { title: string }[]) => docs.map((doc) => doc.title).join(", ") }, total: { source: "count" }, all: {} });
    const message = await toolMessage(tool);
    expect(message.toolCallResult?.result).toBe(JSON.stringify({ docs: "Intro, Setup", total: "2", all: JSON.stringify(searchResult) }));
    expect(message.toolCallResult?.error).toBe(false);
  });

  it("renders a source the result does not have as null, as the single form does", async () => {
    const message = await toolMessage(searchTool({ missing: { source: "nope" } }));
    expect(message.toolCallResult?.result).toBe('{"missing":"null"}');
  });

  it("answers the model with an error when an output's handler throws, as the single form does", async () => {
    const tool = searchTool({ docs: { source: "documents", handler: () => { throw new Error("bad docs"); } } });
    const message = await toolMessage(tool);
    expect(message.toolCallResult?.error).toBe(true);
    expect(message.toolCallResult?.result).toBe("Tool 'search' ran, but its result could not be turned into text: bad docs.");
  });

  it("refuses an image inside an output, naming the output", async () => {
    const image = ImageContent.fromBytes(pngImage(2, 2), { mimeType: "image/png" });
    const message = await toolMessage(searchTool({ picture: { source: "image" } }, { image }));
    expect(message.toolCallResult?.error).toBe(true);
    expect(message.toolCallResult?.result).toContain("the result holds an image or a file at picture");
  });

  it("refuses rawResult, an unknown option and an output that is not an object, with what each output takes", () => {
    expect(() => searchTool({ docs: { source: "documents", rawResult: true } })).toThrow(
      new ConfigurationError("Tool 'search'", "Tool 'search' has outputsToString.docs with unknown option 'rawResult'; each of several outputs takes source and handler (rawResult only in the single form)."),
    );
    expect(() => searchTool({ docs: { source: "documents" }, total: "count" })).toThrow(
      `Tool 'search' has outputsToString.total that is not { source?, handler? }, got string "count"; outputsToString is { source?, handler?, rawResult? }, or output name → { source?, handler? } for several outputs.`,
    );
    expect(() => searchTool({ docs: { handler: "titles" } })).toThrow("Tool 'search' has outputsToString.docs.handler that is not a function, got string \"titles\".");
  });

  it("keeps the single form when any of source, handler or rawResult is at the top", async () => {
    const message = await toolMessage(searchTool({ source: "count" }));
    expect(message.toolCallResult?.result).toBe("2");
  });
});
