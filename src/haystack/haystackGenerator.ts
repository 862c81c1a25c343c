import type { ChatGeneratorDefinition } from "../chat/chatGenerator";
import type { JsonValue } from "../state/jsonCodec";
import { setOwn } from "../util/ownProperty";
import { asMapping, type ImportContext, shortName, type YamlPath } from "./importContext";

// Haystack's OpenAI generators by their serialized type, and the toolwright generator each becomes.
const openaiTypes: Readonly<Record<string, string>> = Object.freeze({
  "haystack.components.generators.chat.openai.OpenAIChatGenerator": "OpenAIChatGenerator",
  "haystack.components.generators.chat.openai_responses.OpenAIResponsesChatGenerator": "OpenAIResponsesChatGenerator",
});

/**
 * The toolwright generator for a Haystack `chat_generator` (`{ type, init_parameters }`, as
 * `component_to_dict` writes it): Haystack's OpenAI generators with their options renamed (the key
 * by environment variable, `timeout` from seconds to milliseconds); any other type is hand work and
 * becomes a `registry.chatGenerators` name, its short class name.
 */
export function convertGenerator(value: unknown, path: YamlPath, context: ImportContext): ChatGeneratorDefinition | undefined {
  const generator = asMapping(value);
  if (!generator) {
    context.problem(path, value === undefined ? "is missing: a Haystack Agent's init_parameters always has chat_generator ({ type, init_parameters })." : "is not a mapping: a Haystack Agent's chat_generator is { type, init_parameters }, as component_to_dict writes it.");
    return undefined;
  }
  if (typeof generator.type !== "string") {
    context.problem([...path, "type"], "is missing or not a string: a serialized chat generator names its class in type, e.g. haystack.components.generators.chat.openai.OpenAIChatGenerator.");
    return undefined;
  }
  const type = openaiTypes[generator.type];
  const init = asMapping(generator.init_parameters) ?? {};
  const at = [...path, "init_parameters"];
  if (type === undefined) {
    const name = shortName(generator.type);
    context.todo([...path, "type"], "generator", `Chat generator ${generator.type} has no toolwright counterpart: register one as registry.chatGenerators.${name} (a ChatGenerator, or a factory given the options), or use OpenAIChatGenerator.`);
    return { type: name };
  }
  const options: Record<string, JsonValue> = {};
  if (typeof init.model === "string") options.model = init.model;
  const key = asMapping(init.api_key);
  if (key) apiKey(key, [...at, "api_key"], options, context);
  if (typeof init.api_base_url === "string") {
    options.baseURL = init.api_base_url;
    context.todo([...at, "api_base_url"], "setting", `The generator's base URL ${init.api_base_url} is kept as baseURL; allow it when loading: loadAgent(file, { allowedBaseURLs: ["${init.api_base_url}"] }).`);
  }
  if (typeof init.organization === "string") options.organization = init.organization;
  const kwargs = asMapping(init.generation_kwargs);
  if (kwargs && Object.keys(kwargs).length > 0) options.generationKwargs = kwargs as JsonValue;
  if (typeof init.timeout === "number") options.timeout = Math.round(init.timeout * 1000);
  if (typeof init.max_retries === "number") options.maxRetries = init.max_retries;
  if (typeof init.tools_strict === "boolean" && init.tools_strict) options.toolsStrict = true;
  for (const name of ["streaming_callback", "http_client_kwargs", "tools"] as const) {
    if (init[name] !== undefined && init[name] !== null) context.todo([...at, name], "generator", generatorTodo(name, init[name]));
  }
  return { type, options };
}

function apiKey(key: Readonly<Record<string, unknown>>, path: YamlPath, options: Record<string, JsonValue>, context: ImportContext): void {
  const vars = Array.isArray(key.env_vars) ? key.env_vars.filter((name): name is string => typeof name === "string") : [];
  if (key.type !== "env_var" || vars.length === 0) {
    context.todo(path, "setting", "The API key is not an env_var secret; name the environment variable that holds it: apiKey: { env: NAME }.");
    return;
  }
  setOwn(options, "apiKey", { env: vars[0]! });
  if (vars.length > 1) context.todo([...path, "env_vars"], "setting", `Haystack reads the first set of ${vars.join(", ")}; toolwright reads only ${vars[0]} (apiKey.env): set it, or change the name.`);
  if (vars[0] !== "OPENAI_API_KEY") context.todo([...path, "env_vars", 0], "setting", `The API key is read from ${vars[0]}; allow it when loading: loadAgent(file, { allowedEnv: ["${vars[0]}"] }).`);
}

function generatorTodo(name: "streaming_callback" | "http_client_kwargs" | "tools", value: unknown): string {
  if (name === "streaming_callback") return `The generator's streaming callback ${typeof value === "string" ? value : ""} is code: pass streamingCallback to loadAgent or to agent.run.`.replace("  ", " ");
  if (name === "http_client_kwargs") return "http_client_kwargs has no toolwright option: configure the HTTP client in code (new OpenAIChatGenerator({ client })) and pass it as chatGenerator to loadAgent.";
  return "The generator's own tools are not carried over: give them to the Agent (tools).";
}
