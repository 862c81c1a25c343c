import OpenAI from "openai";

type ApiError = InstanceType<typeof OpenAI.APIError>;

/**
 * Whether `error` is an `APIError` of the `openai` package: of the copy toolwright imports, or of
 * another copy (openai 6 and 7 side by side, or a `client` built from a second install), whose
 * classes `instanceof` does not see; those are known by their class names.
 */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof OpenAI.APIError || isSdkClass(error, "APIError");
}

/** Whether `error` is an `APIConnectionError` (a timeout included) of any copy of the `openai` package. */
export function isConnectionError(error: unknown): error is InstanceType<typeof OpenAI.APIConnectionError> {
  return error instanceof OpenAI.APIConnectionError || isSdkClass(error, "APIConnectionError");
}

/** Whether `error` is an `APIConnectionTimeoutError` of any copy of the `openai` package. */
export function isConnectionTimeoutError(error: unknown): error is InstanceType<typeof OpenAI.APIConnectionTimeoutError> {
  return error instanceof OpenAI.APIConnectionTimeoutError || isSdkClass(error, "APIConnectionTimeoutError");
}

// An SDK class is one whose prototype chain has both `className` and the SDK's base `OpenAIError`.
function isSdkClass(error: unknown, className: string): boolean {
  if (!(error instanceof Error)) return false;
  let named = false;
  for (let proto = Object.getPrototypeOf(error) as object | null, hops = 0; proto !== null && hops < 8; proto = Object.getPrototypeOf(proto), hops++) {
    const name = Object.hasOwn(proto, "constructor") ? (proto.constructor as { name?: unknown }).name : undefined;
    if (name === className) named = true;
    if (name === "OpenAIError") return named;
  }
  return false;
}
