import { ToolwrightError } from "../errors";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { describeKind } from "../util/describeValue";
import { truncateForEcho } from "../util/truncate";
import { UIRequestError } from "./uiRequestError";

/**
 * A `useChat` file part (`{ type: "file", mediaType, filename?, url }`) as an ImageContent (an
 * `image/*` media type) or a FileContent: a `data:` URL is decoded and checked, an http(s) URL is
 * kept as a reference the provider fetches (toolwright never downloads it). Any other scheme
 * (`file:`, `blob:`, `javascript:`) is refused with a 422, as is a part the media checks refuse.
 */
export function uiFilePart(part: Record<string, unknown>, path: string): ImageContent | FileContent {
  const { mediaType, filename, url } = part;
  if (typeof mediaType !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) {
    throw new UIRequestError(400, `Chat request ${path}.mediaType is ${describeMedia(mediaType)}; a file part needs an IANA media type such as image/png.`, { path: `${path}.mediaType` });
  }
  if (filename !== undefined && typeof filename !== "string") throw new UIRequestError(400, `Chat request ${path}.filename is ${describeKind(filename)}; give a string or leave it out.`, { path: `${path}.filename` });
  if (typeof url !== "string") throw new UIRequestError(400, `Chat request ${path}.url is ${describeKind(url)}; a file part needs a data: or http(s) URL.`, { path: `${path}.url` });
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "data" && scheme !== "http" && scheme !== "https") {
    throw new UIRequestError(422, `Chat request ${path}.url has the scheme '${truncateForEcho(scheme ?? "(none)")}', which is refused; send the file inline as a data: URL or as an http(s) URL.`, { path: `${path}.url` });
  }
  const options = { mimeType: mediaType.toLowerCase(), ...(filename !== undefined && { filename }) };
  try {
    if (options.mimeType.startsWith("image/")) return ImageContent.fromUrl(url, { mimeType: options.mimeType });
    return FileContent.fromUrl(url, options);
  } catch (error) {
    if (!(error instanceof ToolwrightError)) throw error;
    throw new UIRequestError(422, `Chat request ${path} is refused: ${error.message}`, { path, cause: error });
  }
}

function describeMedia(value: unknown): string {
  return typeof value === "string" ? `'${truncateForEcho(value)}'` : describeKind(value);
}
