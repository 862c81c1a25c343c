/**
 * What an AI SDK provider takes of images and files, read from the provider packages' prompt
 * converters (@ai-sdk/anthropic 3, @ai-sdk/google 3, @ai-sdk/openai 3, @ai-sdk/openai-compatible 2):
 * the media types of a user message's file parts it sends rather than throwing on, whether a tool
 * result may carry media (`output: { type: "content" }`) rather than having it written into the
 * tool message as JSON text (base64 included, which toolwright never sends), and the media types of
 * such a result's file parts it sends rather than dropping.
 */
export interface AISdkMediaSupport {
  /** Whether a user message's file part of this media type is sent. */
  readonly userFile: (mediaType: string) => boolean;
  /** Whether tool results go as `content` parts; if not, their images and files follow as a user message. */
  readonly toolContent: boolean;
  /** Whether a tool result's `file-data` part of this media type is sent (images always are). */
  readonly toolFile: (mediaType: string) => boolean;
}

const image = (mediaType: string) => mediaType.startsWith("image/");

const byProvider: ReadonlyArray<readonly [(provider: string) => boolean, AISdkMediaSupport]> = [
  // anthropic.messages: images, PDFs and plain text documents; in tool results images and PDFs.
  [(p) => p.startsWith("anthropic."), { userFile: (t) => image(t) || t === "application/pdf" || t === "text/plain", toolContent: true, toolFile: (t) => t === "application/pdf" }],
  // google.generative-ai, google.vertex: any inline data, in user messages and in functionResponse parts.
  [(p) => p.startsWith("google."), { userFile: () => true, toolContent: true, toolFile: () => true }],
  // openai.responses: images and PDFs in user messages; input_image and input_file in function_call_output.
  [(p) => p === "openai.responses" || p === "azure.responses", { userFile: (t) => image(t) || t === "application/pdf", toolContent: true, toolFile: () => true }],
  // openai.chat: images, PDFs, WAV and MP3; tool messages are text, so content would become JSON text.
  [(p) => p === "openai.chat" || p === "azure.chat", { userFile: (t) => image(t) || t === "application/pdf" || t === "audio/wav" || t === "audio/mpeg" || t === "audio/mp3", toolContent: false, toolFile: () => false }],
];

// @ai-sdk/openai-compatible and providers not listed: images, PDFs and text files (openai-compatible's
// list), and tool results as text, the one form every provider sends as it is.
const fallback: AISdkMediaSupport = { userFile: (t) => image(t) || t === "application/pdf" || t.startsWith("text/"), toolContent: false, toolFile: () => false };

/** What the provider with this id (`anthropic.messages`, `openai.chat`, …) takes of images and files. */
export function aiSdkMediaSupport(provider: string): AISdkMediaSupport {
  return byProvider.find(([matches]) => matches(provider))?.[1] ?? fallback;
}

/**
 * Whether the provider takes `url` as it is for a part of `mediaType`, by its `supportedUrls`
 * (`{ "image/*": [/^https?:\/\/.*$/] }`, as the AI SDK reads it); a URL it does not list it would
 * download itself, which toolwright leaves to the caller.
 */
export function isUrlSupported(supportedUrls: Readonly<Record<string, readonly RegExp[]>>, mediaType: string, url: string): boolean {
  for (const [pattern, regexes] of Object.entries(supportedUrls)) {
    const matches = pattern === "*" || pattern === "*/*" || pattern === mediaType || (pattern.endsWith("/*") && mediaType.startsWith(pattern.slice(0, -1)));
    if (matches && Array.isArray(regexes) && regexes.some((regex) => regex instanceof RegExp && regex.test(url))) return true;
  }
  return false;
}

/** Reads a model's `supportedUrls` (untrusted): the media types that map to arrays of RegExp; anything else is no URL. */
export function readSupportedUrls(value: unknown): Record<string, RegExp[]> {
  const urls: Record<string, RegExp[]> = {};
  if (typeof value !== "object" || value === null) return urls;
  for (const [pattern, regexes] of Object.entries(value)) {
    if (Array.isArray(regexes)) urls[pattern] = regexes.filter((regex): regex is RegExp => regex instanceof RegExp);
  }
  return urls;
}
