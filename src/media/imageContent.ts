import { ConfigurationError } from "../errors";
import { cloneValue } from "../util/cloneValue";
import { describeKind } from "../util/describeValue";
import { formatPath } from "../util/formatPath";
import { isPlainObject } from "../util/isPlainObject";
import { nestingDepthExceeds } from "../util/jsonShape";
import { base64Source, bytesSource, checkedMime, fileSource, MediaContent, type MediaSource, urlSource } from "./mediaContent";

/** How closely the model should look (OpenAI's `detail`; other providers ignore it). */
export type ImageDetail = "auto" | "high" | "low";

/** Options of the `ImageContent` constructors. */
export interface ImageContentOptions {
  /** `image/png`, `image/jpeg`, …; read from the data's first bytes when left out, and checked against them when given. */
  readonly mimeType?: string;
  readonly detail?: ImageDetail;
  /** Your own data about the image (plain JSON), kept with it. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** An image's JSON form: Haystack's `ImageContent` dict, or toolwright's URL reference (`url` instead of `base64_image`). */
export type ImageContentJSON =
  | { base64_image: string; mime_type: string | null; detail: ImageDetail | null; meta: Record<string, unknown>; validation: boolean }
  | { url: string; mime_type: string | null; detail: ImageDetail | null; meta: Record<string, unknown> };

// Haystack's IMAGE_MIME_TYPES (Pillow's formats and image/jpg), so that its messages load.
const imageMimeTypes: ReadonlySet<string> = new Set([
  "image/bmp", "image/x-pcx", "application/postscript", "image/gif", "image/png", "image/jp2", "image/icns", "image/x-icon", "image/jpeg",
  "video/mpeg", "image/tiff", "image/mpo", "image/palm", "application/pdf", "image/x-portable-anymap", "image/vnd.adobe.photoshop",
  "image/sgi", "image/x-tga", "image/webp", "image/xbm", "image/xpm", "image/jpg",
]);

const details: ReadonlySet<string> = new Set(["auto", "high", "low"]);

/**
 * An image in a message or a tool's result (Haystack's `ImageContent`): base64 data checked when
 * made (valid base64, at most 20 MB, a MIME type that matches the data's first bytes), or a URL
 * reference the provider fetches. Immutable; traces and events show `describe()`, never the bytes.
 */
export class ImageContent extends MediaContent {
  readonly kind = "image" as const;
  readonly detail: ImageDetail | undefined;
  readonly meta: Readonly<Record<string, unknown>>;
  // Haystack's flag, kept to write its JSON back unchanged (toolwright checks the data either way).
  readonly #validation: boolean;
  readonly #brand = true;

  private constructor(source: MediaSource, options: ImageContentOptions, subject: string, validation = true) {
    super(source, checkedMime(subject, source, options.mimeType, (mime) => imageMimeTypes.has(mime), "an image"));
    if (options.detail !== undefined && options.detail !== null && !details.has(options.detail)) {
      throw new ConfigurationError(subject, `${subject} was given detail ${describeKind(options.detail)}; give "auto", "high" or "low", or leave it out.`);
    }
    this.detail = options.detail ?? undefined;
    this.meta = frozenMeta(subject, options.meta, "meta");
    this.#validation = validation;
    Object.freeze(this);
  }

  /** An image from standard base64 (no `data:` prefix: use `fromUrl` for a data URL). */
  static fromBase64(base64: string, options: ImageContentOptions = {}): ImageContent {
    return new ImageContent(base64Source("ImageContent.fromBase64", base64), options, "ImageContent.fromBase64");
  }

  /** An image from its bytes (a `Buffer` or `Uint8Array`, copied). */
  static fromBytes(bytes: Uint8Array, options: ImageContentOptions = {}): ImageContent {
    return new ImageContent(bytesSource("ImageContent.fromBytes", bytes), options, "ImageContent.fromBytes");
  }

