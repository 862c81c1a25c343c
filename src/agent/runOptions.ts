import type { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { ConfigurationError } from "../errors";
import type { NormalizedStateKey } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import { truncateForEcho } from "../util/truncate";
import { agentOptions } from "./agentOptions";
import type { AgentRunOptions } from "./agentTypes";
import type { Breakpoint } from "./breakpoint";
import { checkOption, option, type OptionSpec } from "./optionSpec";

function isBreakpoint(value: unknown): boolean {
  const breakpoint = value as Partial<Breakpoint> | null;
  return (
    typeof breakpoint === "object" &&
    breakpoint !== null &&
    (breakpoint.at === "chat_generator" || breakpoint.at === "tool") &&
    (breakpoint.visit === undefined || (Number.isInteger(breakpoint.visit) && breakpoint.visit >= 0)) &&
    (breakpoint.toolName === undefined || breakpoint.at === "tool")
  );
}

/**
 * The options of `agent.run(...)`, declared once: each option's rule and the `ConfigurationError`
 * message a value that breaks it gets. Run options are code only (no definition holds them).
 * `tools`, `outputSchema`, `snapshot` and `decisions` are checked where they are used (the run's
 * tool selection, its final-output check, the resume); `confirmationContext` may be anything.
 */
export const runOptions = {
  messages: option<ChatMessage[] | undefined>({
    rule: { kind: "list", minItems: 0 },
    message: (value) => `Agent.run needs messages as an array of ChatMessage, got ${describeKind(value)}.`,
  }),
  systemPrompt: agentOptions.systemPrompt,
  generationKwargs: option<Record<string, unknown> | undefined>({
    rule: { kind: "record" },
    message: (value) => `Agent.run has generationKwargs that is not an object of provider options, got ${describeKind(value)}.`,
  }),
  signal: option<AbortSignal | undefined>({
    rule: { kind: "custom", accepts: (value: unknown) => typeof value === "object" && value !== null && typeof (value as AbortSignal).aborted === "boolean" && typeof (value as AbortSignal).addEventListener === "function" },
    message: (value) => `Agent.run has a signal that is not an AbortSignal, got ${describeKind(value)}; pass controller.signal of an AbortController.`,
  }),
  runId: option<string | undefined>({
    rule: { kind: "name" },
    message: (value) => `Agent.run has a runId that is not a string of 1 to 200 characters, got ${describeKind(value)}; pass a stable id of the run, or leave it out for a random one.`,
  }),
  onCheckpoint: option<AgentRunOptions["onCheckpoint"]>({
    rule: { kind: "function" },
    message: (value) => `Agent.run has an onCheckpoint that is not a function, got ${describeKind(value)}; pass (snapshot) => save(snapshot).`,
  }),
  streamingCallback: agentOptions.streamingCallback,
  hooks: agentOptions.hooks,
  breakpoint: option<Breakpoint | undefined>({
    // Its tool is checked against the run's tools (`checkBreakpoint`).
    rule: { kind: "custom", accepts: isBreakpoint },
    message: (value) => `Agent.run has a breakpoint that is not { at: "chat_generator" | "tool", toolName? (with "tool"), visit? (a whole number ≥ 0) }, got ${JSON.stringify(value)}.`,
  }),
  promptVariables: option<Readonly<Record<string, unknown>> | undefined>({
    // Its names are checked against the state keys (`checkPromptVariables`).
    rule: { kind: "record" },
    message: (value) => `Agent.run has promptVariables that is not an object of { name: value }, got ${describeKind(value)}.`,
  }),
} as const;

// Checked at the run's start, in this order; the others where the run uses them.
const checkedFirst = ["messages", "systemPrompt", "generationKwargs", "signal", "runId", "onCheckpoint"] as const;

/** Checks the run options that need no context (the tools, state keys or snapshot of the run); a JavaScript caller can pass anything. */
export function checkRunOptions(input: AgentRunOptions): void {
  for (const name of checkedFirst) checkOption(runOptions[name] as OptionSpec<unknown>, input[name], "Agent.run");
}

/** Checks a run's (or the Agent's) streaming callback. */
export function checkCallback(value: unknown, subject: "Agent" | "Agent.run"): StreamingCallback | undefined {
  return checkOption(runOptions.streamingCallback, value, subject);
}

/** Checks a run's breakpoint: its shape, and that its tool is one of the run's. */
export function checkBreakpoint(value: unknown, toolNames: readonly string[]): Breakpoint | undefined {
  const breakpoint = checkOption(runOptions.breakpoint, value, "Agent.run");
  if (breakpoint?.toolName !== undefined && !toolNames.includes(breakpoint.toolName)) {
    throw new ConfigurationError("Agent.run", `Agent.run has a breakpoint on tool '${breakpoint.toolName}', which is not one of the run's tools: ${toolNames.join(", ") || "none"}.`);
  }
  return breakpoint;
}

const noVariables: Readonly<Record<string, unknown>> = Object.freeze({});

/** Checks a run's prompt variables (the run's own values for its templates; a state key is given as itself) and returns a frozen copy. */
export function checkPromptVariables(value: unknown, stateKeys: ReadonlyMap<string, NormalizedStateKey>): Readonly<Record<string, unknown>> {
  const given = checkOption(runOptions.promptVariables, value, "Agent.run");
  if (given === undefined) return noVariables;
  const variables: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(given)) {
    if (stateKeys.has(key)) throw new ConfigurationError("Agent.run", `Agent.run has prompt variable '${truncateForEcho(key)}', which is a state key; give it as the state key's initial value (run({ ${key}: ... })), which templates read too.`);
    setOwn(variables, key, item);
  }
  return Object.freeze(variables);
}
