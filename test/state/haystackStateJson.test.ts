// Haystack's State.to_dict() form read by State.fromJSON. The dict is the expected value of
// Haystack's test_state_to_dict / test_state_from_dict (test/components/agents/test_state_class.py
// at c7cb46c0f2).
import { z } from "zod";
import { ChatMessage, chatMessageSchema, ConfigurationError, State, StateTypeError } from "toolwright";

const haystackStateDict = {
  schema: {
    numbers: { type: "int", handler: "haystack.components.agents.state.state_utils.replace_values" },
    messages: { type: "list[haystack.dataclasses.chat_message.ChatMessage]", handler: "haystack.components.agents.state.state_utils.merge_lists" },
    dict_of_lists: { type: "dict", handler: "haystack.components.agents.state.state_utils.replace_values" },
  },
  data: {
    serialization_schema: {
      type: "object",
      properties: {
        numbers: { type: "integer" },
        messages: { type: "array", items: { type: "haystack.dataclasses.chat_message.ChatMessage" } },
        dict_of_lists: { type: "object", properties: { numbers: { type: "array", items: { type: "integer" } } } },
      },
    },
    serialized_data: {
      numbers: 1,
      messages: [{ role: "user", meta: {}, name: null, content: [{ text: "Hello, world!" }] }],
      dict_of_lists: { numbers: [1, 2, 3] },
    },
  },
};

const schema = {
  numbers: { type: z.number().int() },
  dict_of_lists: { type: z.record(z.string(), z.array(z.number())) },
};

describe("State.fromJSON on Haystack's State.to_dict() form", () => {
  it("reads the values of serialized_data against this schema, reviving the messages", () => {
    const state = State.fromJSON(schema, haystackStateDict);
    expect(state.get("numbers")).toBe(1);
    expect(state.get("dict_of_lists")).toEqual({ numbers: [1, 2, 3] });
    expect(state.get("messages")).toEqual([ChatMessage.fromUser("Hello, world!")]);
    expect(state.toJSON()).toEqual({ numbers: 1, dict_of_lists: { numbers: [1, 2, 3] }, messages: [ChatMessage.fromUser("Hello, world!").toJSON()] });
  });

  it("checks each value against this schema's type, as for any initial value", () => {
    expect(() => State.fromJSON({ numbers: { type: z.string() }, dict_of_lists: schema.dict_of_lists }, haystackStateDict)).toThrow(StateTypeError);
  });

  it("refuses serialized_data that is not an object, naming the form", () => {
    expect(() => State.fromJSON(schema, { schema: {}, data: { serialization_schema: {}, serialized_data: [1] } })).toThrow(
      new ConfigurationError("State.fromJSON", "State.fromJSON received Haystack's State.to_dict() form, but its data.serialized_data is an array, not an object of state values."),
    );
  });

  it("reads a state whose own keys are schema and data as toolwright's form", () => {
    const own = { schema: { type: z.string() }, data: { type: z.object({ serialization_schema: z.string(), serialized_data: z.string() }) }, log: { type: z.array(chatMessageSchema) } };
    const json = { schema: "s", data: { serialization_schema: "x", serialized_data: "y" } };
    expect(State.fromJSON(own, json).data).toEqual(json);
  });
});
