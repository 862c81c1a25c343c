import type * as http from "node:http";

/** Sends `body` as JSON with `status`. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * Reads a JSON request body of at most `maxBytes`. Answers 413 (too large) or 400 (not JSON) itself
 * and returns undefined then.
 */
export async function readJsonBody(req: http.IncomingMessage, res: http.ServerResponse, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      // Not read to its end: the connection closes once the answer is out.
      res.setHeader("connection", "close");
      res.on("finish", () => req.destroy());
      sendJson(res, 413, { error: `The request body is larger than ${maxBytes} bytes; send a shorter conversation.` });
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    sendJson(res, 400, { error: "The request body is not JSON; send what useChat posts." });
    return undefined;
  }
}
