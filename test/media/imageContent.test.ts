import { ChatMessage, ConfigurationError, FileContent, ImageContent } from "toolwright";

// A 1×1 transparent PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

describe("ImageContent", () => {
  it("reads the MIME type from the data's first bytes and describes the image without its bytes", () => {
    const image = ImageContent.fromBytes(png, { detail: "low" });

    expect(image.mimeType).toBe("image/png");
    expect(image.describe()).toEqual({ type: "image", mimeType: "image/png", bytes: png.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), url: undefined });
    expect(image.toDataUrl()).toBe(`data:image/png;base64,${png.toString("base64")}`);
  });

  it("refuses a MIME type the data contradicts, base64 that is not base64, and a type that is not an image", () => {
    expect(() => ImageContent.fromBytes(png, { mimeType: "image/jpeg" })).toThrow(
      new ConfigurationError("ImageContent.fromBytes", "ImageContent.fromBytes was given mimeType image/jpeg, but the data is a PNG image (by its first bytes); give the right mimeType or leave it out."),
    );
    expect(() => ImageContent.fromBase64("not base64!")).toThrow(
      'ImageContent.fromBase64 was given data that is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters, no whitespace or data: prefix); encode the bytes with Buffer.from(bytes).toString("base64").',
    );
    expect(() => ImageContent.fromBytes(Buffer.from("hello"), { mimeType: "text/plain" })).toThrow('ImageContent.fromBytes was given mimeType "text/plain", which is not an image MIME type.');
  });

  it("round-trips Haystack's ImageContent dict inside a user message unchanged", () => {
    const haystack = {
      role: "user",
      meta: {},
      name: null,
      content: [{ text: "What is this?" }, { image: { base64_image: png.toString("base64"), mime_type: "image/png", detail: "auto", meta: { source: "scan" }, validation: true } }],
    };

    const message = ChatMessage.fromJSON(haystack);

    expect(message.images[0]!.mimeType).toBe("image/png");
    expect(message.toJSON()).toEqual(haystack);
  });

  it("round-trips a tool result with text and an image as Haystack's list result", () => {
    const origin = { id: "call_1", toolName: "chart", arguments: {} };
    const message = ChatMessage.fromTool(["Sales by month:", ImageContent.fromBytes(png), FileContent.fromBytes(Buffer.from("%PDF-1.4\n"), { filename: "report.pdf" })], origin);

    const json = JSON.parse(JSON.stringify(message.toJSON()));
    const back = ChatMessage.fromJSON(json);

    expect(message.toolCallResult!.result).toBe("Sales by month:");
    expect(json.content[0].tool_call_result.result).toEqual([
      { text: "Sales by month:" },
      { image: { base64_image: png.toString("base64"), mime_type: "image/png", detail: null, meta: {}, validation: true } },
      { file: { base64_data: Buffer.from("%PDF-1.4\n").toString("base64"), mime_type: "application/pdf", filename: "report.pdf", extra: {}, validation: true } },
    ]);
    expect(back.toJSON()).toEqual(json);
    expect(back.images).toHaveLength(1);
    expect(back.files[0]!.filename).toBe("report.pdf");
  });
});
