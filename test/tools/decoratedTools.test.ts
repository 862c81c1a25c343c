import { z } from "zod";
import { clearToolSchemas } from "../../src/tools/schemaRegistry";
import { Agent, ChatMessage, ConfigurationError, defineTool, type GeneratedToolEntry, registerToolSchemas, StaleSchemaError, State, tool } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";

const moduleInfo = { module: "src/tools.generated.ts", command: "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts" };

function entry(owner: unknown, member: string, overrides: Partial<GeneratedToolEntry> = {}): GeneratedToolEntry {
  return {
    kind: "method",
    owner: () => owner,
    member,
    static: false,
    name: member,
    description: `Does ${member}.`,
    parameters: [{ name: "query", role: "llm", optional: false }],
    schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false },
    strict: true,
    options: { inputsFromState: {}, outputsToState: {} },
    source: "src/tools/support.ts",
    ...overrides,
  };
}

function configError(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

const chatGenerator = new ScriptedChatGenerator([]);

beforeEach(() => clearToolSchemas());

describe("decorated tools", () => {
  it("builds a Tool per @tool method from its generated entry, hiding injected parameters", () => {
    class SupportTools {
      @tool({ inputsFromState: { customer_id: "customerId" }, outputsToState: { found: { source: "found" } } })
      search(query: string, customerId: string, limit = 5): { found: string[] } {
        return { found: [`${query}/${customerId}/${limit}`] };
      }
    }
    registerToolSchemas(
      [
        entry(SupportTools, "search", {
          parameters: [
            { name: "query", role: "llm", optional: false },
            { name: "customerId", role: "stateKey", stateKey: "customer_id", optional: false },
            { name: "limit", role: "llm", optional: true, default: 5 },
          ],
          schema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", default: 5 } }, required: ["query"], additionalProperties: false },
          options: { inputsFromState: { customer_id: "customerId" }, outputsToState: { found: { source: "found" } } },
        }),
      ],
      moduleInfo,
    );
    const agent = new Agent({
      chatGenerator,
      tools: [new SupportTools()],
      stateSchema: { customer_id: { type: z.string() }, found: { type: z.array(z.string()) } },
    });
    const [built] = agent.tools;
    expect(built!.name).toBe("search");
    expect(built!.source).toBe("SupportTools.search (src/tools/support.ts)");
    expect(built!.parameters).toEqual({ type: "object", properties: { query: { type: "string" }, limit: { type: "integer", default: 5 } }, required: ["query"], additionalProperties: false });
    expect(built!.inputsFromState).toEqual({ customer_id: "customerId" });
  });

  it("calls the method on its instance with positional arguments from the plan", async () => {
    class NoteTools {
      constructor(private readonly prefix: string) {}

      @tool({ inputsFromState: { author: "author" }, outputsToState: { notes: { source: "note" } } })
      note(text: string, state: State, author: string, tag = "general"): { note: string } {
        return { note: `${this.prefix}${text} by ${author} [${tag}] (${state.get("notes", []).length} before)` };
      }
    }
    registerToolSchemas(
      [
        entry(NoteTools, "note", {
          parameters: [
            { name: "text", role: "llm", optional: false },
            { name: "state", role: "state", optional: false },
            { name: "author", role: "stateKey", stateKey: "author", optional: false },
            { name: "tag", role: "llm", optional: true, default: "general" },
          ],
          schema: { type: "object", properties: { text: { type: "string" }, tag: { type: "string" } }, required: ["text"], additionalProperties: false },
          options: { inputsFromState: { author: "author" }, outputsToState: { notes: { source: "note" } } },
        }),
      ],
      moduleInfo,
    );
    const model = new ScriptedChatGenerator([toolCallReply(["note", { text: "hi" }], ["note", { text: "again", tag: null }]), ChatMessage.fromAssistant("done")]);
    const agent = new Agent({ chatGenerator: model, tools: [new NoteTools("> ")], stateSchema: { author: { type: z.string() }, notes: { type: z.array(z.string()) } } });
    const result = await agent.run({ messages: [ChatMessage.fromUser("go")], author: "ann" });
    expect(result.notes).toEqual(["> hi by ann [general] (0 before)", "> again by ann [general] (1 before)"]);
  });

  it("passes Dates where the entry lists date pointers", async () => {
    const seen: unknown[] = [];
    class Calendar {
      @tool
      book(at: Date, slots: Array<{ from: Date }>): string {
        seen.push(at, slots[0]!.from);
        return "booked";
      }
    }
    registerToolSchemas(
      [
        entry(Calendar, "book", {
          parameters: [
            { name: "at", role: "llm", optional: false },
            { name: "slots", role: "llm", optional: false },
          ],
          schema: {
            type: "object",
            properties: {
              at: { type: "string", format: "date-time" },
              slots: { type: "array", items: { type: "object", properties: { from: { type: "string", format: "date-time" } }, required: ["from"], additionalProperties: false } },
            },
            required: ["at", "slots"],
            additionalProperties: false,
          },
          dates: ["#/properties/at", "#/properties/slots/items/properties/from"],
        }),
      ],
      moduleInfo,
    );
    const model = new ScriptedChatGenerator([toolCallReply(["book", { at: "2026-11-21T10:00:00.000Z", slots: [{ from: "2026-11-22T09:30:00.000Z" }] }]), ChatMessage.fromAssistant("ok")]);
    await new Agent({ chatGenerator: model, tools: [new Calendar()] }).run({ messages: [ChatMessage.fromUser("book")] });
    expect(seen).toEqual([new Date("2026-11-21T10:00:00.000Z"), new Date("2026-11-22T09:30:00.000Z")]);
    expect(seen.every((d) => d instanceof Date)).toBe(true);
  });

  it("resolves static methods when given the class, and inherited methods when given a subclass instance", () => {
    class Base {
      @tool
      lookup(query: string): string {
        return query;
      }
    }
    class Derived extends Base {}
    class Statics {
      @tool
      static ping(query: string): string {
        return query;
      }
    }
    registerToolSchemas([entry(Base, "lookup"), entry(Statics, "ping", { static: true })], moduleInfo);
    const agent = new Agent({ chatGenerator, tools: [new Derived(), Statics] });
    expect(agent.tools.map((t) => t.name)).toEqual(["lookup", "ping"]);
  });

  it("takes both the instance and the static @tool methods of a class when given an instance, calling statics on the class", async () => {
    class Currency {
      rate = 2;
      @tool
      convert(query: string): string {
        return `${Number(query) * this.rate}`;
      }
      @tool
      static symbols(this: unknown, query: string): string {
        return this === Currency ? `${query}: EUR USD` : "called on the wrong object";
      }
    }
    registerToolSchemas([entry(Currency, "convert"), entry(Currency, "symbols", { static: true })], moduleInfo);
    const model = new ScriptedChatGenerator([toolCallReply(["convert", { query: "21" }], ["symbols", { query: "all" }]), ChatMessage.fromAssistant("done")]);
    const agent = new Agent({ chatGenerator: model, tools: [new Currency()] });
    expect(agent.tools.map((t) => t.name)).toEqual(["convert", "symbols"]);
    const result = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult?.result)).toEqual(["42", "all: EUR USD"]);
  });

  it("refuses a class with both static and instance @tool methods, saying to pass an instance", () => {
    class Currency {
      @tool
      convert(query: string): string {
        return query;
      }
      @tool
      static symbols(query: string): string {
        return query;
      }
    }
    registerToolSchemas([entry(Currency, "convert"), entry(Currency, "symbols", { static: true })], moduleInfo);
    expect(configError(() => new Agent({ chatGenerator, tools: [Currency] })).message).toBe(
      "Currency has static @tool methods (Currency.symbols) and instance @tool methods (Currency.convert), and the class alone cannot call the instance ones; pass an instance (new Currency(…)), which gives both kinds.",
    );
  });

  it("resolves defineTool results, arrow functions named by their const", () => {
    const lookup = defineTool((query: string) => query.toUpperCase());
    registerToolSchemas([entry(lookup, "lookup", { kind: "function" })], moduleInfo);
    const agent = new Agent({ chatGenerator, tools: [lookup] });
    expect(agent.tools.map((t) => t.name)).toEqual(["lookup"]);
  });

  it("says to run codegen when a @tool method has no generated entry", () => {
    class SupportTools {
      @tool
      search(query: string): string {
        return query;
      }
    }
    expect(configError(() => new Agent({ chatGenerator, tools: [new SupportTools()] })).message).toBe(
      'SupportTools.search is a @tool method with no generated schema: run `npx toolwright codegen` and import the generated module (for example import "./tools.generated") before creating the Agent. No generated module has been imported yet.',
    );
    registerToolSchemas([], moduleInfo);
    expect(configError(() => new Agent({ chatGenerator, tools: [new SupportTools()] })).message).toBe(
      'SupportTools.search is a @tool method with no generated schema: run `npx toolwright codegen` and import the generated module (for example import "./tools.generated") before creating the Agent. Generated modules imported so far: src/tools.generated.ts; none describes SupportTools.search.',
    );
  });

  describe("stale entries", () => {
    const stale = (fn: () => unknown): string => {
      const error = configError(fn);
      expect(error).toBeInstanceOf(StaleSchemaError);
      return error.message;
    };
    const suffix = "Run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts` to regenerate it.";

    it("detects renamed or reordered parameters", () => {
      class SupportTools {
        @tool
        search(terms: string): string {
          return terms;
        }
      }
      registerToolSchemas([entry(SupportTools, "search")], moduleInfo);
      expect(stale(() => new Agent({ chatGenerator, tools: [new SupportTools()] }))).toBe(
        `SupportTools.search (src/tools/support.ts) has changed since src/tools.generated.ts was generated: its parameters are now (terms), the generated plan has (query). ${suffix}`,
      );
    });

    it("says the parameter names were minified, and how to keep them, instead of asking for codegen", () => {
      // What esbuild --minify (even with --keep-names) makes of search(query, limit = 5).
      class SupportTools {
        @tool
        search(e: string, t = 5): string {
          return e.repeat(t);
        }
      }
      registerToolSchemas(
        [entry(SupportTools, "search", { parameters: [{ name: "query", role: "llm", optional: false }, { name: "limit", role: "llm", optional: true, default: 5 }] })],
        moduleInfo,
      );
      const error = configError(() => new Agent({ chatGenerator, tools: [new SupportTools()] }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(StaleSchemaError);
      expect(error.message).toBe(
        "SupportTools.search (src/tools/support.ts) has parameters named (e, t) where src/tools.generated.ts has (query, limit): the build minified the parameter names, " +
          "which toolwright reads to match arguments to parameters, so running codegen again cannot help; keep parameter names when minifying: " +
          "with esbuild use --minify-whitespace --minify-syntax without --minify-identifiers (--keep-names keeps only function and class names), with terser set mangle: false.",
      );
    });

    it("treats short names as renamed, not minified, when the plan's names are short too", () => {
      class SupportTools {
        @tool
        search(q: string): string {
          return q;
        }
      }
      registerToolSchemas([entry(SupportTools, "search", { parameters: [{ name: "x", role: "llm", optional: false }] })], moduleInfo);
      expect(stale(() => new Agent({ chatGenerator, tools: [new SupportTools()] }))).toBe(
        `SupportTools.search (src/tools/support.ts) has changed since src/tools.generated.ts was generated: its parameters are now (q), the generated plan has (x). ${suffix}`,
      );
    });

    it("detects a State parameter the plan does not have, from design:paramtypes", () => {
      class SupportTools {
        @tool
        search(query: State): string {
          return String(query);
        }
      }
      registerToolSchemas([entry(SupportTools, "search")], moduleInfo);
      expect(stale(() => new Agent({ chatGenerator, tools: [new SupportTools()] }))).toBe(
        `SupportTools.search (src/tools/support.ts) has changed since src/tools.generated.ts was generated: parameter 1 (query) is now typed State, the generated plan has it as llm. ${suffix}`,
      );
    });

    it.each([
      [{ name: "find" }, "its tool name is now 'find', the generated entry has 'search'"],
      [{ description: "Finds." }, "its description option changed"],
      [{ inputsFromState: { q: "query" } }, "its inputsFromState option changed"],
      [{ outputsToState: { hits: { source: "hits" } } }, "its outputsToState option changed"],
    ])("detects changed options %j", (options, problem) => {
      class SupportTools {
        @tool(options)
        search(query: string): string {
          return query;
        }
      }
      registerToolSchemas([entry(SupportTools, "search")], moduleInfo);
      expect(stale(() => new Agent({ chatGenerator, tools: [new SupportTools()], stateSchema: { q: { type: z.string() }, hits: { type: z.array(z.string()) } } }))).toBe(
        `SupportTools.search (src/tools/support.ts) has changed since src/tools.generated.ts was generated: ${problem}. ${suffix}`,
      );
    });
  });

  it("names both Class.method (file:line:col) for duplicate tool names", () => {
    class A {
      @tool
      search(query: string): string {
        return query;
      }
    }
    class B {
      @tool
      search(query: string): string {
        return query;
      }
    }
    registerToolSchemas([entry(A, "search", { source: "src/a.ts:3:3" }), entry(B, "search", { source: "src/b.ts:7:3" })], moduleInfo);
    expect(configError(() => new Agent({ chatGenerator, tools: [new A(), new B()] })).message).toBe(
      "Agent has two tools named 'search': A.search (src/a.ts:3:3) and B.search (src/b.ts:7:3); tool names must be unique, so rename one (the name option of @tool or Tool).",
    );
  });

  it("replaces a module's entries when it registers again", () => {
    class A {
      @tool
      search(query: string): string {
        return query;
      }
    }
    registerToolSchemas([entry(A, "search", { name: "first" })], moduleInfo);
    registerToolSchemas([entry(A, "search", { name: "search" })], moduleInfo);
    expect(new Agent({ chatGenerator, tools: [new A()] }).tools.map((t) => t.name)).toEqual(["search"]);
  });
});
