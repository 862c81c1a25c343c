// A run with an MCP server's image: an Agent calls server-everything's get-tiny-image (over stdio,
// the official SDK client) and the model's next request holds the image as a part of the tool's
// result, with the server's text around it, and no text anywhere holding its base64.
import { Agent, ChatMessage, ImageContent } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { useMcpCleanup } from "../helpers/mcpCleanup";
import { referenceServers } from "../helpers/mcpProcesses";

const { connect } = useMcpCleanup("toolwright-mcp-image-run-");

/** Every text a message carries: text parts, tool results' text, and the text parts of results with media. */
function texts(message: ChatMessage): string[] {
  return message.content.flatMap((part) => {
    if (part.type === "text") return [part.text];
    if (part.type === "toolCallResult") return [part.toolCallResult.result, ...(part.toolCallResult.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : []))];
    return [];
  });
}

describe("McpToolset in an Agent run", () => {
  it("gives the model server-everything's tiny image as a part of the tool result, never as text", async () => {
    const everything = await connect({ command: process.execPath, args: [referenceServers.everything, "stdio"], stderr: "ignore" }, { include: ["get-tiny-image"] });
    const logo = (await everything.call("get-tiny-image")).binary[0]!;
    const model = new ScriptedChatGenerator([toolCallReply(["get-tiny-image", {}, "c1"]), ChatMessage.fromAssistant("It is the MCP logo.")]);

    const result = await new Agent({ chatGenerator: model, tools: [everything] }).run({ messages: [ChatMessage.fromUser("Show me the tiny image.")] });

    expect(result.lastMessage.text).toBe("It is the MCP logo.");
    expect(model.requests).toHaveLength(2);
    const sent = model.requests[1]!.messages;
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    const toolMessage = sent[2]!;
    expect(toolMessage.toolCallResult!.origin).toMatchObject({ id: "c1", toolName: "get-tiny-image" });
    expect(toolMessage.toolCallResult!.error).toBe(false);
    expect(toolMessage.toolCallResult!.parts!.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(toolMessage.toolCallResult!.result).toBe("Here's the image you requested:\nThe image above is the MCP logo.");
    expect(toolMessage.images).toHaveLength(1);
    const image = toolMessage.images[0]!;
    expect(ImageContent.isImageContent(image)).toBe(true);
    expect(image.base64Image).toBe(logo.data);
    expect(image.describe()).toEqual({ type: "image", mimeType: "image/png", bytes: logo.bytes, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), url: undefined });
    expect(Buffer.from(image.bytes!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(logo.data.length).toBeGreaterThan(100);
    for (const message of sent) for (const text of texts(message)) expect(text.includes(logo.data.slice(0, 40))).toBe(false);
    expect(JSON.stringify(result.messages.map(texts))).not.toContain(logo.data.slice(0, 40));
  });
});
