// serveMcp answering with images and files: a tool that returns ImageContent, FileContent or parts
// is read by the SDK's own client as `image`, `audio` and `resource` blocks, and by the MCP
// Inspector's CLI; text stays text.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { FileContent, ImageContent, Tool } from "toolwright";
import { McpToolset, serveMcp } from "toolwright/mcp";
import { closeAll, closing, connectClient } from "../helpers/mcpHttpTesting";

afterEach(closeAll);

const inspector = path.resolve(__dirname, "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
// A 1×1 PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
const pdf = Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n", "latin1");
const wav = Buffer.concat([Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"), Buffer.alloc(28)]);

async function startChartServer(): Promise<string> {
  const tools = [
    new Tool({ name: "chart", description: "Draws a chart.", parameters: { type: "object", properties: {} }, function: () => ["Sales by month:", ImageContent.fromBytes(png)] }),
    new Tool({ name: "invoice", description: "Returns the invoice.", parameters: { type: "object", properties: {} }, function: () => FileContent.fromBytes(pdf, { filename: "invoice.pdf" }) }),
    new Tool({ name: "beep", description: "Returns a sound.", parameters: { type: "object", properties: {} }, function: () => [FileContent.fromBytes(wav, { mimeType: "audio/wav" })] }),
    new Tool({ name: "logo", description: "Links the logo.", parameters: { type: "object", properties: {} }, function: () => ImageContent.fromUrl("https://example.com/img/logo.png") }),
    new Tool({ name: "hello", description: "Says hello.", parameters: { type: "object", properties: {} }, function: () => "hello" }),
  ];
  const server = serveMcp({ name: "charts", tools });
  closing.push(() => server.close());
  return (await server.listen()).url;
}

describe("serveMcp with tools that return images and files", () => {
  it("answers the SDK's client with image, resource, audio and resource_link blocks, and text as text", async () => {
    const { client } = await connectClient(await startChartServer());

    const results = await Promise.all(["chart", "invoice", "beep", "logo", "hello"].map((name) => client.callTool({ name, arguments: {} })));

    const sha = FileContent.fromBytes(pdf).describe().sha256;
    expect(results).toEqual([
      { content: [{ type: "text", text: "Sales by month:" }, { type: "image", data: png.toString("base64"), mimeType: "image/png" }] },
      { content: [{ type: "resource", resource: { uri: `toolwright://file/${sha}/invoice.pdf`, mimeType: "application/pdf", blob: pdf.toString("base64") } }] },
      { content: [{ type: "audio", data: wav.toString("base64"), mimeType: "audio/wav" }] },
      { content: [{ type: "resource_link", uri: "https://example.com/img/logo.png", name: "logo.png" }] },
      { content: [{ type: "text", text: "hello" }] },
    ]);
  });

  it("refuses, as a tool error, images from a tool with an output schema (structuredContent would carry them as base64)", async () => {
    const plot = new Tool({ name: "plot", description: "Plots.", parameters: { type: "object", properties: {} }, outputSchema: { type: "object" }, function: () => ImageContent.fromBytes(png) });
    const server = serveMcp({ tools: [plot] });
    closing.push(() => server.close());
    const { client } = await connectClient((await server.listen()).url);

    const result = await client.callTool({ name: "plot", arguments: {} });

    expect(result).toEqual({
      content: [{ type: "text", text: "Tool 'plot' returned images or files, which MCP sends as content blocks and not as the structuredContent its output schema asks for; declare no output schema for a tool that returns media." }],
      isError: true,
    });
  });

  it("round-trips through McpToolset: the served image and PDF come back as the same parts", async () => {
    const toolset = await McpToolset.connect({ url: await startChartServer() }, { include: ["chart", "invoice"] });
    closing.push(() => toolset.close());

    const chart = await toolset.call("chart");
    const invoice = await toolset.call("invoice");

    expect(chart.parts).toEqual(["Sales by month:", expect.any(ImageContent)]);
    expect(Buffer.from((chart.parts![1] as ImageContent).bytes!).equals(png)).toBe(true);
    expect((invoice.parts![0] as FileContent).describe()).toEqual({ ...FileContent.fromBytes(pdf).describe(), filename: "invoice.pdf" });
  });

  it("answers the MCP Inspector's CLI with the image block of a tools/call", async () => {
    const url = await startChartServer();
    const home = mkdtempSync(path.join(tmpdir(), "inspector-home-"));
    closing.push(async () => rmSync(home, { recursive: true, force: true }));

    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const args = [inspector, "--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", "chart", "--format", "json"];
      execFile(process.execPath, args, { env: { PATH: process.env.PATH ?? "", HOME: home, MCP_CATALOG_PATH: path.join(home, "mcp.json") }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
    });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ result: { content: [{ type: "text", text: "Sales by month:" }, { type: "image", data: png.toString("base64"), mimeType: "image/png" }] } });
  });
});
