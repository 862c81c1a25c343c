import { ConfigurationError, Tool, type ToolOptions } from "toolwright";

const base: ToolOptions = { name: "purge", description: "Purge.", parameters: { type: "object", properties: {} }, function: () => "done" };

function refusal(options: Partial<ToolOptions>): string {
  try {
    new Tool({ ...base, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigurationError");
}

describe("checkToolAnnotations", () => {
  it("keeps a tool's title, annotations and output schema, frozen copies", () => {
    const annotations = { readOnlyHint: false, destructiveHint: true };
    const outputSchema = { type: "object", properties: { removed: { type: "integer" } } };

    const tool = new Tool({ ...base, title: "Purge everything", annotations, outputSchema });
    annotations.destructiveHint = false;
    outputSchema.properties.removed.type = "string";

    expect([tool.title, tool.annotations, tool.outputSchema]).toEqual([
      "Purge everything",
      { readOnlyHint: false, destructiveHint: true },
      { type: "object", properties: { removed: { type: "integer" } } },
    ]);
    expect(Object.isFrozen(tool.annotations)).toBe(true);
    expect(Object.isFrozen(tool.outputSchema)).toBe(true);
    expect([new Tool(base).title, new Tool(base).annotations, new Tool(base).outputSchema]).toEqual([undefined, undefined, undefined]);
  });

  it("refuses annotations that are not boolean hints, unknown hints, and a read-only destructive tool", () => {
    expect(refusal({ annotations: "readOnly" as never })).toBe(
      "Tool 'purge' has annotations that are not an object of boolean hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint), got string \"readOnly\".",
    );
    expect(refusal({ annotations: { readonlyHint: true } as never })).toBe(
      "Tool 'purge' has an unknown annotation 'readonlyHint'; the annotations are readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
    );
    expect(refusal({ annotations: { destructiveHint: "yes" } as never })).toBe("Tool 'purge' has annotations.destructiveHint that is not a boolean, got string \"yes\".");
    expect(refusal({ annotations: { readOnlyHint: true, destructiveHint: true } })).toBe(
      "Tool 'purge' has annotations readOnlyHint and destructiveHint both true; a read-only tool changes nothing, so drop one of them.",
    );
  });

  it("refuses a title that is not one non-empty line, and an outputSchema that is not an object", () => {
    expect(refusal({ title: "  " })).toBe('Tool \'purge\' has a title that is not a non-empty line of text, got string "  ".');
    expect(refusal({ title: "Purge\neverything" })).toBe('Tool \'purge\' has a title that is not a non-empty line of text, got string "Purge\\neverything".');
    expect(refusal({ outputSchema: true as never })).toBe("Tool 'purge' has an outputSchema that is not a JSON Schema object, got boolean true.");
  });
});
