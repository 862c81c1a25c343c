import { haystackTypeToJsonSchema } from "../../src/haystack/haystackType";

// The type strings are those haystack/utils/type_serialization.py serialize_type writes (Haystack main),
// as _schema_to_dict stores them in a state_schema (test_agent.py test_to_dict: {"foo": {"type": "str"}}).
describe("haystackTypeToJsonSchema", () => {
  it.each([
    ["str", { type: "string" }],
    ["int", { type: "integer" }],
    ["float", { type: "number" }],
    ["bool", { type: "boolean" }],
    ["dict", { type: "object" }],
    ["list", { type: "array" }],
    ["list[str]", { type: "array", items: { type: "string" } }],
    ["typing.List[int]", { type: "array", items: { type: "integer" } }],
    ["dict[str, int]", { type: "object", additionalProperties: { type: "integer" } }],
    ["typing.Optional[str]", { type: ["string", "null"] }],
    ["str | None", { type: ["string", "null"] }],
    ["typing.Union[str, list[str]]", { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }],
    ["typing.Literal['low', 'high']", { enum: ["low", "high"] }],
    ["typing.Any", {}],
  ])("reads %s", (text, schema) => {
    expect(haystackTypeToJsonSchema(text)).toEqual({ schema, classes: [], chatMessages: false });
  });

  it("types a class as an object and names it; a list of ChatMessage is told apart", () => {
    expect(haystackTypeToJsonSchema("list[haystack.dataclasses.document.Document]")).toEqual({ schema: { type: "array", items: { type: "object" } }, classes: ["haystack.dataclasses.document.Document"], chatMessages: false });
    expect(haystackTypeToJsonSchema("list[haystack.dataclasses.chat_message.ChatMessage]")).toEqual({ schema: { type: "array", items: { type: "object" } }, classes: ["haystack.dataclasses.chat_message.ChatMessage"], chatMessages: true });
  });

  it("gives undefined for a string it cannot read", () => {
    expect(haystackTypeToJsonSchema("list[str")).toBeUndefined();
    expect(haystackTypeToJsonSchema("typing.Callable[[int], str]")).toBeUndefined();
  });
});
