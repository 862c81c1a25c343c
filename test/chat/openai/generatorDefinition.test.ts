import OpenAI from "openai";
import { ChatMessage, ConfigurationError, DefinitionError } from "toolwright";
import {
  OpenAIChatGenerator,
  type OpenAIChatGeneratorOptions,
  openaiChatGeneratorFromDefinition,
  OpenAIResponsesChatGenerator,
  openaiResponsesChatGeneratorFromDefinition,
} from "toolwright/openai";
import { jsonReply } from "../../helpers/mockOpenAIServer";
import { responsesJson } from "../../helpers/mockResponses";
import { request, specOf, thrownBy, useMockServer, weatherTool } from "./openaiTestKit";

const server = useMockServer();

const at = ["chatGenerator", "options"] as const;
const keyVariable = "TOOLWRIGHT_DEFINITION_TEST_KEY";
const chatOptionList = "model, apiKey, baseURL, organization, generationKwargs, timeout, maxRetries, maxRetryDelayMs, deadlineMs, streamIdleTimeoutMs, toolsStrict";
const responsesOptionList = `${chatOptionList}, store, includeEncryptedReasoning`;

const savedEnv = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  process.env[keyVariable] = "sk-from-named-variable";
});
afterEach(() => {
  delete process.env[keyVariable];
  for (const [name, value] of [["OPENAI_API_KEY", savedEnv.key], ["OPENAI_BASE_URL", savedEnv.baseURL]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function definitionErrorOf(fn: () => unknown): DefinitionError {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(DefinitionError);
  return error as DefinitionError;
}

function fromDefinition(options: unknown): OpenAIChatGenerator {
  return openaiChatGeneratorFromDefinition(options, at);
}

// Every option given, in an order unlike toJSON's.
function everyOption(): OpenAIChatGeneratorOptions {
  return {
    toolsStrict: false,
    streamIdleTimeoutMs: 30_000,
    deadlineMs: 90_000,
    maxRetryDelayMs: 5_000,
    maxRetries: 0,
    timeout: 20_000,
    generationKwargs: { temperature: 0.2, max_tokens: 50, stop: ["\n\n"], metadata: { team: "support" } },
    organization: "org-42",
    baseURL: server.baseURL,
    apiKeyEnv: keyVariable,
    model: "test-model",
  };
}

describe("OpenAIChatGenerator apiKeyEnv", () => {
  it("sends the named environment variable's value as the bearer token", async () => {
    server.enqueue(jsonReply({ text: "ok" }));

    await new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: keyVariable, baseURL: server.baseURL, maxRetries: 0 }).run(request());

    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-named-variable");
  });

  it("reads the variable when the generator is built", async () => {
    const generator = new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: keyVariable, baseURL: server.baseURL, maxRetries: 0 });
    process.env[keyVariable] = "sk-changed-later";
    server.enqueue(jsonReply({ text: "ok" }));

    await generator.run(request());

    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-named-variable");
  });

  it("throws ConfigurationError when the named variable is not set, even with a baseURL", () => {
    const error = thrownBy(() => new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: "TOOLWRIGHT_UNSET_VARIABLE", baseURL: server.baseURL }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).subject).toBe("OpenAIChatGenerator");
    expect(error.message).toBe(
      "OpenAIChatGenerator reads its API key from the environment variable TOOLWRIGHT_UNSET_VARIABLE, which is not set; set TOOLWRIGHT_UNSET_VARIABLE, or name the variable that holds the key.",
    );
  });

  it("treats a variable set to the empty string as not set", () => {
    process.env[keyVariable] = "";

    const error = thrownBy(() => new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: keyVariable }));

    expect(error.message).toBe(`OpenAIChatGenerator reads its API key from the environment variable ${keyVariable}, which is not set; set ${keyVariable}, or name the variable that holds the key.`);
  });

  it("does not read Object.prototype through a variable named constructor or __proto__", () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const error = thrownBy(() => new OpenAIResponsesChatGenerator({ model: "test-model", apiKeyEnv: name }));

      expect(error.message).toBe(`OpenAIResponsesChatGenerator reads its API key from the environment variable ${name}, which is not set; set ${name}, or name the variable that holds the key.`);
    }
  });

  it("throws ConfigurationError for both apiKey and apiKeyEnv", () => {
    const error = thrownBy(() => new OpenAIChatGenerator({ model: "test-model", apiKey: "sk-given", apiKeyEnv: keyVariable }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe("OpenAIChatGenerator was given both apiKey and apiKeyEnv; pass one: apiKeyEnv names the environment variable that holds the key, apiKey is the key itself.");
  });

  it.each([
    ["sk-proj-abc123", "a string that is not a variable name"],
    ["", "a string that is not a variable name"],
    [42, "number 42"],
  ])("throws ConfigurationError for apiKeyEnv %p, without echoing a string", (value, got) => {
    const error = thrownBy(() => new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: value as string }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      `OpenAIChatGenerator needs apiKeyEnv to be the name of an environment variable (letters, digits and underscores, not starting with a digit), e.g. apiKeyEnv: "OPENAI_API_KEY", got ${got}.`,
    );
  });

  it("ignores apiKeyEnv with a ready client, as it ignores apiKey", () => {
    const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL });

    expect(new OpenAIChatGenerator({ model: "test-model", client, apiKeyEnv: "TOOLWRIGHT_UNSET_VARIABLE" }).client).toBe(client);
  });
});

