import "reflect-metadata";
import { decorationOf } from "../../decorators";
import { State, tool, ToolDecoratorError, ToolwrightError } from "toolwright";
import { runWithStandardDecorators } from "./compileStandard";

function thrown(fn: () => unknown): ToolDecoratorError {
  try {
    fn();
  } catch (error) {
    return error as ToolDecoratorError;
  }
  throw new Error("expected a throw");
}

describe("tool (experimentalDecorators)", () => {
  it("records bare @tool and @tool(options) on instance and static methods", () => {
    class Tools {
      @tool
      search(query: string): string {
        return query;
      }

      @tool({ name: "close_ticket", inputsFromState: { customer_id: "customerId" } })
      async close(ticketId: string, customerId: string): Promise<string> {
        return `${ticketId}:${customerId}`;
      }

      @tool()
      static ping(): string {
        return "pong";
      }
    }
    expect(decorationOf(Tools.prototype.search)).toMatchObject({ kind: "method", memberName: "search", isStatic: false, mode: "legacy", options: {} });
    expect(decorationOf(Tools.prototype.close)).toMatchObject({ memberName: "close", options: { name: "close_ticket", inputsFromState: { customer_id: "customerId" } } });
    expect(decorationOf(Tools.ping)).toMatchObject({ memberName: "ping", isStatic: true });
  });

  it("leaves design:paramtypes to emitDecoratorMetadata, with State as the State class", () => {
    class Tools {
      @tool
      note(text: string, state: State): string {
        return `${text}${state.keys.length}`;
      }
    }
    expect(Reflect.getMetadata("design:paramtypes", Tools.prototype, "note")).toEqual([String, State]);
  });

  it("throws a ToolDecoratorError naming Class.member on a property", () => {
    const error = thrown(() => {
      class Tools {
        name = "x";
      }
      (tool as (t: object, k: string, d?: PropertyDescriptor) => void)(Tools.prototype, "name", undefined);
    });
    expect(error).toBeInstanceOf(ToolDecoratorError);
    expect(error).toBeInstanceOf(ToolwrightError);
    expect(error.member).toBe("Tools.name");
    expect(error.message).toBe("@tool on Tools.name: Tools.name is a property, but @tool only marks methods; put it on a (public, string-named) method.");
  });

  it("throws on a getter", () => {
    const error = thrown(() => {
      class Tools {
        @tool
        get count(): number {
          return 1;
        }
      }
      return Tools;
    });
    expect(error.message).toBe("@tool on Tools.count: Tools.count is a getter, but @tool only marks methods; put it on a (public, string-named) method.");
  });

  it("throws on a symbol-named method", () => {
    const key = Symbol("secret");
    const error = thrown(() => {
      class Tools {
        @tool
        [key](): number {
          return 1;
        }
      }
      return Tools;
    });
    expect(error.message).toBe("@tool on Tools.Symbol(secret): Tools.Symbol(secret) is a symbol-named member, but @tool only marks methods; put it on a (public, string-named) method.");
  });

  it("rejects options that are not an object", () => {
    expect(() => (tool as unknown as (o: unknown) => unknown)("search")).toThrow("@tool(options) takes an options object such as { name: \"search\" }, got string.");
  });
});

describe("tool (TypeScript 5 standard decorators)", () => {
  it("records bare and configured @tool on instance and static methods", () => {
    const { Tools } = runWithStandardDecorators(`
      import { tool } from "toolwright";
      export class Tools {
        @tool search(query: string) { return query; }
        @tool({ name: "close_ticket" }) async close(id: string) { return id; }
        @tool static ping() { return "pong"; }
      }
    `) as { Tools: { prototype: Record<string, () => unknown>; ping: () => unknown } };
    expect(decorationOf(Tools.prototype.search!)).toMatchObject({ memberName: "search", isStatic: false, mode: "standard", options: {} });
    expect(decorationOf(Tools.prototype.close!)).toMatchObject({ memberName: "close", options: { name: "close_ticket" } });
    expect(decorationOf(Tools.ping)).toMatchObject({ memberName: "ping", isStatic: true, mode: "standard" });
  });

  it("throws a ToolDecoratorError naming Class.member for a static getter when the class is defined", () => {
    const error = thrown(() =>
      runWithStandardDecorators(`
        import { tool } from "toolwright";
        export class Counter { @tool static get count() { return 1; } }
      `),
    );
    expect(error.name).toBe("ToolDecoratorError");
    expect(error.message).toBe("@tool on Counter.count: Counter.count is a getter, but @tool only marks methods; put it on a (public, string-named) method.");
  });

  it("throws for an instance field when the class is instantiated", () => {
    const { Counter } = runWithStandardDecorators(`
      import { tool } from "toolwright";
      export class Counter { @tool count = 1; }
    `) as { Counter: new () => unknown };
    const error = thrown(() => new Counter());
    expect(error.message).toBe("@tool on Counter.count: Counter.count is a field, but @tool only marks methods; put it on a (public, string-named) method.");
  });

  it("throws for a #private method", () => {
    const { Vault } = runWithStandardDecorators(`
      import { tool } from "toolwright";
      export class Vault { @tool #open() { return 1; } }
    `) as { Vault: new () => unknown };
    const error = thrown(() => new Vault());
    expect(error.message).toBe("@tool on Vault.#open: Vault.#open is a #private method, but @tool only marks methods; put it on a (public, string-named) method.");
  });
});
