import { redactValues } from "../../src/util/redact";

describe("redactValues", () => {
  it("replaces every occurrence of a value with its label", () => {
    expect(redactValues("c-42 not found (c-42)", [{ label: "customer_id", value: "c-42" }])).toBe("[customer_id] not found ([customer_id])");
  });

  it("leaves values shorter than three characters alone", () => {
    expect(redactValues("id 42 in eu", [{ label: "n", value: 42 }, { label: "region", value: "eu" }])).toBe("id 42 in eu");
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

  it("replaces a string as it appears escaped inside JSON", () => {
    expect(redactValues('note "say \\"hi\\"\\n"', [{ label: "note", value: 'say "hi"\n' }])).toBe('note "[note]"');
  });

  it("replaces a Date as its ISO string", () => {
    expect(redactValues("born 1990-01-02T00:00:00.000Z", [{ label: "birthday", value: new Date("1990-01-02T00:00:00.000Z") }])).toBe("born [birthday]");
  });

  it("returns the text unchanged when there is nothing to redact", () => {
    expect(redactValues("all fine", [{ label: "k", value: undefined }, { label: "n", value: null }])).toBe("all fine");
  });
});
