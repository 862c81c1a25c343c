import type * as http from "node:http";

/** The largest request body `serveMcp` reads: 4 MiB. */
export const maxBodyBytes = 4 * 1024 * 1024;

/** What `readJson` returns for a body over `maxBodyBytes` (the rest of it is left unread). */
export const tooLarge = Symbol("tooLarge");

/** Reads a request's body as JSON: the value, the parse error, or `tooLarge`. */
export async function readJson(request: http.IncomingMessage): Promise<unknown> {
  if (Number(request.headers["content-length"]) > maxBodyBytes) return tooLarge;
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return tooLarge;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    return error as Error;
  }
}

/** Answers with a JSON-RPC error body (`id: null`, as the MCP SDK's transport does) and an HTTP status. */
export function sendError(response: http.ServerResponse, status: number, code: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, { ...headers, "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
