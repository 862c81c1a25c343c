import type OpenAI from "openai";
import { ChatGeneratorError } from "../../errors";
import { isApiError, isConnectionError, isConnectionTimeoutError } from "./sdkErrors";

/** The call a failure belongs to, as its messages name it. */
export interface ProviderCall {
  /** The model name. */
  readonly model: string;
  /** The client's per-attempt timeout, in ms. */
  readonly timeoutMs: number;
  /** The client's base URL, which a connection error names (the default one too, since OPENAI_BASE_URL may have set it). */
  readonly baseURL?: string;
}

/** A ChatGeneratorError for a fault of the provider: `OpenAI request for model '<model>' failed: <detail>`. */
export function providerFault(model: string, detail: string, cause?: unknown): ChatGeneratorError {
  return new ChatGeneratorError(`OpenAI request for model '${model}' failed: ${detail}`, { cause });
}

/**
 * Turns any failure of the request and its JSON body (`reading: "body"`) or of its stream into a
 * ChatGeneratorError that names the model and what went wrong, keeping the original as `cause`.
 * A ChatGeneratorError is returned as it is. Aborts are not handled here: the call's abort scope explains those.
 */
export function toChatGeneratorError(error: unknown, call: ProviderCall, reading: "body" | "stream"): ChatGeneratorError {
  const { model } = call;
  if (error instanceof ChatGeneratorError) return error;
  if (isApiError(error) && error.status !== undefined) {
    const providerMessage = providerMessageOf(error);
    return new ChatGeneratorError(`OpenAI request for model '${model}' failed with status ${error.status}: ${providerMessage}`, { cause: error, status: error.status, providerMessage });
  }
  if (isConnectionTimeoutError(error)) {
    return providerFault(model, `the server sent no response headers within timeout (${call.timeoutMs} ms); raise timeout if the model takes longer to start answering.`, error);
  }
  if (isConnectionError(error)) {
    // The SDK says only "Connection error."; the socket's reason ("connect ECONNREFUSED 127.0.0.1:8000") is in its causes.
    const detail = [error.message.replace(/\.$/, ""), rootCause(error)].filter((part, i, all) => part !== undefined && all.indexOf(part) === i).join(": ");
    const target = call.baseURL === undefined ? "" : ` to ${call.baseURL}`;
    return new ChatGeneratorError(`OpenAI request for model '${model}' could not connect${target} (${detail}); check baseURL / OPENAI_BASE_URL and that the server is up.`, { cause: error });
  }
  if (isApiError(error)) {
    // An error event inside a stream: the provider's error, without an HTTP status.
    const providerMessage = providerMessageOf(error);
    return new ChatGeneratorError(`OpenAI request for model '${model}' failed: ${providerMessage}`, { cause: error, providerMessage });
  }
  if (errorNamed(error, "SyntaxError")) {
    return reading === "stream"
      ? providerFault(model, `a stream event is not valid JSON (${detailOf(error)}).`, error)
      : providerFault(model, `the response body is not valid JSON (${detailOf(error)}); check that baseURL points at an OpenAI-compatible /v1 endpoint.`, error);
  }
  // undici's error for a connection that closed while the body was being read.
  if (errorNamed(error, "TypeError") && error.message === "terminated") {
    return providerFault(model, `the connection closed before the response was complete (${detailOf(error)}).`, error);
  }
  return providerFault(model, `reading the response went wrong (${detailOf(error)}).`, error);
}

function providerMessageOf(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | string | null | undefined;
  if (typeof body === "string" && body !== "") return body;
  if (typeof body === "object" && body !== null && typeof body.message === "string") return body.message;
  return error.message.replace(/^\d{3}\s*/, "") || "no message";
}

// By name: fetch's errors come from Node's own realm, where `instanceof` against another realm's classes fails.
function errorNamed(error: unknown, name: string): error is Error {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === name;
}

// The message of the innermost cause, when the error has one.
function rootCause(error: Error): string | undefined {
  let message: string | undefined;
  for (let current = error.cause, depth = 0; typeof current === "object" && current !== null && depth < 4; depth++) {
    const text = (current as { message?: unknown }).message;
    if (typeof text === "string" && text !== "") message = text;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

// The error's message and its causes' (undici puts the socket's reason in `cause`).
function detailOf(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 3; depth++) {
    const { message, name, cause } = typeof current === "object" && current !== null ? (current as { message?: unknown; name?: unknown; cause?: unknown }) : {};
    parts.push(typeof message === "string" && message !== "" ? message : typeof name === "string" ? name : String(current));
    current = cause;
  }
  return parts.join(": ");
}
