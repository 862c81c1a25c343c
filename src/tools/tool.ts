import type { SubRunCall, SubRunOutcome } from "./subRun";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import type { z } from "zod";
import type { ToolCall } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import type { State } from "../state/state";
import type { StateSchema } from "../state/stateSchema";
import { isZodSchema, zodDef, zodVersionProblem } from "../state/zodIntrospection";
import { zod } from "../util/lazyZod";
import { deepFreeze } from "../util/deepFreeze";
import { describeKind } from "../util/describeValue";
import { jsonCopy } from "../util/jsonCopy";
import { jsonSchemaValidator, zodArgumentValidator } from "./argumentValidator";
import type { SchemaOrigin } from "./schemaOrigin";
import type { ArgumentValidator } from "./validation";
import { type InjectedParameter, injectedParameters } from "./injectedParameters";
import type { JsonSchema } from "./jsonSchema";
import { type StrictCompatibility, strictCompatibility } from "./strictCompatibility";
import { checkToolAnnotations, checkToolTitle, type ToolAnnotations } from "./toolAnnotations";
import { checkToolLimits, type ToolLimits, type ToolRetries } from "./toolLimits";
import { isValidToolName } from "./toolName";
import { type InputsFromState, isMultipleOutputs, type MultipleOutputsToString, type OutputsToState, type OutputsToString, type OutputToString } from "./toolOutputs";

/** What a tool function gets besides its arguments. */
export interface ToolContext<S extends StateSchema = StateSchema> {
  /** The run's live State. Only for tools declared with `usesState: true` (reading it otherwise throws). */
  readonly state: State<S>;
  /** Aborted when the run is aborted or the call times out; pass it on to I/O. */
  readonly signal: AbortSignal;
  /** The model's call being answered. */
  readonly toolCall: ToolCall;
  /**
   * The same for this call however often it runs: the run's `runId`, the step and the call's id
   * (`<runId>:<step>:<call id>`). A step run again after a crash (from its checkpoint) gives its
   * calls the same keys, so a tool with side effects can do them once (pass it to a payment API,
   * or record it with a unique constraint).
   */
  readonly idempotencyKey: string;
  /**
   * Tells whoever watches the run how far the call has got: the run's streaming callback (and
   * `agent.stream`) receives a `toolProgress` chunk for it. For long calls a UI shows; it never
   * fails the call (a value that is not a finite number, or a callback that throws, is dropped).
   */
  reportProgress(progress: ToolProgress): void;
}

/** How far a running tool call has got (`context.reportProgress`). */
export interface ToolProgress {
  /** How much is done (a finite number; it should grow from one report to the next). */
  readonly progress: number;
  /** How much there is in all, when known. */
  readonly total?: number;
  /** What the tool is doing now, for a person to read. */
  readonly message?: string;
}

/** Parameters of a Tool: a JSON Schema object, or a zod object. */
export type ToolParameters = JsonSchema | z.ZodObject;

/** The arguments a tool function receives for its parameters. */
export type ToolArguments<P extends ToolParameters> = P extends z.ZodObject ? z.output<P> & Record<string, unknown> : Record<string, unknown>;

