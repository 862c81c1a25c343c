import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { decodeBase64, tooBig } from "./base64Data";
import type { MediaDescriptor } from "./mediaDescriptor";
import { mediaLimits } from "./mediaLimits";
import { describeMime, sniffMime } from "./sniffMime";

/** Where a part's data is: base64 (checked), or a URL the provider fetches. */
export type MediaSource = { readonly base64: string; readonly bytes: Buffer } | { readonly url: string };

/**
 * What an image and a file share: data as base64 (decoded once, to check it and to count it) or a
 * URL reference, and a MIME type checked against the data's first bytes. Immutable.
 */
export abstract class MediaContent {
  readonly #source: MediaSource;
  readonly mimeType: string | undefined;
  #sha256: string | undefined;

  protected constructor(source: MediaSource, mimeType: string | undefined) {
    this.#source = source;
    this.mimeType = mimeType;
  }

  /** The data as standard base64; undefined for a URL reference. */
  protected get base64(): string | undefined {
    return "base64" in this.#source ? this.#source.base64 : undefined;
  }

  /** The URL of a URL reference (http or https), which the provider fetches; undefined for data. */
  get url(): string | undefined {
    return "url" in this.#source ? this.#source.url : undefined;
  }

  /** The decoded bytes (a copy); undefined for a URL reference. */
  get bytes(): Uint8Array | undefined {
    return "bytes" in this.#source ? new Uint8Array(this.#source.bytes) : undefined;
  }

  /** The decoded size in bytes; 0 for a URL reference. */
  get byteLength(): number {
    return "bytes" in this.#source ? this.#source.bytes.length : 0;
  }

  /** The data as a `data:` URL (what OpenAI's `image_url` and `file_data` take); the URL itself for a reference. */
  toDataUrl(): string {
    const base64 = this.base64;
    return base64 === undefined ? this.url! : `data:${this.mimeType ?? "application/octet-stream"};base64,${base64}`;
  }

