import { DefinitionError } from "../../errors";
import { describeKind } from "../../util/describeValue";
import { isPlainObject } from "../../util/isPlainObject";
import { suggestOption } from "./suggestOption";
import type { DefinitionOption } from "./definitionOptions";
import { copyJsonData } from "./jsonData";
import { isEnvironmentName } from "./openaiConnection";

type Path = readonly (string | number)[];

const kinds = { model: "a non-empty string", string: "a string", number: "a number", boolean: "true or false", object: "an object" } as const;

/**
 * Checks the untrusted options of an OpenAI generator's definition (at `path`) against `options`,
 * and returns the constructor's options: only known keys (own ones), each of its JSON type,
 * `apiKey` as `{ env: "NAME" }` (becoming `apiKeyEnv`, except `OPENAI_API_KEY`, which is what the
 * generator reads anyway, without a key needed for a `baseURL`), generationKwargs copied as JSON
 * data. The constructor checks the values (ranges, the key's variable being set). Throws
 * DefinitionError at the path of the first problem.
 */
export function readDefinitionOptions(subject: string, options: readonly DefinitionOption[], value: unknown, path: Path): Record<string, unknown> {
  const names = options.map((option) => option.name);
  if (!isPlainObject(value)) {
    throw new DefinitionError(path, `must be an object of ${subject} options, e.g. { model: ${options[0]!.example} }, got ${describeKind(value)}.`);
  }
  for (const key of Object.keys(value)) if (!names.includes(key)) throw unknownOption(subject, names, key, [...path, key]);
  const out: Record<string, unknown> = {};
  for (const option of options) {
    const at = [...path, option.name];
    if (!Object.hasOwn(value, option.name)) {
      if (option.kind === "model") throw new DefinitionError(at, `is missing; give the model ${subject} calls, e.g. model: ${option.example}.`);
      continue;
    }
    const given = value[option.name];
    if (option.kind === "apiKey") {
      const env = readApiKey(given, at);
      if (env !== "OPENAI_API_KEY") out.apiKeyEnv = env;
    } else if (option.kind === "object") {
      if (!isPlainObject(given)) throw wrongKind(option, given, at);
      out[option.name] = copyJsonData(given, at);
    } else {
      if (!hasKind(option.kind, given)) throw wrongKind(option, given, at);
      out[option.name] = given;
    }
  }
  return out;
}

function hasKind(kind: "model" | "string" | "number" | "boolean", value: unknown): boolean {
  if (kind === "model") return typeof value === "string" && value !== "";
  return typeof value === kind;
}

function wrongKind(option: DefinitionOption, value: unknown, at: Path): DefinitionError {
  const kind = kinds[option.kind as keyof typeof kinds];
  return new DefinitionError(at, `must be ${kind}, e.g. ${option.name}: ${option.example}, got ${describeKind(value)}.`);
}

function unknownOption(subject: string, names: readonly string[], key: string, at: Path): DefinitionError {
  if (key === "client") {
    return new DefinitionError(
      at,
      `is not allowed: a ready OpenAI client has no data form; give the connection options (apiKey: { env: "NAME" }, baseURL, organization, timeout, maxRetries) instead, or name the generator through registry.chatGenerators.`,
    );
  }
  const suggestion = suggestOption(key, names);
  const known = `Known options: ${names.join(", ")}.`;
  return new DefinitionError(at, suggestion ? `is not an option of ${subject}; did you mean ${suggestion}? ${known}` : `is not an option of ${subject}; remove it. ${known}`);
}

// An API key's value never appears in a message: only the kind of what was given.
function readApiKey(value: unknown, at: Path): string {
  const example = 'apiKey: { env: "OPENAI_API_KEY" }';
  if (typeof value === "string") {
    throw new DefinitionError(at, `is the key itself, and a definition names secrets by environment variable only: ${example}; take the key out of the definition (and rotate it if the definition was shared).`);
  }
  if (!isPlainObject(value)) throw new DefinitionError(at, `must name the environment variable that holds the key, e.g. ${example}, got ${typeOnly(value)}.`);
  for (const key of Object.keys(value)) {
    if (key !== "env") throw new DefinitionError([...at, key], `is not a field of apiKey; apiKey has the one field env, the environment variable that holds the key: ${example}.`);
  }
  if (!Object.hasOwn(value, "env")) throw new DefinitionError([...at, "env"], `is missing; name the environment variable that holds the key, e.g. ${example}.`);
  const env = value.env;
  if (!isEnvironmentName(env)) {
    throw new DefinitionError(
      [...at, "env"],
      `must be the name of an environment variable (letters, digits and underscores, not starting with a digit), e.g. ${example}, got ${typeof env === "string" ? "a string that is not a variable name" : typeOnly(env)}.`,
    );
  }
  return env;
}

function typeOnly(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
