import { Agent, ChatMessage, DefinitionError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { chatGeneratorType, chatGeneratorTypeNames, registerChatGeneratorType } from "../../src/chat/chatGeneratorTypes";
import { thrownError } from "../helpers/thrownError";

// A generator type as an integration would register it: one reply, given in the definition's options.
registerChatGeneratorType("CannedChatGenerator", {
  apiKeyEnv: "TW_TEST_CANNED_KEY",
  fromDefinition: (options, path) => {
    const reply = (options as { reply?: unknown }).reply;
    if (typeof reply !== "string") throw new DefinitionError([...path, "reply"], "must be the reply's text.");
    return new ScriptedChatGenerator([ChatMessage.fromAssistant(reply)]);
  },
});

const definition = (options: Record<string, unknown>) => ({ version: 1, chatGenerator: { type: "CannedChatGenerator", options } });

const definitionErrorOf = (fn: () => unknown): DefinitionError => thrownError(fn, DefinitionError);

afterEach(() => {
  delete process.env.TW_TEST_CANNED_KEY;
});

describe("registerChatGeneratorType", () => {
  it("lets a definition name the type, built from its options", async () => {
    const agent = Agent.fromJSON(definition({ reply: "Canned hello." }));

    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });

    expect(result.lastMessage.text).toBe("Canned hello.");
  });

  it("locates the problems its reader finds in the definition's options", () => {
    const error = definitionErrorOf(() => Agent.fromJSON(definition({ reply: 42 })));

    expect(error.message).toBe("chatGenerator.options.reply: must be the reply's text.");
  });

  it("needs the type's API key variable allowed when the definition gives no apiKey", async () => {
    process.env.TW_TEST_CANNED_KEY = "secret";

    const error = definitionErrorOf(() => Agent.fromJSON(definition({ reply: "Hi." })));
    expect(error.message).toBe(
      'chatGenerator.options: has no apiKey, so the generator would read TW_TEST_CANNED_KEY, which the app has not allowed a definition to read; name an allowed variable (apiKey: { env: "NAME" }), or allow TW_TEST_CANNED_KEY with fromJSON(data, { allowedEnv: [...] }). Allowed: OPENAI_API_KEY.',
    );
    const allowed = Agent.fromJSON(definition({ reply: "Allowed." }), { allowedEnv: ["TW_TEST_CANNED_KEY"] });
    expect((await allowed.run({ messages: [ChatMessage.fromUser("Hi")] })).lastMessage.text).toBe("Allowed.");
  });

  it("lists the registered types, sorted, for a type no one registered", () => {
    const error = definitionErrorOf(() => Agent.fromJSON({ version: 1, chatGenerator: { type: "CannedChatGenerater" } }));

    expect(error.message).toBe(
      "chatGenerator.type: names chat generator 'CannedChatGenerater', which is neither built in (CannedChatGenerator, FallbackChatGenerator, OpenAIChatGenerator, OpenAIResponsesChatGenerator, ScriptedChatGenerator) nor in registry.chatGenerators; fix the type or register it. Registered: none.",
    );
  });

  it("prefers a registry.chatGenerators entry of the same name", async () => {
    const agent = Agent.fromJSON(definition({ reply: "ignored" }), { registry: { chatGenerators: { CannedChatGenerator: () => new ScriptedChatGenerator([ChatMessage.fromAssistant("From the registry.")]) } } });

    expect((await agent.run({ messages: [ChatMessage.fromUser("Hi")] })).lastMessage.text).toBe("From the registry.");
  });
});

describe("chatGeneratorTypeNames", () => {
  it("names the types the root entry registers, and finds nothing for an inherited name", () => {
    expect(chatGeneratorTypeNames()).toEqual(["CannedChatGenerator", "FallbackChatGenerator", "OpenAIChatGenerator", "OpenAIResponsesChatGenerator", "ScriptedChatGenerator"]);
    expect(chatGeneratorType("constructor")).toBeUndefined();
  });
});