  /** What traces, events and hooks show instead of the bytes. */
  describe(): MediaDescriptor {
    const source = this.#source;
    if ("url" in source) return Object.freeze({ type: this.kind, mimeType: this.mimeType, bytes: undefined, sha256: undefined, url: source.url, ...this.descriptorExtra() });
    this.#sha256 ??= createHash("sha256").update(source.bytes).digest("hex");
    return Object.freeze({ type: this.kind, mimeType: this.mimeType, bytes: source.bytes.length, sha256: this.#sha256, url: undefined, ...this.descriptorExtra() });
  }

  /** "image" or "file". */
  abstract readonly kind: "image" | "file";

  /** What a subclass adds to the descriptor that events, traces and snapshots show (a file's name). */
  protected descriptorExtra(): { filename?: string } {
    return {};
  }
}

/** The source given as base64, checked: valid base64, within the size limit. */
export function base64Source(subject: string, base64: unknown): MediaSource {
  return { base64: base64 as string, bytes: decodeBase64(subject, base64) };
}

/** The source given as bytes, checked for size. */
export function bytesSource(subject: string, bytes: unknown): MediaSource {
  // A string here is most often base64 given to the wrong constructor: name it without echoing it.
  if (typeof bytes === "string") throw new ConfigurationError(subject, `${subject} needs the bytes as a Buffer or Uint8Array, got a string of ${bytes.length} characters; give base64 to fromBase64.`);
  if (!(bytes instanceof Uint8Array)) throw new ConfigurationError(subject, `${subject} needs the bytes as a Buffer or Uint8Array, got ${describeKind(bytes)}.`);
  if (bytes.length > mediaLimits.maxPartBytes) throw tooBig(subject, bytes.length);
  const copy = Buffer.from(bytes);
  return { base64: copy.toString("base64"), bytes: copy };
}

/** The source read from a file, refused before reading when it is over the size limit. */
export async function fileSource(subject: string, path: unknown): Promise<MediaSource> {
  if (typeof path !== "string" || path === "") throw new ConfigurationError(subject, `${subject} needs a file path, got ${describeKind(path)}.`);
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigurationError(subject, `${subject} could not read '${shown}' (${typeof code === "string" ? code : "unreadable"}); give the path of an existing file.`, { cause: error });
  }
  if (!info.isFile()) throw new ConfigurationError(subject, `${subject} was given '${shown}', which is not a file.`);
  if (info.size > mediaLimits.maxPartBytes) throw tooBig(subject, info.size);
  return bytesSource(subject, await readFile(path));
}

const base64Alphabet = /^[A-Za-z0-9+/=]+$/;

/**
 * A URL given by the caller: `data:<mime>;base64,<data>` becomes data (its MIME type returned);
 * `http:` and `https:` stay a reference the provider fetches (toolwright never downloads it).
 */
export function urlSource(subject: string, url: unknown): { source: MediaSource; mimeType?: string } {
  if (typeof url !== "string") throw new ConfigurationError(subject, `${subject} needs a URL as a string, got ${describeKind(url)}.`);
  const data = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+);base64,/i.exec(url.slice(0, 200));
  if (data) return { source: base64Source(subject, url.slice(data[0].length)), mimeType: data[1]!.toLowerCase() };
  if (url.length > mediaLimits.maxUrlLength) throw new ConfigurationError(subject, `${subject} was given a URL of ${url.length} characters, over the limit of ${mediaLimits.maxUrlLength}.`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Base64 given as a URL is the likely mistake; its characters stay out of the message.
    if (url.length >= 16 && base64Alphabet.test(url)) throw new ConfigurationError(subject, `${subject} was given ${url.length} characters of what looks like base64, not a URL; give base64 to fromBase64, or a data:<mime>;base64, URL.`);
    throw new ConfigurationError(subject, `${subject} was given ${JSON.stringify(url.slice(0, 64))}, which is not a URL; give an http(s) URL, a data: URL, or the bytes.`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ConfigurationError(subject, `${subject} was given a ${parsed.protocol} URL; give an http(s) URL (the provider fetches it) or a data:<mime>;base64, URL.`);
  }
  return { source: { url } };
}

/**
 * The MIME type of a part, checked: the given one must be one of `allowed` (or match its pattern)
 * and agree with what the data's first bytes say; when none is given the first bytes must tell
 * (unless not `required`: a file of a kind they do not tell, as Haystack allows).
 */
export function checkedMime(subject: string, source: MediaSource, given: unknown, allowed: (mime: string) => boolean, kind: string, required = true): string | undefined {
  if (given !== undefined && given !== null && typeof given !== "string") throw new ConfigurationError(subject, `${subject} needs mimeType as a string, got ${describeKind(given)}.`);
  const declared = typeof given === "string" && given !== "" ? given.toLowerCase() : undefined;
  if (declared !== undefined && !allowed(declared)) throw new ConfigurationError(subject, `${subject} was given mimeType ${JSON.stringify(declared.slice(0, 100))}, which is not ${kind} MIME type.`);
  if (!("bytes" in source)) return declared;
  const sniffed = sniffMime(source.bytes);
  if (declared !== undefined && sniffed !== undefined && sniffed !== declared && !(declared === "image/jpg" && sniffed === "image/jpeg")) {
    throw new ConfigurationError(subject, `${subject} was given mimeType ${declared}, but the data is ${describeMime(sniffed)} (by its first bytes); give the right mimeType or leave it out.`);
  }
  const mime = declared ?? sniffed;
  if (mime === undefined) {
    if (!required) return undefined;
    throw new ConfigurationError(subject, `${subject} could not tell the data's type from its first bytes; give mimeType.`);
  }
  if (!allowed(mime)) throw new ConfigurationError(subject, `${subject} holds ${describeMime(mime)}, which is not ${kind}.`);
  return mime;
}
