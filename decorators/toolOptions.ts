/**
 * Options of `@tool(...)`. The build step (`toolwright codegen`) reads them from the source, so
 * `name`, `description`, the keys of `inputsFromState`/`outputsToState` and each `source` must be
 * literals; handlers may be any function.
 */
export interface ToolDecoratorOptions {
  /** The tool's name (default: the method name). 1–64 characters of `[a-zA-Z0-9_-]`. */
  name?: string;
  /** What the tool does, for the model (default: the method's JSDoc summary). */
  description?: string;
  /** state key → parameter name: that parameter is filled from state and hidden from the model. */
  inputsFromState?: Record<string, string>;
  /** state key → `{ source?, handler? }`: which part of the result is merged into which key. */
  outputsToState?: Record<string, {
    /** The result property to write; without it the whole result is written. */
    source?: string;
    /** Merge handler for this write, instead of the key's own. */
    handler?: (current: any, incoming: any) => any; // eslint-disable-line @typescript-eslint/no-explicit-any -- handlers are typed by their state key
  }>;
  /**
   * How the result becomes the text the model sees: `{ source?, handler?, rawResult? }`, or
   * Haystack's several-outputs form, output name → `{ source?, handler? }` (the model gets a JSON
   * object of each output's text).
   */
  outputsToString?:
    | {
        /** The result property to send instead of the whole result. */
        source?: string;
        /** Turns the (source) value into text; a non-string return is sent as JSON. */
        handler?: (value: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- receives the method's result
        /** Send the value exactly as it is; it must then be a string, or an array of strings, `ImageContent` and `FileContent` (sent as parts, text included). */
        rawResult?: boolean;
      }
    | Readonly<
        Record<
          string,
          {
            /** The result property this output renders. */
            source?: string;
            /** Turns the (source) value into this output's text; a non-string return is sent as JSON. */
            handler?: (value: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- receives the method's result
          }
        >
      >;
  /** A call that takes longer fails with a timeout message; overrides the Agent's `toolTimeoutMs`. */
  timeoutMs?: number;
  /** How often a failed call runs again (only when idempotent, or when the error says `retryable: true`): `{ attempts, backoffMs?, maxBackoffMs? }`. */
  retries?: { attempts: number; backoffMs?: number; maxBackoffMs?: number };
  /** The most characters of one result the model is sent; overrides the Agent's `maxToolResultChars`. */
  maxResultChars?: number;
  /** Calling the tool twice with the same arguments does no more than once: a failed call may then be retried. */
  idempotent?: boolean;
}
