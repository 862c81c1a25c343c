import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON); typed loosely so tests can read any field. */
  readonly body: any;
}

/**
 * An HTTP server on 127.0.0.1 for provider tests: every request is recorded (its body parsed as
 * JSON when it is JSON), then answered by `respond` with the next answer of a queue the test fills.
 */
export abstract class RecordingHttpServer<TAnswer> {
  readonly requests: RecordedRequest[] = [];
  #queue: TAnswer[] = [];
  #waiters: Array<() => void> = [];
  #port = 0;
  readonly #server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Recorded as text.
      }
      const request: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      this.requests.push(request);
      this.#waiters.splice(0).forEach((wake) => wake());
      this.respond(request, res, req);
    });
  });

  /** Answers one recorded request; `nextAnswer()` takes the queue's next answer. */
  protected abstract respond(request: RecordedRequest, res: ServerResponse, req: IncomingMessage): void;

  /** The next queued answer, or undefined when the queue is empty. */
  protected nextAnswer(): TAnswer | undefined {
    return this.#queue.shift();
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** How many queued answers have not been used. */
  get pending(): number {
    return this.#queue.length;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Adds answers to the queue; each request takes the next one. */
  enqueue(...answers: TAnswer[]): void {
    this.#queue.push(...answers);
  }

  /** Forgets the recorded requests and the unused answers. */
  reset(): void {
    this.requests.length = 0;
    this.#queue = [];
  }

  /** Resolves once `count` requests have been received. */
  async received(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }
}
