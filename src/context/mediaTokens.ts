import type { ChatMessage } from "../chat/chatMessage";
import type { FileContent } from "../media/fileContent";
import type { ImageContent } from "../media/imageContent";
import { imageSize } from "../media/imageSize";

// OpenAI's documented cost of an image (GPT-4o, GPT-4.1, GPT-5): 85 tokens at detail "low"; else
// the image is scaled to fit 2048×2048, then its shortest side to 768, and each 512-pixel tile
// costs 170 tokens on top of the 85. At most 8 tiles fit (2048×768): 1,445 tokens.
const openAiBase = 85;
const openAiPerTile = 170;
const openAiMax = openAiBase + 8 * openAiPerTile;
// Anthropic's documented cost: width × height / 750, after scaling the long edge to 1,568 pixels,
// and at most about 1,600 tokens (larger images are scaled down to that).
const anthropicMax = 1_600;
// A file counts as its bytes would as text (4 characters a token, plus a quarter): PDFs, whose
// pages are compressed, are overcounted, which makes compaction act early rather than late.
const bytesPerToken = 4 / 1.25;

/** The tokens OpenAI charges for an image: its tile formula from the pixel size read from the header, 1,445 (the most) when the size is unknown. */
export function openAiImageTokens(image: ImageContent): number {
  if (image.detail === "low") return openAiBase;
  const size = imageSize(image);
  if (size === undefined) return openAiMax;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shortest = Math.min(width, height);
  if (shortest > 768) {
    width = (width * 768) / shortest;
    height = (height * 768) / shortest;
  }
  return openAiBase + openAiPerTile * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/** The tokens Anthropic charges for an image: `width × height / 750` after its scaling, at most 1,600 (also when the size is unknown). */
export function anthropicImageTokens(image: ImageContent): number {
  const size = imageSize(image);
  if (size === undefined) return anthropicMax;
  const fit = Math.min(1, 1568 / Math.max(size.width, size.height));
  return Math.min(anthropicMax, Math.ceil((size.width * fit * (size.height * fit)) / 750));
}

/** A file's tokens by its bytes (the text rule); a URL reference, whose size is unknown, as 1,600. */
export function fileTokens(file: FileContent): number {
  return file.url !== undefined ? anthropicMax : Math.ceil(file.byteLength / bytesPerToken);
}

/** The tokens of a message's images and files, a tool result's included, each by `imageTokens` or `fileTokens`. */
export function mediaTokens(message: ChatMessage, imageTokens: (image: ImageContent) => number): number {
  let tokens = 0;
  for (const image of message.images) tokens += imageTokens(image);
  for (const file of message.files) tokens += fileTokens(file);
  return tokens;
}
