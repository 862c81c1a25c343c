import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Readable } from "node:stream";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";

/** What a reader made of a stream: the final assistant message, and the errors it reported. */
export interface ReadMessage {
  readonly message: UIMessage | undefined;
  readonly errors: readonly string[];
}

/** A node:http server on 127.0.0.1 answering every request with `handle`. */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a Web Response through a node:http response, cancelling its body when the client goes away (what Next.js and Hono's node adapter do). */
export function sendResponse(response: Response, res: ServerResponse): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  body.pipe(res);
  res.once("close", () => body.destroy());
}

/** Reads the stream at `url` as ai 6's useChat does (DefaultChatTransport, then readUIMessageStream). */
export async function readWithAi6(url: string): Promise<ReadMessage> {
  const errors: string[] = [];
  let message: UIMessage | undefined;
  try {
    const stream = await new DefaultChatTransport({ api: url }).sendMessages({
      trigger: "submit-message",
      chatId: "chat-1",
      messageId: undefined,
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Refund order A-100, please." }] }],
      abortSignal: undefined,
    });
    for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(error instanceof Error ? error.message : String(error)) })) message = snapshot;
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
  }
  return { message: message && (JSON.parse(JSON.stringify(message)) as UIMessage), errors };
}

/** Reads the stream at `url` with ai 7 (in a child process: ai 7 is an ES module only). */
export function readWithAi7(url: string): Promise<ReadMessage> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, "readWithAi7.mjs"), url], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`readWithAi7 exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as ReadMessage);
    });
  });
}
