// Binary data in MCP tool results never reaches the model as text, wherever the server puts it:
// server-filesystem's read_media_file (an image or audio part in `content` and again in
// `structuredContent`, a blob resource for other files) and server-everything's image and blob
// resources become ImageContent and FileContent parts; resource links stay text; and a result too
// long for maxResultChars is cut with a notice.
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import * as zlib from "node:zlib";
import { pathToFileURL } from "node:url";
import { Agent, ChatMessage, FileContent, ImageContent, ToolRunner } from "toolwright";
import type { McpToolset } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { freePort, referenceServers, startHttpProcess } from "../helpers/mcpProcesses";
import { useMcpCleanup } from "../helpers/mcpCleanup";

const { connect, tempDir, onClose } = useMcpCleanup("toolwright-mcp-binary-");

/** The text the model got for each call of one step. */
async function modelResults(toolset: McpToolset, ...calls: Array<[string, Record<string, unknown>]>): Promise<string[]> {
  const model = new ScriptedChatGenerator([toolCallReply(...calls.map(([name, args], i): [string, Record<string, unknown>, string] => [name, args, `c${i + 1}`])), ChatMessage.fromAssistant("done")]);
  const result = await new Agent({ chatGenerator: model, tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")] });
  return result.messages.filter((message) => message.role === "tool").map((message) => message.toolCallResult!.result);
}

/**
 * What each call's tool function returned, through the runtime's own tool-calling step (ToolRunner):
 * the parts the model is given once the run sends a tool's parts (src/tools, issue #29).
 */
async function toolValues(toolset: McpToolset, ...calls: Array<[string, Record<string, unknown>]>): Promise<unknown[]> {
  const runner = new ToolRunner({ tools: [toolset] });
  const values: unknown[] = [];
  for (const [name, args] of calls) {
    const outcome = await runner.call(runner.newState(), { name, arguments: args });
    expect(outcome.error).toBe(false);
    values.push(outcome.value);
  }
  return values;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("McpToolset on server-filesystem's media files", () => {
  it("takes neither long text of one kind of character nor a hex digest for base64 data", async () => {
    const dir = tempDir();
    const digest = "0123456789abcdef".repeat(64);
    fs.writeFileSync(path.join(dir, "digest.txt"), digest);
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_text_file"] });

    const direct = await files.call("read_text_file", { path: path.join(dir, "digest.txt") });

    expect(direct).toEqual({ output: { content: digest }, binary: [] });
  });

  it("gives a 300 KB image, a WAV and a binary file as parts, and keeps each one's data once in binary", async () => {
    const dir = tempDir();
    const image = Buffer.concat([pngSignature, randomBytes(300_000 - pngSignature.length)]);
    const sound = Buffer.concat([Buffer.from("RIFF\xe0\x03\x00\x00WAVE", "latin1"), randomBytes(988)]);
    fs.writeFileSync(path.join(dir, "photo.png"), image);
    fs.writeFileSync(path.join(dir, "sound.wav"), sound);
    fs.writeFileSync(path.join(dir, "data.bin"), Buffer.concat([Buffer.from("data"), randomBytes(995)]));
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_media_file"] });

    const values = await toolValues(files, ["read_media_file", { path: path.join(dir, "photo.png") }], ["read_media_file", { path: path.join(dir, "sound.wav") }], ["read_media_file", { path: path.join(dir, "data.bin") }]);

    const uri = pathToFileURL(path.join(dir, "data.bin")).href;
    expect(values.map((parts) => (parts as Array<ImageContent | FileContent>).map((part) => part.describe()))).toEqual([
      [{ type: "image", mimeType: "image/png", bytes: 300_000, sha256: sha256(image), url: undefined }],
      [{ type: "file", mimeType: "audio/wav", bytes: 1000, sha256: sha256(sound), url: undefined }],
      [{ type: "file", mimeType: "application/octet-stream", bytes: 999, sha256: expect.any(String), url: undefined, filename: "data.bin" }],
    ]);
    expect((values[2] as FileContent[])[0]!.extra).toEqual({ uri });

    const direct = await files.call("read_media_file", { path: path.join(dir, "photo.png") });
    expect(direct.output).toEqual({ content: [{ type: "image", data: "[image image/png, 300000 bytes]", mimeType: "image/png" }] });
    expect(direct.binary).toEqual([{ kind: "image", mimeType: "image/png", bytes: 300_000, data: image.toString("base64"), path: "structuredContent.content[0].data" }]);
    expect(Buffer.from((direct.parts![0] as ImageContent).bytes!).equals(image)).toBe(true);
  });

  it("cuts a result longer than maxResultChars, with a notice naming the tool, its size and the option", async () => {
    const dir = tempDir();
    const text = "line of a long file\n".repeat(10_000);
    fs.writeFileSync(path.join(dir, "long.txt"), text);
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_text_file"], maxResultChars: 1000 });

    const [result] = await modelResults(files, ["read_text_file", { path: path.join(dir, "long.txt") }]);

    const json = JSON.stringify({ content: text });
    expect(result).toBe(`${json.slice(0, 1000)}\n[Cut: the result of tool 'read_text_file' from MCP server 'secure-filesystem-server' has ${json.length} characters, more than maxResultChars (1000); the rest is not shown.]`);
  });

  it("gives the model a result of 100000 characters by default, and cuts one over it", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "fits.txt"), "x".repeat(99_900));
    fs.writeFileSync(path.join(dir, "long.txt"), "x".repeat(100_000));
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_text_file"] });

    const [fits, long] = await modelResults(files, ["read_text_file", { path: path.join(dir, "fits.txt") }], ["read_text_file", { path: path.join(dir, "long.txt") }]);

    // (Compared as booleans: jest would print 100,000 characters.)
    expect(fits === JSON.stringify({ content: "x".repeat(99_900) })).toBe(true);
    const json = JSON.stringify({ content: "x".repeat(100_000) });
    expect(long === `${json.slice(0, 100_000)}\n[Cut: the result of tool 'read_text_file' from MCP server 'secure-filesystem-server' has 100014 characters, more than maxResultChars (100000); the rest is not shown.]`).toBe(true);
  });
});