  /** An image read from a file (refused unread when it is over the size limit). */
  static async fromFile(path: string, options: ImageContentOptions = {}): Promise<ImageContent> {
    return new ImageContent(await fileSource("ImageContent.fromFile", path), options, "ImageContent.fromFile");
  }

  /** An image at an http(s) URL the provider fetches (toolwright never downloads it), or in a `data:` URL. */
  static fromUrl(url: string, options: ImageContentOptions = {}): ImageContent {
    const { source, mimeType } = urlSource("ImageContent.fromUrl", url);
    return new ImageContent(source, { ...options, mimeType: options.mimeType ?? mimeType }, "ImageContent.fromUrl");
  }

  /** Rebuilds an image from its JSON form (`toJSON()`, or a Haystack `ImageContent` dict), checked as the constructors check. */
  static fromJSON(json: unknown, subject = "ImageContent.fromJSON"): ImageContent {
    if (!isPlainObject(json)) throw new ConfigurationError(subject, `${subject} needs an object { base64_image, mime_type?, detail?, meta? } or { url, … }, got ${describeKind(json)}.`);
    const options: ImageContentOptions = { mimeType: (json.mime_type ?? undefined) as string | undefined, detail: (json.detail ?? undefined) as ImageDetail | undefined, meta: (json.meta ?? undefined) as Record<string, unknown> | undefined };
    if (typeof json.url === "string" && json.base64_image === undefined) {
      const { source, mimeType } = urlSource(subject, json.url);
      return new ImageContent(source, { ...options, mimeType: options.mimeType ?? mimeType }, subject);
    }
    return new ImageContent(base64Source(subject, json.base64_image), options, subject, json.validation !== false);
  }

  /** True for an ImageContent made by this module (a copy of one is not). */
  static isImageContent(value: unknown): value is ImageContent {
    return typeof value === "object" && value !== null && #brand in value;
  }

  /** The data as standard base64; undefined for a URL reference. */
  get base64Image(): string | undefined {
    return this.base64;
  }

  /** Haystack's dict shape; a URL reference is `{ url, mime_type, detail, meta }`. */
  toJSON(): ImageContentJSON {
    const common = { mime_type: this.mimeType ?? null, detail: this.detail ?? null, meta: cloneValue(this.meta) as Record<string, unknown> };
    const base64 = this.base64;
    return base64 === undefined ? { url: this.url!, ...common } : { base64_image: base64, ...common, validation: this.#validation };
  }
}

/** A part's `meta` or `extra`: a plain JSON object, frozen copy, bounded depth. */
export function frozenMeta(subject: string, value: unknown, name: string): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return Object.freeze({});
  if (!isPlainObject(value)) throw new ConfigurationError(subject, `${subject} needs ${name} as a plain object, got ${describeKind(value)}.`);
  if (nestingDepthExceeds(value, 64)) throw new ConfigurationError(subject, `${subject} has ${name} nested more than 64 levels deep.`);
  const problem = nonJsonValue(value, [name]);
  if (problem !== undefined) {
    const where = formatPath(problem.path);
    throw new ConfigurationError(subject, `${subject} needs ${name} as plain JSON (objects, arrays, strings, finite numbers, booleans and null), but ${where.length > 100 ? `${where.slice(0, 100)}…` : where} is ${problem.what}.`);
  }
  return deepFreeze(cloneValue(value) as Record<string, unknown>);
}

// The first value JSON cannot carry unchanged (a Date, a typed array, NaN, a hole…): the JSON form
// must read back as the same part. An undefined property is allowed (JSON leaves it out). Depth is
// bounded by the caller.
function nonJsonValue(value: unknown, path: PropertyKey[]): { path: PropertyKey[]; what: string } | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { path, what: describeKind(value) };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return { path: [...path, i], what: "a hole (a sparse array)" };
      const found = nonJsonValue(value[i], [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return { path, what: describeKind(value) };
  for (const key of Object.keys(value)) {
    if (value[key] === undefined) continue;
    const found = nonJsonValue(value[key], [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