/** Options of `new Tool(...)`. */
export interface ToolOptions<P extends ToolParameters = ToolParameters> {
  /** 1–64 characters of `[a-zA-Z0-9_-]`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** The arguments the tool takes: a JSON Schema with `type: "object"`, or a zod object. */
  parameters: P;
  /** Runs the tool with the validated arguments plus the values `inputsFromState` injects. */
  function: (args: ToolArguments<P>, context: ToolContext) => unknown;
  /** state key → argument name; those arguments are filled from state and hidden from the model. */
  inputsFromState?: InputsFromState;
  /** state key → `{ source?, handler? }`: which part of the result is merged into which key. */
  outputsToState?: OutputsToState;
  /** How the result becomes the text the model sees. */
  outputsToString?: OutputsToString | MultipleOutputsToString;
  /**
   * Set when the function reads or writes `context.state`: its calls are then ordered against every
   * other call of the same step, so they never race.
   */
  usesState?: boolean;
  /** Source location for messages (`file:line:col`); set by generated code. */
  source?: string;
  /**
   * The JSON Schema of what the function returns (a decorated method's comes from its declared
   * return type). `serveMcp` lists it as the tool's MCP `outputSchema` and sends the result as
   * `structuredContent`; the model still gets the text.
   */
  outputSchema?: JsonSchema;
  /** A name for people (a client's tool list); the model sees `name`. */
  title?: string;
  /** Hints about what the tool does, for clients (MCP tool annotations). */
  annotations?: ToolAnnotations;
  /** A call that takes longer fails with a timeout message (its signal is aborted); overrides the Agent's `toolTimeoutMs` for this tool. */
  timeoutMs?: number;
  /** How often a failed call runs again, with backoff: only when the tool is idempotent or the error says `retryable: true`. */
  retries?: ToolRetries;
  /** The most characters of one result the model is sent (the rest is cut, with a notice); overrides the Agent's `maxToolResultChars`. */
  maxResultChars?: number;
  /** Calling the tool twice with the same arguments does no more than once (default `annotations.idempotentHint`): a failed call may then be retried. */
  idempotent?: boolean;
}

/** A tool that runs an agent: the tool-calling step runs it through `run`, with what the step knows. */
export interface SubRunTool {
  run(args: Record<string, unknown>, context: ToolContext, call: SubRunCall): Promise<SubRunOutcome>;
  /** Checks a paused sub-run's snapshot and the decisions for it as its Agent would on resume; throws SnapshotError or DecisionError. */
  checkResume(snapshot: unknown, decisions: ReadonlyMap<string, ConfirmationDecision>): void;
}

/** How a tool run is set up after checking; what the tool-calling step works from. */
interface ToolInternals {
  readonly validator: ArgumentValidator;
  readonly run: (args: Record<string, unknown>, context: ToolContext) => unknown;
  /** The parameters `inputsFromState` fills, by parameter name. */
  readonly injected: ReadonlyMap<string, InjectedParameter>;
  /** `inputsFromState` as [state key, parameter] pairs (empty for most tools: the call path skips injection). */
  readonly inputsFromState: ReadonlyArray<readonly [string, string]>;
  /** The state keys `outputsToState` writes (for ordering a step's calls). */
  readonly writesKeys: readonly string[];
  /** The options the tool was made with (a copy), so that a definition can make it again with other settings. */
  readonly options: Readonly<ToolOptions>;
  /** The tool's own time limit, retries and result size cap, checked. */
  readonly limits: ToolLimits;
  /** For a tool that runs an agent (`agent.asTool()`): how the step runs it, able to pause. */
  subRun?: SubRunTool;
}

/** Checks a tool name against the provider rule; returns the problem, or undefined. */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return `the name must be a string, got ${describeKind(name)}`;
  if (!isValidToolName(name)) return `'${name}' is not a valid tool name: use 1-64 characters of letters, digits, '_' and '-'`;
  return undefined;
}

const internals = new WeakMap<Tool, ToolInternals>();

/**
 * Marks the options of a Tool whose JSON Schema `toolwright codegen` wrote (a decorated method): it
 * is compiled without the meta-schema check. Not exported from the package.
 */
export const generatedSchema = Symbol("toolwright.generatedSchema");

/**
 * A tool the model can call that is not a decorated method: a name, a description, parameters
 * (JSON Schema or zod) and a function.
 *
 * @example
 * new Tool({
 *   name: "search", description: "Search documents.",
 *   parameters: z.object({ query: z.string() }),
 *   function: async ({ query }, { signal }) => searchDocs(query, signal),
 * });
 */