describe("McpToolset on server-everything's binary results over Streamable HTTP", () => {
  it("gives images and blob resources as parts in order with the text, and resource links as text", async () => {
    const server = await startHttpProcess([referenceServers.everything, "streamableHttp"], await freePort(), /listening on port/);
    onClose(() => server.kill());
    const everything = await connect({ url: server.url }, { include: ["get-tiny-image", "gzip-file-as-resource", "get-resource-links"] });
    const gzip = { name: "hello.gz", data: `data:text/plain;base64,${Buffer.from("hello hello hello").toString("base64")}`, outputType: "resource" };

    const [image, zipped, links] = await toolValues(everything, ["get-tiny-image", {}], ["gzip-file-as-resource", gzip], ["get-resource-links", { count: 2 }]);

    const logo = (await everything.call("get-tiny-image")).binary[0]!;
    expect(image).toEqual(["Here's the image you requested:", expect.any(ImageContent), "The image above is the MCP logo."]);
    expect((image as unknown[])[1]).toMatchObject({ mimeType: "image/png", base64Image: logo.data });
    expect((zipped as FileContent[]).map((part) => part.describe())).toEqual([{ type: "file", mimeType: "application/gzip", bytes: 28, sha256: expect.any(String), url: undefined, filename: "hello.gz" }]);
    expect(zlib.gunzipSync((zipped as FileContent[])[0]!.bytes!).toString()).toBe("hello hello hello");
    expect(links).toBe("Here are 2 resource links to resources available in this server:\n[resource link demo://resource/dynamic/blob/1: Blob Resource 1 (text/plain)]\n[resource link demo://resource/dynamic/text/2: Text Resource 2 (text/plain)]");

    const message = ChatMessage.fromTool(image as string[], { id: "c1", toolName: "get-tiny-image", arguments: {} });
    expect(message.toolCallResult!.result).toBe("Here's the image you requested:\nThe image above is the MCP logo.");
    expect(message.toolCallResult!.parts!.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(message.images[0]!.describe()).toEqual({ type: "image", mimeType: "image/png", bytes: logo.bytes, sha256: expect.any(String), url: undefined });
    expect(JSON.stringify(message.toolCallResult!.result)).not.toContain(logo.data.slice(0, 40));
  });
});
