import { ConfigurationError, Tool, type ToolOptions, Toolset } from "toolwright";
import { resolveTools } from "../../src/tools/resolveTools";

function makeTool(name: string, extra: Partial<ToolOptions> = {}): Tool {
  return new Tool({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} }, function: () => name, ...extra });
}

function configurationMessage(run: () => unknown, subject = "Agent"): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).subject).toBe(subject);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigurationError, but nothing was thrown");
}

describe("resolveTools", () => {
  it("flattens Tools and Toolsets into tools by name, in order", () => {
    const a = makeTool("a");
    const b = makeTool("b");
    const c = makeTool("c");
    const d = makeTool("d");

    const tools = resolveTools([a, new Toolset([b, c], { name: "group" }), d], "Agent");

    expect([...tools.keys()]).toEqual(["a", "b", "c", "d"]);
    expect(tools.get("b")).toBe(b);
  });

  it("returns an empty map for no tools", () => {
    expect(resolveTools([], "Agent").size).toBe(0);
  });

  it("rejects two tools with the same name, naming both", () => {
    expect(configurationMessage(() => resolveTools([makeTool("search"), new Toolset([makeTool("search")])], "Agent"))).toBe(
      "Agent has two tools named 'search': Tool 'search' and Tool 'search'; tool names must be unique, so rename one (the name option of @tool or Tool).",
    );
  });

  it("names the source locations of duplicate tools when they have them", () => {
    const first = makeTool("search", { source: "src/tools/support.ts:14:3" });
    const second = makeTool("search", { source: "src/tools/billing.ts:8:3" });

    expect(configurationMessage(() => resolveTools([first, second], "Agent"))).toBe(
      "Agent has two tools named 'search': src/tools/support.ts:14:3 and src/tools/billing.ts:8:3; tool names must be unique, so rename one (the name option of @tool or Tool).",
    );
  });

  it("rejects something that is not a tool, naming its position", () => {
    expect(configurationMessage(() => resolveTools([makeTool("a"), { name: "b", run: () => "b" }], "Agent"))).toBe(
      "Agent was given an object at tools[1], which is not a tool: pass Tool objects, Toolsets, instances of classes with @tool methods (or the class, for static ones), or defineTool results.",
    );
    expect(configurationMessage(() => resolveTools(["search" as unknown as Tool], "Agent"))).toBe(
      'Agent was given string "search" at tools[0], which is not a tool: pass Tool objects, Toolsets, instances of classes with @tool methods (or the class, for static ones), or defineTool results.',
    );
  });

  it("rejects tools that are not an array", () => {
    expect(configurationMessage(() => resolveTools(makeTool("a") as unknown as Tool[], "Agent"))).toBe(
      "Agent needs tools as an array of Tool, Toolset or objects with @tool methods, got a Tool.",
    );
  });

  it("uses the subject it is given", () => {
    expect(configurationMessage(() => resolveTools([null as unknown as Tool], "Agent.run"), "Agent.run")).toBe(
      "Agent.run was given null at tools[0], which is not a tool: pass Tool objects, Toolsets, instances of classes with @tool methods (or the class, for static ones), or defineTool results.",
    );
  });
});

describe("resolveTools given one source twice", () => {
  it("names the source and both positions", () => {
    const tool = new Tool({ name: "search", description: "Search.", parameters: { type: "object", properties: {} }, function: () => "ok" });
    const set = new Toolset([], { name: "docs" });

    expect(() => resolveTools([tool, set, tool], "Agent")).toThrow(new ConfigurationError("Agent", "Agent was given the same Tool 'search' twice, at tools[0] and tools[2]; pass each tool source once."));
    expect(() => resolveTools([set, set], "Agent")).toThrow(new ConfigurationError("Agent", "Agent was given the same Toolset 'docs' twice, at tools[0] and tools[1]; pass each tool source once."));
  });
});
