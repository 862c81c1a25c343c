import type { JsonSchema } from "toolwright";
import { toStrictSchema } from "toolwright/openai";

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required };
}

describe("toStrictSchema", () => {
  it("lists every property in required and closes every object", () => {
    const strict = toStrictSchema(object({ query: { type: "string" }, page: { type: "integer" } }, ["query", "page"]));

    expect(strict).toEqual({
      type: "object",
      properties: { query: { type: "string" }, page: { type: "integer" } },
      required: ["query", "page"],
      additionalProperties: false,
    });
  });

  it("makes optional primitives nullable with a [type, \"null\"] type", () => {
    const strict = toStrictSchema(object({ query: { type: "string" }, limit: { type: "integer" }, exact: { type: "boolean" }, score: { type: "number" } }, ["query"]));

    expect(strict).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "null"] },
        exact: { type: ["boolean", "null"] },
        score: { type: ["number", "null"] },
      },
      required: ["query", "limit", "exact", "score"],
      additionalProperties: false,
    });
  });

  it("adds null to the type and the values of an optional enum", () => {
    const strict = toStrictSchema(object({ priority: { type: "string", enum: ["low", "high"] }, size: { enum: [1, 2] } }));

    expect(strict.properties).toEqual({
      priority: { type: ["string", "null"], enum: ["low", "high", null] },
      size: { enum: [1, 2, null] },
    });
  });

  it("makes an optional const nullable through anyOf, since the const alone would refuse null", () => {
    const strict = toStrictSchema(object({ mode: { type: "string", const: "fast" } }));

    expect(strict.properties).toEqual({ mode: { anyOf: [{ type: "string", const: "fast" }, { type: "null" }] } });
  });

  it("wraps optional objects and arrays in anyOf with null, keeping the description outside", () => {
    const strict = toStrictSchema(
      object({
        filter: { type: "object", description: "Filters.", properties: { tag: { type: "string" }, since: { type: "string" } }, required: ["tag"] },
        ids: { type: "array", items: { type: "string" } },
      }),
    );

    expect(strict.properties).toEqual({
      filter: {
        description: "Filters.",
        anyOf: [
          { type: "object", properties: { tag: { type: "string" }, since: { type: ["string", "null"] } }, required: ["tag", "since"], additionalProperties: false },
          { type: "null" },
        ],
      },
      ids: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
    });
  });

  it("adds a null branch to an optional anyOf", () => {
    const strict = toStrictSchema(object({ id: { anyOf: [{ type: "string" }, { type: "integer" }] } }));

    expect(strict.properties).toEqual({ id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] } });
  });

  it("leaves an optional property that already accepts null as it is", () => {
    const strict = toStrictSchema(object({ note: { type: ["string", "null"] }, due: { anyOf: [{ type: "string" }, { type: "null" }] } }));

    expect(strict.properties).toEqual({ note: { type: ["string", "null"] }, due: { anyOf: [{ type: "string" }, { type: "null" }] } });
  });

  it("converts objects nested in properties and array items", () => {
    const strict = toStrictSchema(
      object({ lines: { type: "array", items: object({ sku: { type: "string" }, qty: { type: "integer" } }, ["sku"]) } }, ["lines"]),
    );

    expect(strict.properties).toEqual({
      lines: {
        type: "array",
        items: { type: "object", properties: { sku: { type: "string" }, qty: { type: ["integer", "null"] } }, required: ["sku", "qty"], additionalProperties: false },
      },
    });
  });

  it("converts $defs and makes an optional $ref nullable through anyOf", () => {
    const schema: JsonSchema = {
      ...object({ order: { $ref: "#/$defs/Order" }, parent: { $ref: "#/$defs/Order", description: "The parent order." } }, ["order"]),
      $defs: { Order: object({ id: { type: "string" }, note: { type: "string" } }, ["id"]) },
    };

    expect(toStrictSchema(schema)).toEqual({
      type: "object",
      properties: {
        order: { $ref: "#/$defs/Order" },
        parent: { description: "The parent order.", anyOf: [{ $ref: "#/$defs/Order" }, { type: "null" }] },
      },
      required: ["order", "parent"],
      additionalProperties: false,
      $defs: { Order: { type: "object", properties: { id: { type: "string" }, note: { type: ["string", "null"] } }, required: ["id", "note"], additionalProperties: false } },
    });
  });

  it("keeps an optional $ref to a nullable definition as it is", () => {
    const schema: JsonSchema = { ...object({ tag: { $ref: "#/$defs/Tag" } }), $defs: { Tag: { type: ["string", "null"] } } };

    expect(toStrictSchema(schema).properties).toEqual({ tag: { $ref: "#/$defs/Tag" } });
  });

  it("converts draft-07 definitions too, so that their $refs still resolve", () => {
    const schema: JsonSchema = { ...object({ item: { $ref: "#/definitions/Item" } }, ["item"]), definitions: { Item: object({ name: { type: "string" }, size: { type: "integer" } }, ["name"]) } };

    expect(toStrictSchema(schema)).toEqual({
      type: "object",
      properties: { item: { $ref: "#/definitions/Item" } },
      required: ["item"],
      additionalProperties: false,
      definitions: { Item: { type: "object", properties: { name: { type: "string" }, size: { type: ["integer", "null"] } }, required: ["name", "size"], additionalProperties: false } },
    });
  });

  it("drops keywords strict mode does not accept and keeps those it does", () => {
    const strict = toStrictSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Search",
      ...object(
        {
          query: { type: "string", description: "Words.", minLength: 2, maxLength: 50, pattern: "^\\w+$", default: "x", examples: ["cats"] },
          limit: { type: "integer", minimum: 1, maximum: 20, multipleOf: 1, default: 5 },
          ids: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true },
        },
        ["query", "limit", "ids"],
      ),
    });

    expect(strict).toEqual({
      type: "object",
      properties: {
        query: { type: "string", description: 'Words. Default: "x".', pattern: "^\\w+$" },
        limit: { type: "integer", minimum: 1, maximum: 20, multipleOf: 1, description: "Default: 5." },
        ids: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
      },
      required: ["query", "limit", "ids"],
      additionalProperties: false,
    });
  });

  it("keeps the formats strict mode supports and drops the others", () => {
    const strict = toStrictSchema(
      object(
        { at: { type: "string", format: "date-time" }, email: { type: "string", format: "email" }, id: { type: "string", format: "uuid" }, site: { type: "string", format: "uri" } },
        ["at", "email", "id", "site"],
      ),
    );

    expect(strict.properties).toEqual({
      at: { type: "string", format: "date-time" },
      email: { type: "string", format: "email" },
      id: { type: "string", format: "uuid" },
      site: { type: "string" },
    });
  });

  it("gives an object without properties empty properties and required", () => {
    expect(toStrictSchema({ type: "object" })).toEqual({ type: "object", properties: {}, required: [], additionalProperties: false });
  });

  it("leaves its input unchanged", () => {
    const schema = object({ query: { type: "string", minLength: 1 }, filter: object({ tag: { type: "string" } }) }, ["query"]);
    const copy = structuredClone(schema);

    toStrictSchema(schema);

    expect(schema).toEqual(copy);
  });

  it("appends a dropped default to the property's description", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: {
        limit: { type: "integer", description: "Maximum results.", default: 5 },
        mode: { type: "string", enum: ["fast", "slow"], default: "fast" },
        note: { type: "string", description: "A note", default: "none" },
      },
      required: [],
      additionalProperties: false,
    });

    expect(strict.properties).toEqual({
      limit: { type: ["integer", "null"], description: "Maximum results. Default: 5." },
      mode: { type: ["string", "null"], enum: ["fast", "slow", null], description: "Default: \"fast\"." },
      note: { type: ["string", "null"], description: "A note. Default: \"none\"." },
    });
  });

  it("wraps a $ref that carries a description in a one-branch anyOf, since strict mode allows nothing beside $ref", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: {
        parent: { $ref: "#/$defs/Node", description: "The parent node." },
        root: { $ref: "#/$defs/Node", description: "The root.", default: null, deprecated: true },
        bare: { $ref: "#/$defs/Node" },
      },
      required: ["parent", "bare"],
      additionalProperties: false,
      $defs: { Node: object({ name: { type: "string" } }, ["name"]) },
    });

    expect(strict.properties).toEqual({
      parent: { description: "The parent node.", anyOf: [{ $ref: "#/$defs/Node" }] },
      root: { description: "The root. Default: null.", anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
      bare: { $ref: "#/$defs/Node" },
    });
  });
});
