import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import type { AISdkGenerationKwargs, AISdkLanguageModel, AISdkReasoningEffort } from "./languageModel";

const subject = "AISdkChatGenerator";

/** Checks that `model` is a LanguageModel object of specification v3 or v4 and returns it. */
export function checkModel(model: unknown): AISdkLanguageModel {
  const example = `e.g. new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") }) with anthropic from @ai-sdk/anthropic`;
  if (typeof model !== "object" || model === null) {
    const gateway = typeof model === "string" ? "; a model id string is not resolved here, pass the provider's model object" : "";
    throw new ConfigurationError(subject, `AISdkChatGenerator needs a LanguageModel object from an AI SDK provider package, ${example}, got ${describeKind(model)}${gateway}.`);
  }
  const shape = model as Partial<Record<keyof AISdkLanguageModel, unknown>>;
  const version = shape.specificationVersion;
  if (version !== "v3" && version !== "v4") {
    throw new ConfigurationError(
      subject,
      `AISdkChatGenerator needs a model of the LanguageModel specification v3 (AI SDK 6 provider packages) or v4 (AI SDK 7), got specificationVersion ${describeKind(version)}; upgrade the provider package, e.g. npm i @ai-sdk/anthropic@3.`,
    );
  }
  for (const method of ["doGenerate", "doStream"] as const) {
    if (typeof shape[method] !== "function") throw new ConfigurationError(subject, `AISdkChatGenerator needs a model with a ${method} method, got ${describeKind(shape[method])} for model.${method}.`);
  }
  for (const field of ["modelId", "provider"] as const) {
    if (typeof shape[field] !== "string") throw new ConfigurationError(subject, `AISdkChatGenerator needs a model whose ${field} is a string, got ${describeKind(shape[field])}.`);
  }
  return model as AISdkLanguageModel;
}

/** Checks `toolsStrict`, returning true when it is not given. */
export function checkToolsStrict(value: unknown): boolean {
  if (value === undefined || typeof value === "boolean") return value ?? true;
  throw new ConfigurationError(subject, `AISdkChatGenerator needs toolsStrict to be true or false, got ${describeKind(value)}.`);
}

type Check = (value: unknown) => boolean;
const finite: Check = (value) => typeof value === "number" && Number.isFinite(value);
const wholeNumber: Check = (value) => typeof value === "number" && Number.isSafeInteger(value);
const efforts: readonly AISdkReasoningEffort[] = ["provider-default", "none", "minimal", "low", "medium", "high", "xhigh", "max"];

// Every call setting of the specification that generationKwargs may carry, with what it must be.
const settings: Readonly<Record<keyof AISdkGenerationKwargs, { readonly check: Check; readonly expected: string }>> = {
  maxOutputTokens: { check: (value) => wholeNumber(value) && (value as number) > 0, expected: "a whole number greater than 0" },
  temperature: { check: finite, expected: "a finite number" },
  topP: { check: finite, expected: "a finite number" },
  topK: { check: (value) => wholeNumber(value) && (value as number) > 0, expected: "a whole number greater than 0" },
  stopSequences: { check: (value) => Array.isArray(value) && value.every((item) => typeof item === "string"), expected: "an array of strings" },
  presencePenalty: { check: finite, expected: "a finite number" },
  frequencyPenalty: { check: finite, expected: "a finite number" },
  seed: { check: wholeNumber, expected: "a whole number" },
  providerOptions: { check: (value) => isPlainObject(value) && Object.values(value).every(isPlainObject), expected: "an object of objects keyed by provider, e.g. { anthropic: { sendReasoning: true } }" },
  headers: { check: (value) => isPlainObject(value) && Object.values(value).every((item) => item === undefined || typeof item === "string"), expected: "an object of strings" },
  reasoning: { check: (value) => efforts.includes(value as AISdkReasoningEffort), expected: `one of ${efforts.join(", ")}` },
};

// Names users bring from the OpenAI API or older AI SDK versions, and the name the specification has.
const renamed: Readonly<Record<string, keyof AISdkGenerationKwargs>> = {
  maxTokens: "maxOutputTokens",
  max_tokens: "maxOutputTokens",
  max_completion_tokens: "maxOutputTokens",
  top_p: "topP",
  top_k: "topK",
  stop: "stopSequences",
  presence_penalty: "presencePenalty",
  frequency_penalty: "frequencyPenalty",
  reasoning_effort: "reasoning",
};

/**
 * Checks generation kwargs against the call settings of the model's specification and returns a
 * copy without the `undefined` ones. An unknown key, `reasoning` for a V3 model, or a value of the
 * wrong type is a ConfigurationError naming the key and, for a key, the valid ones. `source` names
 * where the kwargs came from in the message.
 */
export function readGenerationKwargs(kwargs: unknown, model: AISdkLanguageModel, source: string): AISdkGenerationKwargs {
  if (kwargs === undefined) return {};
  if (!isPlainObject(kwargs)) throw new ConfigurationError(subject, `AISdkChatGenerator needs ${source} to be an object, got ${describeKind(kwargs)}.`);
  const valid = (Object.keys(settings) as Array<keyof AISdkGenerationKwargs>).filter((key) => key !== "reasoning" || model.specificationVersion === "v4");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(kwargs)) {
    if (!(valid as string[]).includes(key)) {
      const validKeys = `Valid keys: ${valid.join(", ")}.`;
      if (key === "reasoning") {
        throw new ConfigurationError(subject, `AISdkChatGenerator received ${source} key 'reasoning', which V3 models (AI SDK 6) do not have; set the effort in providerOptions for model '${model.modelId}' instead. ${validKeys}`);
      }
      const hint = Object.hasOwn(renamed, key) ? `; the AI SDK calls it ${renamed[key]}` : "";
      throw new ConfigurationError(subject, `AISdkChatGenerator received ${source} key '${key}', which the AI SDK's call settings do not have${hint}. ${validKeys}`);
    }
    if (value === undefined) continue;
    const setting = settings[key as keyof AISdkGenerationKwargs];
    if (!setting.check(value)) throw new ConfigurationError(subject, `AISdkChatGenerator needs ${source}.${key} to be ${setting.expected}, got ${describeKind(value)}.`);
    out[key] = value;
  }
  return out as AISdkGenerationKwargs;
}
