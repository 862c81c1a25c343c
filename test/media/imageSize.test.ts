import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ImageContent } from "toolwright";
import { imageSize } from "../../src/media/imageSize";

const fixture = (name: string) => readFileSync(join(__dirname, "../fixtures/media", name));

describe("imageSize", () => {
  it("reads the pixel size from a PNG's IHDR, a GIF's screen descriptor and a JPEG's SOF (progressive, and after an EXIF segment)", () => {
    expect(imageSize(ImageContent.fromBytes(fixture("tree-787x941.png")))).toEqual({ width: 787, height: 941 });
    expect(imageSize(ImageContent.fromBytes(fixture("logo-150x61.gif")))).toEqual({ width: 150, height: 61 });
    expect(imageSize(ImageContent.fromBytes(fixture("stripe-493x58-progressive.jpg")))).toEqual({ width: 493, height: 58 });
    expect(imageSize(ImageContent.fromBytes(fixture("flower-161x161-exif.jpg")))).toEqual({ width: 161, height: 161 });
  });

  it("gives undefined for a URL reference, a format it does not read, and a JPEG cut before its frame header", () => {
    expect(imageSize(ImageContent.fromUrl("https://example.com/a.png", { mimeType: "image/png" }))).toBeUndefined();
    const webp = Buffer.concat([Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"), Buffer.alloc(20)]);
    expect(imageSize(ImageContent.fromBytes(webp))).toBeUndefined();
    expect(imageSize(ImageContent.fromBytes(fixture("flower-161x161-exif.jpg").subarray(0, 40)))).toBeUndefined();
  });
});
