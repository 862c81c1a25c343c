import { functionParameterNames } from "../../src/tools/functionParameters";

type AnyFn = (...args: never[]) => unknown;

describe("functionParameterNames", () => {
  it.each<[string, AnyFn, string[]]>([
    ["a method", { m(query: string, limit = 5) { return [query, limit]; } }.m as AnyFn, ["query", "limit"]],
    ["an async function with defaults holding commas, parens and strings", (async function f(a = ",(", b = { x: [1, 2] }, c = `)${","}`) { return [a, b, c]; }) as AnyFn, ["a", "b", "c"]],
    ["an arrow with one bare parameter", ((x: number) => x) as AnyFn, ["x"]],
    ["an arrow with no parameters", () => 1, []],
    ["a destructured parameter and a rest parameter", function g({ a }: { a: number }, ...rest: number[]) { return [a, rest]; } as AnyFn, ["{…}", "rest"]],
    ["comments between parameters", function h(a: number /* , fake */, // b,
      c: number) { return a + c; } as AnyFn, ["a", "c"]],
  ])("reads %s", (_label, fn, expected) => {
    expect(functionParameterNames(fn)).toEqual(expected);
  });

  it("gives undefined for native and bound functions", () => {
    expect(functionParameterNames(Math.max)).toBeUndefined();
    expect(functionParameterNames(function f(a: number) { return a; }.bind(null))).toBeUndefined();
  });
});
