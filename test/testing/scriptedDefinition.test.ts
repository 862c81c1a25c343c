import { type ChatGeneratorRequest, ChatMessage, ConfigurationError, DefinitionError } from "toolwright";
import { type ScriptEntry, ScriptedChatGenerator, scriptedChatGeneratorFromDefinition, toolCallReply } from "toolwright/testing";
import { thrownError } from "../helpers/thrownError";

const at = ["chatGenerator", "options"] as const;

function request(): ChatGeneratorRequest {
  return { messages: [ChatMessage.fromUser("hi")], tools: [] };
}

const definitionErrorOf = (fn: () => unknown): DefinitionError => thrownError(fn, DefinitionError);

const script = (): ScriptEntry[] => [
  toolCallReply(["search", { query: "refunds", filter: { tags: ["billing"] } }, "call_1"]),
  [ChatMessage.fromAssistant("Thinking aloud.", { meta: { model: "m-1", usage: { promptTokens: 3 } } }), ChatMessage.fromAssistant(undefined, { reasoning: { text: "plan", extra: { id: "rs_1" } } })],
  ChatMessage.fromAssistant("Done.", { name: "helper" }),
];

describe("ScriptedChatGenerator.toJSON", () => {
  it("writes each entry as a message's JSON, or an array of them", () => {
    const definition = new ScriptedChatGenerator(script()).toJSON();

    expect(definition.type).toBe("ScriptedChatGenerator");
    expect(definition.options).toEqual({
      script: [
        { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "search", arguments: { query: "refunds", filter: { tags: ["billing"] } }, id: "call_1" } }] },
        [
          { role: "assistant", meta: { model: "m-1", usage: { promptTokens: 3 } }, name: null, content: [{ text: "Thinking aloud." }] },
          { role: "assistant", meta: {}, name: null, content: [{ reasoning: { reasoning_text: "plan", extra: { id: "rs_1" } } }] },
        ],
        { role: "assistant", meta: {}, name: "helper", content: [{ text: "Done." }] },
      ],
    });
  });

  it("writes the whole script, answered entries included", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("One."), ChatMessage.fromAssistant("Two.")]);
    await model.run(request());

    expect((model.toJSON().options!.script as unknown[]).length).toBe(2);
  });

  it("throws DefinitionError for a function entry", () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("One."), () => ChatMessage.fromAssistant("Two.")]);

    const error = definitionErrorOf(() => model.toJSON());

    expect(error.path).toEqual(["chatGenerator", "options", "script", 1]);
    expect(error.message).toBe(
      "chatGenerator.options.script[1]: is a function, which has no data form; script the message itself (a ChatMessage or an array of them), or name the generator through registry.chatGenerators.",
    );
  });

  it("throws DefinitionError for an entry that is not a ChatMessage, at its place in an array entry", () => {
    const model = new ScriptedChatGenerator([[ChatMessage.fromAssistant("One."), "Two." as unknown as ChatMessage]]);

    const error = definitionErrorOf(() => model.toJSON());

    expect(error.path).toEqual(["chatGenerator", "options", "script", 0, 1]);
    expect(error.message).toBe('chatGenerator.options.script[0][1]: is string "Two.", not a ChatMessage; script ChatMessage objects, or arrays of them.');
  });

  it("throws DefinitionError for a message whose meta has no JSON form", () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("One.", { meta: { tokens: 3n } })]);

    const error = definitionErrorOf(() => model.toJSON());

    expect(error.message).toBe("chatGenerator.options.script[0]: has no JSON form (Do not know how to serialize a BigInt); keep its meta and arguments to JSON data.");
  });
});

