import type { ChatGeneratorResponse } from "./chatGenerator";

/** The response with `warnings` before the provider's own in `meta.warnings`; the response itself when there are none. */
export function withWarnings(response: ChatGeneratorResponse, warnings: readonly string[]): ChatGeneratorResponse {
  if (warnings.length === 0) return response;
  return { ...response, meta: { ...response.meta, warnings: [...warnings, ...(response.meta?.warnings ?? [])] } };
}
