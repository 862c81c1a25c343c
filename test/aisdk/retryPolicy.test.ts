import { APICallError } from "@ai-sdk/provider";
import { isRetryable, retryAfterMsOf } from "../../src/aisdk/retryPolicy";

const callError = (fields: { statusCode?: number; isRetryable?: boolean; responseHeaders?: Record<string, string> }) =>
  new APICallError({ message: "Rate limited", url: "http://127.0.0.1/v1", requestBodyValues: {}, ...fields });

describe("isRetryable", () => {
  it("follows the APICallError's own isRetryable, and is false for any other error", () => {
    expect(isRetryable(callError({ statusCode: 429 }))).toBe(true);
    expect(isRetryable(callError({ statusCode: 500 }))).toBe(true);
    expect(isRetryable(callError({ statusCode: 400 }))).toBe(false);
    expect(isRetryable(callError({ statusCode: 400, isRetryable: true }))).toBe(true);
    expect(isRetryable(new Error("Rate limited"))).toBe(false);
    expect(isRetryable({ isRetryable: true })).toBe(false);
  });
});

describe("retryAfterMsOf", () => {
  it("reads retry-after-ms, else retry-after, from the response headers", () => {
    expect(retryAfterMsOf(callError({ statusCode: 429, responseHeaders: { "retry-after-ms": "250", "retry-after": "9" } }))).toBe(250);
    expect(retryAfterMsOf(callError({ statusCode: 429, responseHeaders: { "retry-after": "2" } }))).toBe(2000);
  });

  it("is undefined without headers, for header values that are not strings, and for errors that are not APICallErrors", () => {
    expect(retryAfterMsOf(callError({ statusCode: 429 }))).toBeUndefined();
    expect(retryAfterMsOf(callError({ statusCode: 429, responseHeaders: { "retry-after-ms": 5 as unknown as string } }))).toBeUndefined();
    expect(retryAfterMsOf({ responseHeaders: { "retry-after": "2" } })).toBeUndefined();
  });
});
