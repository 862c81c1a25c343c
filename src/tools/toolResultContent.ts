import type { ContentInput } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { mediaLimits } from "../media/mediaLimits";
import { formatPath } from "../util/formatPath";
import { isPlainObject } from "../util/isPlainObject";
import { isMultipleOutputs, type MultipleOutputsToString, type OutputsToString } from "./toolOutputs";
import { resultValue, valueText } from "./toolResultText";

/** What the model is sent for a tool's result: text, or parts (strings, images and files, in order). */
export type ToolResultContent = string | readonly ContentInput[];

/**
 * The content the model gets for a tool's result. The value `outputsToString` picks (the result
 * itself without it) is sent as parts when it is an `ImageContent`, a `FileContent`, or an array of
 * strings, images and files holding at least one image or file (with `rawResult`, any array of
 * them); otherwise as text, as `toolResultText` makes it. Throws when an image or a file sits
 * where only JSON text could carry it (its base64 would reach the model as text), and when the
 * parts hold more than `mediaLimits.maxMessageBytes`.
 */
export function toolResultContent(result: unknown, config: OutputsToString | MultipleOutputsToString | undefined): ToolResultContent {
  if (config !== undefined && isMultipleOutputs(config)) return multipleOutputsText(result, config);
  const value = resultValue(result, config);
  const raw = config?.rawResult === true;
  const parts = resultParts(value, raw);
  if (parts) return checkedBytes(parts);
  if (typeof value === "object" && value !== null && !raw) {
    const path = mediaPath(value, [], 0);
    if (path) throw nestedMedia(path);
  }
  return valueText(value, raw);
}

/**
 * A result's parts when it is media: an image or a file alone, or an array of strings, images and
 * files with at least one image or file (any such array when `raw`); undefined otherwise.
 */
export function resultParts(value: unknown, raw = false): readonly ContentInput[] | undefined {
  if (isMedia(value)) return [value];
  if (!Array.isArray(value)) return undefined;
  let media = false;
  for (const item of value) {
    if (isMedia(item)) media = true;
    else if (typeof item !== "string") return undefined;
  }
  return media || raw ? (value as ContentInput[]) : undefined;
}

/** The text parts of a result with media, joined by newlines (what guardrails and text-only readers check); undefined for other results. */
export function resultPartsText(value: unknown): string | undefined {
  const parts = resultParts(value);
  return parts && parts.filter((part): part is string => typeof part === "string").join("\n");
}

function isMedia(value: unknown): value is ImageContent | FileContent {
  return ImageContent.isImageContent(value) || FileContent.isFileContent(value);
}

function checkedBytes(parts: readonly ContentInput[]): readonly ContentInput[] {
  let total = 0;
  for (const part of parts) if (typeof part !== "string") total += part.byteLength;
  if (total > mediaLimits.maxMessageBytes) {
    throw new ConfigurationError(
      "Tool result",
      `the result holds ${count(total)} bytes of images and files, over the limit of ${count(mediaLimits.maxMessageBytes)} bytes per tool result (mediaLimits.maxMessageBytes); return fewer or smaller ones, or URL references (ImageContent.fromUrl).`,
    );
  }
  return parts;
}

// Deep enough for any result a model could read; a deeper one is left to the JSON conversion's own errors.
const maxSearchDepth = 64;

// Where an image or a file sits inside plain objects and arrays, or undefined.
function mediaPath(value: unknown, path: PropertyKey[], depth: number): PropertyKey[] | undefined {
  if (isMedia(value)) return path;
  if (depth >= maxSearchDepth || typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = mediaPath(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = mediaPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

function nestedMedia(path: PropertyKey[]): ConfigurationError {
  return new ConfigurationError(
    "Tool result",
    `the result holds an image or a file at ${formatPath(path)}, which JSON text cannot carry (it would reach the model as base64); return the ImageContent or FileContent alone or in an array of strings, ImageContent and FileContent, and put other data in outputsToState or pick it with outputsToString.`,
  );
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

// Each output's text, as the single form makes it, in one JSON object (Haystack's
// _build_tool_result_message). Media inside an output is refused as in the single form.
function multipleOutputsText(result: unknown, config: MultipleOutputsToString): string {
  const texts: Record<string, string> = {};
  for (const [name, output] of Object.entries(config)) {
    const value = resultValue(result, output);
    const path = mediaPath(value, [name], 0);
    if (path) throw nestedMedia(path);
    Object.defineProperty(texts, name, { value: valueText(value, false), enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(texts);
}
