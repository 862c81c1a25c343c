export { FileContent } from "./fileContent";
export type { FileContentJSON, FileContentOptions } from "./fileContent";
export { ImageContent } from "./imageContent";
export type { ImageContentJSON, ImageContentOptions, ImageDetail } from "./imageContent";
export type { MediaDescriptor } from "./mediaDescriptor";
export { mediaLimits } from "./mediaLimits";
