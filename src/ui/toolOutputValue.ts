import type { ToolCallResult } from "../chat/chatMessage";
import type { ToolOutputValue } from "./toolPreliminaryOutput";

/** How images and files of tool results reach the browser: descriptors only, or with a `data:` URL too. */
export type UIMediaMode = "descriptor" | "dataUrl";

/**
 * A tool result as a UI tool part's output: its text, or, with images or files, every part in order,
 * each image and file as its descriptor (kind, MIME type, size, SHA-256 or URL) and, with `dataUrl`,
 * a `url` the page can show (`data:` for inline data). Never bytes in text.
 */
export function toolOutputValue(result: ToolCallResult, media: UIMediaMode): ToolOutputValue {
  if (!result.parts) return result.result;
  return result.parts.map((part) => {
    if (part.type === "text") return { type: "text", text: part.text };
    const content = part.type === "image" ? part.image : part.file;
    return media === "dataUrl" ? { type: part.type, media: content.describe(), url: content.toDataUrl() } : { type: part.type, media: content.describe() };
  });
}