describe("scriptedChatGeneratorFromDefinition", () => {
  it("builds a generator that answers the same replies, read back from the definition's JSON text", async () => {
    const original = new ScriptedChatGenerator(script());
    const rebuilt = scriptedChatGeneratorFromDefinition(JSON.parse(JSON.stringify(original.toJSON())).options, at);

    expect(rebuilt).toBeInstanceOf(ScriptedChatGenerator);
    expect(rebuilt.remaining).toBe(3);
    for (let call = 0; call < 3; call++) {
      const [expected, actual] = [await original.run(request()), await rebuilt.run(request())];
      expect(actual).toEqual(expected);
    }
    expect(rebuilt.toJSON()).toEqual(original.toJSON());
  });

  it("reads Haystack's dict shape, without meta and name", async () => {
    const model = scriptedChatGeneratorFromDefinition({ script: [{ role: "assistant", content: [{ text: "Hello." }] }, []] }, at);

    expect((await model.run(request())).replies).toEqual([ChatMessage.fromAssistant("Hello.")]);
    expect((await model.run(request())).replies).toEqual([]);
  });

  it("keeps a __proto__ key of a message's meta as data, without touching Object.prototype", async () => {
    const options = JSON.parse('{ "script": [{ "role": "assistant", "meta": { "__proto__": { "polluted": true } }, "content": [{ "text": "Hi." }] }] }');

    const reply = (await scriptedChatGeneratorFromDefinition(options, at).run(request())).replies[0]!;

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(reply.meta, "__proto__")).toBe(true);
  });

  it.each([
    [null, 'chatGenerator.options: must be an object of ScriptedChatGenerator options, e.g. { script: [{ role: "assistant", content: [{ text: "Hello." }] }] }, got null.'],
    [[], 'chatGenerator.options: must be an object of ScriptedChatGenerator options, e.g. { script: [{ role: "assistant", content: [{ text: "Hello." }] }] }, got an array.'],
    [{}, 'chatGenerator.options.script: is missing; give the replies, one entry per model call, e.g. script: [{ role: "assistant", content: [{ text: "Hello." }] }].'],
    [{ script: [], replies: [] }, "chatGenerator.options.replies: is not an option of ScriptedChatGenerator; its one option is script."],
    [
      { script: "Hello." },
      'chatGenerator.options.script: must be an array with one entry per model call, each a ChatMessage JSON object or an array of them, e.g. script: [{ role: "assistant", content: [{ text: "Hello." }] }], got string "Hello.".',
    ],
    [
      { script: [null] },
      "chatGenerator.options.script[0]: ChatMessage.fromJSON received a value that is not a ChatMessage JSON object: (root): Invalid input: expected object, received null. Pass what ChatMessage.toJSON() produced ({ role, meta, name, content: [...] }).",
    ],
    [
      { script: [{ role: "assistant", content: [{ text: "One." }] }, [{ role: "assistant", content: [] }, { role: "robot", content: [] }]] },
      'chatGenerator.options.script[1][1]: ChatMessage.fromJSON received a value that is not a ChatMessage JSON object: role: Invalid option: expected one of "system"|"user"|"assistant"|"tool". Pass what ChatMessage.toJSON() produced ({ role, meta, name, content: [...] }).',
    ],
  ])("throws DefinitionError for options %p", (options, message) => {
    const error = definitionErrorOf(() => scriptedChatGeneratorFromDefinition(options, at));

    expect(error.message).toBe(message);
  });

  it.each(["__proto__", "constructor"])("throws DefinitionError for the own key %s", (key) => {
    const error = definitionErrorOf(() => scriptedChatGeneratorFromDefinition(JSON.parse(`{ "script": [], ${JSON.stringify(key)}: {} }`), at));

    expect(error.path).toEqual(["chatGenerator", "options", key]);
    expect(error.message).toBe(`chatGenerator.options.${key}: is not an option of ScriptedChatGenerator; its one option is script.`);
  });

  it("keeps ChatMessage's error as the cause", () => {
    const error = definitionErrorOf(() => scriptedChatGeneratorFromDefinition({ script: [{ role: "user" }] }, ["agent", "chatGenerator", "options"]));

    expect(error.path).toEqual(["agent", "chatGenerator", "options", "script", 0]);
    expect(error.cause).toBeInstanceOf(ConfigurationError);
  });
});