export class Tool<P extends ToolParameters = ToolParameters> {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema the model sees: the parameters without those `inputsFromState` fills. */
  readonly parameters: JsonSchema;
  readonly inputsFromState: Readonly<InputsFromState>;
  readonly outputsToState: Readonly<OutputsToState>;
  readonly outputsToString: OutputsToString | MultipleOutputsToString | undefined;
  readonly usesState: boolean;
  /** Whether `parameters` can be sent in OpenAI strict mode, and why not. */
  readonly strictCompatibility: StrictCompatibility;
  readonly source: string | undefined;
  /** The JSON Schema of what the tool returns, when known. */
  readonly outputSchema: JsonSchema | undefined;
  /** A name for people, when given. */
  readonly title: string | undefined;
  /** Hints about what the tool does, when given. */
  readonly annotations: Readonly<ToolAnnotations> | undefined;
  /** The tool's own time limit per attempt, in ms, when given (else the Agent's `toolTimeoutMs`). */
  readonly timeoutMs: number | undefined;
  /** How a failed call is tried again, when given (defaults filled in). */
  readonly retries: Readonly<Required<ToolRetries>> | undefined;
  /** The tool's own cap on the characters of a result the model is sent, when given (else the Agent's `maxToolResultChars`). */
  readonly maxResultChars: number | undefined;

  constructor(options: ToolOptions<P>) {
    const subject = typeof options?.name === "string" ? `Tool '${options.name}'` : "Tool";
    if (typeof options !== "object" || options === null) throw new ConfigurationError(subject, `new Tool(options) needs an options object, got ${describeKind(options)}.`);
    const nameProblem = toolNameProblem(options.name);
    if (nameProblem) throw new ConfigurationError(subject, `${subject} has an invalid name: ${nameProblem}.`);
    if (typeof options.description !== "string") throw new ConfigurationError(subject, `${subject} needs a description string for the model, got ${describeKind(options.description)}.`);
    if (typeof options.function !== "function") throw new ConfigurationError(subject, `${subject} needs a function to run, got ${describeKind(options.function)}.`);
    const inputsFromState = checkInputsFromState(subject, options.inputsFromState);
    const origin: SchemaOrigin = (options as { [generatedSchema]?: true })[generatedSchema] ? "generated" : "user";
    const { modelSchema, validator, injected } = buildParameters(subject, options.parameters, new Set(Object.values(inputsFromState)), origin);
    this.name = options.name;
    this.description = options.description;
    // A frozen copy: a chat generator handed the tool specs cannot change what later requests send.
    this.parameters = deepFreeze(jsonCopy(modelSchema));
    this.inputsFromState = inputsFromState;
    this.outputsToState = checkOutputsToState(subject, options.outputsToState);
    this.outputsToString = checkOutputsToString(subject, options.outputsToString);
    this.usesState = options.usesState ?? false;
    this.strictCompatibility = strictCompatibility(modelSchema);
    this.source = options.source;
    this.outputSchema = checkOutputSchema(subject, options.outputSchema);
    this.title = checkToolTitle(subject, options.title);
    this.annotations = checkToolAnnotations(subject, options.annotations);
    const limits = checkToolLimits(subject, options);
    this.timeoutMs = limits.timeoutMs;
    this.retries = limits.retries;
    this.maxResultChars = limits.maxResultChars;
    const fn = options.function as (args: Record<string, unknown>, context: ToolContext) => unknown;
    internals.set(this, {
      validator,
      run: fn,
      injected,
      inputsFromState: Object.entries(inputsFromState),
      writesKeys: Object.keys(this.outputsToState),
      limits,
      options: Object.freeze({ ...options }) as unknown as Readonly<ToolOptions>,
    });
    Object.freeze(this);
  }
}

/** Makes `tool` a tool that runs an agent: the tool-calling step runs it through `subRun` (a variant of it carries it on). */
export function setSubRun(tool: Tool, subRun: SubRunTool): void {
  internals.get(tool)!.subRun = subRun;
}

/** The validator and function of a tool, for the tool-calling step. */
export function toolInternals(tool: Tool): ToolInternals {
  return internals.get(tool)!;
}

