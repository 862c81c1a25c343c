import { errorAnswer, jsonAnswer, type ReplayAnswer, ReplayHttpServer, streamAnswer } from "./replayHttpServer";

/**
 * The Anthropic Messages API on 127.0.0.1, replaying responses recorded from the real API (the
 * `@ai-sdk/anthropic` package's own fixtures, in test/fixtures/vendors/anthropic): `POST /v1/messages`.
 */
export class AnthropicReplayServer extends ReplayHttpServer {
  constructor() {
    super("AnthropicReplayServer", "named", (method, url) => method === "POST" && url === "/v1/messages");
  }

  /** The `baseURL` to give `createAnthropic`. */
  get baseURL(): string {
    return `${this.origin}/v1`;
  }
}

/** The recorded Messages response `test/fixtures/vendors/anthropic/<name>.json`. */
export const anthropicJson = (name: string): ReplayAnswer => jsonAnswer("anthropic", name);

/** The recorded Messages stream `test/fixtures/vendors/anthropic/<name>.chunks.txt`, as server-sent events. */
export const anthropicStream = (name: string): ReplayAnswer => streamAnswer("anthropic", name);

/** The Anthropic error body `test/fixtures/vendors/anthropic/<name>.json` with this status. */
export const anthropicError = (name: string, status: number, headers?: Record<string, string>): ReplayAnswer => errorAnswer("anthropic", name, status, headers);
