import type { ChatGenerator } from "../chat/chatGenerator";
import type { StreamingCallback } from "../chat/streaming";
import { ConfigurationError } from "../errors";
import type { ConfirmationStrategies, ConfirmationStrategy } from "../hitl/confirmationTypes";
import type { AgentTracing } from "../observe/agentTracing";
import { type AgentHooks, hookNames } from "../observe/runEvents";
import { isPromptTemplate, type PromptTemplate } from "../prompt/isPromptTemplate";
import { defaultMaxToolResultChars } from "../tools/toolLimits";
import { describeKind } from "../util/describeValue";
import { truncateForEcho } from "../util/truncate";
import { acceptsRule, checkOption, option, type OptionSpec } from "./optionSpec";

/** A prompt option: literal text, a template, or a function of the run's state. */
type PromptOption = string | PromptTemplate | ((...args: never[]) => unknown);

const promptRule = { kind: "custom", accepts: (value: unknown) => typeof value === "string" || typeof value === "function" || isPromptTemplate(value) } as const;

function promptSpec(name: "systemPrompt" | "userPrompt", description: string): OptionSpec<PromptOption | undefined> {
  return {
    rule: promptRule,
    message: (value, subject) => `${subject} has a ${name} that is not a string, a promptTemplate(...) or a function of the run's state, got ${describeKind(value)}.`,
    data: { rule: { kind: "text", maxLength: 100_000 }, what: "a Jinja template", description },
  };
}

/**
 * The options of `new Agent(...)`, declared once: each option's rule, the `ConfigurationError`
 * message a value in code that breaks it gets, its default, and its form in an agent definition
 * (where it has one: the definition format's zod type and the published JSON Schema are read from
 * it). `tools`, `stateSchema`, `outputSchema` and `snapshotKey` are checked where they are turned
 * into tools, state keys, a final-output check and a signer; a definition names them by reference.
 */