function buildParameters(subject: string, parameters: unknown, injected: Set<string>, origin: SchemaOrigin): Pick<ToolInternals, "validator" | "injected"> & { modelSchema: JsonSchema } {
  const version = zodVersionProblem(parameters);
  if (version) throw new ConfigurationError(subject, `${subject} has parameters toolwright cannot read: ${version}.`);
  if (isZodSchema(parameters)) {
    if (zodDef(parameters).type !== "object") {
      throw new ConfigurationError(subject, `${subject} has zod parameters that are not an object: pass z.object({...}).`);
    }
    const zodObject = parameters as unknown as z.ZodObject;
    checkInjectedNames(subject, injected, Object.keys(zodObject.shape));
    const visible = (injected.size > 0 ? zodObject.omit(Object.fromEntries([...injected].map((k) => [k, true])) as Record<string, true & never>) : zodObject).strict();
    const modelSchema = jsonSchemaOfZod(subject, visible);
    const declared = injected.size > 0 ? injectedParameters(jsonSchemaOfZod(subject, zodObject), injected, "code") : new Map();
    return { modelSchema, validator: zodArgumentValidator(visible, modelSchema), injected: declared };
  }
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new ConfigurationError(subject, `${subject} needs parameters: a JSON Schema object or a zod object, got ${describeKind(parameters)}.`);
  }
  const schema = parameters as JsonSchema;
  if (schema.type !== "object") {
    throw new ConfigurationError(subject, `${subject} has parameters whose type is not "object": tool arguments are always an object; wrap them as { type: "object", properties: {...} }.`);
  }
  checkInjectedNames(subject, injected, Object.keys(schema.properties ?? {}));
  const modelSchema = withoutProperties(schema, injected);
  // Compiled on the tool's first call: defining tools costs nothing at start-up.
  return { modelSchema, validator: jsonSchemaValidator(modelSchema, subject, origin), injected: injectedParameters(schema, injected, origin) };
}

function checkInjectedNames(subject: string, injected: Set<string>, properties: string[]): void {
  for (const name of injected) {
    if (!properties.includes(name)) {
      throw new ConfigurationError(
        subject,
        `${subject} fills '${name}' from state, but '${name}' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: ${properties.join(", ") || "none"}.`,
      );
    }
  }
}

function jsonSchemaOfZod(subject: string, schema: z.ZodObject): JsonSchema {
  try {
    const { $schema: _ignored, ...json } = zod().toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema;
    return json;
  } catch (error) {
    throw new ConfigurationError(subject, `${subject} has zod parameters with no JSON Schema form: ${(error as Error).message}.`, { cause: error });
  }
}

function withoutProperties(schema: JsonSchema, names: Set<string>): JsonSchema {
  if (names.size === 0) return { additionalProperties: false, ...schema };
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => !names.has(k)));
  const required = (schema.required ?? []).filter((k) => !names.has(k));
  return { additionalProperties: false, ...schema, properties, required };
}

function checkOutputSchema(subject: string, value: unknown): JsonSchema | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has an outputSchema that is not a JSON Schema object, got ${describeKind(value)}.`);
  }
  return deepFreeze(jsonCopy(value as JsonSchema));
}

function checkInputsFromState(subject: string, value: unknown): InputsFromState {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has inputsFromState that is not an object of { stateKey: parameterName }, got ${describeKind(value)}.`);
  }
  for (const [key, param] of Object.entries(value)) {
    if (typeof param !== "string") {
      throw new ConfigurationError(subject, `${subject} maps state key '${key}' in inputsFromState to ${describeKind(param)}; the value must be the name of the parameter it fills.`);
    }
  }
  return Object.freeze({ ...(value as InputsFromState) });
}

