import { findShapeProblem, nestingDepthExceeds } from "../../src/util/jsonShape";

function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("findShapeProblem", () => {
  it("accepts a value exactly at the limit and refuses one level more, naming the path", () => {
    expect(findShapeProblem(nested(64), { maxDepth: 64 })).toBeUndefined();
    expect(findShapeProblem(nested(65), { maxDepth: 64 })).toEqual({ kind: "depth", path: Array(64).fill("a") });
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    expect(nestingDepthExceeds(nested(100_000), 64)).toBe(true);
  });

  it("reports the first own __proto__ key with its path, and ignores array indexes", () => {
    const value = JSON.parse('{"list":[{"ok":1},{"deep":{"__proto__":{"admin":true}}}]}') as unknown;

    expect(findShapeProblem(value, { maxDepth: 64, refuseProtoKeys: true })).toEqual({ kind: "protoKey", path: ["list", 1, "deep", "__proto__"] });
    expect(findShapeProblem(value, { maxDepth: 64 })).toBeUndefined();
  });

  it("counts a cycle as too deep", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;

    expect(findShapeProblem(cyclic, { maxDepth: 64 })?.kind).toBe("depth");
  });

  it("checks a graph that shares one object at every level in linear time, not 2^depth", () => {
    let shared: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) shared = { left: shared, right: shared };

    expect(nestingDepthExceeds(shared, 64)).toBe(false);
    expect(nestingDepthExceeds({ wrap: { wrap: { wrap: { wrap: { wrap: shared } } } } }, 64)).toBe(true);
  });

  it("treats scalars as depth 0", () => {
    expect(findShapeProblem("text", { maxDepth: 0, refuseProtoKeys: true })).toBeUndefined();
    expect(nestingDepthExceeds(null, 0)).toBe(false);
  });

  it("refuses NaN and ±Infinity at any depth, in objects and arrays, with their path", () => {
    const parsed = JSON.parse('{"filter":{"extra":{"limit":1e999}},"list":[1,2]}') as unknown;
    const big = { list: Array.from({ length: 5_000 }, (_, i) => ({ n: i })) };
    big.list[4_321]!.n = Number.NaN;

    expect(findShapeProblem(parsed, { maxDepth: 64, refuseNonFinite: true })).toEqual({ kind: "nonFinite", path: ["filter", "extra", "limit"], value: Infinity });
    expect(findShapeProblem([[-Infinity]], { maxDepth: 64, refuseNonFinite: true })).toEqual({ kind: "nonFinite", path: [0, 0], value: -Infinity });
    expect(findShapeProblem(big, { maxDepth: 64, refuseNonFinite: true })).toEqual({ kind: "nonFinite", path: ["list", 4_321, "n"], value: Number.NaN });
    expect(findShapeProblem(Infinity, { maxDepth: 64, refuseNonFinite: true })).toEqual({ kind: "nonFinite", path: [], value: Infinity });
    expect(findShapeProblem(parsed, { maxDepth: 64 })).toBeUndefined();
  });
});