export const agentOptions = {
  chatGenerator: option<ChatGenerator>({
    rule: { kind: "custom", accepts: (value: unknown) => typeof (value as { run?: unknown } | null | undefined)?.run === "function" },
    required: true,
    message: (value) =>
      `Agent needs a chatGenerator with a run(request) method, got ${describeKind(value)}; pass new OpenAIChatGenerator({ model }) from toolwright/openai or new ScriptedChatGenerator(script) from toolwright/testing.`,
  }),
  name: option<string | undefined>({
    rule: { kind: "name" },
    message: (value) => `Agent has a name that is not a string of 1 to 200 characters, got ${describeKind(value)}; name it for traces (gen_ai.agent.name), e.g. "support-desk", or leave it out.`,
    data: { rule: { kind: "name" }, what: "the Agent's name in traces", description: "The Agent's name (traces and events)." },
  }),
  systemPrompt: promptSpec("systemPrompt", "A Jinja template over the run's state and prompt variables: the system message of every run."),
  userPrompt: promptSpec("userPrompt", "A Jinja template rendered like systemPrompt: a user message appended to the run's messages."),
  exitConditions: option<readonly string[]>({
    // Each condition is checked against the Agent's tools (`checkExitConditions`).
    rule: { kind: "list", minItems: 1 },
    fallback: ["text"],
    message: (value, _subject, valid) => `Agent has exitConditions ${describeKind(value)}: pass a non-empty array of "text" and tool names. Valid exit conditions: ${valid.join(", ")}.`,
    data: {
      rule: { kind: "list", minItems: 1, items: { kind: "name" }, notList: 'must be a list of "text" and tool names', tooFew: 'must list at least one exit condition ("text" or a tool name)' },
      what: '"text" or a tool name',
      description: 'What ends a run: "text" and tool names. Default ["text"].',
    },
  }),
  maxAgentSteps: option<number>({
    rule: { kind: "integer", min: 1 },
    fallback: 100,
    message: (value) => `Agent has maxAgentSteps ${describeKind(value)}: it must be a whole number of at least 1 (one step is one model call). Default 100.`,
    data: { rule: { kind: "integer", min: 1, max: 100_000 }, what: "the most model calls of a run", description: "The most model calls one run makes. Default 100." },
  }),
  maxOutputRetries: option<number>({
    rule: { kind: "integer", min: 0, max: 100 },
    fallback: 2,
    message: (value) => `Agent has maxOutputRetries ${describeKind(value)}: it must be a whole number from 0 to 100 (how many times an invalid final answer is sent back). Default 2.`,
    data: { rule: { kind: "integer", min: 0, max: 100 }, description: "How many times an invalid final answer is sent back for correction. Default 2." },
  }),
  toolConcurrency: option<number>({
    rule: { kind: "integer", min: 1 },
    fallback: 4,
    message: (value) => `Agent has toolConcurrency ${describeKind(value)}: it must be a whole number of at least 1 (how many tool calls of a step run at once). Default 4.`,
    data: { rule: { kind: "integer", min: 1, max: 1_000 }, what: "how many tool calls of a step run at once", description: "How many tool calls of one step run at once. Default 4." },
  }),
  toolTimeoutMs: option<number | undefined>({
    rule: { kind: "positive" },
    message: (value) => `Agent has toolTimeoutMs ${describeKind(value)}: it must be a positive number of milliseconds, or left out for no limit.`,
    // Whole milliseconds up to the largest delay setTimeout keeps (2^31 - 1).
    data: { rule: { kind: "integer", min: 1, max: 2_147_483_647 }, what: "milliseconds", description: "A tool call that takes longer fails, in milliseconds. Default: no limit." },
  }),
  maxToolResultChars: option<number>({
    rule: { kind: "integer", min: 1 },
    fallback: defaultMaxToolResultChars,
    message: (value) => `Agent has maxToolResultChars ${describeKind(value)}: it must be a whole number of at least 1 (the most characters of one tool result the model is sent). Default 100000.`,
    data: {
      rule: { kind: "integer", min: 1, max: 1_000_000_000 },
      what: "characters",
      description: "The most characters of one tool result the model is sent (a tool's own maxResultChars wins); a longer result is cut, with a notice naming the tool. Default 100000.",
    },
  }),
  raiseOnToolInvocationFailure: option<boolean>({
    rule: { kind: "boolean" },
    fallback: false,
    message: (value) => `Agent has raiseOnToolInvocationFailure ${describeKind(value)}: it must be true or false. Default false.`,
    data: { rule: { kind: "boolean" }, description: "Fail the run instead of telling the model when a tool call fails. Default false." },
  }),
  streamingCallback: option<StreamingCallback | undefined>({
    rule: { kind: "function" },
    message: (value, subject) => `${subject} has a streamingCallback that is not a function, got ${describeKind(value)}.`,
  }),
  confirmationStrategies: option<ConfirmationStrategies | undefined>({
    // Each entry is checked against the Agent's tools (`checkStrategies`).
    rule: { kind: "record" },
    message: (value) => `Agent has confirmationStrategies that are not an object of { toolName or "*": strategy }, got ${describeKind(value)}.`,
  }),
  hooks: option<AgentHooks | undefined>({
    // Each entry is checked against the hook names (`checkHooks`).
    rule: { kind: "record" },
    message: (value, subject) => `${subject} has hooks that are not an object of callbacks, got ${describeKind(value)}; pass { onModelEnd(event) { … }, … }.`,
  }),
  tracing: option<AgentTracing | undefined>({
    rule: { kind: "custom", accepts: (value: unknown) => typeof (value as Partial<AgentTracing> | null)?.startRun === "function" && typeof (value as AgentTracing).captureContent === "boolean" },
    message: (value) => `Agent has a tracing option that is not a tracer, got ${describeKind(value)}; pass openTelemetry() from toolwright/otel.`,
  }),
} as const;

/** The option names of `agentOptions`. */
export type AgentOptionName = keyof typeof agentOptions;

/** What an option of `agentOptions` holds once checked (its default when left out). */
export type AgentOptionValue<K extends AgentOptionName> = (typeof agentOptions)[K] extends OptionSpec<infer T> ? T : never;

/** Checks one option of `new Agent(...)` against its spec; returns it, or its default when left out. */
export function checkAgentOption<K extends AgentOptionName>(name: K, value: unknown): AgentOptionValue<K> {
  return checkOption(agentOptions[name] as OptionSpec<AgentOptionValue<K>>, value, "Agent");
}

