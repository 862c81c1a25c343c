import fc from "fast-check";
import { ChatMessage, DefinitionError } from "toolwright";
import { OpenAIChatGenerator, openaiChatGeneratorFromDefinition, OpenAIResponsesChatGenerator, openaiResponsesChatGeneratorFromDefinition } from "toolwright/openai";
import { ScriptedChatGenerator, scriptedChatGeneratorFromDefinition } from "toolwright/testing";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

const at = ["chatGenerator", "options"] as const;
const secretVariable = "TOOLWRIGHT_FUZZ_OPENAI_KEY";

// Built with defineProperty, so a `__proto__` key is own data, as JSON.parse and YAML parsers make it.
function objectOf(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const optionNames = ["model", "apiKey", "baseURL", "organization", "generationKwargs", "timeout", "maxRetries", "maxRetryDelayMs", "deadlineMs", "streamIdleTimeoutMs", "toolsStrict", "store", "includeEncryptedReasoning"];
const trickyKeys = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "client", "apiKeyEnv", "api_key", "api_base_url", "env", "role", "content", "meta", "script"];
const key = fc.oneof(fc.constantFrom(...optionNames, ...trickyKeys), fc.string({ maxLength: 10 }));
const hugeNumber = fc.constantFrom(0, -0, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 2 ** 31 - 1, Number.MIN_VALUE, 1e-300);
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), hugeNumber, fc.boolean(), fc.constant(null), fc.constantFrom("OPENAI_API_KEY", secretVariable, "__proto__", "constructor", "http://127.0.0.1:1/v1"));
const { value: hostile } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map(objectOf),
  ),
}));

function mostly<T>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: odd, weight: 1 });
}
const milliseconds = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const jsonObject = fc.array(fc.tuple(key, hostile), { maxLength: 5 }).map(objectOf);

/** Option values: mostly valid, else of the wrong type or range, or hostile. */
const optionValue = {
  model: mostly(fc.string({ minLength: 1, maxLength: 8 }), hostile),
  apiKey: mostly(
    fc.constantFrom({ env: "OPENAI_API_KEY" }, { env: secretVariable }),
    fc.oneof(
      fc.constantFrom({ env: "TOOLWRIGHT_FUZZ_UNSET" }, { env: "__proto__" }, { env: "constructor" }, "sk-literal-key"),
      fc.array(fc.tuple(fc.constantFrom("env", "__proto__", "value"), hostile), { maxLength: 3 }).map(objectOf),
      hostile,
    ),
  ),
  baseURL: mostly(fc.constant("http://127.0.0.1:1/v1"), hostile),
  organization: mostly(fc.string({ maxLength: 8 }), hostile),
  generationKwargs: mostly(jsonObject, hostile),
  timeout: mostly(milliseconds, fc.oneof(hugeNumber, hostile)),
  maxRetries: mostly(fc.nat(5), fc.oneof(hugeNumber, hostile)),
  maxRetryDelayMs: mostly(milliseconds, fc.oneof(hugeNumber, hostile)),
  deadlineMs: mostly(milliseconds, fc.oneof(hugeNumber, hostile)),
  streamIdleTimeoutMs: mostly(milliseconds, fc.oneof(hugeNumber, hostile)),
  toolsStrict: mostly(fc.boolean(), hostile),
};
const responsesValue = { ...optionValue, store: mostly(fc.boolean(), hostile), includeEncryptedReasoning: mostly(fc.boolean(), hostile) };

// Known options (the model nearly always there), sometimes one odd key; sometimes no object at all.
function hostileOptions(values: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const odd = fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.tuple(key, hostile), weight: 1 });
  const options = fc
    .tuple(fc.record(values, { requiredKeys: [] }), fc.nat(7), odd)
    .map(([known, dice, extra]) => {
      const model = Object.hasOwn(known, "model") || dice === 0 ? [] : [["model", "gpt-4o-mini"] as const];
      return objectOf([...model, ...Object.entries(known), ...(extra ? [extra] : [])]);
    });
  return fc.oneof({ arbitrary: options, weight: 8 }, { arbitrary: hostile, weight: 1 });
}

const toolCallJson = fc.oneof(
  fc.record({ tool_name: fc.oneof(fc.string({ maxLength: 8 }), hostile), arguments: fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.tuple(key, hostile), { maxLength: 4 }).map(objectOf), hostile), id: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null), hostile) }, { requiredKeys: [] }),
  hostile,
);
const contentPart = fc.oneof(
  fc.record({ text: fc.string({ maxLength: 12 }) }),
  fc.record({ text: fc.oneof(fc.string({ maxLength: 12 }), hostile) }),
  fc.record({ tool_call: toolCallJson }),
  fc.record({ reasoning: fc.record({ reasoning_text: fc.oneof(fc.string(), hostile), extra: fc.oneof(fc.array(fc.tuple(key, hostile), { maxLength: 4 }).map(objectOf), hostile) }, { requiredKeys: [] }) }),
  fc.record({ tool_call_result: fc.record({ result: fc.oneof(fc.string(), hostile), origin: toolCallJson, error: fc.oneof(fc.boolean(), hostile) }, { requiredKeys: [] }) }),
  hostile,
);
const messageJson = fc.oneof(
  {
    arbitrary: fc.record(
      {
        role: fc.oneof({ arbitrary: fc.constantFrom("system", "user", "assistant", "tool"), weight: 6 }, { arbitrary: hostile, weight: 1 }),
        meta: fc.oneof({ arbitrary: fc.array(fc.tuple(key, hostile), { maxLength: 4 }).map(objectOf), weight: 6 }, { arbitrary: hostile, weight: 1 }),
        name: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null), hostile),
        content: fc.oneof({ arbitrary: fc.array(contentPart, { maxLength: 3 }), weight: 6 }, { arbitrary: hostile, weight: 1 }),
      },
      { requiredKeys: ["role", "content"] },
    ),
    weight: 6,
  },
  { arbitrary: hostile, weight: 1 },
);
const scriptedOptions: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.array(fc.oneof(messageJson, fc.array(messageJson, { maxLength: 3 })), { maxLength: 4 }), fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.tuple(key, hostile), weight: 1 }))
      .map(([script, odd]) => objectOf([["script", script], ...(odd ? [odd] : [])])),
    weight: 8,
  },
  { arbitrary: hostile, weight: 1 },
);

