import { functionParameterNames } from "../../src/tools/functionParameters";

describe("functionParameterNames", () => {
  it.each([
    ["a method", { m(query: string, limit = 5) { return [query, limit]; } }.m, ["query", "limit"]],
    ["an async function with defaults holding commas, parens and strings", async function f(a = ",(", b = { x: [1, 2] }, c = `)${","}`) { return [a, b, c]; }, ["a", "b", "c"]],
    ["an arrow with one bare parameter", ((x: number) => x) as (...a: never[]) => unknown, ["x"]],
    ["an arrow with no parameters", () => 1, []],
    ["a destructured parameter and a rest parameter", function g({ a }: { a: number }, ...rest: number[]) { return [a, rest]; }, ["{…}", "rest"]],
    ["comments between parameters", function h(a: number /* , fake */, // b,
      c: number) { return a + c; }, ["a", "c"]],
  ])("reads %s", (_label, fn, expected) => {
    expect(functionParameterNames(fn as (...args: never[]) => unknown)).toEqual(expected);
  });

  it("gives undefined for native and bound functions", () => {
    expect(functionParameterNames(Math.max)).toBeUndefined();
    expect(functionParameterNames(function f(a: number) { return a; }.bind(null))).toBeUndefined();
  });
});
