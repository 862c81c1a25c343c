// No entry point is imported here, only the definition module: no integration has registered its
// generator types until the test imports its entry.
import { chatGeneratorFromDefinition, type DefinitionTrust } from "../../src/definition/chatGeneratorDefinition";
import { DefinitionError } from "../../src/errors";
import { thrownError } from "../helpers/thrownError";

const trust: DefinitionTrust = { allowedEnv: ["TW_TEST_DEFINITION_KEY"], allowedBaseURLs: [] };

const definitionErrorOf = (fn: () => unknown): DefinitionError => thrownError(fn, DefinitionError);

beforeAll(() => {
  process.env.TW_TEST_DEFINITION_KEY = "sk-test-definition";
});

afterAll(() => {
  delete process.env.TW_TEST_DEFINITION_KEY;
});

describe("chatGeneratorFromDefinition", () => {
  it("names the import to add for a generator type whose integration is not loaded", () => {
    const openai = definitionErrorOf(() => chatGeneratorFromDefinition({ type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini" } }, {}, trust));
    expect(openai.path).toEqual(["chatGenerator", "type"]);
    expect(openai.message).toBe(
      'chatGenerator.type: names chat generator \'OpenAIChatGenerator\', whose integration is not loaded; import "toolwright/openai" before reading the definition, or register the type in registry.chatGenerators.',
    );
    const fallback = definitionErrorOf(() => chatGeneratorFromDefinition({ type: "FallbackChatGenerator", options: { generators: [] } }, {}, trust));
    expect(fallback.message).toBe(
      'chatGenerator.type: names chat generator \'FallbackChatGenerator\', whose integration is not loaded; import "toolwright" before reading the definition, or register the type in registry.chatGenerators.',
    );
    const scripted = definitionErrorOf(() => chatGeneratorFromDefinition({ type: "ScriptedChatGenerator", options: { script: [] } }, {}, trust, false));
    expect(scripted.message).toBe(
      'chatGenerator.type: names chat generator \'ScriptedChatGenerator\', whose integration is not loaded; import "toolwright/testing" before reading the definition, or register the type in registry.chatGenerators.',
    );
  });

  it("says no type is loaded for an unknown type", () => {
    const error = definitionErrorOf(() => chatGeneratorFromDefinition({ type: "constructor" }, {}, trust));

    expect(error.message).toBe("chatGenerator.type: names chat generator 'constructor', which is neither built in (none loaded) nor in registry.chatGenerators; fix the type or register it. Registered: none.");
  });

  it("reads a generator type once its integration's entry is imported", async () => {
    const { ScriptedChatGenerator } = await import("../../src/testing");
    const { OpenAIChatGenerator } = await import("../../src/chat/openai");

    expect(chatGeneratorFromDefinition({ type: "ScriptedChatGenerator", options: { script: [] } }, {}, trust)).toBeInstanceOf(ScriptedChatGenerator);
    const openai = chatGeneratorFromDefinition({ type: "OpenAIResponsesChatGenerator", options: { model: "gpt-4o-mini", apiKey: { env: "TW_TEST_DEFINITION_KEY" } } }, {}, trust);
    expect(openai.constructor.name).toBe("OpenAIResponsesChatGenerator");
    expect(chatGeneratorFromDefinition({ type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", apiKey: { env: "TW_TEST_DEFINITION_KEY" } } }, {}, trust)).toBeInstanceOf(OpenAIChatGenerator);
  });
});