/** The first exit condition that is neither "text" nor one of the tools, with its place in the list. */
export function findUnknownExitCondition(conditions: readonly unknown[], toolNames: readonly string[]): { index: number; condition: unknown } | undefined {
  const index = conditions.findIndex((condition) => typeof condition !== "string" || (condition !== "text" && !toolNames.includes(condition)));
  return index === -1 ? undefined : { index, condition: conditions[index] };
}

/** The rule an unknown exit condition breaks, as a definition states it (after the condition's path). */
export function unknownExitConditionReason(condition: string, toolNames: readonly string[]): string {
  return `is '${condition}', which is neither "text" nor the name of one of the Agent's tools. Valid exit conditions: ${["text", ...toolNames].join(", ")}.`;
}

/**
 * Checks exit conditions' form: a non-empty array of names. A tool name is not checked here: it may
 * name a tool given only for one run (`agent.run({ tools })`), as Haystack main allows;
 * `checkRunExitConditions` checks it when a run starts.
 */
export function checkExitConditions(value: unknown, toolNames: readonly string[]): readonly string[] {
  const valid = ["text", ...toolNames];
  const conditions = checkOption(agentOptions.exitConditions, value, "Agent", valid);
  const notName = conditions.findIndex((condition) => !acceptsRule({ kind: "name" }, condition));
  if (notName >= 0) {
    throw new ConfigurationError("Agent", `Agent has exit condition ${describeKind(conditions[notName])}, which is neither "text" nor a tool name. Valid exit conditions: ${valid.join(", ")}.`);
  }
  return Object.freeze([...conditions]);
}

/**
 * Checks, when a run starts, that each exit condition is "text" or one of the run's tools, so that
 * a misspelt name fails at once instead of never ending a run (Haystack main does not check).
 */
export function checkRunExitConditions(conditions: ReadonlySet<string>, toolNames: readonly string[]): void {
  for (const condition of conditions) {
    if (condition === "text" || toolNames.includes(condition)) continue;
    throw new ConfigurationError(
      "Agent.run",
      `Agent has exit condition '${condition}', which names none of this run's tools (${toolNames.join(", ") || "none"}); give the run that tool (new Agent({ tools }) or agent.run({ tools })) or correct the condition.`,
    );
  }
}

/** Checks confirmation strategies: each is for one of the Agent's tools (or `"*"`) and has a `decide` method. */
export function checkStrategies(value: unknown, toolNames: readonly string[]): ReadonlyMap<string, ConfirmationStrategy> | undefined {
  const strategies = checkOption(agentOptions.confirmationStrategies, value, "Agent");
  if (strategies === undefined) return undefined;
  for (const [key, strategy] of Object.entries(strategies)) {
    if (key !== "*" && !toolNames.includes(key)) {
      throw new ConfigurationError("Agent", `Agent has a confirmation strategy for '${key}', which is not one of its tools; use a tool name or "*". Tools: ${toolNames.join(", ") || "none"}.`);
    }
    if (typeof (strategy as { decide?: unknown })?.decide !== "function") {
      throw new ConfigurationError("Agent", `Agent has a confirmation strategy for '${key}' without a decide method, got ${describeKind(strategy)}; use BlockingConfirmationStrategy or DeferredConfirmationStrategy.`);
    }
  }
  return new Map(Object.entries(strategies));
}

const hookKeys: readonly string[] = [...hookNames, "onHookError"];

/** Checks lifecycle hooks (of the Agent, or of one run): known names, each a function. */
export function checkHooks(value: unknown, subject: "Agent" | "Agent.run"): AgentHooks | undefined {
  const hooks = checkOption(agentOptions.hooks, value, subject);
  if (hooks === undefined) return undefined;
  for (const key of Object.keys(hooks)) {
    if (!hookKeys.includes(key)) throw new ConfigurationError(subject, `${subject} has a hook '${truncateForEcho(key)}', which is not one of ${hookKeys.join(", ")}; check its spelling.`);
    const hook: unknown = (hooks as Record<string, unknown>)[key];
    if (hook !== undefined && typeof hook !== "function") throw new ConfigurationError(subject, `${subject} has a hook ${key} that is not a function, got ${describeKind(hook)}.`);
  }
  return hooks;
}
