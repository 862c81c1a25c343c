import { redactValues } from "../util/redact";
import { reportToolFault } from "../tools/reportToolFault";
import { ConfigurationError } from "../errors";
import { State } from "../state/state";
import { normalizeStateSchema, type StateInitialValues, type StateSchema } from "../state/stateSchema";
import { invokeTools } from "../tools/invokeTools";
import { resolveTools, type ToolSource } from "../tools/resolveTools";
import type { Tool } from "../tools/tool";
import type { ToolResultPart } from "../chat/chatMessage";
import { describeKind } from "../util/describeValue";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { AbortScope } from "../util/abortScope";
import { Semaphore } from "../util/semaphore";
import { checkOption } from "./optionSpec";
import { toolRunnerOptions } from "./toolRunnerOptions";
import { checkToolStateKeys } from "./validateAgentOptions";

/** Options of `new ToolRunner(...)`. */
export interface ToolRunnerOptions<S extends StateSchema = {}> {
  /** What an Agent takes: objects with `@tool` methods, `defineTool` results, `Tool`s, `Toolset`s. */
  tools: readonly ToolSource[];
  /** The state the calls read and write, as for an Agent. */
  stateSchema?: S;
  /** A call that takes longer fails with a timeout message (its signal is aborted). Default: no limit. */
  toolTimeoutMs?: number;
  /** What error messages call the runner. Default "ToolRunner" (`serveMcp` passes its own name). */
  name?: string;
}

/** One call, as a model would make it. */
export interface ToolRunnerCall {
  /** The tool's name. */
  readonly name: string;
  /** The arguments: an object, or JSON text (refused with a message when it is not valid JSON). */
  readonly arguments: Record<string, unknown> | string;
  /** The call's id, part of the tool's `context.idempotencyKey`. Default `call-<n>`. */
  readonly id?: string;
}

/** Where a call belongs, for its idempotency key (`<runId>:<step>:<id>`). */
export interface ToolRunnerCallOptions {
  /** Aborts the call (its tool's `context.signal`); the call then rejects with an AbortError. */
  readonly signal?: AbortSignal;
  /** Default "tool-runner". */
  readonly runId?: string;
  /** Default: the runner's call count. */
  readonly step?: number;
}

/** What the call gave: the text a model would get, and whether it failed. */
export interface ToolRunnerResult {
  readonly text: string;
  readonly error: boolean;
  /** What the tool returned, when the call succeeded (undefined when it failed). */
  readonly value?: unknown;
  /** A result with images or files: every part in order, as the model would get them (`ToolCallResult.parts`). */
  readonly parts?: readonly ToolResultPart[];
}

/**
 * Runs tool calls outside an Agent run, exactly as a model's calls are run in one: arguments
 * validated against the schema the model sees (so a parameter filled from state is an unknown
 * property), `inputsFromState` and `State` parameters filled from the given State, outputs merged
 * into it, and failures turned into the text a model gets, with injected values redacted. For
 * serving tools to other callers (`toolwright/mcp` serves them over MCP with it) or calling them
 * from your own endpoints with the same guarantees.
 *
 * @example
 * const runner = new ToolRunner({ tools: [new SupportTools(store)], stateSchema: supportState });
 * const state = runner.newState({ customer_id: session.customerId });
 * const { text, error } = await runner.call(state, { name: "search_tickets", arguments: { query: "open" } });
 */
export class ToolRunner<S extends StateSchema = {}> {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #stateSchema: S | undefined;
  readonly #timeoutMs: number | undefined;
  /** Per State: calls of tools that read or write it run one at a time. */
  readonly #stateLocks = new WeakMap<State<S>, Semaphore>();
  #calls = 0;

  constructor(options: ToolRunnerOptions<S>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("ToolRunner", `new ToolRunner(options) needs an options object with tools, got ${describeKind(options)}.`);
    const subject = typeof options.name === "string" ? options.name : "ToolRunner";
    const timeout = checkOption(toolRunnerOptions.toolTimeoutMs, options.toolTimeoutMs, subject);
    this.#tools = resolveTools(options.tools, subject);
    checkToolStateKeys(this.#tools.values(), normalizeStateSchema(options.stateSchema));
    this.#stateSchema = options.stateSchema;
    this.#timeoutMs = timeout;
  }

  /** The tools, in order. */
  get tools(): Tool[] {
    return [...this.#tools.values()];
  }

  /** A State of the runner's schema with these initial values (checked against their types). */
  newState(initial?: StateInitialValues<S>): State<S> {
    return new State(this.#stateSchema, initial);
  }

  /**
   * Runs one call on `state`. Resolves with what a model would get, failures included (unknown
   * tool, invalid arguments, a tool that threw or timed out); rejects only when `signal` aborts it.
   * Calls on one State of tools that read or write it (`inputsFromState`, `outputsToState`, a
   * `State` parameter) run one at a time, in the order they came; other calls run at once.
   */
  async call(state: State<S>, call: ToolRunnerCall, options: ToolRunnerCallOptions = {}): Promise<ToolRunnerResult> {
    if (!(state instanceof State)) throw new ConfigurationError("ToolRunner.call", `ToolRunner.call needs a State (runner.newState(...)), got ${describeKind(state)}.`);
    if (typeof call !== "object" || call === null || typeof call.name !== "string") {
      throw new ConfigurationError("ToolRunner.call", `ToolRunner.call needs a call { name, arguments }, got ${describeKind(call)}.`);
    }
    const step = options.step ?? ++this.#calls;
    const id = call.id ?? `call-${step}`;
    const tool = this.#tools.get(call.name);
    const touchesState = tool !== undefined && (tool.usesState || Object.keys(tool.inputsFromState).length > 0 || Object.keys(tool.outputsToState).length > 0);
    let lock: Semaphore | undefined;
    if (touchesState) {
      lock = this.#stateLocks.get(state);
      if (!lock) this.#stateLocks.set(state, (lock = new Semaphore(1)));
    }
    const release = await lock?.acquire();
    const abort = new AbortScope(options.signal);
    try {
      const [outcome] = await invokeTools(
        [{ id, toolName: call.name, arguments: callArguments(call.arguments) }],
        { tools: this.#tools, state: state as unknown as State, abort, redact: redactValues, reportFault: reportToolFault, concurrency: 1, raiseOnFailure: false, ...(this.#timeoutMs !== undefined && { timeoutMs: this.#timeoutMs }) },
        { runId: () => options.runId ?? "tool-runner", step, keys: [id] },
      );
      const result = outcome!.message.toolCallResults[0]!;
      return { text: result.result, error: result.error, ...(!result.error && { value: outcome!.value }), ...(result.parts !== undefined && { parts: result.parts }) };
    } finally {
      abort.dispose();
      release?.();
    }
  }
}

// Arguments nested past the limit are refused by ChatMessage (its copies recurse), so they go in as
// JSON text, as a chat generator passes them: the call then gets the tool-calling step's own answer
// ("… nest deeper than 64 levels …"). Text too deep for JSON.stringify is replaced by text just
// past the limit, which gets the same answer.
function callArguments(args: Record<string, unknown> | string | undefined): Record<string, unknown> | string {
  if (args === undefined || args === null) return {};
  if (typeof args === "string" || !nestingDepthExceeds(args, limits.maxArgumentDepth)) return args;
  try {
    return JSON.stringify(args);
  } catch {
    return `${'{"":'.repeat(limits.maxArgumentDepth)}{}${"}".repeat(limits.maxArgumentDepth)}`;
  }
}
