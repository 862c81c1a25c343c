import { FileContent, ImageContent } from "toolwright";
import { describeMedia, MediaWarnings } from "../../src/media/describeMedia";
import { pdf, png } from "../helpers/mediaSamples";

describe("describeMedia", () => {
  it("names the kind, MIME type, size and the start of the SHA-256, never the bytes", () => {
    const image = png();
    expect(describeMedia(image)).toBe(`[image image/png, 68 bytes, sha256 ${image.describe().sha256!.slice(0, 12)}…]`);
  });

  it("names a file's name and a URL reference's URL", () => {
    expect(describeMedia(pdf())).toMatch(/^\[file invoice\.pdf application\/pdf, \d+ bytes, sha256 [0-9a-f]{12}…\]$/);
    expect(describeMedia(FileContent.fromUrl("https://example.com/a.pdf"))).toBe("[file of unknown type at https://example.com/a.pdf]");
    expect(describeMedia(ImageContent.fromUrl(`https://example.com/${"x".repeat(300)}`))).toBe(`[image of unknown type at https://example.com/${"x".repeat(180)}…]`);
  });
});

describe("MediaWarnings", () => {
  it("returns the description and records where the part was and why it was not sent", () => {
    const warnings = new MediaWarnings("SomeGenerator");
    const text = warnings.describe(FileContent.fromUrl("https://example.com/a.pdf"), "messages[3]", "it takes no file URLs");
    expect(text).toBe("[file of unknown type at https://example.com/a.pdf]");
    expect(warnings.warnings).toEqual(["SomeGenerator sent messages[3]'s [file of unknown type at https://example.com/a.pdf] as a description: it takes no file URLs."]);
  });
});
