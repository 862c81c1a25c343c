import type { FileContent } from "./fileContent";
import type { ImageContent } from "./imageContent";

/**
 * The short text that stands in for an image or a file a provider cannot take, and that the
 * warnings quote: `[image image/png, 12345 bytes, sha256 ab12cd34ef56…]`, a file's name after its
 * kind (`[file report.pdf application/pdf, …]`), a URL reference's URL. Never the bytes.
 */
export function describeMedia(media: ImageContent | FileContent): string {
  const d = media.describe();
  const head = [d.type, d.filename, d.mimeType ?? "of unknown type"].filter((item) => item !== undefined).join(" ");
  if (d.url !== undefined) return `[${head} at ${shortUrl(d.url)}]`;
  return `[${head}, ${d.bytes} bytes, sha256 ${d.sha256!.slice(0, 12)}…]`;
}

/**
 * The warning a generator reports for a part it described instead of sending:
 * `OpenAIChatGenerator sent messages[2]'s [image …] as a description: the Chat Completions API
 * takes no images in assistant messages.`
 */
export function describedWarning(options: { readonly generator: string; readonly where: string; readonly media: ImageContent | FileContent; readonly reason: string }): string {
  return `${options.generator} sent ${options.where}'s ${describeMedia(options.media)} as a description: ${options.reason}.`;
}

// A URL cut so that a description stays one short line.
function shortUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}

/**
 * Collects what a generator's conversion described instead of sending: `describe` returns the
 * description to put in the part's place and records the warning the response reports in
 * `meta.warnings` (the run's `ModelEndEvent.warnings`).
 */
export class MediaWarnings {
  readonly warnings: string[] = [];

  constructor(readonly generator: string) {}

  /** The part's description; the warning names where it was (`messages[2]`) and why it was not sent. */
  describe(media: ImageContent | FileContent, where: string, reason: string): string {
    this.warnings.push(describedWarning({ generator: this.generator, where, media, reason }));
    return describeMedia(media);
  }
}
