import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentRegistry, ChatGeneratorError, ChatMessage, DefinitionError, FallbackChatGenerator, type ModelEndEvent } from "toolwright";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";
import { ScriptedChatGenerator } from "toolwright/testing";
import { agentToYaml, loadAgent, parseAgent } from "toolwright/yaml";
import { errorReply, jsonReply, MockOpenAIServer } from "../helpers/mockOpenAIServer";
import { responsesJson } from "../helpers/mockResponses";
import { thrownError } from "../helpers/thrownError";

// Two local servers: the primary answers 429 on purpose, the backup answers.
const primary = new MockOpenAIServer();
const backup = new MockOpenAIServer();
let dir: string;
beforeAll(async () => {
  await primary.start();
  await backup.start();
  dir = mkdtempSync(join(tmpdir(), "tw-fallback-definition-"));
  process.env.TW_FALLBACK_KEY = "sk-fallback-test";
});
afterAll(async () => {
  await primary.close();
  await backup.close();
  rmSync(dir, { recursive: true, force: true });
  delete process.env.TW_FALLBACK_KEY;
});
beforeEach(() => {
  primary.reset();
  backup.reset();
});

const key = { env: "TW_FALLBACK_KEY" };
const trust = () => ({ allowedEnv: ["TW_FALLBACK_KEY"], allowedBaseURLs: [primary.baseURL, backup.baseURL] });
const fallback = (generators: unknown, extra: Record<string, unknown> = {}) => ({ version: 1, chatGenerator: { type: "FallbackChatGenerator", options: { generators, ...extra } } });
const scripted = (text: string) => ({ type: "ScriptedChatGenerator", options: { script: [ChatMessage.fromAssistant(text).toJSON()] } });
const nested = (levels: number, inner: unknown): unknown => (levels === 0 ? inner : { type: "FallbackChatGenerator", options: { generators: [nested(levels - 1, inner)] } });
const definitionErrorOf = (fn: () => unknown): DefinitionError => thrownError(fn, DefinitionError);
const rateLimited = () => errorReply(429, "Rate limit reached for gpt-4o-mini in organization org-x on requests per min (RPM): Limit 3, Used 3.", "requests", "rate_limit_exceeded");

