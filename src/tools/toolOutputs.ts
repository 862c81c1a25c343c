import type { MergeHandler } from "../state/mergeHandlers";

/** Where one state key gets its value from a tool's result. */
export interface OutputToState {
  /** The result property to write; without it the whole result is written. */
  source?: string;
  /** Merge handler for this write, instead of the key's own. */
  handler?: MergeHandler;
}

/** How a tool's result becomes the text the model sees. */
export interface OutputsToString {
  /** The result property to send instead of the whole result. */
  source?: string;
  /** Turns the (source) value into text; a non-string return is sent as JSON. */
  handler?: (value: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- receives the tool's own result type
  /** Send the value exactly as it is; it must then be a string, or an array of strings, `ImageContent` and `FileContent` (sent as parts, text included). */
  rawResult?: boolean;
}

/** One output of the several-outputs form of `outputsToString`. */
export interface OutputToString {
  /** The result property to render instead of the whole result. */
  source?: string;
  /** Turns the (source) value into text; a non-string return is sent as JSON. */
  handler?: (value: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- receives the tool's own result type
}

/**
 * Haystack's several-outputs form of `outputsToString`: output name → `{ source?, handler? }`.
 * The model gets one JSON object whose values are each output's text, e.g.
 * `{ docs: { source: "documents", handler: titles }, total: { source: "count" } }` →
 * `{"docs":"Intro, Setup","total":"2"}`. Told apart from the single form by having none of the
 * keys `source`, `handler`, `rawResult`; `rawResult` has no meaning here (as in Haystack).
 */
export type MultipleOutputsToString = Readonly<Record<string, OutputToString>>;

/** state key → where its value comes from in the result. */
export type OutputsToState = Record<string, OutputToState>;

/** state key → the parameter it fills. */
export type InputsFromState = Record<string, string>;

/** Whether an `outputsToString` is the several-outputs form: not empty, and none of the single form's keys. */
export function isMultipleOutputs(config: OutputsToString | MultipleOutputsToString): config is MultipleOutputsToString {
  const keys = Object.keys(config);
  return keys.length > 0 && !keys.some((key) => key === "source" || key === "handler" || key === "rawResult");
}
