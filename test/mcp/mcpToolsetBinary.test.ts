// Binary data in MCP tool results never reaches the model as text, wherever the server puts it:
// server-filesystem's read_media_file (an image or audio part in `content` and again in
// `structuredContent`, a blob resource for other files), server-everything's image, blob
// resources and resource links; and a result too long for maxResultChars is cut with a notice.
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { Agent, ChatMessage } from "toolwright";
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

describe("McpToolset on server-filesystem's media files", () => {
  it("takes neither long text of one kind of character nor a hex digest for base64 data", async () => {
    const dir = tempDir();
    const digest = "0123456789abcdef".repeat(64);
    fs.writeFileSync(path.join(dir, "digest.txt"), digest);
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_text_file"] });

    const direct = await files.call("read_text_file", { path: path.join(dir, "digest.txt") });

    expect(direct).toEqual({ output: { content: digest }, binary: [] });
  });

  it("describes a 300 KB image found in both content and structuredContent, and keeps its data once in binary", async () => {
    const dir = tempDir();
    const image = randomBytes(300_000);
    fs.writeFileSync(path.join(dir, "photo.png"), image);
    fs.writeFileSync(path.join(dir, "sound.wav"), randomBytes(1000));
    fs.writeFileSync(path.join(dir, "data.bin"), randomBytes(999));
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { include: ["read_media_file"] });

    const texts = await modelResults(files, ["read_media_file", { path: path.join(dir, "photo.png") }], ["read_media_file", { path: path.join(dir, "sound.wav") }], ["read_media_file", { path: path.join(dir, "data.bin") }]);

    const uri = pathToFileURL(path.join(dir, "data.bin")).href;
    expect(texts).toEqual([
      JSON.stringify({ content: [{ type: "image", data: "[image image/png, 300000 bytes]", mimeType: "image/png" }] }),
      JSON.stringify({ content: [{ type: "audio", data: "[audio audio/wav, 1000 bytes]", mimeType: "audio/wav" }] }),
      JSON.stringify({ content: [{ type: "resource", resource: { uri, mimeType: "application/octet-stream", blob: `[binary data application/octet-stream ${uri}, 999 bytes]` } }] }),
    ]);
    // (Before: a 400,000-character base64 tool result.)
    expect(texts[0]!.length).toBeLessThan(200);

    const direct = await files.call("read_media_file", { path: path.join(dir, "photo.png") });
    expect(direct.binary).toEqual([{ kind: "image", mimeType: "image/png", bytes: 300_000, data: image.toString("base64"), path: "structuredContent.content[0].data" }]);
    expect(Buffer.from(direct.binary[0]!.data, "base64").equals(image)).toBe(true);
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
  it("describes images, blob resources and resource links, and keeps the data in binary", async () => {
    const server = await startHttpProcess([referenceServers.everything, "streamableHttp"], await freePort(), /listening on port/);
    onClose(() => server.kill());
    const everything = await connect({ url: server.url }, { include: ["get-tiny-image", "gzip-file-as-resource", "get-resource-links"] });
    const gzip = { name: "hello.gz", data: `data:text/plain;base64,${Buffer.from("hello hello hello").toString("base64")}`, outputType: "resource" };

    const texts = await modelResults(everything, ["get-tiny-image", {}], ["gzip-file-as-resource", gzip], ["get-resource-links", { count: 2 }]);

    const image = (await everything.call("get-tiny-image")).binary;
    expect(image).toEqual([expect.objectContaining({ kind: "image", mimeType: "image/png", path: "content[1]" })]);
    const zipped = (await everything.call("gzip-file-as-resource", gzip)).binary;
    expect(zipped).toEqual([expect.objectContaining({ kind: "blob", mimeType: "application/gzip", uri: "demo://resource/session/hello.gz", path: "content[0].resource.blob" })]);
    expect(texts).toEqual([
      `Here's the image you requested:\n[image image/png, ${image[0]!.bytes} bytes]\nThe image above is the MCP logo.`,
      `[binary data application/gzip demo://resource/session/hello.gz, ${zipped[0]!.bytes} bytes]`,
      "Here are 2 resource links to resources available in this server:\n[resource link demo://resource/dynamic/blob/1: Blob Resource 1 (text/plain)]\n[resource link demo://resource/dynamic/text/2: Text Resource 2 (text/plain)]",
    ]);
  });
});