describe("OpenAIChatGenerator.toJSON", () => {
  it("writes the model, the key's variable and every given option, in a fixed order", () => {
    const definition = new OpenAIChatGenerator(everyOption()).toJSON();

    expect(definition).toEqual({
      type: "OpenAIChatGenerator",
      options: {
        model: "test-model",
        apiKey: { env: keyVariable },
        baseURL: server.baseURL,
        organization: "org-42",
        generationKwargs: { temperature: 0.2, max_tokens: 50, stop: ["\n\n"], metadata: { team: "support" } },
        timeout: 20_000,
        maxRetries: 0,
        maxRetryDelayMs: 5_000,
        deadlineMs: 90_000,
        streamIdleTimeoutMs: 30_000,
        toolsStrict: false,
      },
    });
    expect(Object.keys(definition.options!)).toEqual(chatOptionList.split(", "));
  });

  it("writes only the model and apiKey: { env: OPENAI_API_KEY } when nothing else was given, leaving OPENAI_BASE_URL to the loader", () => {
    process.env.OPENAI_API_KEY = "sk-from-env";
    process.env.OPENAI_BASE_URL = server.baseURL;

    const definition = new OpenAIChatGenerator({ model: "gpt-4o-mini" }).toJSON();

    expect(definition).toEqual({ type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", apiKey: { env: "OPENAI_API_KEY" } } });
    expect(JSON.stringify(definition)).not.toContain("sk-from-env");
  });

  it("writes generationKwargs as they were when the generator was built, as a copy", () => {
    const generationKwargs: Record<string, unknown> = { temperature: 0, response: { nested: [1, undefined] }, dropped: undefined };
    const generator = new OpenAIChatGenerator({ model: "test-model", baseURL: server.baseURL, generationKwargs });
    generationKwargs.temperature = 1;

    const options = generator.toJSON().options!;
    expect(options.generationKwargs).toEqual({ temperature: 0, response: { nested: [1, null] } });
    (options.generationKwargs as { temperature: number }).temperature = 2;

    expect(generator.toJSON().options!.generationKwargs).toEqual({ temperature: 0, response: { nested: [1, null] } });
  });

  it("throws DefinitionError for an API key given as a value, without the key in the message", () => {
    const error = definitionErrorOf(() => new OpenAIChatGenerator({ model: "test-model", apiKey: "sk-secret-value-123" }).toJSON());

    expect(error.path).toEqual(["chatGenerator", "options", "apiKey"]);
    expect(error.message).toBe(
      `chatGenerator.options.apiKey: is OpenAIChatGenerator's API key given as a value, and a definition never holds secrets; build the generator with apiKeyEnv: "NAME" (the environment variable that holds the key), or leave apiKey out to read OPENAI_API_KEY.`,
    );
  });

  it("throws DefinitionError for a ready client", () => {
    const client = new OpenAI({ apiKey: "sk-client", baseURL: server.baseURL });

    const error = definitionErrorOf(() => new OpenAIChatGenerator({ model: "test-model", client }).toJSON());

    expect(error.path).toEqual(["chatGenerator", "options", "client"]);
    expect(error.message).toBe(
      "chatGenerator.options.client: is a ready OpenAI client given to OpenAIChatGenerator, which has no data form; build the generator from connection options (apiKeyEnv, baseURL, organization, timeout, maxRetries) instead, or name it through registry.chatGenerators.",
    );
  });

  it.each([
    [{ logit_bias: () => 1 }, "chatGenerator.options.generationKwargs.logit_bias: is a function, which has no JSON form"],
    [{ metadata: { since: new Date(0) } }, "chatGenerator.options.generationKwargs.metadata.since: is a Date, which has no JSON form"],
    [{ stop: ["a", Number.NaN] }, "chatGenerator.options.generationKwargs.stop[1]: is number NaN, which has no JSON form"],
    [{ seed: 1n }, "chatGenerator.options.generationKwargs.seed: is bigint 1n, which has no JSON form"],
    [{ "max tokens": new Map() }, 'chatGenerator.options.generationKwargs["max tokens"]: is a Map, which has no JSON form'],
  ])("throws DefinitionError for generationKwargs %p that are not JSON data", (generationKwargs, start) => {
    const error = definitionErrorOf(() => new OpenAIChatGenerator({ model: "test-model", baseURL: server.baseURL, generationKwargs }).toJSON());

    expect(error.message).toBe(`${start}; give JSON data (strings, finite numbers, true or false, null, arrays and plain objects).`);
  });

  it("throws DefinitionError for generationKwargs that contain themselves", () => {
    const metadata: Record<string, unknown> = {};
    metadata.self = metadata;

    const error = definitionErrorOf(() => new OpenAIChatGenerator({ model: "test-model", baseURL: server.baseURL, generationKwargs: { metadata } }).toJSON());

    expect(error.path.slice(0, 4)).toEqual(["chatGenerator", "options", "generationKwargs", "metadata"]);
    expect(error.reason).toBe("nests deeper than 64 levels (or contains itself), past the limit; give plain JSON data.");
  });
});

describe("OpenAIResponsesChatGenerator.toJSON", () => {
  it("writes store and includeEncryptedReasoning after the connection options", () => {
    const generator = new OpenAIResponsesChatGenerator({ includeEncryptedReasoning: false, store: true, model: "gpt-5-mini", apiKeyEnv: keyVariable, maxRetries: 1 });

    expect(generator.toJSON()).toEqual({
      type: "OpenAIResponsesChatGenerator",
      options: { model: "gpt-5-mini", apiKey: { env: keyVariable }, maxRetries: 1, store: true, includeEncryptedReasoning: false },
    });
    expect(Object.keys(generator.toJSON().options!)).toEqual(["model", "apiKey", "maxRetries", "store", "includeEncryptedReasoning"]);
  });

  it("throws DefinitionError for an API key given as a value", () => {
    const error = definitionErrorOf(() => new OpenAIResponsesChatGenerator({ model: "gpt-5-mini", apiKey: "sk-secret" }).toJSON());

    expect(error.message).toBe(
      `chatGenerator.options.apiKey: is OpenAIResponsesChatGenerator's API key given as a value, and a definition never holds secrets; build the generator with apiKeyEnv: "NAME" (the environment variable that holds the key), or leave apiKey out to read OPENAI_API_KEY.`,
    );
  });
});

describe("openaiChatGeneratorFromDefinition", () => {
  it("builds a generator that sends the identical request, read back from the definition's JSON text", async () => {
    const original = new OpenAIChatGenerator(everyOption());
    const text = JSON.stringify(original.toJSON());
    const rebuilt = fromDefinition(JSON.parse(text).options);
    const conversation = request({ messages: [ChatMessage.fromSystem("Be brief."), ChatMessage.fromUser("Weather in Paris?")], tools: [specOf(weatherTool)], generationKwargs: { top_p: 0.5 } });
    server.enqueue(jsonReply({ text: "Sunny." }), jsonReply({ text: "Sunny." }));

    const first = await original.run(conversation);
    const second = await rebuilt.run(conversation);

    expect(rebuilt).toBeInstanceOf(OpenAIChatGenerator);
    expect(second).toEqual(first);
    const [sent, resent] = server.requests;
    expect(resent!.url).toBe(sent!.url);
    expect(resent!.body).toEqual(sent!.body);
    expect(resent!.headers).toEqual(sent!.headers);
    expect(resent!.headers.authorization).toBe("Bearer sk-from-named-variable");
    expect(resent!.headers["openai-organization"]).toBe("org-42");
    expect(resent!.body.tools[0].function).not.toHaveProperty("strict");
    expect(rebuilt.toJSON()).toEqual(original.toJSON());
  });

  it("reads the key's variable when the definition is loaded", async () => {
    const definition = new OpenAIChatGenerator({ model: "test-model", apiKeyEnv: keyVariable, baseURL: server.baseURL, maxRetries: 0 }).toJSON();
    process.env[keyVariable] = "sk-where-loaded";
    server.enqueue(jsonReply({ text: "ok" }));

    await fromDefinition(definition.options).run(request());

    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-where-loaded");
  });

  it("reads OPENAI_API_KEY and OPENAI_BASE_URL again where the definition is loaded when the generator took them from the environment", async () => {
    process.env.OPENAI_API_KEY = "sk-where-written";
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:1/v1";
    const options = new OpenAIChatGenerator({ model: "test-model", maxRetries: 0 }).toJSON().options;
    process.env.OPENAI_API_KEY = "sk-where-loaded";
    process.env.OPENAI_BASE_URL = server.baseURL;
    server.enqueue(jsonReply({ text: "ok" }));

    await fromDefinition(options).run(request());

    expect(options).toEqual({ model: "test-model", apiKey: { env: "OPENAI_API_KEY" }, maxRetries: 0 });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-where-loaded");
  });

  it("needs no key for apiKey: { env: OPENAI_API_KEY } with a baseURL, as the generator without a key does", () => {
    const generator = fromDefinition({ model: "llama3.1", apiKey: { env: "OPENAI_API_KEY" }, baseURL: server.baseURL });

    expect(generator.model).toBe("llama3.1");
  });

  it("keeps a __proto__ key of generationKwargs as data, sending it without touching Object.prototype", async () => {
    const options = JSON.parse(`{ "model": "test-model", "baseURL": "${server.baseURL}", "maxRetries": 0, "generationKwargs": { "__proto__": { "polluted": true } } }`);
    server.enqueue(jsonReply({ text: "ok" }));

    await fromDefinition(options).run(request());

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(server.requests[0]!.body, "__proto__")).toBe(true);
  });

  it.each([
    [null, "chatGenerator.options: must be an object of OpenAIChatGenerator options, e.g. { model: \"gpt-4o-mini\" }, got null."],
    [undefined, "chatGenerator.options: must be an object of OpenAIChatGenerator options, e.g. { model: \"gpt-4o-mini\" }, got undefined."],
    [["gpt-4o-mini"], "chatGenerator.options: must be an object of OpenAIChatGenerator options, e.g. { model: \"gpt-4o-mini\" }, got an array."],
    [{}, 'chatGenerator.options.model: is missing; give the model OpenAIChatGenerator calls, e.g. model: "gpt-4o-mini".'],
    [{ model: "" }, 'chatGenerator.options.model: must be a non-empty string, e.g. model: "gpt-4o-mini", got string "".'],
    [{ model: 4 }, 'chatGenerator.options.model: must be a non-empty string, e.g. model: "gpt-4o-mini", got number 4.'],
    [{ model: "m", baseURL: 8080 }, 'chatGenerator.options.baseURL: must be a string, e.g. baseURL: "http://localhost:11434/v1", got number 8080.'],
    [{ model: "m", organization: null }, 'chatGenerator.options.organization: must be a string, e.g. organization: "org-123", got null.'],
    [{ model: "m", generationKwargs: [] }, "chatGenerator.options.generationKwargs: must be an object, e.g. generationKwargs: { temperature: 0 }, got an array."],
    [{ model: "m", timeout: "5000" }, 'chatGenerator.options.timeout: must be a number, e.g. timeout: 600000, got string "5000".'],
    [{ model: "m", maxRetries: true }, "chatGenerator.options.maxRetries: must be a number, e.g. maxRetries: 2, got boolean true."],
    [{ model: "m", toolsStrict: "false" }, 'chatGenerator.options.toolsStrict: must be true or false, e.g. toolsStrict: true, got string "false".'],
  ])("throws DefinitionError for options %p", (options, message) => {
    expect(definitionErrorOf(() => fromDefinition(options)).message).toBe(message);
  });

  it.each([
    ["api_key", "apiKey"],
    ["api_base_url", "baseURL"],
    ["base_url", "baseURL"],
    ["baseUrl", "baseURL"],
    ["generation_kwargs", "generationKwargs"],
    ["max_retries", "maxRetries"],
    ["tools_strict", "toolsStrict"],
    ["modl", "model"],
    ["organisation", "organization"],
    ["max_retry_delay_ms", "maxRetryDelayMs"],
    ["deadline", "deadlineMs"],
    ["apiKeyEnv", 'apiKey: { env: "NAME" }'],
  ])("throws DefinitionError for the unknown option %s, suggesting %s", (key, suggestion) => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", [key]: 1 }));

    expect(error.path).toEqual(["chatGenerator", "options", key]);
    expect(error.message).toBe(`chatGenerator.options.${key}: is not an option of OpenAIChatGenerator; did you mean ${suggestion}? Known options: ${chatOptionList}.`);
  });

  it.each(["temperature", "streaming_callback", "constructor", "__proto__", "hasOwnProperty"])("throws DefinitionError for the unknown option %s as its own key only", (key) => {
    const options = JSON.parse(`{ "model": "test-model", ${JSON.stringify(key)}: {} }`);

    const error = definitionErrorOf(() => fromDefinition(options));

    expect(error.path).toEqual(["chatGenerator", "options", key]);
    expect(error.message).toBe(`chatGenerator.options.${key}: is not an option of OpenAIChatGenerator; remove it. Known options: ${chatOptionList}.`);
  });

  it("throws DefinitionError for a client", () => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", client: {} }));

    expect(error.message).toBe(
      'chatGenerator.options.client: is not allowed: a ready OpenAI client has no data form; give the connection options (apiKey: { env: "NAME" }, baseURL, organization, timeout, maxRetries) instead, or name the generator through registry.chatGenerators.',
    );
  });

  it("throws DefinitionError for an API key written as a string, without echoing it", () => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", apiKey: "sk-live-do-not-print" }));

    expect(error.path).toEqual(["chatGenerator", "options", "apiKey"]);
    expect(error.message).toBe(
      'chatGenerator.options.apiKey: is the key itself, and a definition names secrets by environment variable only: apiKey: { env: "OPENAI_API_KEY" }; take the key out of the definition (and rotate it if the definition was shared).',
    );
  });

  it.each([
    [{ apiKey: 42 }, 'chatGenerator.options.apiKey: must name the environment variable that holds the key, e.g. apiKey: { env: "OPENAI_API_KEY" }, got a number.'],
    [{ apiKey: ["sk-in-array"] }, 'chatGenerator.options.apiKey: must name the environment variable that holds the key, e.g. apiKey: { env: "OPENAI_API_KEY" }, got an array.'],
    [{ apiKey: null }, 'chatGenerator.options.apiKey: must name the environment variable that holds the key, e.g. apiKey: { env: "OPENAI_API_KEY" }, got null.'],
    [{ apiKey: {} }, 'chatGenerator.options.apiKey.env: is missing; name the environment variable that holds the key, e.g. apiKey: { env: "OPENAI_API_KEY" }.'],
    [
      { apiKey: { env: keyVariable, value: "sk-extra" } },
      'chatGenerator.options.apiKey.value: is not a field of apiKey; apiKey has the one field env, the environment variable that holds the key: apiKey: { env: "OPENAI_API_KEY" }.',
    ],
    [
      { apiKey: { env: "sk-proj-pasted-key" } },
      'chatGenerator.options.apiKey.env: must be the name of an environment variable (letters, digits and underscores, not starting with a digit), e.g. apiKey: { env: "OPENAI_API_KEY" }, got a string that is not a variable name.',
    ],
    [
      { apiKey: { env: 7 } },
      'chatGenerator.options.apiKey.env: must be the name of an environment variable (letters, digits and underscores, not starting with a digit), e.g. apiKey: { env: "OPENAI_API_KEY" }, got a number.',
    ],
    [
      { apiKey: { env: "TOOLWRIGHT_UNSET_VARIABLE" } },
      "chatGenerator.options.apiKey.env: OpenAIChatGenerator reads its API key from the environment variable TOOLWRIGHT_UNSET_VARIABLE, which is not set; set TOOLWRIGHT_UNSET_VARIABLE, or name the variable that holds the key.",
    ],
  ])("throws DefinitionError for the apiKey of %p", (apiKey, message) => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", ...apiKey }));

    expect(error.message).toBe(message);
    expect(error.message).not.toMatch(/sk-/);
  });

  it.each([
    [{ timeout: 0 }, "chatGenerator.options.timeout: OpenAIChatGenerator needs timeout to be a number of milliseconds greater than 0 and at most 2147483647, e.g. timeout: 600000, got number 0."],
    [{ maxRetries: 1.5 }, "chatGenerator.options.maxRetries: OpenAIChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got number 1.5."],
    [{ maxRetryDelayMs: -1 }, "chatGenerator.options.maxRetryDelayMs: OpenAIChatGenerator needs maxRetryDelayMs to be a number of milliseconds from 0 to 2147483647, e.g. maxRetryDelayMs: 60000, got number -1."],
    [
      { deadlineMs: 1e300 },
      "chatGenerator.options.deadlineMs: OpenAIChatGenerator needs deadlineMs to be a number of milliseconds greater than 0 and at most 2147483647, e.g. deadlineMs: 600000, got number 1e+300.",
    ],
  ])("throws the constructor's ConfigurationError for %p as a DefinitionError at the option", (option, message) => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", baseURL: server.baseURL, ...option }));

    expect(error.message).toBe(message);
    expect(error.cause).toBeInstanceOf(ConfigurationError);
  });

  it("throws the constructor's missing-key error at apiKey when neither a key nor a baseURL is there", () => {
    const error = definitionErrorOf(() => fromDefinition({ model: "test-model" }));

    expect(error.message).toBe(
      "chatGenerator.options.apiKey: OpenAIChatGenerator needs an API key: pass apiKey or set OPENAI_API_KEY; for a local OpenAI-compatible server, pass baseURL (or set OPENAI_BASE_URL) instead.",
    );
  });

  it("throws DefinitionError at the path of generationKwargs nested too deep", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];

    const error = definitionErrorOf(() => fromDefinition({ model: "test-model", baseURL: server.baseURL, generationKwargs: { stop: deep } }));

    expect(error.path).toEqual(["chatGenerator", "options", "generationKwargs", "stop", ...Array<number>(63).fill(0)]);
    expect(error.reason).toBe("nests deeper than 64 levels (or contains itself), past the limit; give plain JSON data.");
  });

  it("locates errors under any path it is given", () => {
    const error = definitionErrorOf(() => openaiChatGeneratorFromDefinition({ model: "m", timeout: "1" }, ["agents", 2, "chatGenerator", "options"]));

    expect(error.path).toEqual(["agents", 2, "chatGenerator", "options", "timeout"]);
    expect(error.message).toBe('agents[2].chatGenerator.options.timeout: must be a number, e.g. timeout: 600000, got string "1".');
  });
});

