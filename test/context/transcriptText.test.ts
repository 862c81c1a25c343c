import { ChatMessage, FileContent, ImageContent } from "toolwright";
import { transcriptText } from "../../src/context/transcriptText";

const png = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d4948445200000010000000100806000000", "hex"), Buffer.alloc(200)]);

describe("transcriptText", () => {
  it("describes images and files, a tool result's included, and never puts their base64 in the transcript", () => {
    const image = ImageContent.fromBytes(png);
    const sha = image.describe().sha256!.slice(0, 12);
    const origin = { id: "c1", toolName: "chart", arguments: {} };
    const messages = [
      ChatMessage.fromUser(["What is this?", image, ImageContent.fromUrl("https://example.com/a.jpg", { mimeType: "image/jpeg" }), FileContent.fromBytes(Buffer.from("a,b\n"), { mimeType: "text/csv", filename: "t.csv" })]),
      ChatMessage.fromAssistant(undefined, { toolCalls: [origin] }),
      ChatMessage.fromTool(["Drawn:", image], origin),
    ];

    const text = transcriptText(messages);

    expect(text).toBe(
      [
        "user: What is this?",
        `user: [image image/png, ${png.length} bytes, sha256 ${sha}…]`,
        "user: [image image/jpeg at https://example.com/a.jpg]",
        `user: [file t.csv text/csv, 4 bytes, sha256 ${FileContent.fromBytes(Buffer.from("a,b\n")).describe().sha256!.slice(0, 12)}…]`,
        "assistant called chart({}) #c1",
        `tool result #c1 (chart): Drawn:\n[image image/png, ${png.length} bytes, sha256 ${sha}…]`,
      ].join("\n\n"),
    );
    expect(text).not.toContain(png.toString("base64").slice(0, 40));
  });
});
