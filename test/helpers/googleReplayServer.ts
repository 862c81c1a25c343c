import { errorAnswer, jsonAnswer, type ReplayAnswer, ReplayHttpServer, streamAnswer } from "./replayHttpServer";

const route = /^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent\?alt=sse)$/;

/**
 * The Gemini API on 127.0.0.1, replaying responses recorded from the real API (the `@ai-sdk/google`
 * package's own fixtures, in test/fixtures/vendors/google): `POST /v1beta/models/<model>:generateContent`
 * and `:streamGenerateContent?alt=sse`.
 */
export class GoogleReplayServer extends ReplayHttpServer {
  constructor() {
    super("GoogleReplayServer", "data", (method, url) => method === "POST" && route.test(url));
  }

  /** The `baseURL` to give `createGoogleGenerativeAI`. */
  get baseURL(): string {
    return `${this.origin}/v1beta`;
  }
}

/** The recorded generateContent response `test/fixtures/vendors/google/<name>.json`. */
export const googleJson = (name: string): ReplayAnswer => jsonAnswer("google", name);

/** The recorded streamGenerateContent stream `test/fixtures/vendors/google/<name>.chunks.txt`, as server-sent events. */
export const googleStream = (name: string): ReplayAnswer => streamAnswer("google", name);

/** The Google error body `test/fixtures/vendors/google/<name>.json` with this status. */
export const googleError = (name: string, status: number, headers?: Record<string, string>): ReplayAnswer => errorAnswer("google", name, status, headers);