function prototypeState(): string {
  return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort(), Object.getPrototypeOf({}) === Object.prototype]);
}
const cleanPrototypes = prototypeState();

// Either a generator, or a DefinitionError located under `at`; Object.prototype untouched either way.
function expectGeneratorOrDefinitionError(build: () => unknown, type: new (...args: never[]) => unknown): void {
  try {
    expect(build()).toBeInstanceOf(type);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw new Error(`unexpected ${String(error)} ${(error as Error)?.stack}`);
    expect(error.path.slice(0, 2)).toEqual([...at]);
    expect(error.message).not.toContain("sk-literal-key");
  }
  expect(prototypeState()).toBe(cleanPrototypes);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe("generator definitions under hostile input", () => {
  const runs = fuzzRuns(300);
  const saved = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL, secret: process.env[secretVariable] };
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    process.env[secretVariable] = "sk-fuzz-environment-secret";
  });
  afterEach(() => {
    for (const [name, value] of [["OPENAI_API_KEY", saved.key], ["OPENAI_BASE_URL", saved.baseURL], [secretVariable, saved.secret]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test(`hostile OpenAI options build a generator or throw DefinitionError, never another error, never touching Object.prototype (${runs} cases)`, () => {
    fc.assert(
      fc.property(hostileOptions(optionValue), hostileOptions(responsesValue), (chat, responses) => {
        expectGeneratorOrDefinitionError(() => openaiChatGeneratorFromDefinition(chat, at), OpenAIChatGenerator);
        expectGeneratorOrDefinitionError(() => openaiResponsesChatGeneratorFromDefinition(responses, at), OpenAIResponsesChatGenerator);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 10));

  test(`hostile scripted options and message JSON build a generator or throw DefinitionError, never touching Object.prototype (${runs} cases)`, () => {
    fc.assert(
      fc.property(scriptedOptions, (options) => {
        expectGeneratorOrDefinitionError(() => scriptedChatGeneratorFromDefinition(options, at), ScriptedChatGenerator);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 10));

  test(`a built generator's toJSON() rebuilds the same generator and never holds its API key: from the environment it names the variable, given as apiKey it throws (${runs} cases)`, () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/).map((rest) => `sk-fuzz-${rest}`);
    const text = fc.string({ maxLength: 12 });
    const json = fc.jsonValue({ maxDepth: 3 });
    const options = fc.record(
      {
        model: text.filter((s) => s !== ""),
        baseURL: text,
        organization: text,
        generationKwargs: fc.dictionary(fc.oneof(text, fc.constantFrom("__proto__", "constructor")), json, { maxKeys: 4 }),
        timeout: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        maxRetries: fc.nat(10),
        maxRetryDelayMs: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        deadlineMs: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        streamIdleTimeoutMs: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        toolsStrict: fc.boolean(),
        store: fc.boolean(),
        includeEncryptedReasoning: fc.boolean(),
      },
      { requiredKeys: ["model"] },
    );
    fc.assert(
      fc.property(secret, options, fc.boolean(), (key, given, responses) => {
        fc.pre(!JSON.stringify(given).includes("sk-fuzz-") && !["conversation", "previous_response_id"].some((name) => Object.hasOwn(given.generationKwargs ?? {}, name)));
        process.env[secretVariable] = key;
        const { store, includeEncryptedReasoning, ...connection } = given;
        const build = responses
          ? (extra: object) => new OpenAIResponsesChatGenerator({ ...given, ...extra })
          : (extra: object) => new OpenAIChatGenerator({ ...connection, ...extra });
        const rebuild = responses ? openaiResponsesChatGeneratorFromDefinition : openaiChatGeneratorFromDefinition;

        const definition = build({ apiKeyEnv: secretVariable }).toJSON();
        const written = JSON.stringify(definition);
        expect(written).not.toContain(key);
        expect(definition.options!.apiKey).toEqual({ env: secretVariable });
        expect(JSON.parse(JSON.stringify(rebuild(JSON.parse(written).options, at).toJSON()))).toEqual(JSON.parse(written));

        let refused: unknown;
        try {
          build({ apiKey: key }).toJSON();
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeInstanceOf(DefinitionError);
        expect((refused as Error).message).not.toContain(key);
        void store;
        void includeEncryptedReasoning;
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 10));

  test("a scripted generator's toJSON() holds only its messages' JSON", () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi.")]);

    expect(JSON.parse(JSON.stringify(model.toJSON()))).toEqual({ type: "ScriptedChatGenerator", options: { script: [ChatMessage.fromAssistant("Hi.").toJSON()] } });
  });
});
