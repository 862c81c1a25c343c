import { ConfigurationError, JsonFormError } from "toolwright";
import { toolResultText } from "../../src/tools/toolResultText";

function thrownMessage(run: () => unknown, type: new (...args: never[]) => Error = JsonFormError): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return (error as Error).message;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}

describe("toolResultText", () => {
  it("sends a string result as it is", () => {
    expect(toolResultText("3 tickets found", undefined)).toBe("3 tickets found");
    expect(toolResultText("", undefined)).toBe("");
  });

  it("sends objects and arrays as JSON, never [object Object]", () => {
    expect(toolResultText({ tickets: [{ id: 1 }], total: 1 }, undefined)).toBe('{"tickets":[{"id":1}],"total":1}');
    expect(toolResultText([1, "two"], undefined)).toBe('[1,"two"]');
  });

  it("sends numbers, booleans and null as JSON", () => {
    expect(toolResultText(42, undefined)).toBe("42");
    expect(toolResultText(false, undefined)).toBe("false");
    expect(toolResultText(null, undefined)).toBe("null");
  });

  it("sends undefined as null", () => {
    expect(toolResultText(undefined, undefined)).toBe("null");
  });

  it("sends a Date through its JSON form", () => {
    expect(toolResultText(new Date("2024-05-01T12:00:00.000Z"), undefined)).toBe('"2024-05-01T12:00:00.000Z"');
    expect(toolResultText({ at: new Date("2024-05-01T12:00:00.000Z") }, undefined)).toBe('{"at":"2024-05-01T12:00:00.000Z"}');
  });

  it("leaves out undefined properties and sends undefined array items as null, like JSON.stringify", () => {
    expect(toolResultText({ a: 1, b: undefined }, undefined)).toBe('{"a":1}');
    expect(toolResultText([1, undefined], undefined)).toBe("[1,null]");
  });

  describe("with outputsToString", () => {
    it("sends the source property", () => {
      expect(toolResultText({ summary: "2 open tickets", tickets: [1, 2] }, { source: "summary" })).toBe("2 open tickets");
      expect(toolResultText({ tickets: [1, 2] }, { source: "tickets" })).toBe("[1,2]");
    });

    it("sends null when the source property is absent or the result is not an object", () => {
      expect(toolResultText({ tickets: [] }, { source: "summary" })).toBe("null");
      expect(toolResultText("text", { source: "summary" })).toBe("null");
    });

    it("passes the source value to the handler and sends its string", () => {
      expect(toolResultText({ tickets: [1, 2] }, { source: "tickets", handler: (t: number[]) => `${t.length} tickets` })).toBe("2 tickets");
    });

    it("passes the whole result to the handler without a source", () => {
      expect(toolResultText({ n: 2 }, { handler: (r: { n: number }) => `n=${r.n}` })).toBe("n=2");
    });

    it("sends a handler's non-string return as JSON", () => {
      expect(toolResultText({ n: 2 }, { handler: (r: { n: number }) => ({ doubled: r.n * 2 }) })).toBe('{"doubled":4}');
    });

    it("sends a string as it is with rawResult", () => {
      expect(toolResultText({ body: "<b>raw</b>" }, { source: "body", rawResult: true })).toBe("<b>raw</b>");
    });

    it("throws when rawResult gets something that is not a string", () => {
      expect(thrownMessage(() => toolResultText({ count: 5 }, { source: "count", rawResult: true }), ConfigurationError)).toBe(
        "outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got number 5; drop rawResult to send JSON",
      );
      expect(thrownMessage(() => toolResultText({ count: 5 }, { rawResult: true }), ConfigurationError)).toBe("outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got an object; drop rawResult to send JSON");
    });
  });

  it("throws for a result with no JSON form", () => {
    expect(thrownMessage(() => toolResultText(new Map([["a", 1]]), undefined))).toBe(
      "(root) holds a Map, which has no JSON form; return plain data, or give the tool an outputsToString handler.",
    );
    expect(thrownMessage(() => toolResultText({ lookup: new Set([1]) }, undefined))).toBe(
      "lookup holds a Set, which has no JSON form; return plain data, or give the tool an outputsToString handler.",
    );
  });

  it("throws for a circular result", () => {
    const node: Record<string, unknown> = { id: 1 };
    node.parent = node;

    expect(thrownMessage(() => toolResultText(node, undefined))).toBe(
      "parent holds a circular reference, which has no JSON form; return plain data, or give the tool an outputsToString handler.",
    );
  });

  it("throws for a bigint", () => {
    expect(thrownMessage(() => toolResultText({ big: 10n }, undefined))).toBe("big holds bigint 10n, which has no JSON form; return plain data, or give the tool an outputsToString handler.");
  });
});
