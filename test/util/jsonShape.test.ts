import { findShapeProblem, nestingDepthExceeds } from "../../src/util/jsonShape";

function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("findShapeProblem", () => {
  it("accepts a value exactly at the limit and refuses one level more, naming the path", () => {
    expect(findShapeProblem(nested(64), 64, false)).toBeUndefined();
    expect(findShapeProblem(nested(65), 64, false)).toEqual({ kind: "depth", path: Array(64).fill("a") });
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    expect(nestingDepthExceeds(nested(100_000), 64)).toBe(true);
  });

  it("reports the first own __proto__ key with its path, and ignores array indexes", () => {
    const value = JSON.parse('{"list":[{"ok":1},{"deep":{"__proto__":{"admin":true}}}]}') as unknown;

    expect(findShapeProblem(value, 64, true)).toEqual({ kind: "protoKey", path: ["list", 1, "deep", "__proto__"] });
    expect(findShapeProblem(value, 64, false)).toBeUndefined();
  });

  it("counts a cycle as too deep", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;

    expect(findShapeProblem(cyclic, 64, false)?.kind).toBe("depth");
  });

  it("checks a graph that shares one object at every level in linear time, not 2^depth", () => {
    let shared: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) shared = { left: shared, right: shared };

    expect(nestingDepthExceeds(shared, 64)).toBe(false);
    expect(nestingDepthExceeds({ wrap: { wrap: { wrap: { wrap: { wrap: shared } } } } }, 64)).toBe(true);
  });

  it("treats scalars as depth 0", () => {
    expect(findShapeProblem("text", 0, true)).toBeUndefined();
    expect(nestingDepthExceeds(null, 0)).toBe(false);
  });
});
