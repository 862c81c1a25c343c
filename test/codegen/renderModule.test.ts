import { relativeImport, renderModule, type RenderOptions } from "../../codegen/emit/renderModule";
import type { ToolModel } from "../../codegen/model";

const options: RenderOptions = {
  outFile: "/app/src/tools.generated.ts",
  moduleLabel: "src/tools.generated.ts",
  command: "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts",
  runtimeImport: "toolwright",
};

function model(file: string, ownerName: string, member: string, extra: Partial<ToolModel> = {}): ToolModel {
  return {
    kind: "method",
    ownerName,
    member,
    isStatic: false,
    file,
    source: file.replace("/app/", ""),
    name: member,
    description: `${member} things.`,
    parameters: [{ name: "query", role: "llm", optional: false }],
    parameterTypes: { parameters: [{ label: "query", type: "string", rest: false }], imports: [] },
    schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false },
    strict: true,
    dates: [],
    options: { inputsFromState: {}, outputsToState: {} },
    ...extra,
  };
}

// The owner of each tool and its member (from the data), in order.
function entries(text: string): string[] {
  const owners = [...text.matchAll(/^ {6}\(\): unknown => (\w+),$/gm)].map((m) => m[1]);
  const start = text.indexOf("String.raw`") + "String.raw`".length;
  const data = JSON.parse(text.slice(start, text.indexOf("`,\n", start))) as { owners: Array<{ tools: Array<{ member: string }> }> };
  expect(owners).toHaveLength(data.owners.length);
  return data.owners.flatMap((owner, i) => owner.tools.map((t) => `${owners[i]}.${t.member}`));
}

