import { McpToolError, mcpCallResult } from "../../src/mcp/mcpResult";

// mcpCallResult reads what the MCP SDK's client parsed from a server's answer: any JSON a server
// chose. The reference servers' real answers are in mcpToolsetBinary.test.ts; these are answers no
// reference server sends, as a hostile one could.
const limits = { server: "files", tool: "read", maxChars: 100_000, maxDepth: 64 };

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("mcpCallResult", () => {
  it("refuses structuredContent nested deeper than the limit, without walking it recursively", () => {
    expect(() => mcpCallResult({ content: [], structuredContent: nested(100_000) }, limits)).toThrow(
      new McpToolError("MCP server 'files' answered tool 'read' with structuredContent nested deeper than 64 levels, which toolwright does not read; the result is not used."),
    );
    expect(mcpCallResult({ content: [], structuredContent: nested(64) }, limits).output).toEqual(nested(64));
  });

  it("keeps each of 20,000 images once when the server repeats them in structuredContent", () => {
    const images = Array.from({ length: 20_000 }, (_, i) => ({ type: "image" as const, mimeType: "image/png", data: Buffer.from(`image ${i}`).toString("base64") }));

    const result = mcpCallResult({ content: images, structuredContent: { content: images } }, limits);

    expect(result.binary).toHaveLength(20_000);
    expect(new Set(result.binary.map((part) => part.data)).size).toBe(20_000);
    expect(result.binary[0]).toMatchObject({ kind: "image", mimeType: "image/png", path: "structuredContent.content[0].data" });
  });
});
