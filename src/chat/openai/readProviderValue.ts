import { z } from "zod";
import { formatPath } from "../../util/formatPath";
import { providerFault } from "./toChatGeneratorError";

// What toolwright reads from a provider is checked before use: the fields a reply is made of must
// have their types (null or missing is fine); bookkeeping fields (model, usage, indexes) with the
// wrong type are ignored instead. Unknown fields are dropped.

/** A bookkeeping field: a value of the wrong type counts as missing. */
export const ignoredUnlessValid = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined);
/** A text field of a reply: a string, null or missing. */
export const optionalString = z.string().nullish();
/** An index, ignored unless it is a whole number from 0 up. */
export const position = ignoredUnlessValid(z.number().int().nonnegative());
/** A token count, ignored unless it is a number. */
export const count = ignoredUnlessValid(z.number());

/** The API whose shape a provider's value must have, as messages name it. */
export type ProviderApi = "Chat Completions" | "Responses API";

const endpointHint = "check that baseURL points at an OpenAI-compatible /v1 endpoint.";

/**
 * Checks the body the SDK returned for a non-streaming call (parsed JSON, the text of a non-JSON
 * body, or nothing) against `schema`: an empty body, a body that is not JSON and a JSON body of
 * another shape are each a ChatGeneratorError.
 */
export function readProviderBody<T extends z.ZodType>(schema: T, body: unknown, model: string, api: ProviderApi): z.infer<T> {
  if (body === null || body === undefined || body === "") throw providerFault(model, `the response body is empty; ${endpointHint}`);
  if (typeof body === "string") {
    const start = JSON.stringify(body.slice(0, 40)) + (body.length > 40 ? "..." : "");
    throw providerFault(model, `the response is not JSON (it starts with ${start}); ${endpointHint}`);
  }
  return readProviderValue(schema, body, model, "the response", api);
}

/** Checks `value` against `schema`; a mismatch is a ChatGeneratorError naming `what` and the first problem's path. */
export function readProviderValue<T extends z.ZodType>(schema: T, value: unknown, model: string, what: string, api: ProviderApi): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const problem = issue.code === "invalid_type" ? `expected ${issue.expected}, got ${kindOf(valueAt(value, issue.path))}` : issue.message;
  throw providerFault(model, `${what} does not have the ${api} shape (${formatPath(issue.path)}: ${problem}).`);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((current, key) => (typeof current === "object" && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined), value);
}

// By shape, not constructor: the SDK parses bodies in Node's own realm.
function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}