function checkOutputsToState(subject: string, value: unknown): OutputsToState {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has outputsToState that is not an object of { stateKey: { source?, handler? } }, got ${describeKind(value)}.`);
  }
  for (const [key, config] of Object.entries(value)) {
    const where = `${subject} has outputsToState.${key}`;
    if (typeof config !== "object" || config === null || Array.isArray(config)) throw new ConfigurationError(subject, `${where} that is not { source?, handler? }, got ${describeKind(config)}.`);
    const unknownKeys = Object.keys(config).filter((k) => k !== "source" && k !== "handler");
    if (unknownKeys.length > 0) throw new ConfigurationError(subject, `${where} with unknown option '${unknownKeys[0]}'; the options are source and handler.`);
    if (config.source !== undefined && typeof config.source !== "string") throw new ConfigurationError(subject, `${where}.source that is not a string, got ${describeKind(config.source)}.`);
    if (config.handler !== undefined && typeof config.handler !== "function") throw new ConfigurationError(subject, `${where}.handler that is not a function, got ${describeKind(config.handler)}.`);
  }
  return Object.freeze({ ...(value as OutputsToState) });
}

function checkOutputsToString(subject: string, value: unknown): OutputsToString | MultipleOutputsToString | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has outputsToString that is not { source?, handler?, rawResult? }, got ${describeKind(value)}.`);
  }
  // Several outputs when some value is an object: `{ sourc: "summary" }` is a misspelled single form.
  if (isMultipleOutputs(value as OutputsToString) && Object.values(value).some((output) => typeof output === "object" && output !== null)) return checkMultipleOutputs(subject, value as Record<string, unknown>);
  const config = value as OutputsToString;
  const unknownKeys = Object.keys(config).filter((k) => !["source", "handler", "rawResult"].includes(k));
  if (unknownKeys.length > 0) throw new ConfigurationError(subject, `${subject} has outputsToString with unknown option '${unknownKeys[0]}'; the options are source, handler and rawResult.`);
  if (config.source !== undefined && typeof config.source !== "string") throw new ConfigurationError(subject, `${subject} has outputsToString.source that is not a string, got ${describeKind(config.source)}.`);
  if (config.handler !== undefined && typeof config.handler !== "function") throw new ConfigurationError(subject, `${subject} has outputsToString.handler that is not a function, got ${describeKind(config.handler)}.`);
  if (config.rawResult !== undefined && typeof config.rawResult !== "boolean") throw new ConfigurationError(subject, `${subject} has outputsToString.rawResult that is not a boolean, got ${describeKind(config.rawResult)}.`);
  return Object.freeze({ ...config });
}

// Haystack's several-outputs form: output name → { source?, handler? } (rawResult has no meaning there).
function checkMultipleOutputs(subject: string, value: Record<string, unknown>): MultipleOutputsToString {
  const outputs: Record<string, OutputToString> = {};
  for (const [name, output] of Object.entries(value)) {
    const where = `${subject} has outputsToString.${name}`;
    if (typeof output !== "object" || output === null || Array.isArray(output)) {
      throw new ConfigurationError(subject, `${where} that is not { source?, handler? }, got ${describeKind(output)}; outputsToString is { source?, handler?, rawResult? }, or output name → { source?, handler? } for several outputs.`);
    }
    const unknownKey = Object.keys(output).find((key) => key !== "source" && key !== "handler");
    if (unknownKey !== undefined) throw new ConfigurationError(subject, `${where} with unknown option '${unknownKey}'; each of several outputs takes source and handler (rawResult only in the single form).`);
    const { source, handler } = output as OutputToString;
    if (source !== undefined && typeof source !== "string") throw new ConfigurationError(subject, `${where}.source that is not a string, got ${describeKind(source)}.`);
    if (handler !== undefined && typeof handler !== "function") throw new ConfigurationError(subject, `${where}.handler that is not a function, got ${describeKind(handler)}.`);
    Object.defineProperty(outputs, name, { value: Object.freeze({ ...(output as OutputToString) }), enumerable: true });
  }
  return Object.freeze(outputs);
}
