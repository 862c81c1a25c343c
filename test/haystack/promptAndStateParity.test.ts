// ChatPromptBuilder's {% message %} blocks and State.to_dict() as Haystack itself produced them
// (test/haystack/fixtures, recorded on Haystack main and v2.31.0; issue #33), against toolwright's
// promptTemplate and State.fromJSON.
import { z } from "zod";
import { ChatMessage, chatMessageSchema, mergeLists, promptTemplate, replaceValues, State } from "toolwright";
import { haystackFixture, haystackVersions } from "./haystackFixtures";

describe.each(haystackVersions)("on what Haystack %s did", (version) => {
  it("renders a template of {% message %} blocks to the messages ChatPromptBuilder made, with the same variables", () => {
    const fixture = haystackFixture(version, "chat-prompt-builder-message-blocks");
    const template = promptTemplate(fixture.input.template);

    expect(template.renderMessages(fixture.input.variables).map((message) => message.toJSON())).toStrictEqual(fixture.prompt);
    expect([...template.variables].sort()).toStrictEqual(fixture.variables);
  });

  it("reads State.to_dict()'s form into the same values, checked against a toolwright schema of the same types", () => {
    const fixture = haystackFixture(version, "state-to-dict-from-dict");
    // The recorded schema (str, int with a custom handler, list[str], list[ChatMessage], dict) in toolwright's terms.
    const countHandler = (current: number | undefined, incoming: number) => (current ?? 0) + incoming;
    const schema = {
      name: { type: z.string(), handler: replaceValues },
      count: { type: z.number().int(), handler: countHandler },
      tags: { type: z.array(z.string()), handler: mergeLists },
      messages: { type: z.array(chatMessageSchema) },
      info: { type: z.record(z.string(), z.unknown()) },
    };

    const state = State.fromJSON(schema, fixture.to_dict as unknown as Parameters<typeof State.fromJSON>[1]);

    expect(fixture.from_dict_data).toStrictEqual(fixture.input.data);
    expect(state.toJSON()).toStrictEqual(fixture.input.data);
    expect(state.get("messages")).toStrictEqual([ChatMessage.fromUser("hi"), ChatMessage.fromAssistant("hello")]);
    // Handlers are code, so they come from the toolwright schema, not from the dict's dotted paths.
    expect(fixture.to_dict.schema.count.handler).toBe("recorder_handlers.custom_merge");
    state.set("count", 2);
    expect(state.get("count")).toBe(5);
  });
});

it("Haystack main refused the custom handler's module until it was allowed; toolwright never imports by name", () => {
  const main = haystackFixture("main", "state-to-dict-from-dict");
  const old = haystackFixture("v2.31.0", "state-to-dict-from-dict");

  expect(main.from_dict_error?.class).toBe("DeserializationError");
  expect(main.from_dict_error?.message).toMatch(/^Refusing to deserialize a class from module 'recorder_handlers.custom_merge': the module is not on the trusted-module allowlist\./);
  expect(main.from_dict_allowed_module).toBe("recorder_handlers");
  expect(old.from_dict_error).toBeUndefined();
});
