import { limits } from "../../src/util/limits";
import { redactValues } from "../../src/util/redact";

const apiKey = [{ label: "api_key", value: "sk-live-abc" }];
const withheld = "[details withheld: the tool's injected values are too large to redact]";

describe("redactValues", () => {
  it("replaces every occurrence of a value with its label", () => {
    expect(redactValues("c-42 not found (c-42)", [{ label: "customer_id", value: "c-42" }])).toBe("[customer_id] not found ([customer_id])");
  });

  it("leaves values shorter than three characters alone", () => {
    expect(redactValues("id 42 in eu", [{ label: "n", value: 42 }, { label: "region", value: "eu" }])).toBe("id 42 in eu");
  });

  it("leaves booleans, NaN and Infinity alone", () => {
    expect(redactValues("true, NaN, Infinity, banana", [{ label: "flags", value: [true, NaN, Infinity] }])).toBe("true, NaN, Infinity, banana");
  });

  it("replaces an object as JSON and each of its leaves", () => {
    expect(redactValues('bad {"name":"Ada Lovelace","tier":"gold"}; Ada Lovelace is gold', [{ label: "customer", value: { name: "Ada Lovelace", tier: "gold" } }])).toBe(
      "bad [customer]; [customer] is [customer]",
    );
  });

  it("does not replace a shorter value inside a label already written", () => {
    expect(redactValues("ACME-1234 in tom", [{ label: "customer_id", value: "ACME-1234" }, { label: "region", value: "tom" }])).toBe("[customer_id] in [region]");
  });

  it("replaces the longer of two overlapping values", () => {
    expect(redactValues("token abc-123-xyz", [{ label: "short", value: "abc" }, { label: "long", value: "abc-123-xyz" }])).toBe("token [long]");
  });

  it("replaces values that overlap with one label, the longest one's", () => {
    expect(redactValues("ref abc-12345-xyz.", [{ label: "second", value: "345-xyz" }, { label: "first", value: "abc-12345" }])).toBe("ref [first].");
  });

  it("replaces a value in any letter case", () => {
    expect(redactValues("Token SK-LIVE-ABC and Sk-Live-Abc", apiKey)).toBe("Token [api_key] and [api_key]");
  });

  it("replaces letters beyond ASCII in any case, final sigma included", () => {
    expect(redactValues("ΟΔΟΣ, οδος and οδοσ; ÉCOLE and école", [{ label: "street", value: "ΟΔΟΣ" }, { label: "school", value: "École" }])).toBe(
      "[street], [street] and [street]; [school] and [school]",
    );
  });

  it("replaces a string as it appears escaped inside JSON", () => {
    expect(redactValues('note "say \\"hi\\"\\n"', [{ label: "note", value: 'say "hi"\n' }])).toBe('note "[note]"');
  });

  it("replaces a string as it appears escaped twice, inside a JSON string inside a JSON string", () => {
    const note = 'say "hi"\n';

    expect(redactValues(`body ${JSON.stringify(JSON.stringify({ note }))}`, [{ label: "note", value: note }])).toBe('body "{\\"note\\":\\"[note]\\"}"');
  });

  it("replaces a value URL-encoded by encodeURIComponent, with either case of hex digits", () => {
    expect(redactValues("GET /find?q=a%20b%2Fc%3Fd or a%20b%2fc%3fd", [{ label: "query", value: "a b/c?d" }])).toBe("GET /find?q=[query] or [query]");
  });

  it("replaces a value form-encoded, with + for a space, as URLSearchParams or encodeURIComponent writes it", () => {
    expect(redactValues("q=it%27s+%28ok%29%21&r=it's+(ok)!", [{ label: "query", value: "it's (ok)!" }])).toBe("q=[query]&r=[query]");
  });

  it("replaces the base64 of a value, with or without padding", () => {
    expect(redactValues("auth c2stbGl2ZS1hYmM= and c2stbGl2ZS1hYmM.", apiKey)).toBe("auth [api_key] and [api_key].");
  });

  it("replaces the base64url of a value", () => {
    expect(redactValues("standard a2V5Pz5+fn4=, url a2V5Pz5-fn4", [{ label: "key", value: "key?>~~~" }])).toBe("standard [key], url [key]");
  });

  it("replaces a value inside longer base64 at each of the three byte alignments, leaving the characters shared with its neighbours", () => {
    // "sk-live-abc!", "xsk-live-abc!" and "xysk-live-abc!" in base64.
    expect(redactValues("c2stbGl2ZS1hYmMh eHNrLWxpdmUtYWJjIQ== eHlzay1saXZlLWFiYyE=", apiKey)).toBe("[api_key]h eH[api_key]IQ== eHl[api_key]yE=");
  });

  it("replaces a value inside longer base64url, such as a token's payload", () => {
    // {"sub":"u-1","key":"sk-live-abc"} in base64url.
    expect(redactValues("payload eyJzdWIiOiJ1LTEiLCJrZXkiOiJzay1saXZlLWFiYyJ9", apiKey)).toBe("payload eyJzdWIiOiJ1LTEiLCJrZXkiOiJ[api_key]yJ9");
  });

  it("replaces a Date as its ISO string", () => {
    expect(redactValues("born 1990-01-02T00:00:00.000Z", [{ label: "birthday", value: new Date("1990-01-02T00:00:00.000Z") }])).toBe("born [birthday]");
  });

  it("replaces strings inside Maps and Sets", () => {
    expect(redactValues("eu-west-1 via tok-abc", [{ label: "config", value: new Map([["region", "eu-west-1"]]) }, { label: "tokens", value: new Set(["tok-abc"]) }])).toBe(
      "[config] via [tokens]",
    );
  });

  it("replaces a leaf at any depth, 10,000 levels down", () => {
    let value: unknown = "c-secret-42";
    for (let i = 0; i < 10_000; i++) value = i % 2 === 0 ? { next: value } : [value];

    expect(redactValues("no customer c-secret-42", [{ label: "customer", value }])).toBe("no customer [customer]");
  });

  it("replaces the leaves of a value that refers to itself", () => {
    const customer: Record<string, unknown> = { id: "c-secret-42" };
    customer.self = customer;

    expect(redactValues("no customer c-secret-42", [{ label: "customer", value: customer }])).toBe("no customer [customer]");
  });

  it("redacts values at the leaf limit", () => {
    const ids = Array.from({ length: limits.maxRedactedLeaves }, (_, i) => `c-${i}`);

    expect(redactValues("no customer c-9999", [{ label: "ids", value: ids }])).toBe("no customer [ids]");
  });

  it("withholds the text when the values have more leaves than the limit", () => {
    const ids = Array.from({ length: limits.maxRedactedLeaves + 1 }, (_, i) => i);

    expect(redactValues("no customer 9999", [{ label: "ids", value: ids }])).toBe(withheld);
  });

  it("withholds the text when the forms to search for exceed the limit", () => {
    expect(redactValues("no document", [{ label: "document", value: "a".repeat(limits.maxRedactionChars / 4) }])).toBe(withheld);
  });

  it("withholds the text when a value cannot be read", () => {
    const value = {
      get secret(): string {
        throw new Error("locked");
      },
    };

    expect(redactValues("no secret", [{ label: "vault", value }])).toBe(withheld);
  });

  it("returns the text unchanged when there is nothing to redact", () => {
    expect(redactValues("all fine", [{ label: "k", value: undefined }, { label: "n", value: null }])).toBe("all fine");
  });
});