describe("openaiResponsesChatGeneratorFromDefinition", () => {
  it("builds a generator that sends the identical request", async () => {
    const original = new OpenAIResponsesChatGenerator({ ...everyOption(), model: "gpt-5-mini", store: true, includeEncryptedReasoning: false, generationKwargs: { reasoning: { effort: "low" } } });
    const rebuilt = openaiResponsesChatGeneratorFromDefinition(JSON.parse(JSON.stringify(original.toJSON())).options, at);
    server.enqueue(responsesJson({ text: "Sunny." }), responsesJson({ text: "Sunny." }));

    await original.run(request({ tools: [specOf(weatherTool)] }));
    await rebuilt.run(request({ tools: [specOf(weatherTool)] }));

    expect(rebuilt).toBeInstanceOf(OpenAIResponsesChatGenerator);
    const [sent, resent] = server.requests;
    expect(resent!.url).toBe("/v1/responses");
    expect(resent!.body).toEqual(sent!.body);
    expect(resent!.headers).toEqual(sent!.headers);
    expect(resent!.body.store).toBe(true);
    expect(resent!.body.include).toBeUndefined();
    expect(resent!.headers.authorization).toBe("Bearer sk-from-named-variable");
  });

  it.each([
    [{ store: "no" }, 'chatGenerator.options.store: must be true or false, e.g. store: false, got string "no".'],
    [{ include_encrypted_reasoning: false }, `chatGenerator.options.include_encrypted_reasoning: is not an option of OpenAIResponsesChatGenerator; did you mean includeEncryptedReasoning? Known options: ${responsesOptionList}.`],
    [
      { generationKwargs: { conversation: "conv_1" } },
      "chatGenerator.options.generationKwargs.conversation: OpenAIResponsesChatGenerator sends the whole conversation on every call, so generationKwargs.conversation would send a stored one with it; leave conversation out.",
    ],
    [{ model: 5 }, 'chatGenerator.options.model: must be a non-empty string, e.g. model: "gpt-5-mini", got number 5.'],
  ])("throws DefinitionError for %p", (option, message) => {
    const error = definitionErrorOf(() => openaiResponsesChatGeneratorFromDefinition({ model: "gpt-5-mini", baseURL: server.baseURL, ...option }, at));

    expect(error.message).toBe(message);
  });
});
