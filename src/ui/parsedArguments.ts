/** A tool call's streamed arguments text parsed as JSON, or why not. */
export function parsedArguments(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text === "" ? "{}" : text) };
  } catch {
    return { ok: false };
  }
}
