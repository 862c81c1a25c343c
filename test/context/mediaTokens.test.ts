import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChatMessage, estimateTokenCounter, FileContent, gptTokenCounter, ImageContent } from "toolwright";
import { anthropicImageTokens, fileTokens, openAiImageTokens } from "../../src/context/mediaTokens";

const fixture = (name: string) => readFileSync(join(__dirname, "../fixtures/media", name));
// A PNG whose IHDR says width × height (the pixels are not needed to count tokens).
const pngOf = (width: number, height: number) => {
  const header = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return ImageContent.fromBytes(Buffer.concat([header, size, Buffer.from("0806000000", "hex")]));
};

describe("openAiImageTokens", () => {
  it("gives OpenAI's documented figures: 85 at low detail, 85 + 170 per 512-pixel tile after scaling", () => {
    // OpenAI's examples: 1024×1024 → 768×768, 4 tiles, 765; 2048×4096 → 768×1536, 6 tiles, 1,105.
    expect(openAiImageTokens(pngOf(1024, 1024))).toBe(765);
    expect(openAiImageTokens(pngOf(2048, 4096))).toBe(1105);
    expect(openAiImageTokens(ImageContent.fromBytes(fixture("tree-787x941.png"), { detail: "low" }))).toBe(85);
    expect(openAiImageTokens(ImageContent.fromBytes(fixture("tree-787x941.png")))).toBe(765);
    expect(openAiImageTokens(ImageContent.fromBytes(fixture("stripe-493x58-progressive.jpg")))).toBe(255);
  });

  it("gives 1,445, the formula's most, when the size is unknown", () => {
    expect(openAiImageTokens(ImageContent.fromUrl("https://example.com/a.png"))).toBe(1445);
  });
});

describe("anthropicImageTokens", () => {
  it("gives width × height / 750 after scaling the long edge to 1,568, at most 1,600", () => {
    expect(anthropicImageTokens(ImageContent.fromBytes(fixture("tree-787x941.png")))).toBe(988);
    expect(anthropicImageTokens(ImageContent.fromBytes(fixture("logo-150x61.gif")))).toBe(13);
    expect(anthropicImageTokens(pngOf(4096, 8192))).toBe(1600);
    expect(anthropicImageTokens(ImageContent.fromUrl("https://example.com/a.png"))).toBe(1600);
  });
});

describe("fileTokens", () => {
  it("counts a file's bytes as text (4 a token, plus a quarter), and a URL reference as 1,600", () => {
    expect(fileTokens(FileContent.fromBytes(Buffer.from("a,b\n".repeat(1000)), { mimeType: "text/csv" }))).toBe(1250);
    expect(fileTokens(FileContent.fromUrl("https://example.com/report.pdf"))).toBe(1600);
  });
});

describe("estimateTokenCounter with media", () => {
  it("adds the larger of OpenAI's and Anthropic's figure per image, and a tool result's media too", () => {
    const tree = ImageContent.fromBytes(fixture("tree-787x941.png"));
    // "Look" = 4 chars → ceil(1.25) + 4 = 6; the image: max(765, 988).
    expect(estimateTokenCounter.count(ChatMessage.fromUser(["Look", tree]))).toBe(6 + 988);
    const origin = { id: "c1", toolName: "chart", arguments: {} };
    // "Done" + "c1" = 6 chars → ceil(1.875) + 4 = 6.
    expect(estimateTokenCounter.count(ChatMessage.fromTool(["Done", tree], origin))).toBe(6 + 988);
  });
});

describe("gptTokenCounter with media", () => {
  it("adds OpenAI's tile figure for each image's detail", () => {
    const counter = gptTokenCounter();
    const text = counter.count(ChatMessage.fromUser("Look"));

    expect(counter.count(ChatMessage.fromUser(["Look", ImageContent.fromBytes(fixture("tree-787x941.png"))]))).toBe(text + 765);
    expect(counter.count(ChatMessage.fromUser(["Look", ImageContent.fromBytes(fixture("tree-787x941.png"), { detail: "low" })]))).toBe(text + 85);
  });
});