describe("FallbackChatGenerator as data", () => {
  it("runs a definition whose first OpenAIChatGenerator answers 429 and falls back to the second over HTTP", async () => {
    primary.enqueue(rateLimited());
    backup.enqueue(jsonReply({ model: "backup-model", text: "Lamps are in stock.", usage: { promptTokens: 12, completionTokens: 5 } }));
    const events: ModelEndEvent[] = [];
    const data = fallback([
      { type: "OpenAIChatGenerator", options: { model: "primary-model", apiKey: key, baseURL: primary.baseURL, maxRetries: 0 } },
      { type: "OpenAIChatGenerator", options: { model: "backup-model", apiKey: key, baseURL: backup.baseURL, maxRetries: 0 } },
    ]);
    const agent = Agent.fromJSON(data, { ...trust(), hooks: { onModelEnd: (event) => void events.push(event) } });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Are lamps in stock?")] });

    expect(result.lastMessage.text).toBe("Lamps are in stock.");
    expect(primary.requests).toHaveLength(1);
    expect(primary.requests[0]!.headers.authorization).toBe("Bearer sk-fallback-test");
    expect(backup.requests).toHaveLength(1);
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 5, modelCalls: 1 });
    expect(events.map((e) => [e.model, e.responseModel])).toEqual([["primary-model", "backup-model"]]);
  });

  it("mixes generator types: a 429 from Chat Completions falls back to the Responses API", async () => {
    primary.enqueue(rateLimited());
    backup.enqueue(responsesJson({ text: "From the Responses backup." }));
    const agent = Agent.fromJSON(
      fallback([
        { type: "OpenAIChatGenerator", options: { model: "primary-model", apiKey: key, baseURL: primary.baseURL, maxRetries: 0 } },
        { type: "OpenAIResponsesChatGenerator", options: { model: "backup-model", apiKey: key, baseURL: backup.baseURL, maxRetries: 0 } },
      ]),
      trust(),
    );

    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });

    expect(result.lastMessage.text).toBe("From the Responses backup.");
    expect(backup.requests.map((r) => r.url)).toEqual(["/v1/responses"]);
  });

  it("refuses a baseURL the app has not allowed on the second generator, at its path", () => {
    const data = fallback([
      { type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", apiKey: key, baseURL: primary.baseURL } },
      { type: "OpenAIResponsesChatGenerator", options: { model: "gpt-4o", apiKey: key, baseURL: "https://evil.example/v1" } },
    ]);

    const error = definitionErrorOf(() => Agent.fromJSON(data, trust()));

    expect(error.path).toEqual(["chatGenerator", "options", "generators", 1, "options", "baseURL"]);
    expect(error.message).toBe(
      `chatGenerator.options.generators[1].options.baseURL: is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: ${primary.baseURL}, ${backup.baseURL}.`,
    );
  });

  it("locates an inner generator's problem in a YAML file", () => {
    const text = ["version: 1", "chatGenerator:", "  type: FallbackChatGenerator", "  options:", "    generators:", "      - { type: OpenAIChatGenerator, options: { model: gpt-4o-mini, apiKey: { env: TW_FALLBACK_KEY } } }", '      - { type: OpenAIResponsesChatGenerator, options: { model: gpt-4o, baseURL: "https://evil.example/v1" } }', ""].join("\n");

    const error = definitionErrorOf(() => parseAgent(text, { file: "agent.yaml", allowedEnv: ["TW_FALLBACK_KEY"] }));

    expect(error.message).toBe(
      "agent.yaml:7:82: chatGenerator.options.generators[1].options.baseURL: is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: none.",
    );
  });

  it("refuses an inner generator's secret variable that is not allowed, and its implicit OPENAI_API_KEY read", () => {
    const env = definitionErrorOf(() => Agent.fromJSON(fallback([scripted("a"), { type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", apiKey: { env: "AWS_SECRET" } } }]), trust()));
    expect(env.message).toBe(
      "chatGenerator.options.generators[1].options.apiKey.env: names environment variable AWS_SECRET, which the app has not allowed a definition to read; allow it with fromJSON(data, { allowedEnv: [...] }). Allowed: TW_FALLBACK_KEY.",
    );

    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-the-environment";
    try {
      const implicit = definitionErrorOf(() => Agent.fromJSON(fallback([{ type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini" } }]), trust()));
      expect(implicit.message).toBe(
        'chatGenerator.options.generators[0].options: has no apiKey, so the generator would read OPENAI_API_KEY, which the app has not allowed a definition to read; name an allowed variable (apiKey: { env: "NAME" }), or allow OPENAI_API_KEY with fromJSON(data, { allowedEnv: [...] }). Allowed: TW_FALLBACK_KEY.',
      );
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("checks inner generators' trust rules when the app replaces the generator", () => {
    const data = fallback([scripted("a"), { type: "OpenAIChatGenerator", options: { model: "gpt-4o", apiKey: key, baseURL: "http://169.254.169.254/v1" } }]);

    const error = definitionErrorOf(() => Agent.fromJSON(data, { ...trust(), chatGenerator: new ScriptedChatGenerator([]) }));

    expect(error.message).toBe(
      `chatGenerator.options.generators[1].options.baseURL: is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: ${primary.baseURL}, ${backup.baseURL}.`,
    );
    const replacedEmpty = definitionErrorOf(() => Agent.fromJSON(fallback([]), { chatGenerator: new ScriptedChatGenerator([]) }));
    expect(replacedEmpty.message).toBe(
      "chatGenerator.options.generators: FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got an empty array.",
    );
  });

  it("refuses an empty, missing or non-array generators with the constructor's message", () => {
    const messages = [fallback([]), { version: 1, chatGenerator: { type: "FallbackChatGenerator" } }, fallback("gpt-4o")].map((data) => definitionErrorOf(() => Agent.fromJSON(data)).message);

    expect(messages).toEqual([
      "chatGenerator.options.generators: FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got an empty array.",
      "chatGenerator.options.generators: FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got undefined.",
      'chatGenerator.options.generators: FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got string "gpt-4o".',
    ]);
  });

  it("says shouldFallBack is code only, and refuses other options", () => {
    const policy = definitionErrorOf(() => Agent.fromJSON(fallback([scripted("a")], { shouldFallBack: "refusals" })));
    expect(policy.message).toBe(
      "chatGenerator.options.shouldFallBack: is code only (a function), which a definition cannot hold: the default policy (isTransientFailure) is used; for your own, build the FallbackChatGenerator in code and register it in registry.chatGenerators.",
    );
    const other = definitionErrorOf(() => Agent.fromJSON(fallback([scripted("a")], { retries: 2 })));
    expect(other.message).toBe("chatGenerator.options.retries: is not an option of FallbackChatGenerator; its one option in a definition is generators.");
  });

  it("checks each inner definition's shape and type as the top-level one's", () => {
    const messages = [
      fallback(["gpt-4o"]),
      fallback([scripted("a"), { options: { model: "gpt-4o" } }]),
      fallback([{ type: "OpenAIChatGenerator", model: "gpt-4o" }]),
      fallback([{ type: "OpenAIChatGenerator", options: ["gpt-4o"] }]),
      fallback([{ type: "GeminiChatGenerator" }]),
      fallback([{ type: "ScriptedChatGenerator", options: { script: "Hello." } }]),
    ].map((data) => definitionErrorOf(() => Agent.fromJSON(data)).message);

    expect(messages).toEqual([
      'chatGenerator.options.generators[0]: must be { type, options? }, got string "gpt-4o".',
      "chatGenerator.options.generators[1].type: is missing: it must be a name of 1 to 200 characters (a chat generator type: OpenAIChatGenerator, OpenAIResponsesChatGenerator, FallbackChatGenerator, ScriptedChatGenerator or a registry.chatGenerators name).",
      "chatGenerator.options.generators[0].model: is not a key of this mapping. Keys: type, options.",
      "chatGenerator.options.generators[0].options: must be a mapping of options, got an array.",
      "chatGenerator.options.generators[0].type: names chat generator 'GeminiChatGenerator', which is neither built in (FallbackChatGenerator, OpenAIChatGenerator, OpenAIResponsesChatGenerator, ScriptedChatGenerator) nor in registry.chatGenerators; fix the type or register it. Registered: none.",
      'chatGenerator.options.generators[0].options.script: must be an array with one entry per model call, each a ChatMessage JSON object or an array of them, e.g. script: [{ role: "assistant", content: [{ text: "Hello." }] }], got string "Hello.".',
    ]);
  });

  it("finds an inner generator in registry.chatGenerators first", async () => {
    const failing = new ScriptedChatGenerator([() => Promise.reject(new ChatGeneratorError("overloaded.", { status: 503 }))]);
    const registry: AgentRegistry = { chatGenerators: { primary: failing, backup: () => new ScriptedChatGenerator([ChatMessage.fromAssistant("From the registry's backup.")]) } };

    const agent = Agent.fromJSON(fallback([{ type: "primary" }, { type: "backup", options: {} }]), { registry });
    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });

    expect(result.lastMessage.text).toBe("From the registry's backup.");
    expect(failing.requests).toHaveLength(1);
  });

  it("reads fallbacks nested 3 deep and refuses a fourth level", async () => {
    const deep = Agent.fromJSON({ version: 1, chatGenerator: nested(3, scripted("Three levels down.")) });
    expect((await deep.run({ messages: [ChatMessage.fromUser("Hi")] })).lastMessage.text).toBe("Three levels down.");

    const error = definitionErrorOf(() => Agent.fromJSON({ version: 1, chatGenerator: nested(4, scripted("Too deep.")) }));
    expect(error.message).toBe(
      "chatGenerator.options.generators[0].options.generators[0].options.generators[0].options.generators[0]: is a chat generator inside 4 others; a definition nests chat generators at most 3 deep: list the generators in one FallbackChatGenerator instead.",
    );
  });
});

describe("FallbackChatGenerator.toJSON", () => {
  const openai = (model: string, baseURL: string) => new OpenAIChatGenerator({ model, apiKeyEnv: "TW_FALLBACK_KEY", baseURL, maxRetries: 0 });

  it("writes each inner generator's own data form", () => {
    const generator = new FallbackChatGenerator({ generators: [openai("primary-model", primary.baseURL), new OpenAIResponsesChatGenerator({ model: "backup-model", apiKeyEnv: "TW_FALLBACK_KEY" })] });

    expect(generator.toJSON()).toEqual({
      type: "FallbackChatGenerator",
      options: {
        generators: [
          { type: "OpenAIChatGenerator", options: { model: "primary-model", apiKey: key, baseURL: primary.baseURL, maxRetries: 0 } },
          { type: "OpenAIResponsesChatGenerator", options: { model: "backup-model", apiKey: key } },
        ],
      },
    });
    expect(JSON.parse(JSON.stringify({ generator }))).toEqual({ generator: generator.toJSON() });
  });

  it("round-trips through Agent.toJSON and fromJSON, and the rebuilt Agent falls back over HTTP", async () => {
    const agent = new Agent({ chatGenerator: new FallbackChatGenerator({ generators: [openai("primary-model", primary.baseURL), openai("backup-model", backup.baseURL)] }) });
    const definition = agent.toJSON();
    primary.enqueue(rateLimited());
    backup.enqueue(jsonReply({ text: "Rebuilt and answered." }));

    const rebuilt = Agent.fromJSON(JSON.parse(JSON.stringify(definition)), trust());

    expect(rebuilt.toJSON()).toEqual(definition);
    expect((await rebuilt.run({ messages: [ChatMessage.fromUser("Hi")] })).lastMessage.text).toBe("Rebuilt and answered.");
    expect([primary.requests.length, backup.requests.length]).toEqual([1, 1]);
  });

  it("round-trips through agentToYaml and loadAgent", async () => {
    const agent = new Agent({ name: "desk", chatGenerator: new FallbackChatGenerator({ generators: [openai("primary-model", primary.baseURL), new ScriptedChatGenerator([ChatMessage.fromAssistant("From YAML.")])] }) });
    const yaml = agentToYaml(agent);
    const file = join(dir, "agent.yaml");
    writeFileSync(file, yaml);
    primary.enqueue(rateLimited());

    const loaded = await loadAgent(file, trust());

    expect(yaml).toContain("type: FallbackChatGenerator");
    expect(agentToYaml(loaded)).toBe(yaml);
    expect((await loaded.run({ messages: [ChatMessage.fromUser("Hi")] })).lastMessage.text).toBe("From YAML.");
  });

  it("names an inner generator by its registry name", () => {
    const backupModel = new ScriptedChatGenerator([]);
    const agent = new Agent({ chatGenerator: new FallbackChatGenerator({ generators: [openai("primary-model", primary.baseURL), backupModel] }) });

    expect(agent.toJSON({ registry: { chatGenerators: { backupModel } } }).chatGenerator.options!.generators).toEqual([
      { type: "OpenAIChatGenerator", options: { model: "primary-model", apiKey: key, baseURL: primary.baseURL, maxRetries: 0 } },
      { type: "backupModel" },
    ]);
  });

  it("refuses an inner generator with no data form, at its path", () => {
    const bare = { model: "bare", run: () => Promise.resolve({ replies: [ChatMessage.fromAssistant("x")] }) };
    const agent = new Agent({ chatGenerator: new FallbackChatGenerator({ generators: [openai("primary-model", primary.baseURL), bare] }) });

    const error = definitionErrorOf(() => agent.toJSON());

    expect(error.path).toEqual(["chatGenerator", "options", "generators", 1]);
    expect(error.message).toBe(
      "chatGenerator.options.generators[1]: is an object, which has no data form (no toJSON method): register it (registry.chatGenerators) and pass the registry to toJSON({ registry }), or give the generator a toJSON() returning { type, options }.",
    );
  });

  it("refuses a shouldFallBack policy unless the generator is registered", () => {
    const generator = new FallbackChatGenerator({ generators: [new ScriptedChatGenerator([])], shouldFallBack: () => true });
    const agent = new Agent({ chatGenerator: generator });

    expect(definitionErrorOf(() => agent.toJSON()).message).toBe(
      "chatGenerator: is a FallbackChatGenerator with a shouldFallBack policy, a function, which has no data form: register the generator (registry.chatGenerators) and pass the registry to toJSON({ registry }), or leave shouldFallBack out to use the default policy.",
    );
    expect(agent.toJSON({ registry: { chatGenerators: { guarded: generator } } }).chatGenerator).toEqual({ type: "guarded" });
  });

  it("refuses generators nested deeper than a definition may read", () => {
    let generator: FallbackChatGenerator = new FallbackChatGenerator({ generators: [new ScriptedChatGenerator([])] });
    for (let i = 0; i < 3; i++) generator = new FallbackChatGenerator({ generators: [generator] });

    expect(definitionErrorOf(() => new Agent({ chatGenerator: generator }).toJSON()).message).toBe(
      "chatGenerator.options.generators[0].options.generators[0].options.generators[0].options.generators[0]: is a chat generator inside 4 others; a definition nests chat generators at most 3 deep: list the generators in one FallbackChatGenerator instead.",
    );
  });
});
