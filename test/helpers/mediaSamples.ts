import { FileContent, ImageContent } from "toolwright";

/** A 1×1 PNG, as base64. */
export const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** A minimal PDF's bytes. */
export const pdfBytes = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

/** The 1×1 PNG as an ImageContent. */
export const png = (detail?: "low" | "high" | "auto"): ImageContent => ImageContent.fromBase64(pngBase64, detail === undefined ? {} : { detail });

/** The minimal PDF as a FileContent named invoice.pdf. */
export const pdf = (): FileContent => FileContent.fromBytes(pdfBytes, { filename: "invoice.pdf" });

/** A CSV file (a type Chat Completions does not take). */
export const csv = (): FileContent => FileContent.fromBytes(Buffer.from("a,b\n1,2\n"), { mimeType: "text/csv", filename: "data.csv" });

/** A BMP image's first bytes (a type OpenAI's vision models do not read). */
export const bmp = (): ImageContent => ImageContent.fromBytes(Buffer.from([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]));

/** The strings a request sends as text (`text`, and `content`, `output` or `value` when a string), to check that no base64 travels inside text. */
export function textFields(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) textFields(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string" && ["text", "content", "output", "value"].includes(key)) out.push(item);
      else textFields(item, out);
    }
  }
  return out;
}

/** Whether some text field of `body` holds (a 40-character piece of) this base64. */
export function base64InText(body: unknown, base64: string): boolean {
  return textFields(body).some((text) => text.includes(base64.slice(0, 40)));
}
