import type { StateKeyDefinition, ToolSettings } from "../definition/agentDefinition";
import { camelCase } from "./handlerNames";
import type { BlockingStrategyStub } from "./haystackConfirmation";
import type { PythonTool } from "./haystackTools";
import { jsDocText, jsonSchemaToTypeScript, propertyName, type TypeWriting } from "./jsonSchemaToTypeScript";

/** What the stub module is written from. */
export interface ToolStubsInput {
  readonly className: string;
  readonly source: string;
  readonly tools: readonly PythonTool[];
  readonly stateSchema: Readonly<Record<string, StateKeyDefinition>>;
  readonly handlers: ReadonlyMap<string, { readonly python: string; readonly use: "merge" | "string" }>;
  readonly strategies: readonly BlockingStrategyStub[];
}

/**
 * The TypeScript module of a Haystack agent's Python tools: one exported class whose `@tool`
 * methods have the tools' names, descriptions (JSDoc) and parameters (the JSON Schema as a typed
 * signature, the state-filled parameters last), `inputsFromState` / `outputsToState` /
 * `outputsToString` on the options, and bodies that throw until ported; then a stub per custom
 * handler (`handlers`, for `registry.handlers`) and per blocking confirmation strategy
 * (`confirmationStrategies`, for `registry.confirmationStrategies`).
 */
export function renderToolStubs(input: ToolStubsInput): string {
  const imports = new Set<string>();
  const types = new Set<string>();
  const body: string[] = [];
  if (input.tools.length > 0) {
    imports.add("tool");
    body.push(`/** The Python tools of the Haystack Agent, to port one by one. */`, `export class ${input.className} {`);
    const used = new Set<string>();
    body.push(input.tools.map((python) => method(python, input, used, imports, types)).join("\n\n"), "}");
  }
  for (const [name, { python, use }] of input.handlers) {
    const signature = use === "merge" ? "(current: unknown, incoming: unknown): unknown" : "(result: unknown): string";
    body.push("", `/** Port of the Python handler ${python}. */`, `export function ${name}${signature} {`, `  void ${use === "merge" ? "[current, incoming]" : "result"};`, `  throw new Error(${JSON.stringify(`Handler '${name}' is not ported yet: port the Python function ${python}.`)});`, "}");
  }
  if (input.handlers.size > 0) body.push("", "/** The custom handlers, for registry.handlers. */", `export const handlers = { ${[...input.handlers.keys()].join(", ")} };`);
  if (input.strategies.length > 0) {
    imports.add("BlockingConfirmationStrategy");
    const entries = input.strategies.map((stub) => {
      imports.add(stub.policy);
      const message = JSON.stringify(`Confirmation strategy '${stub.name}' has no ask function yet: write one in place of the Haystack UI ${stub.ui}.`);
      return `  ${stub.name}: new BlockingConfirmationStrategy({\n    policy: new ${stub.policy}(),\n    ask: async (_request) => {\n      throw new Error(${message});\n    },\n  }),`;
    });
    body.push("", "/** The confirmation strategies, for registry.confirmationStrategies. */", `export const confirmationStrategies = {\n${entries.join("\n")}\n};`);
  }
  const names = [...[...imports].sort(), ...[...types].sort().map((name) => `type ${name}`)];
  const head = [`// Written by \`toolwright import-haystack\` from ${input.source}. Port each body, then run \`toolwright codegen\`.`];
  if (names.length > 0) head.push(`import { ${names.join(", ")} } from "toolwright";`);
  return `${[...head, "", ...body].join("\n").trimEnd()}\n`;
}

function method(python: PythonTool, input: ToolStubsInput, used: Set<string>, imports: Set<string>, types: Set<string>): string {
  const writing: TypeWriting = { usesInteger: false, unknownAt: [] };
  const schema = python.parameters as { properties?: Record<string, unknown>; required?: unknown };
  const properties = typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const injected = new Map(Object.entries(python.settings.inputsFromState ?? {}).map(([stateKey, parameter]) => [parameter, stateKey]));
  const params: { name: string; type: string; optional: boolean; description?: string; asAny: boolean; initializer?: string }[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (injected.has(name)) continue;
    const before = writing.unknownAt.length;
    const type = jsonSchemaToTypeScript(property, writing, name);
    const description = (property as { description?: unknown } | null)?.description;
    const initializer = defaultInitializer(property);
    params.push({ name, type, optional: !required.includes(name), description: typeof description === "string" ? description : undefined, asAny: writing.unknownAt.length > before, initializer });
  }
  params.sort((a, b) => Number(a.optional) - Number(b.optional));
  for (const [parameter, stateKey] of injected) {
    const type = stateKeyType(stateKey, input.stateSchema, writing, types);
    params.push({ name: parameter, type, optional: true, description: `Filled from state key '${stateKey}'.`, asAny: false });
  }
  if (writing.usesInteger) types.add("Integer");
  let methodName = camelCase(python.name) || "tool";
  for (let n = 2; used.has(methodName); n++) methodName = `${camelCase(python.name)}${n}`;
  used.add(methodName);
  const options = toolOptions(python, methodName, imports, input.handlers);
  const docs = jsDoc(python.description, params);
  const signature = params.map((p) => (p.optional && p.initializer !== undefined ? `${p.name}: ${p.type} = ${p.initializer}` : `${p.name}${p.optional ? "?" : ""}: ${p.type}`)).join(", ");
  const unused = params.length > 0 ? `    void [${params.map((p) => p.name).join(", ")}];\n` : "";
  const message = JSON.stringify(`Tool '${python.name}' is not ported yet: port the Python function ${python.function} to ${input.className}.${methodName}.`);
  return `${docs}  @tool${options}\n  async ${methodName}(${signature}): Promise<unknown> {\n${unused}    throw new Error(${message});\n  }`;
}

