import { createHook } from "node:async_hooks";
import OpenAI from "openai";
import { AbortError, ChatGeneratorError } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { isRetryable, retryAfterMsOf } from "../../../src/chat/openai/retryPolicy";
import { retryDelayMs } from "../../../src/chat/retryModelCall";
import { errorReply, jsonReply } from "../../helpers/mockOpenAIServer";
import { delay, generatorOn, rejectionOf, request, useMockServer } from "./openaiTestKit";

const server = useMockServer();

/** The wait before retry number `retry` after an SDK error, as the OpenAI generators compute it. */
function delayAfter(error: unknown, retry: number, maxRetryDelayMs: number): number {
  return retryDelayMs(retryAfterMsOf(error), retry, maxRetryDelayMs);
}

function statusError(status: number, headers: Record<string, string> = {}): InstanceType<typeof OpenAI.APIError> {
  return OpenAI.APIError.generate(status, { error: { message: "Try again later." } }, undefined, new Headers(headers));
}

/** Records the timers that src/chat/openai arms and that have neither fired nor been cleared yet. */
function watchOwnTimers(): { readonly pending: Set<number>; stop(): void } {
  const pending = new Set<number>();
  const hook = createHook({
    init: (id, type) => void (type === "Timeout" && /src[\\/]chat[\\/]openai[\\/]/.test(new Error().stack ?? "") && pending.add(id)),
    destroy: (id) => void pending.delete(id),
  }).enable();
  return { pending, stop: () => hook.disable() };
}

