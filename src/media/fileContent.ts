import { ConfigurationError } from "../errors";
import { cloneValue } from "../util/cloneValue";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { frozenMeta } from "./imageContent";
import { base64Source, bytesSource, checkedMime, fileSource, MediaContent, type MediaSource, urlSource } from "./mediaContent";
import { mediaLimits } from "./mediaLimits";

/** Options of the `FileContent` constructors. */
export interface FileContentOptions {
  /** `application/pdf`, `text/csv`, …; read from the data's first bytes when left out (PDF and images only; otherwise it stays unknown, as in Haystack), and checked against them when given. */
  readonly mimeType?: string;
  /** The file's name, as the model is told it (`invoice.pdf`). */
  readonly filename?: string;
  /** Your own data about the file (plain JSON), kept with it (Haystack's `extra`). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A file's JSON form: Haystack's `FileContent` dict, or toolwright's URL reference (`url` instead of `base64_data`). */
export type FileContentJSON =
  | { base64_data: string; mime_type: string | null; filename: string | null; extra: Record<string, unknown>; validation: boolean }
  | { url: string; mime_type: string | null; filename: string | null; extra: Record<string, unknown> };

// A MIME type as RFC 6838 spells it: type/subtype, letters, digits and a few marks; bounded.
const mimeShape = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;

/**
 * A file in a message or a tool's result (Haystack's `FileContent`): a PDF, a CSV, … as base64
 * data checked when made (valid base64, at most 20 MB, a MIME type that matches the data's first
 * bytes where they tell), or a URL reference the provider fetches. Immutable; traces and events
 * show `describe()`, never the bytes.
 */
export class FileContent extends MediaContent {
  readonly kind = "file" as const;
  readonly filename: string | undefined;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly #validation: boolean;
  readonly #brand = true;

  private constructor(source: MediaSource, options: FileContentOptions, subject: string, validation = true) {
    super(source, checkedMime(subject, source, options.mimeType, (mime) => mimeShape.test(mime), "a valid", false));
    const filename: unknown = options.filename ?? undefined;
    if (filename !== undefined && (typeof filename !== "string" || filename === "" || filename.length > mediaLimits.maxFilenameLength || /[\u0000-\u001f/\\]/.test(filename))) {
      throw new ConfigurationError(subject, `${subject} was given filename ${describeKind(filename)}; give a name of 1-${mediaLimits.maxFilenameLength} characters without slashes or control characters.`);
    }
    this.filename = filename as string | undefined;
    this.extra = frozenMeta(subject, options.extra, "extra");
    this.#validation = validation;
    Object.freeze(this);
  }

  /** A file from standard base64 (no `data:` prefix: use `fromUrl` for a data URL). */
  static fromBase64(base64: string, options: FileContentOptions = {}): FileContent {
    return new FileContent(base64Source("FileContent.fromBase64", base64), options, "FileContent.fromBase64");
  }

  /** A file from its bytes (a `Buffer` or `Uint8Array`, copied). */
  static fromBytes(bytes: Uint8Array, options: FileContentOptions = {}): FileContent {
    return new FileContent(bytesSource("FileContent.fromBytes", bytes), options, "FileContent.fromBytes");
  }

  /** A file read from disk (refused unread when it is over the size limit); its name is the path's last segment unless given. */
  static async fromFile(path: string, options: FileContentOptions = {}): Promise<FileContent> {
    const source = await fileSource("FileContent.fromFile", path);
    return new FileContent(source, { ...options, filename: options.filename ?? path.split(/[\\/]/).pop() }, "FileContent.fromFile");
  }

  /** A file at an http(s) URL the provider fetches (toolwright never downloads it), or in a `data:` URL. */
  static fromUrl(url: string, options: FileContentOptions = {}): FileContent {
    const { source, mimeType } = urlSource("FileContent.fromUrl", url);
    return new FileContent(source, { ...options, mimeType: options.mimeType ?? mimeType }, "FileContent.fromUrl");
  }

  /** Rebuilds a file from its JSON form (`toJSON()`, or a Haystack `FileContent` dict), checked as the constructors check. */
  static fromJSON(json: unknown, subject = "FileContent.fromJSON"): FileContent {
    if (!isPlainObject(json)) throw new ConfigurationError(subject, `${subject} needs an object { base64_data, mime_type?, filename?, extra? } or { url, … }, got ${describeKind(json)}.`);
    const options: FileContentOptions = { mimeType: (json.mime_type ?? undefined) as string | undefined, filename: (json.filename ?? undefined) as string | undefined, extra: (json.extra ?? undefined) as Record<string, unknown> | undefined };
    if (typeof json.url === "string" && json.base64_data === undefined) {
      const { source, mimeType } = urlSource(subject, json.url);
      return new FileContent(source, { ...options, mimeType: options.mimeType ?? mimeType }, subject);
    }
    return new FileContent(base64Source(subject, json.base64_data), options, subject, json.validation !== false);
  }

  /** True for a FileContent made by this module (a copy of one is not). */
  static isFileContent(value: unknown): value is FileContent {
    return typeof value === "object" && value !== null && #brand in value;
  }

  /** The data as standard base64; undefined for a URL reference. */
  get base64Data(): string | undefined {
    return this.base64;
  }

  /** Haystack's dict shape; a URL reference is `{ url, mime_type, filename, extra }`. */
  toJSON(): FileContentJSON {
    const common = { mime_type: this.mimeType ?? null, filename: this.filename ?? null, extra: cloneValue(this.extra) as Record<string, unknown> };
    const base64 = this.base64;
    return base64 === undefined ? { url: this.url!, ...common } : { base64_data: base64, ...common, validation: this.#validation };
  }

  /** The file's name, when it has one, for the descriptor that events, traces and snapshots show. */
  protected override descriptorExtra(): { filename?: string } {
    return this.filename === undefined ? {} : { filename: this.filename };
  }
}
