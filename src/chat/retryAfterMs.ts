/**
 * The wait a failed response asks for before a retry, in ms: its `retry-after-ms` header, else its
 * `retry-after` (seconds, or an HTTP date: the time until it, negative when past); `undefined` when
 * neither is usable. `header` reads one header by its lower-case name.
 */
export function retryAfterMs(header: (name: string) => string | null | undefined): number | undefined {
  const ms = parseFloat(header("retry-after-ms") ?? "");
  if (!Number.isNaN(ms)) return ms;
  const retryAfter = header("retry-after") ?? "";
  const seconds = parseFloat(retryAfter);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
