import { retryAfterMs } from "../../src/chat/retryAfterMs";

const headers = (values: Record<string, string>) => (name: string) => new Headers(values).get(name);

describe("retryAfterMs", () => {
  it("takes retry-after-ms first, then retry-after in seconds", () => {
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": "0.5" }))).toBe(500);
  });

  it("takes retry-after as an HTTP date: the time until it, negative when past", () => {
    const delayMs = retryAfterMs(headers({ "retry-after": new Date(Date.now() + 10_000).toUTCString() }))!;

    expect(delayMs).toBeGreaterThan(8_000);
    expect(delayMs).toBeLessThanOrEqual(10_000);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 1970 00:00:00 GMT" }))).toBeLessThan(0);
  });

  it("is undefined without a usable header", () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "soon", "retry-after-ms": "later" }))).toBeUndefined();
    expect(retryAfterMs(() => undefined)).toBeUndefined();
  });
});
