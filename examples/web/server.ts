import { readFile } from "node:fs/promises";
import * as http from "node:http";
import { join } from "node:path";
import { createChatRoutes, type ChatRoutesOptions } from "./chatRoutes";
import { sendJson } from "./httpBodies";

/** How the chat page's server is set up: the chat routes' options and where the built page is. */
export interface WebServerOptions extends ChatRoutesOptions {
  /** The folder buildPage wrote: index.html and app.js. */
  readonly pageDir: string;
}

const pageFiles: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
};

/** The chat page and its API on one node:http server. */
export function createWebServer(options: WebServerOptions): http.Server {
  const routes = createChatRoutes(options);
  return http.createServer((req, res) => {
    serve(options.pageDir, routes, req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) sendJson(res, 500, { error: "The chat server failed; see its log." });
      else res.destroy();
    });
  });
}

async function serve(pageDir: string, routes: ReturnType<typeof createChatRoutes>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (await routes(req, res)) return;
  const page = req.method === "GET" ? pageFiles[new URL(req.url ?? "/", "http://localhost").pathname] : undefined;
  if (!page) return sendJson(res, 404, { error: "Not found: the page is at /, its API at POST /api/chat." });
  res.writeHead(200, { "content-type": page.type, "cache-control": "no-store" }).end(await readFile(join(pageDir, page.file)));
}
