import { Agent, DefinitionError } from "../../src";
import { findRecursiveReference } from "../../src/definition/recursiveReference";

const scripted = { type: "ScriptedChatGenerator", options: { script: [] } };
const reason = (ref: string) =>
  `is "${ref}", a reference to a schema that contains it: a type of a definition cannot refer to itself (zod cannot check such a type, every run would fail); write the nesting out to the depth you need, or use { type: object } there.`;

function definitionError(definition: Record<string, unknown>): DefinitionError {
  try {
    Agent.fromJSON({ version: 1, chatGenerator: scripted, ...definition });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error("Agent.fromJSON accepted the definition");
}

describe("findRecursiveReference", () => {
  it("finds $ref '#' below the root", () => {
    expect(findRecursiveReference({ type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } })).toEqual({ path: ["properties", "children", "items", "$ref"], ref: "#" });
  });

  it("finds a $defs entry that refers to itself, and two that refer to each other", () => {
    expect(findRecursiveReference({ $ref: "#/$defs/node", $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } } })).toEqual({ path: ["$defs", "node", "properties", "next", "$ref"], ref: "#/$defs/node" });
    expect(findRecursiveReference({ $defs: { a: { type: "array", items: { $ref: "#/$defs/b" } }, b: { type: "array", items: { $ref: "#/$defs/a" } } }, properties: { x: { $ref: "#/$defs/a" } } })).toEqual({
      path: ["$defs", "b", "items", "$ref"],
      ref: "#/$defs/a",
    });
  });

  it("accepts references that do not loop, however often a target is used", () => {
    expect(findRecursiveReference({ $defs: { id: { type: "string" } }, properties: { a: { $ref: "#/$defs/id" }, b: { $ref: "#/$defs/id" }, c: { items: { $ref: "#/$defs/id" } } } })).toBeUndefined();
  });

  it("leaves references it cannot resolve to the compiler", () => {
    expect(findRecursiveReference({ properties: { a: { $ref: "https://example.com/schema" }, b: { $ref: "#/$defs/missing" } } })).toBeUndefined();
  });

  it("follows a chain of 20,000 references without overflowing the stack", () => {
    const defs = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`d${i}`, { $ref: `#/$defs/d${i + 1}` }]));
    defs.d20000 = { $ref: "#/$defs/d0" };

    expect(findRecursiveReference({ $ref: "#/$defs/d0", $defs: defs })).toEqual({ path: ["$defs", "d20000", "$ref"], ref: "#/$defs/d0" });
  });
});

describe("Agent.fromJSON recursive types", () => {
  it("refuses a state type that refers to itself, naming the $ref", () => {
    const error = definitionError({ stateSchema: { tree: { type: { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } } } } });

    expect(error.message).toBe(`stateSchema.tree.type.properties.children.items.$ref: ${reason("#")}`);
  });

  it("refuses an outputSchema with a recursive $defs entry", () => {
    const error = definitionError({ outputSchema: { type: "object", properties: { list: { $ref: "#/$defs/node" } }, $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } } } });

    expect(error.message).toBe(`outputSchema.$defs.node.properties.next.$ref: ${reason("#/$defs/node")}`);
  });

  it("accepts a state type whose references do not loop", () => {
    const agent = Agent.fromJSON({ version: 1, chatGenerator: scripted, stateSchema: { pair: { type: { type: "object", properties: { a: { $ref: "#/$defs/id" }, b: { $ref: "#/$defs/id" } }, $defs: { id: { type: "string" } } } } } });

    expect(agent.toJSON().stateSchema).toBeDefined();
  });
});
