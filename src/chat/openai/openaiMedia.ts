import type { FileContent } from "../../media/fileContent";
import type { ImageContent } from "../../media/imageContent";

// OpenAI's vision guide: PNG, JPEG, WebP and non-animated GIF.
const imageTypes: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/jpg", "image/webp", "image/gif"]);

/** Why OpenAI cannot take this image (a type its vision models do not read), or undefined when it can. */
export function openaiImageRefusal(image: ImageContent): string | undefined {
  if (image.mimeType === undefined || imageTypes.has(image.mimeType)) return undefined;
  return `OpenAI reads PNG, JPEG, WebP and GIF images, not ${image.mimeType}`;
}

const extensions: Readonly<Record<string, string>> = {
  "application/pdf": ".pdf",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "text/markdown": ".md",
  "application/json": ".json",
  "text/html": ".html",
};

/** The name a file is sent under: its own, else `file` with the extension of its type (OpenAI reads a file's kind from its name). */
export function openaiFilename(file: FileContent): string {
  return file.filename ?? `file${extensions[file.mimeType ?? ""] ?? ""}`;
}
