import { ChatGeneratorError } from "../errors";

/** The model a failure belongs to, as its messages name it. */
export interface ModelCall {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly modelId: string;
  /** The AI SDK provider id, e.g. `anthropic.messages`. */
  readonly providerId: string;
}

/** The parts of an AI SDK `APICallError` toolwright reads (each checked before use). */
interface ApiCallErrorShape {
  readonly message?: unknown;
  readonly statusCode?: unknown;
  readonly isRetryable?: unknown;
  readonly responseHeaders?: unknown;
}

// The AI SDK marks its errors with a registered symbol per class (what `APICallError.isInstance`
// checks, the same in @ai-sdk/provider 3 and 4), so the check needs no import of the package.
const apiCallErrorMarker = Symbol.for("vercel.ai.error.AI_APICallError");

// Provider messages go into toolwright's message cut to this many characters (the whole text stays in `cause`).
const maxDetailLength = 1000;

/** A ChatGeneratorError for a fault of the provider: `AI SDK request for model '<id>' (<provider>) failed: <detail>`. */
export function providerFault(call: ModelCall, detail: string, cause?: unknown): ChatGeneratorError {
  return new ChatGeneratorError(`${subjectOf(call)} failed: ${detail}`, { cause });
}

/** Whether `error` is an AI SDK `APICallError` (an HTTP call to the provider that failed), by its marker. */
export function isApiCallError(error: unknown): error is ApiCallErrorShape {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[apiCallErrorMarker] === true;
}

/**
 * Turns any failure of a model call (what `doGenerate` or `doStream` threw or a broken stream
 * rejected with: `thrown`; the payload of an `error` stream part: `errorPart`) into a ChatGeneratorError that names the model and what went wrong, keeping the
 * original as `cause`. A ChatGeneratorError is returned as it is. Aborts through the caller's
 * signal are not handled here: the call's abort scope explains those.
 */
export function toChatGeneratorError(error: unknown, call: ModelCall, source: "thrown" | "errorPart"): ChatGeneratorError {
  if (error instanceof ChatGeneratorError) return error;
  const subject = subjectOf(call);
  if (isApiCallError(error)) {
    const providerMessage = cut(typeof error.message === "string" && error.message !== "" ? error.message : "no message");
    const status = error.statusCode;
    if (typeof status === "number" && Number.isInteger(status)) {
      return new ChatGeneratorError(`${subject} failed with status ${status}: ${providerMessage}`, { cause: error, status, providerMessage });
    }
    return new ChatGeneratorError(`${subject} failed: ${providerMessage}`, { cause: error, providerMessage });
  }
  if (source === "errorPart") {
    const providerMessage = messageOf(error);
    return new ChatGeneratorError(`${subject} failed: the stream sent an error: ${providerMessage ?? describe(error)}`, { cause: error, ...(providerMessage !== undefined && { providerMessage }) });
  }
  // fetch's own error when the provider could not be reached (providers wrap it in an APICallError
  // when it is of their realm; a custom fetch's, or another realm's, arrives as it is).
  if (named(error, "TypeError") && (error as Error).message === "fetch failed") {
    return providerFault(call, `could not connect (${describe(error)}); check the provider's baseURL and the network.`, error);
  }
  // undici's error for a connection that closed while the body was being read.
  if (named(error, "TypeError") && (error as Error).message === "terminated") {
    return providerFault(call, `the connection closed before the response was complete (${describe(error)}).`, error);
  }
  if (named(error, "AbortError") || named(error, "TimeoutError")) {
    return providerFault(call, `the provider aborted the request (${describe(error)}).`, error);
  }
  return providerFault(call, `the model threw ${describe(error)}.`, error);
}

function subjectOf(call: ModelCall): string {
  return `AI SDK request for model '${cut(call.modelId)}' (${cut(call.providerId)})`;
}

// The provider's own message in an error part: a string, or an object's `message` (`{ message, type, code }`).
function messageOf(error: unknown): string | undefined {
  if (typeof error === "string" && error !== "") return cut(error);
  const message = typeof error === "object" && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === "string" && message !== "" ? cut(message) : undefined;
}

function named(error: unknown, name: string): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === name;
}

// An error's name and message and its causes' (undici puts the socket's reason in `cause`), or a value's JSON.
function describe(error: unknown): string {
  if (error === undefined || error === null) return String(error);
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 3; depth++) {
    if (typeof current !== "object") {
      parts.push(stringOf(current));
      break;
    }
    const { message, name, cause } = current as { message?: unknown; name?: unknown; cause?: unknown };
    const label = typeof name === "string" && name !== "" && name !== "Error" ? name : undefined;
    const text = typeof message === "string" && message !== "" ? message : undefined;
    parts.push(label && text ? `${label}: ${text}` : (label ?? text ?? stringOf(current)));
    current = cause;
  }
  return cut(parts.join(": ") || "no detail");
}

function stringOf(value: unknown): string {
  try {
    return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function cut(text: string): string {
  return text.length <= maxDetailLength ? text : `${text.slice(0, maxDetailLength)}…(${text.length} characters)`;
}