describe("OpenAIChatGenerator", () => {
  describe("retries", () => {
    it("caps a retry-after of 3600 seconds at maxRetryDelayMs and then succeeds", async () => {
      server.enqueue(errorReply(429, "Rate limit reached.", "tokens", "rate_limit_exceeded", { "retry-after": "3600" }), jsonReply({ text: "It is sunny." }));
      const start = performance.now();

      const response = await generatorOn(server, { maxRetries: 1, maxRetryDelayMs: 50 }).run(request());

      expect(response.replies[0]!.text).toBe("It is sunny.");
      expect(server.requests).toHaveLength(2);
      expect(performance.now() - start).toBeLessThan(1000);
    });

    it("ends a retry wait at once when the signal aborts, sends nothing more and leaves no timer armed", async () => {
      server.enqueue(errorReply(429, "Rate limit reached.", "tokens", "rate_limit_exceeded", { "retry-after": "3600" }), jsonReply({ text: "never sent" }));
      const timers = watchOwnTimers();
      const controller = new AbortController();
      const pending = rejectionOf(generatorOn(server, { maxRetries: 2 }).run(request({ signal: controller.signal })));
      await server.received(1);
      await delay(30);
      expect(timers.pending.size).toBe(2); // the deadline and the retry wait

      const abortedAt = performance.now();
      controller.abort();
      const error = await pending;

      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(error).toBeInstanceOf(AbortError);
      expect(error.message).toBe("The model request was aborted.");
      await new Promise(setImmediate);
      timers.stop();
      expect(timers.pending.size).toBe(0);
      await delay(100);
      expect(server.requests).toHaveLength(1);
    });

    it("retries a 400 whose x-should-retry header is true, and not a 500 whose header is false", async () => {
      server.enqueue(errorReply(400, "Try again.", "invalid_request_error", null, { "x-should-retry": "true", "retry-after-ms": "0" }), jsonReply({ text: "ok" }));
      await generatorOn(server, { maxRetries: 1 }).run(request());
      expect(server.requests).toHaveLength(2);

      server.reset();
      server.enqueue(errorReply(500, "Do not retry.", "server_error", null, { "x-should-retry": "false" }));
      const error = await rejectionOf(generatorOn(server, { maxRetries: 1 }).run(request()));
      expect(server.requests).toHaveLength(1);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed with status 500: Do not retry.");
    });

    it("counts retries in the x-stainless-retry-count header", async () => {
      server.enqueue(errorReply(503, "Overloaded."), errorReply(503, "Overloaded."), jsonReply({ text: "ok" }));

      await generatorOn(server, { maxRetries: 2 }).run(request());

      expect(server.requests.map((sent) => sent.headers["x-stainless-retry-count"])).toEqual(["0", "1", "2"]);
    });

    it("retries itself with a given client, whose own retries are turned off per request", async () => {
      server.enqueue(errorReply(500, "Down."), errorReply(500, "Down."), errorReply(500, "Down."));
      const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL, maxRetries: 5 });

      const error = await rejectionOf(new OpenAIChatGenerator({ model: "test-model", client, maxRetries: 1 }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(server.requests).toHaveLength(2);
    });

    it("uses the given client's maxRetries when maxRetries is left out", async () => {
      server.enqueue(errorReply(500, "Down."), jsonReply({ text: "ok" }));
      const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL, maxRetries: 1 });

      const response = await new OpenAIChatGenerator({ model: "test-model", client }).run(request());

      expect(response.replies[0]!.text).toBe("ok");
      expect(server.requests).toHaveLength(2);
    });

    it("gives up with the last error when the wait before a retry would outlast deadlineMs", async () => {
      server.enqueue(errorReply(429, "Slow down.", "tokens", null, { "retry-after-ms": "500" }), jsonReply({ text: "never sent" }));

      const error = await rejectionOf(generatorOn(server, { maxRetries: 1, deadlineMs: 300 }).run(request()));

      expect(error.message).toBe("OpenAI request for model 'test-model' failed with status 429: Slow down.");
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe("isRetryable", () => {
  it("is true for connection errors, timeouts and statuses 408, 409, 429 and 5xx", () => {
    const retried = [new OpenAI.APIConnectionError({ message: "Connection error." }), new OpenAI.APIConnectionTimeoutError(), ...[408, 409, 429, 500, 503, 599].map((status) => statusError(status))];

    expect(retried.map(isRetryable)).toEqual(retried.map(() => true));
  });

  it("is false for other statuses, aborts and errors that are not the SDK's", () => {
    const kept = [...[400, 401, 403, 404, 422].map((status) => statusError(status)), new OpenAI.APIUserAbortError(), new SyntaxError("Unexpected token"), "a string"];

    expect(kept.map(isRetryable)).toEqual(kept.map(() => false));
  });

  it("follows x-should-retry over the status", () => {
    expect(isRetryable(statusError(400, { "x-should-retry": "true" }))).toBe(true);
    expect(isRetryable(statusError(503, { "x-should-retry": "false" }))).toBe(false);
  });
});

describe("retryAfterMsOf and retryDelayMs", () => {
  it("takes retry-after-ms first, then retry-after in seconds", () => {
    expect(delayAfter(statusError(429, { "retry-after-ms": "250", "retry-after": "9" }), 0, 60_000)).toBe(250);
    expect(delayAfter(statusError(429, { "retry-after": "2" }), 0, 60_000)).toBe(2000);
    expect(delayAfter(statusError(429, { "retry-after-ms": "0" }), 0, 60_000)).toBe(0);
  });

  it("takes retry-after as an HTTP date, and 0 for a date in the past", () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();

    const delayMs = delayAfter(statusError(429, { "retry-after": inTenSeconds }), 0, 60_000);

    expect(delayMs).toBeGreaterThan(8_000);
    expect(delayMs).toBeLessThanOrEqual(10_000);
    expect(delayAfter(statusError(429, { "retry-after": "Thu, 01 Jan 1970 00:00:00 GMT" }), 0, 60_000)).toBe(0);
  });

  it("caps every wait at maxRetryDelayMs", () => {
    expect(delayAfter(statusError(429, { "retry-after": "3600" }), 0, 60_000)).toBe(60_000);
    expect(delayAfter(statusError(429, { "retry-after-ms": "1e999" }), 0, 60_000)).toBe(60_000);
    expect(delayAfter(new OpenAI.APIConnectionError({ message: "Connection error." }), 5, 100)).toBe(100);
  });

  it("backs off from 0.5 s to 8 s with up to 25 % jitter without a usable header", () => {
    const backoff = (retry: number) => delayAfter(statusError(500, { "retry-after": "soon" }), retry, 60_000);

    for (const [retry, max] of [[0, 500], [1, 1000], [2, 2000], [6, 8000]] as const) {
      expect(backoff(retry)).toBeGreaterThanOrEqual(max * 0.75);
      expect(backoff(retry)).toBeLessThanOrEqual(max);
    }
  });
});