describe("renderModule", () => {
  const tools = [
    model("/app/src/tools/support.ts", "SupportTools", "search"),
    model("/app/src/tools/billing.ts", "BillingTools", "refund"),
    model("/app/src/tools/support.ts", "AdminTools", "purge", { isStatic: true }),
    model("/app/src/tools/billing.ts", "BillingTools", "invoices"),
    model("/app/src/tools/support.ts", "SupportTools", "close", { name: "close_ticket" }),
  ];

  it("renders the same text for the same tools, whatever order they come in", () => {
    const first = renderModule(tools, options);
    expect(renderModule(tools, options)).toBe(first);
    expect(renderModule([...tools].reverse(), options)).toBe(first);
    expect(renderModule([tools[2]!, tools[0]!, tools[4]!, tools[1]!, tools[3]!], options)).toBe(first);
  });

  it("sorts tools by file, then owner, then member, and imports each class once", () => {
    const text = renderModule(tools, options);

    expect(entries(text)).toEqual(["BillingTools.invoices", "BillingTools.refund", "AdminTools.purge", "SupportTools.close", "SupportTools.search"]);
    expect(text.split("\n").filter((line) => line.startsWith("import "))).toEqual([
      'import { registerToolSchemas, type GeneratedToolEntry } from "toolwright";',
      'import { BillingTools } from "./tools/billing";',
      'import { AdminTools, SupportTools } from "./tools/support";',
    ]);
    expect(text).toContain("\n(function (\n  this: typeof AdminTools,\n  purge_query: string, // AdminTools.purge\n): void {\n  this.purge(purge_query); // AdminTools.purge\n});\n");
    expect(text).toContain('\n{"member":"purge","static":true,"description":');
    expect(text).toContain("\n  this.close(close_query); // SupportTools.close\n");
    expect(text).toContain('\n{"member":"close","name":"close_ticket","description":');
  });

  it("gives two classes of the same name in different files distinct local names", () => {
    const text = renderModule([model("/app/src/b/tools.ts", "Tools", "beta"), model("/app/src/a/tools.ts", "Tools", "alpha"), model("/app/src/c.ts", "Tools_2", "gamma")], options);

    expect(text.split("\n").filter((line) => line.startsWith("import {"))).toEqual([
      'import { registerToolSchemas, type GeneratedToolEntry } from "toolwright";',
      'import { Tools } from "./a/tools";',
      'import { Tools as Tools_2 } from "./b/tools";',
      'import { Tools_2 as Tools_2_2 } from "./c";',
    ]);
    expect(entries(text)).toEqual(["Tools.alpha", "Tools_2.beta", "Tools_2_2.gamma"]);
    expect(text).toContain("      (): unknown => Tools_2,\n");
    expect(text).toContain("\n  this: Tools_2,\n  beta_query: string, // Tools_2.beta\n");
  });

  it("renames an owner whose name the module itself uses", () => {
    const text = renderModule([model("/app/src/tools.ts", "toolSchemas", "search")], options);

    expect(text).toContain('import { toolSchemas as toolSchemas_2 } from "./tools";\n');
    expect(text).toContain("      (): unknown => toolSchemas_2,\n");
  });

  it("writes the banner, the registration call with the owners and the data, and the checks", () => {
    const text = renderModule([model("/app/src/tools/support.ts", "SupportTools", "search", { strict: false, strictReason: "additionalProperties is a schema", dates: ["#/properties/when"] })], options);

    expect(text).toBe(
      [
        "// generated by toolwright codegen; do not edit.",
        "// Regenerate with: npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts",
        "/* eslint-disable */",
        'import { registerToolSchemas, type GeneratedToolEntry } from "toolwright";',
        'import { SupportTools } from "./tools/support";',
        "",
        "// The tools' data is JSON, one line per tool, which toolwright parses when this module is imported; `owners` lists the class or function of each owner in the data, in the same order",
        "// (each typed `(): unknown`, so that the checker does not compare the classes with each other to type the array).",
        "export const toolSchemas: readonly GeneratedToolEntry[] = registerToolSchemas(",
        "  {",
        "    owners: [",
        "      (): unknown => SupportTools,",
        "    ],",
        '    data: String.raw`{"format":3,"shared":[],"owners":[',
        '{"source":"src/tools/support.ts","tools":[',
        '{"member":"search","description":"search things.","parameters":[{"name":"query"}],"properties":{"query":{"type":"string"}},"strictReason":"additionalProperties is a schema","dates":["#/properties/when"]}',
        "]}",
        "]}`,",
        "  },",
        '  { module: "src/tools.generated.ts", command: "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts" },',
        ");",
        "",
        "// A type error below means a tool's method or parameter types changed after this module was generated: run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts`.",
        "// Each function (never called) calls the tools of one class (its static or its instance methods) or one defineTool function with values of the types their schemas let the model send.",
        "(function (",
        "  this: SupportTools,",
        "  search_query: string, // SupportTools.search",
        "): void {",
        "  this.search(search_query); // SupportTools.search",
        "});",
        "",
      ].join("\n"),
    );
  });

  it("imports the exported types the checks name, as types, sharing an owner's import and renaming on a clash", () => {
    const types = (...imports: Array<{ file: string; name: string }>) => imports;
    const text = renderModule(
      [
        model("/app/src/tools/support.ts", "SupportTools", "ship", {
          parameterTypes: {
            parameters: [
              { label: "to", type: "\u00010\u0001", rest: false },
              { label: "page", type: "\u00011\u0001<\u00010\u0001> | undefined", rest: false },
              { label: "tools", type: "\u00012\u0001", rest: false },
              { label: "status", type: "\u00013\u0001.Open", rest: false },
              { label: "more", type: "any[]", rest: true },
            ],
            imports: types(
              { file: "/app/src/types.ts", name: "Address" },
              { file: "/app/src/types.ts", name: "Page" },
              { file: "/app/src/tools/support.ts", name: "SupportTools" },
              { file: "/app/src/other.ts", name: "Date" },
            ),
          },
        }),
        model("/app/src/tools/billing.ts", "BillingTools", "refund", {
          parameterTypes: { parameters: [{ label: "to", type: "\u00010\u0001", rest: false }], imports: types({ file: "/app/src/other.ts", name: "Address" }) },
        }),
      ],
      options,
    );

    expect(text.split("\n").filter((line) => line.startsWith("import "))).toEqual([
      'import { registerToolSchemas, type GeneratedToolEntry } from "toolwright";',
      'import type { Address, Date as Date_2 } from "./other";',
      'import { BillingTools } from "./tools/billing";',
      'import { SupportTools } from "./tools/support";',
      'import type { Address as Address_2, Page } from "./types";',
    ]);
    expect(text).toContain("\n  this: BillingTools,\n  refund_to: Address, // BillingTools.refund\n");
    expect(text).toContain("\n  ship_to: Address_2, ship_page: Page<Address_2> | undefined, ship_tools: SupportTools, ship_status: Date_2.Open, ship_more: any[], // SupportTools.ship\n");
    expect(text).toContain("\n  this.ship(ship_to, ship_page, ship_tools, ship_status, ...ship_more); // SupportTools.ship\n");
  });
});

describe("relativeImport", () => {
  it("writes a ./ or ../ specifier without the extension, keeping .mts and .cts findable as .mjs and .cjs", () => {
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools/support.ts")).toBe("./tools/support");
    expect(relativeImport("/app/generated/schemas.ts", "/app/src/support.tsx")).toBe("../src/support");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.mts")).toBe("./tools.mjs");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.cts")).toBe("./tools.cjs");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.d.ts")).toBe("./tools");
  });

  it("writes the output extension with js: .js for .ts, .mjs for .mts, .cjs for .cts", () => {
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools/support.ts", "js")).toBe("./tools/support.js");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.mts", "js")).toBe("./tools.mjs");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.cts", "js")).toBe("./tools.cjs");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/types.d.ts", "js")).toBe("./types.js");
  });

  it("writes the source extension with ts, except for declaration files", () => {
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools/support.ts", "ts")).toBe("./tools/support.ts");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/tools.mts", "ts")).toBe("./tools.mts");
    expect(relativeImport("/app/src/tools.generated.ts", "/app/src/types.d.ts", "ts")).toBe("./types.js");
  });
});
