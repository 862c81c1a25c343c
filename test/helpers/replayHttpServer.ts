import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { type RecordedRequest, RecordingHttpServer } from "./recordingHttpServer";

/** A recorded answer to one request: a JSON body, a stream of server-sent events, or an error status with its body. */
export type ReplayAnswer =
  | { readonly kind: "json"; readonly body: string }
  | { readonly kind: "sse"; readonly chunks: readonly string[] }
  | { readonly kind: "error"; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> };

/** How a vendor frames one server-sent event: Anthropic names each event after its data's `type`, Google sends `data:` only. */
export type EventFraming = "named" | "data";

const fixtures = join(__dirname, "..", "fixtures", "vendors");

/** The text of a vendor fixture, `test/fixtures/vendors/<vendor>/<file>` (see the README there for where each came from). */
export function vendorFixture(vendor: string, file: string): string {
  return readFileSync(join(fixtures, vendor, file), "utf8");
}

/** A recorded JSON response (`<name>.json`) as the answer to one request. */
export function jsonAnswer(vendor: string, name: string): ReplayAnswer {
  return { kind: "json", body: vendorFixture(vendor, `${name}.json`) };
}

/** A recorded stream (`<name>.chunks.txt`, one event's JSON a line) as the answer to one request. */
export function streamAnswer(vendor: string, name: string): ReplayAnswer {
  return { kind: "sse", chunks: vendorFixture(vendor, `${name}.chunks.txt`).split("\n").filter((line) => line.trim() !== "") };
}

/** A recorded error body (`<name>.json`) with its status. */
export function errorAnswer(vendor: string, name: string, status: number, headers?: Record<string, string>): ReplayAnswer {
  return { kind: "error", status, body: vendorFixture(vendor, `${name}.json`), ...(headers && { headers }) };
}

/**
 * A vendor's API on 127.0.0.1 replaying recorded responses: each request the route accepts takes
 * the next answer of the queue, byte for byte as recorded; every request is recorded. A request
 * with no answer left gets a 500 naming the server, so a test that calls too often fails loudly.
 */
export class ReplayHttpServer extends RecordingHttpServer<ReplayAnswer> {
  constructor(
    /** Names the server in its own error answers. */
    readonly name: string,
    readonly framing: EventFraming,
    /** Whether a request (method, URL) is one the vendor's API answers. */
    readonly accepts: (method: string, url: string) => boolean,
  ) {
    super();
  }

  protected respond(request: RecordedRequest, res: ServerResponse): void {
    const answer = this.accepts(request.method, request.url) ? this.nextAnswer() : undefined;
    if (!answer) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: `${this.name} has no recorded answer for request ${this.requests.length} (${request.method} ${request.url}).` }));
    } else if (answer.kind === "error") {
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(answer.body);
    } else if (answer.kind === "json") {
      res.writeHead(200, { "content-type": "application/json" }).end(answer.body);
    } else {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const chunk of answer.chunks) res.write(this.framing === "named" ? `event: ${(JSON.parse(chunk) as { type: string }).type}\ndata: ${chunk}\n\n` : `data: ${chunk}\r\n\r\n`);
      res.end();
    }
  }
}