// A JSON Schema default as a parameter initializer, which codegen turns back into the schema's
// `default` (so the model sees what Haystack sends): strings, finite numbers, booleans, null and
// arrays of them only; an object literal could set __proto__, so it is left to the body.
function defaultInitializer(property: unknown): string | undefined {
  if (typeof property !== "object" || property === null || !Object.hasOwn(property, "default")) return undefined;
  const value = (property as { default: unknown }).default;
  const plain = (item: unknown) => item === null || typeof item === "string" || typeof item === "boolean" || (typeof item === "number" && Number.isFinite(item));
  return plain(value) || (Array.isArray(value) && value.length <= 100 && value.every(plain)) ? JSON.stringify(value) : undefined;
}

// A state key's TypeScript type, from its JSON Schema; `messages` is a list of ChatMessage.
function stateKeyType(stateKey: string, stateSchema: Readonly<Record<string, StateKeyDefinition>>, writing: TypeWriting, types: Set<string>): string {
  if (stateKey === "messages") {
    types.add("ChatMessage");
    return "ChatMessage[]";
  }
  const type = Object.hasOwn(stateSchema, stateKey) ? stateSchema[stateKey]!.type : undefined;
  return type === undefined ? "unknown" : jsonSchemaToTypeScript(type, writing, stateKey);
}

function toolOptions(python: PythonTool, methodName: string, imports: Set<string>, handlers: ToolStubsInput["handlers"]): string {
  const parts: string[] = [];
  if (methodName !== python.name) parts.push(`name: ${JSON.stringify(python.name)}`);
  // codegen takes a JSDoc's first paragraph; a description of several is kept whole as an option.
  if (/\n\s*\n/.test(python.description)) parts.push(`description: ${JSON.stringify(python.description)}`);
  const settings: ToolSettings = python.settings;
  if (settings.inputsFromState) parts.push(`inputsFromState: { ${Object.entries(settings.inputsFromState).map(([key, parameter]) => `${propertyName(key)}: ${JSON.stringify(parameter)}`).join(", ")} }`);
  const handler = (name: string | undefined) => {
    if (name === undefined) return [];
    if (!handlers.has(name)) imports.add(name);
    return [`handler: ${name}`];
  };
  if (settings.outputsToState) {
    const entries = Object.entries(settings.outputsToState).map(([key, config]) => {
      const inner = [...(config.source !== undefined ? [`source: ${JSON.stringify(config.source)}`] : []), ...handler(config.handler)];
      return `${propertyName(key)}: {${inner.length > 0 ? ` ${inner.join(", ")} ` : ""}}`;
    });
    parts.push(`outputsToState: { ${entries.join(", ")} }`);
  }
  if (settings.outputsToString) {
    const config = settings.outputsToString;
    const inner = [...(config.source !== undefined ? [`source: ${JSON.stringify(config.source)}`] : []), ...handler(config.handler), ...(config.rawResult ? ["rawResult: true"] : [])];
    parts.push(`outputsToString: { ${inner.join(", ")} }`);
  }
  return parts.length > 0 ? `({ ${parts.join(", ")} })` : "";
}

function jsDoc(description: string, params: readonly { name: string; description?: string; asAny: boolean }[]): string {
  const lines = description.trim() === "" ? [] : description.trim().split(/\n\s*\n/)[0]!.split("\n").map((line) => line.replace(/\*\//g, "*\\/").trimEnd());
  for (const p of params) {
    if (p.asAny) lines.push(`@asType ${p.name} any`);
    if (p.description) lines.push(`@param ${p.name} ${jsDocText(p.description)}`);
  }
  if (lines.length === 0) return "";
  return `  /**\n${lines.map((line) => `   *${line === "" ? "" : ` ${line}`}`).join("\n")}\n   */\n`;
}
