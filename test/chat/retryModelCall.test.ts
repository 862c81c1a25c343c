import { type RetryPolicy, retryDelayMs, retryModelCall } from "../../src/chat/retryModelCall";
import { AbortScope } from "../../src/util/abortScope";

class Busy extends Error {
  constructor(readonly waitMs?: number) {
    super("busy");
  }
}

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
  maxRetries: 2,
  maxRetryDelayMs: 0,
  isRetryable: (error) => error instanceof Busy,
  retryAfterMs: (error) => (error instanceof Busy ? error.waitMs : undefined),
  ...overrides,
});

describe("retryModelCall", () => {
  it("retries a retryable failure with a signal of each attempt's own and the retry count, then returns the answer", async () => {
    const scope = new AbortScope();
    const seen: Array<{ signal: AbortSignal; retry: number }> = [];

    const answer = await retryModelCall(
      (signal, retry) => {
        seen.push({ signal, retry });
        return retry < 2 ? Promise.reject(new Busy(0)) : Promise.resolve("done");
      },
      scope,
      policy(),
    );

    expect(answer).toBe("done");
    expect(seen.map((attempt) => attempt.retry)).toEqual([0, 1, 2]);
    expect(new Set(seen.map((attempt) => attempt.signal)).size).toBe(3);
    expect(seen.some((attempt) => attempt.signal === scope.signal)).toBe(false);
  });

  it("throws the last failure once maxRetries retries failed", async () => {
    let attempts = 0;

    const error = await retryModelCall(() => Promise.reject(new Busy(++attempts)), new AbortScope(), policy({ maxRetries: 1 })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Busy);
    expect((error as Busy).waitMs).toBe(2);
    expect(attempts).toBe(2);
  });

  it("does not retry a failure the policy does not accept", async () => {
    const send = jest.fn(() => Promise.reject(new SyntaxError("Unexpected token")));

    await expect(retryModelCall(send, new AbortScope(), policy())).rejects.toThrow("Unexpected token");
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("counts a send that throws instead of rejecting as a failed attempt", async () => {
    let attempts = 0;

    const answer = await retryModelCall(
      () => {
        if (attempts++ === 0) throw new Busy(0);
        return Promise.resolve("done");
      },
      new AbortScope(),
      policy(),
    );

    expect(answer).toBe("done");
    expect(attempts).toBe(2);
  });

  it("gives up with the failure when the wait the provider asks for would outlast the scope's time limit", async () => {
    const scope = new AbortScope(undefined, { timeoutMs: 60_000, onTimeout: () => new Error("deadline") });
    const send = jest.fn(() => Promise.reject(new Busy(120_000)));

    const error = await retryModelCall(send, scope, policy({ maxRetryDelayMs: 3_600_000 })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Busy);
    expect(send).toHaveBeenCalledTimes(1);
    scope.dispose();
  });

  it("ends the wait before a retry at once with the scope's reason when it aborts, and sends nothing more", async () => {
    const scope = new AbortScope();
    const send = jest.fn(() => Promise.reject(new Busy(3_600_000)));
    const pending = retryModelCall(send, scope, policy({ maxRetryDelayMs: 3_600_000 })).catch((e: unknown) => e);
    while (send.mock.calls.length === 0) await new Promise(setImmediate);
    await new Promise(setImmediate);

    scope.abort(new Error("The model request was aborted."));

    expect(await pending).toBe(scope.reason);
    expect((scope.reason as Error).message).toBe("The model request was aborted.");
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("rejects with the scope's reason, not the attempt's failure, when the scope aborts during an attempt", async () => {
    const scope = new AbortScope();
    const send = jest.fn((signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Busy(0)))));
    const pending = retryModelCall(send, scope, policy()).catch((e: unknown) => e);

    scope.abort(new Error("deadline"));

    expect(await pending).toBe(scope.reason);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("sends nothing when the scope is aborted already", async () => {
    const send = jest.fn(() => Promise.resolve("never"));

    await expect(retryModelCall(send, new AbortScope(AbortSignal.abort(new Error("gone"))), policy())).rejects.toThrow("gone");
    expect(send).not.toHaveBeenCalled();
  });
});

describe("retryDelayMs", () => {
  it("takes the wait the provider asked for, never below 0 nor above maxRetryDelayMs", () => {
    expect(retryDelayMs(250, 0, 60_000)).toBe(250);
    expect(retryDelayMs(-5_000, 0, 60_000)).toBe(0);
    expect(retryDelayMs(3_600_000, 0, 60_000)).toBe(60_000);
    expect(retryDelayMs(Infinity, 0, 60_000)).toBe(60_000);
  });

  it("backs off from 0.5 s to 8 s with up to 25 % jitter when the provider asked for nothing", () => {
    for (const [retry, max] of [[0, 500], [1, 1000], [2, 2000], [3, 4000], [4, 8000], [9, 8000]] as const) {
      const delay = retryDelayMs(undefined, retry, 60_000);
      expect(delay).toBeGreaterThanOrEqual(max * 0.75);
      expect(delay).toBeLessThanOrEqual(max);
    }
    expect(retryDelayMs(undefined, 5, 100)).toBe(100);
  });
});
