import { ConfigurationError, FileContent, ImageContent } from "toolwright";
import { resultParts, resultPartsText, toolResultContent } from "../../src/tools/toolResultContent";
import { capResultParts } from "../../src/tools/toolResultText";
import { thrownError } from "../helpers/thrownError";
import { pngImage } from "../helpers/pngImage";

const image = ImageContent.fromBytes(pngImage(2, 2));
const pdf = FileContent.fromBytes(Buffer.from("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n", "latin1"), { filename: "invoice.pdf" });

describe("toolResultContent", () => {
  it("sends an ImageContent or a FileContent alone as one part", () => {
    expect(toolResultContent(image, undefined)).toEqual([image]);
    expect(toolResultContent(pdf, undefined)).toEqual([pdf]);
  });

  it("sends an array of strings, images and files as parts, in order", () => {
    const parts = ["The chart:", image, "and the invoice:", pdf];
    expect(toolResultContent(parts, undefined)).toEqual(parts);
  });

  it("keeps sending an array of strings only as JSON text, as before", () => {
    expect(toolResultContent(["a", "b"], undefined)).toBe('["a","b"]');
  });

  it("sends an array of strings as parts with rawResult", () => {
    expect(toolResultContent(["a", "b"], { rawResult: true })).toEqual(["a", "b"]);
    expect(toolResultContent([image], { rawResult: true })).toEqual([image]);
  });

  it("sends the image outputsToString picks with source and handler", () => {
    expect(toolResultContent({ chart: image, rows: 3 }, { source: "chart" })).toEqual([image]);
    expect(toolResultContent({ chart: image, rows: 3 }, { handler: (r: { chart: ImageContent; rows: number }) => [`${r.rows} rows`, r.chart] })).toEqual(["3 rows", image]);
    expect(toolResultContent({ chart: image, rows: 3 }, { handler: (r: { rows: number }) => `${r.rows} rows` })).toBe("3 rows");
  });

  it("refuses an image inside JSON, naming where it is, so that its base64 never reaches the model as text", () => {
    const error = thrownError(() => toolResultContent({ summary: "ok", charts: [{ png: image }] }, undefined), ConfigurationError);
    expect(error.message).toBe(
      "the result holds an image or a file at charts[0].png, which JSON text cannot carry (it would reach the model as base64); return the ImageContent or FileContent alone or in an array of strings, ImageContent and FileContent, and put other data in outputsToState or pick it with outputsToString.",
    );
    expect(thrownError(() => toolResultContent([1, image], undefined), ConfigurationError).message).toContain("at [1],");
  });

  it("refuses with rawResult a value that is neither a string nor parts", () => {
    expect(thrownError(() => toolResultContent([image, 3], { rawResult: true }), ConfigurationError).message).toBe(
      "outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got an array; drop rawResult to send JSON",
    );
  });

  it("refuses parts over mediaLimits.maxMessageBytes together", () => {
    const big = ImageContent.fromBytes(Buffer.concat([pngImage(1, 1), Buffer.alloc(18 * 1024 * 1024)]));
    const error = thrownError(() => toolResultContent([big, "three copies", big, big], undefined), ConfigurationError);
    expect(error.message).toBe(
      `the result holds ${(big.byteLength * 3).toLocaleString("en-US")} bytes of images and files, over the limit of 52,428,800 bytes per tool result (mediaLimits.maxMessageBytes); return fewer or smaller ones, or URL references (ImageContent.fromUrl).`,
    );
  });
});

describe("resultParts", () => {
  it("returns undefined for values that are not media", () => {
    expect(resultParts("text")).toBeUndefined();
    expect(resultParts(["a"])).toBeUndefined();
    expect(resultParts([image, { a: 1 }])).toBeUndefined();
    expect(resultParts(image.toJSON())).toBeUndefined();
  });
});

describe("resultPartsText", () => {
  it("joins the text parts of a result with media, and leaves other results alone", () => {
    expect(resultPartsText(["one", image, "two"])).toBe("one\ntwo");
    expect(resultPartsText(image)).toBe("");
    expect(resultPartsText({ a: 1 })).toBeUndefined();
  });
});

describe("capResultParts", () => {
  it("returns parts within the limit as they are", () => {
    const parts = ["abc", image, "def"];
    expect(capResultParts(parts, "chart", 6)).toBe(parts);
  });

  it("cuts the text parts together, keeps images and files, and names the tool and both sizes", () => {
    expect(capResultParts(["abcd", image, "efghij", pdf, "klm"], "chart", 6)).toEqual(["abcd", image, "ef\n[Tool 'chart' returned 13 characters of text; the first 6 are shown]", pdf]);
  });

  it("never splits a surrogate pair", () => {
    expect(capResultParts(["a😀b", image], "chart", 2)).toEqual(["a\n[Tool 'chart' returned 4 characters of text; the first 1 are shown]", image]);
  });
});
