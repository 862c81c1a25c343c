import type { BudgetLimits, ModelPrice } from "../budgets/budgetLimits";
import type { ChatGeneratorDefinition } from "../chat/chatGenerator";
import type { DenyPatternsOptions } from "../guardrails/denyPatterns";
import type { MaxInputLengthOptions } from "../guardrails/maxInputLength";
import type { JsonValue } from "../state/jsonCodec";
import type { JsonSchema } from "../tools/jsonSchema";

/**
 * An Agent as plain data: what `agent.toJSON()` returns and `Agent.fromJSON` / `loadAgent` read.
 * Everything that is code is named, never included: tools, merge handlers and confirmation
 * strategies by the names a registry and the generated modules offer, secrets by
 * environment-variable name. The published JSON Schema of this format is
 * `toolwright/agent-definition.schema.json`.
 */
export interface AgentDefinition {
  /** The JSON Schema of the format, for editors (ignored when read). */
  readonly $schema?: string;
  /** The format's version: 1. */
  readonly version: 1;
  /** The Agent's name (traces, events). */
  readonly name?: string;
  /** The chat model: a built-in generator type with its options, or a `registry.chatGenerators` name. */
  readonly chatGenerator: ChatGeneratorDefinition;
  /** The tools, in order: decorated classes, registry tools and toolsets. */
  readonly tools?: readonly ToolReference[];
  /** A Jinja template rendered over the run's state and prompt variables: the system message of every run. */
  readonly systemPrompt?: string;
  /** A Jinja template rendered like `systemPrompt`: a user message appended to the run's messages. */
  readonly userPrompt?: string;
  /** State keys: a JSON Schema type each, and a merge handler by name. */
  readonly stateSchema?: Readonly<Record<string, StateKeyDefinition>>;
  /** The final answer's JSON Schema (an object): the run's `outputSchema`. */
  readonly outputSchema?: JsonSchema;
  /** What ends a run: `"text"` and tool names. */
  readonly exitConditions?: readonly string[];
  readonly maxAgentSteps?: number;
  readonly maxOutputRetries?: number;
  readonly toolConcurrency?: number;
  readonly toolTimeoutMs?: number;
  /** The most characters of one tool result the model is sent. Default 100,000. */
  readonly maxToolResultChars?: number;
  readonly raiseOnToolInvocationFailure?: boolean;
  /** Tool name (or `"*"`) → how its calls are confirmed. */
  readonly confirmationStrategies?: Readonly<Record<string, ConfirmationDefinition>>;
  /** Built-in guardrails by the point they check, as middleware before the budget and compaction. */
  readonly guardrails?: GuardrailsDefinition;
  /** Per-run limits, as `budget()` takes them (the cost priced for a model named by string): the Agent gets `budget(limits)` as middleware. */
  readonly budget?: BudgetDefinition;
  /** What the model is sent, kept short: `pruneToolResults`, then `slidingWindow`, as middleware after the budget. */
  readonly compaction?: CompactionDefinition;
  /** The snapshot signing key, by environment-variable name. */
  readonly snapshotKey?: SecretReference;
}

/** A budget's limits as data: `BudgetLimits` with the cost's model named by string. */
export interface BudgetDefinition extends Omit<BudgetLimits, "maxCost"> {
  readonly maxCost?: { readonly amount: number; readonly model: string; readonly prices: Readonly<Record<string, ModelPrice>> };
}

/** Compaction as data: the options of `pruneToolResults` and `slidingWindow` that are plain values. */
export interface CompactionDefinition {
  readonly pruneToolResults?: { readonly keepLast?: number; readonly maxChars?: number };
  readonly slidingWindow?: { readonly maxTokens: number };
  /** How `slidingWindow` counts tokens: `"estimate"` (`estimateTokenCounter`, the default) or `"gpt"` (`gptTokenCounter()`, o200k_base; needs `gpt-tokenizer` installed). */
  readonly tokenCounter?: "estimate" | "gpt";
}

