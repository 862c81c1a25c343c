import type { UIMediaMode } from "./toolOutputValue";

/** An error a run failed with, as `onError` gets it: a thrown error, or a `RunQueue` run's `{ name, message }`. */
export type UIRunFailure = Error | { readonly name: string; readonly message: string };

/** Options of `toUIMessageStream` (and of the response helpers, which pass them on). */
export interface ToUIMessageStreamOptions {
  /** The assistant message's id, sent in the `start` chunk (useChat then updates that message). Default: none (the client makes one). */
  readonly messageId?: string;
  /**
   * The state keys sent to the browser as a `data-state` part (id `state`) when the run ends or
   * pauses. Default none: state often holds injected values (customer ids, tokens) the page must not see.
   */
  readonly state?: readonly string[];
  /** Images and files of tool results: `descriptor` (default; no bytes leave the server) or `dataUrl` (adds a URL the page can show). */
  readonly media?: UIMediaMode;
  /**
   * The `errorText` sent when the run fails. Default: `The run failed.`, since an error's message
   * may hold what the user must not see (a provider's response, a path). A throw here sends the default.
   */
  readonly onError?: (error: UIRunFailure) => string;
  /**
   * The most bytes of chunks (as JSON) held for a consumer that reads slower than the run writes;
   * past it the run is aborted (for `agent.stream`; a `RunQueue` run goes on) and the stream errors
   * with `UIStreamError`. Default 8 MiB.
   */
  readonly maxBufferedBytes?: number;
  /**
   * Tool calls the page already shows — the calls a resume decides (`Object.keys(decisions)` from
   * `fromUIMessages`): only their outcome is sent. Sending their input again would make useChat add
   * a second part for the call beside the one the person answered.
   */
  readonly knownToolCalls?: readonly string[];
}
