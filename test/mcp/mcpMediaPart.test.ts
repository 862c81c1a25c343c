// What an MCP server's media blocks become when they are broken or hostile: a McpToolError naming
// the server, the tool and the block, which the model gets as an error tool result; never a crash,
// never the base64 as text. The blocks come from a real server (fixtures/mediaServer.js) through
// the SDK's client, which lets them all through.
import * as path from "node:path";
import { Agent, ChatMessage } from "toolwright";
import { McpToolError } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { mcpCallResult } from "../../src/mcp/mcpResult";
import { useMcpCleanup } from "../helpers/mcpCleanup";

const { connect } = useMcpCleanup("toolwright-mcp-media-");
const mediaServer = { command: process.execPath, args: [path.join(__dirname, "fixtures/mediaServer.js")], stderr: "ignore" as const };

const refusals: Array<[string, string]> = [
  ["unpadded", "an image block at content[1] that is not valid base64 (standard alphabet, padded to a multiple of 4 characters)"],
  ["lineBreaks", "an image block at content[1] that is not valid base64 (standard alphabet, padded to a multiple of 4 characters)"],
  ["mismatch", 'an image block at content[1] that is declared "image/png", but its bytes are a JPEG image'],
  ["notImage", 'an image block at content[1] that has mimeType "text/html", which is not an image type'],
  ["audioPng", 'an audio block at content[1] that is declared "audio/wav", but its bytes are a PNG image'],
  ["pdfPng", 'an embedded resource at content[1].resource.blob that is declared "application/pdf", but its bytes are a PNG image'],
];

describe("mcpMediaPart", () => {
  it.each(refusals)("gives the model an error naming the server, the tool and the block for the %s block", async (kind, what) => {
    const media = await connect(mediaServer);
    const model = new ScriptedChatGenerator([toolCallReply(["send", { kind }, "c1"]), ChatMessage.fromAssistant("done")]);

    const result = await new Agent({ chatGenerator: model, tools: [media] }).run({ messages: [ChatMessage.fromUser("go")] });

    const tool = result.messages.find((message) => message.role === "tool")!.toolCallResult!;
    expect(tool.error).toBe(true);
    expect(tool.result).toBe(`Tool 'send' failed: MCP server 'media-server' answered tool 'send' with ${what}; the result is not used.`);
    await expect(media.call("send", { kind })).rejects.toThrow(new McpToolError(`MCP server 'media-server' answered tool 'send' with ${what}; the result is not used.`));
  });

  // (Over stdio the SDK's client drops a message this large itself: the check is for HTTP servers.)
  it("refuses an image over the limit per part before decoding it", () => {
    const image = { type: "image" as const, mimeType: "image/png", data: "A".repeat(28 * 1024 * 1024) };

    expect(() => mcpCallResult({ content: [image] }, { server: "charts", tool: "plot", maxChars: 100_000, maxDepth: 64 })).toThrow(
      new McpToolError("MCP server 'charts' answered tool 'plot' with an image block at content[0] that holds 22020096 bytes, over the limit of 20971520 bytes per image or file; the result is not used."),
    );
  });

  it("refuses a result whose images together exceed the limit per message", () => {
    const data = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(19 * 1024 * 1024)]).toString("base64");
    const image = { type: "image" as const, mimeType: "image/png", data };

    expect(() => mcpCallResult({ content: [image, image, image] }, { server: "charts", tool: "plot", maxChars: 100_000, maxDepth: 64 })).toThrow(
      new McpToolError("MCP server 'charts' answered tool 'plot' with more than 52428800 bytes of images and files (the limit per message) by content[2]; the result is not used."),
    );
  });

  it("cuts the text parts of a result with media at maxResultChars and keeps its image", () => {
    const image = { type: "image" as const, mimeType: "image/png", data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString("base64") };

    const { parts } = mcpCallResult({ content: [{ type: "text", text: "abcdef" }, image, { type: "text", text: "ghijkl" }, { type: "text", text: "never shown" }] }, { server: "charts", tool: "plot", maxChars: 9, maxDepth: 64 });

    expect(parts).toEqual(["abcdef", expect.objectContaining({ kind: "image", mimeType: "image/png" }), "ghi\n[Cut: the text of tool 'plot' from MCP server 'charts' is over maxResultChars (9); the rest of it is not shown, its images and files are.]"]);
  });
});
