import { runInNewContext } from "node:vm";
import { errorDetails } from "../../src/observe/errorDetails";

describe("errorDetails", () => {
  it("gives an error's name, message, stack and chain of causes, frozen", () => {
    const root = new RangeError("shard offline");
    const error = new TypeError("lookup failed", { cause: root });

    const details = errorDetails(error);

    expect(details).toEqual({ name: "TypeError", message: "lookup failed", stack: error.stack, cause: { name: "RangeError", message: "shard offline", stack: root.stack, cause: undefined } });
    expect(Object.isFrozen(details) && Object.isFrozen(details.cause)).toBe(true);
  });

  it("describes a cause that is not an Error by its kind", () => {
    expect(errorDetails(new Error("failed", { cause: { code: 7 } })).cause).toEqual({ name: "object", message: '{"code":7}', stack: undefined, cause: undefined });
  });

  it("stops at a cause already seen, so a cycle of causes ends", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;

    const details = errorDetails(a);

    expect([details.message, details.cause?.message, details.cause?.cause]).toEqual(["a", "b", undefined]);
  });

  it("follows at most 8 causes", () => {
    let error = new Error("e0");
    for (let i = 1; i <= 20; i++) error = new Error(`e${i}`, { cause: error });

    const messages: string[] = [];
    for (let details: ReturnType<typeof errorDetails> | undefined = errorDetails(error); details; details = details.cause) messages.push(details.message);

    expect(messages).toEqual(["e20", "e19", "e18", "e17", "e16", "e15", "e14", "e13"]);
  });

  it("never throws for an error whose getters throw", () => {
    const hostile: unknown = Object.create(Error.prototype);
    for (const key of ["name", "message", "stack", "cause"]) {
      Object.defineProperty(hostile, key, {
        get() {
          throw new Error(`no ${key}`);
        },
      });
    }

    expect(errorDetails(hostile)).toEqual({ name: "Error", message: "Error", stack: undefined, cause: undefined });
  });

  it("cuts a message or stack longer than 16,384 characters and says how long it was", () => {
    const error = new Error("m".repeat(20_000));

    const details = errorDetails(error);

    expect(details.message).toBe(`${"m".repeat(16_384)}…(20000 characters)`);
    expect(details.stack!.startsWith(`Error: ${"m".repeat(100)}`)).toBe(true);
    expect(details.stack!.endsWith(`…(${error.stack!.length} characters)`)).toBe(true);
  });

  it("recognises an Error made in another realm", () => {
    const foreign: unknown = runInNewContext('new TypeError("from a vm")');

    expect(errorDetails(foreign)).toMatchObject({ name: "TypeError", message: "from a vm", stack: expect.stringMatching(/^TypeError: from a vm\n/) });
  });

  it("describes thrown values that are not Errors by their kind", () => {
    expect([errorDetails("boom"), errorDetails(42), errorDetails(null), errorDetails(undefined)].map((d) => [d.name, d.message, d.stack])).toEqual([
      ["string", "boom", undefined],
      ["number", "42", undefined],
      ["null", "null", undefined],
      ["undefined", "undefined", undefined],
    ]);
  });
});