/**
 * Guardrails as data, keyed by the point they check — the `point` a guardrail is given and a trip
 * reports in `result.stopped.details.point` — so each list is one factory: `input` →
 * `inputGuardrail`, `output` → `outputGuardrail`, `toolCall` → `toolGuardrail` with `when:
 * "before"`, `toolResult` → with `when: "after"`. `openAIModeration` has no data form (it needs a
 * client): pass it in code, `Agent.fromJSON(data, { middleware })`.
 */
export interface GuardrailsDefinition {
  readonly input?: readonly GuardrailDefinition[];
  readonly output?: readonly GuardrailDefinition[];
  readonly toolCall?: readonly ToolGuardrailDefinition[];
  readonly toolResult?: readonly ToolGuardrailDefinition[];
}

/** One built-in guardrail by its factory's name, with that factory's options. */
export type GuardrailDefinition = { readonly maxInputLength: MaxInputLengthOptions } | { readonly denyPatterns: DenyPatternsOptions };

/** A built-in guardrail at a tool point, with `toolGuardrail`'s `tools` (default every tool). */
export type ToolGuardrailDefinition = GuardrailDefinition & { readonly tools?: readonly string[] };

/** A secret by the name of the environment variable that holds it. */
export interface SecretReference {
  readonly env: string;
}

/** One state key: its values' JSON Schema and how writes merge (a handler name). */
export interface StateKeyDefinition {
  /** The JSON Schema every value must satisfy (checked on every write, as a zod type is). Absent only for `messages`. */
  readonly type?: JsonSchema;
  /** `mergeLists`, `replaceValues`, or a `registry.handlers` name. Default: `mergeLists` for arrays, else `replaceValues`. */
  readonly handler?: string;
}

/** How a tool's results reach state and the model, set or overridden in a definition. */
export interface ToolSettings {
  /** Replaces the tool's description. */
  readonly description?: string;
  /** state key → the parameter it fills; replaces the tool's own (a parameter the code hides stays hidden). */
  readonly inputsFromState?: Readonly<Record<string, string>>;
  /** state key → which part of the result is written, with a handler by name; replaces the tool's own. */
  readonly outputsToState?: Readonly<Record<string, { readonly source?: string; readonly handler?: string }>>;
  /** How the result becomes the model's text, with a handler by name; replaces the tool's own. */
  readonly outputsToString?: { readonly source?: string; readonly handler?: string; readonly rawResult?: boolean };
}

/** The tools of a class with `@tool` methods, as the generated module describes it. */
export interface ClassToolsReference {
  /** The class name: an instance is made by `registry.classes[name]`; a class with static tools needs none. */
  readonly class: string;
  /** The file the class is declared in, to tell apart two classes of the same name. */
  readonly file?: string;
  /** Only these of the class's tools (by tool name). Default: all of them. */
  readonly include?: readonly string[];
  /** Settings for some of the class's tools, by tool name. */
  readonly tools?: Readonly<Record<string, ToolSettings>>;
}

/** A `Tool` or `defineTool` function by name: a `registry.tools` entry, or a defineTool function of the generated modules. */
export interface NamedToolReference extends ToolSettings {
  readonly tool: string;
}

/** A `Toolset` by its `registry.toolsets` name. */
export interface ToolsetReference {
  readonly toolset: string;
}

/** One entry of a definition's `tools`. */
export type ToolReference = ClassToolsReference | NamedToolReference | ToolsetReference;

/** A confirmation strategy: `deferred` (with a policy), or a `registry.confirmationStrategies` name. */
export interface ConfirmationDefinition {
  readonly strategy: string;
  /** For `deferred`: `alwaysAsk` (default), `neverAsk`, `askOnce`, or a `registry.confirmationPolicies` name. */
  readonly policy?: string;
}

/** Options of a chat generator as data (JSON values; secrets as `{ env }`). */
export type ChatGeneratorOptionsDefinition = Readonly<Record<string, JsonValue>>;
