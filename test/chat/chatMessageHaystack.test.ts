// Haystack interop: messages serialized by Haystack's own ChatMessage.to_dict (the expected dicts of
// its tests at c7cb46c0f2, copied as JSON under test/fixtures/haystack; see the README there) load
// with ChatMessage.fromJSON and write back unchanged, byte for byte as JSON.
import * as fs from "node:fs";
import * as path from "node:path";
import { ChatMessage, ConfigurationError, FileContent, ImageContent } from "toolwright";

const fixtures = path.join(__dirname, "../fixtures/haystack");

function fixtureText(name: string): string {
  return fs.readFileSync(path.join(fixtures, name), "utf8");
}

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

// Haystack's ToolCall.to_dict writes `extra: None` for a call without provider data; toolwright
// writes no key then (Haystack's from_dict reads both). The one difference, kept visible here.
function withoutNullExtra(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullExtra);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!(key === "extra" && inner === null && "tool_name" in value)) out[key] = withoutNullExtra(inner);
  return out;
}

const unchanged = ["image-message.json", "file-message.json", "serde.json", "reasoning-message.json", "validation-false.json", "mime-type-none.json"];

describe("ChatMessage.fromJSON on Haystack's dicts", () => {
  it.each(unchanged)("writes %s back unchanged, as the same JSON text", (name) => {
    const text = fixtureText(name);

    const message = ChatMessage.fromJSON(JSON.parse(text));

    expect(message.toJSON()).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(message.toJSON(), null, 2) + "\n" === text).toBe(true);
  });

  it("writes a tool result of text, image and file parts back unchanged but for the origin's extra: null", () => {
    const json = fixture("tool-result-parts.json");

    const message = ChatMessage.fromJSON(json);

    expect(message.toJSON()).toStrictEqual(withoutNullExtra(json));
    const origin = (message.toJSON().content[0] as { tool_call_result: { origin: unknown } }).tool_call_result.origin;
    expect(origin).toStrictEqual({ tool_name: "test_tool", arguments: {}, id: null });
  });

  it("reads a Haystack tool result's parts as text, ImageContent and FileContent, the text joined as the result", () => {
    const message = ChatMessage.fromJSON(fixture("tool-result-parts.json"));

    const result = message.toolCallResult!;
    expect(result.result).toBe("Here is an image:");
    expect(result.parts!.map((part) => part.type)).toEqual(["text", "image", "file"]);
    expect(message.images.map((image) => image.describe())).toEqual([{ type: "image", mimeType: "image/png", bytes: 68, sha256: "5e3d382db4dd83d59aa5742793ad6b7903409e865c83bcbc54835049f043bc15", url: undefined }]);
    expect(message.files.map((file) => file.describe())).toEqual([{ type: "file", mimeType: "application/pdf", bytes: 19039, sha256: "c3aa208820488df970997bb5a8b0700d5339d42c3a28a3a45f11e65f6e5464a1", url: undefined, filename: "guide.pdf" }]);
    expect(result.origin).toEqual({ toolName: "test_tool", arguments: {} });
  });

  it("keeps Haystack's validation: false and a file's mime_type None, and reads the data either way", () => {
    const validationOff = ChatMessage.fromJSON(fixture("validation-false.json"));
    const unknownType = ChatMessage.fromJSON(fixture("mime-type-none.json"));

    expect(validationOff.images[0]!.mimeType).toBe("image/png");
    expect(validationOff.files.map((file) => [file.mimeType, file.filename, file.byteLength])).toEqual([
      ["application/pdf", "test.pdf", 19039],
      [undefined, undefined, 21],
    ]);
    expect(Buffer.from(unknownType.files[0]!.bytes!).toString()).toBe("just some plain text content");
    expect(unknownType.files[0]!.mimeType).toBeUndefined();
  });
});

describe("ChatMessage.fromJSON where Haystack's validation: false lets through what toolwright checks", () => {
  // Haystack's test_image_content_init_with_invalid_base64_string_and_validation_false.
  it("refuses data that is not base64 even with validation: false", () => {
    const json = { role: "user", content: [{ image: { base64_image: "invalid_base64_string", mime_type: null, detail: null, meta: {}, validation: false } }] };

    expect(() => ChatMessage.fromJSON(json)).toThrow(
      new ConfigurationError(
        "ChatMessage.fromJSON content[0].image",
        'ChatMessage.fromJSON content[0].image was given data that is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters, no whitespace or data: prefix); encode the bytes with Buffer.from(bytes).toString("base64").',
      ),
    );
  });

  // Haystack's test_image_content_init_with_invalid_mime_type_and_validation_false.
  it("refuses a PNG declared text/xml even with validation: false", () => {
    const png = (fixture("image-message.json").content as Array<{ image?: { base64_image: string } }>)[1]!.image!.base64_image;
    const json = { role: "user", content: [{ image: { base64_image: png, mime_type: "text/xml", detail: null, meta: {}, validation: false } }] };

    expect(() => ChatMessage.fromJSON(json)).toThrow(new ConfigurationError("ChatMessage.fromJSON content[0].image", 'ChatMessage.fromJSON content[0].image was given mimeType "text/xml", which is not an image MIME type.'));
  });

  it("fills in the type of an image Haystack left unguessed (validation: false, mime_type None) from its first bytes", () => {
    const png = (fixture("image-message.json").content as Array<{ image?: { base64_image: string } }>)[1]!.image!.base64_image;
    const json = { role: "user", meta: {}, name: null, content: [{ image: { base64_image: png, mime_type: null, detail: null, meta: {}, validation: false } }] };

    const image = ChatMessage.fromJSON(json).images[0]!;

    expect(image.toJSON()).toStrictEqual({ base64_image: png, mime_type: "image/png", detail: null, meta: {}, validation: false });
    expect(ImageContent.isImageContent(image)).toBe(true);
    expect(FileContent.isFileContent(image)).toBe(false);
  });
});
