import fc from "fast-check";
import OpenAI from "openai";
import { ChatGeneratorError, type ChatGeneratorResponse } from "toolwright";
import { hangingReply, MockOpenAIServer, type MockResponse, type RawEnding } from "../helpers/mockOpenAIServer";

// What the properties of hostile providers share (providerFaults, responsesProviderFaults): the
// arbitrary HTTP answer around a body, and how a call's outcome is judged.

/**
 * A MockOpenAIServer for the file's properties, started before them and closed after, and an
 * `OpenAI` client on it that waits 100 ms for response headers and logs nothing (the SDK logs every
 * unparsable stream event).
 */
export function useFuzzServer(): { readonly server: MockOpenAIServer; client(): OpenAI } {
  const server = new MockOpenAIServer();
  let client: OpenAI | undefined;
  beforeAll(async () => {
    await server.start();
    client = new OpenAI({ apiKey: "test-key", baseURL: server.baseURL, timeout: 100, logLevel: "off" });
  });
  afterAll(() => server.close());
  return { server, client: () => client! };
}

/** Mostly a valid value, sometimes any JSON value, sometimes left out. */
export function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 30 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }, { arbitrary: fc.constant(undefined), weight: 1 });
}

/** Mostly null (left out), sometimes a value. */
export function rarely<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: value, weight: 1 });
}

const headerValue = fc.oneof(fc.nat(5000).map(String), fc.constantFrom("3600", "-1", "soon", "", "1e999", "0.5"), fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()));

/**
 * An HTTP answer carrying `body`: mostly a 200 of the content type a request of this kind expects
 * (an event stream or JSON), sometimes any status, retry header, content type, truncation or
 * ending, and sometimes no answer at all.
 */
export function httpAnswer(body: fc.Arbitrary<string | Uint8Array>, streaming: boolean): fc.Arbitrary<MockResponse> {
  return fc.oneof(
    {
      weight: 30,
      arbitrary: fc
        .record({
          status: fc.oneof({ weight: 8, arbitrary: fc.constant(200) }, { weight: 1, arbitrary: fc.constantFrom(204, 400, 401, 404, 408, 409, 429, 500, 502, 503) }, { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) }),
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant(streaming ? "text/event-stream" : "application/json") },
            { weight: 1, arbitrary: fc.constantFrom("application/json; charset=utf-8", "text/plain", "text/html", undefined) },
          ),
          retryAfter: rarely(headerValue),
          retryAfterMs: rarely(headerValue),
          shouldRetry: rarely(fc.constantFrom("true", "false")),
          body,
          cut: rarely(fc.nat()),
          ending: fc.oneof({ weight: 16, arbitrary: fc.constant<RawEnding>("end") }, { weight: 2, arbitrary: fc.constant<RawEnding>("reset") }, { weight: 1, arbitrary: fc.constant<RawEnding>("stall") }),
        })
        .map(({ status, contentType, retryAfter, retryAfterMs, shouldRetry, body: content, cut, ending }): MockResponse => {
          const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
          const headers = {
            ...(contentType && { "content-type": contentType }),
            ...(retryAfter !== null && { "retry-after": retryAfter }),
            ...(retryAfterMs !== null && { "retry-after-ms": retryAfterMs }),
            ...(shouldRetry !== null && { "x-should-retry": shouldRetry }),
          };
          return { kind: "raw", status, headers, body: cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1)), ending };
        }),
    },
    { weight: 1, arbitrary: fc.constant(hangingReply()) },
  );
}

/** How a model call ended: with a response, with an error, or not within the time allowed. */
export type Outcome = { readonly response: ChatGeneratorResponse } | { readonly error: unknown } | { readonly hung: true };

/** The outcome of `promise`, or `{ hung: true }` when it has not settled after `hungAfterMs`. */
export async function outcomeOf(promise: Promise<ChatGeneratorResponse>, hungAfterMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ hung: true }), hungAfterMs)));
  try {
    return await Promise.race([promise.then((value) => ({ response: value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Expects the call to have ended, in a response (returned) or a ChatGeneratorError naming `model` (undefined). */
export function expectSettled(outcome: Outcome, model: string): ChatGeneratorResponse | undefined {
  expect(outcome).not.toHaveProperty("hung");
  if ("error" in outcome) {
    expect(outcome.error).toBeInstanceOf(ChatGeneratorError);
    expect((outcome.error as Error).message).toMatch(new RegExp(`^OpenAI request for model '${model}' (failed|could not connect)`));
  }
  return "response" in outcome ? outcome.response : undefined;
}

/** Runs `property`, then expects no rejection to have been left unhandled meanwhile. */
export async function expectNoUnhandledRejections(property: () => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    await property();
    // Rejections left unhandled surface on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  expect(unhandled).toEqual([]);
}
