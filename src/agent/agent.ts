import type { ChatGenerator, ToolSpec } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { ConfigurationError, StateKeyError } from "../errors";
import { State } from "../state/state";
import { type NormalizedStateKey, normalizeStateSchema, type StateInitialValues, type StateSchema } from "../state/stateSchema";
import { resolveTools, type ToolSource } from "../tools/resolveTools";
import type { Tool } from "../tools/tool";
import { describeKind } from "../util/describeValue";
import { type AgentOptions, type AgentResult, type AgentRunInput, type AgentRunOptions, runOptionKeys } from "./agentTypes";
import { runLoop } from "./runLoop";
import { checkCount, checkExitConditions, checkReservedKeys, checkToolStateKeys } from "./validateAgentOptions";

/**
 * An LLM agent: calls a chat model in a loop, runs the tools it asks for, merges their outputs
 * into typed State, and stops on a text reply, an exit-condition tool, or `maxAgentSteps`.
 * Construction checks the whole setup and throws `ConfigurationError`s; an Agent holds no run
 * state, so `run` may be called concurrently.
 *
 * @example
 * const agent = new Agent({ chatGenerator, tools: [new SupportTools(store)], stateSchema: supportState });
 * const result = await agent.run({ messages: [ChatMessage.fromUser("Find my open tickets")], customer_id: "c-42" });
 * result.lastMessage.text; result.tickets; result.exitReason;
 */
export class Agent<S extends StateSchema = {}> {
  readonly #chatGenerator: ChatGenerator;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #toolSpecs: readonly ToolSpec[];
  readonly #systemPrompt: string | undefined;
  readonly #stateSchema: S | undefined;
  readonly #stateKeys: ReadonlyMap<string, NormalizedStateKey>;
  readonly #exitConditions: readonly string[];
  readonly #maxAgentSteps: number;
  readonly #toolConcurrency: number;
  readonly #toolTimeoutMs: number | undefined;
  readonly #raiseOnToolInvocationFailure: boolean;
  readonly #streamingCallback: StreamingCallback | undefined;

  constructor(options: AgentOptions<S>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("Agent", `new Agent(options) needs an options object, got ${describeKind(options)}.`);
    if (typeof options.chatGenerator?.run !== "function") {
      throw new ConfigurationError(
        "Agent",
        `Agent needs a chatGenerator with a run(request) method, got ${describeKind(options.chatGenerator)}; pass new OpenAIChatGenerator({ model }) from toolwright/openai or new ScriptedChatGenerator(script) from toolwright/testing.`,
      );
    }
    this.#chatGenerator = options.chatGenerator;
    this.#stateSchema = options.stateSchema;
    this.#stateKeys = normalizeStateSchema(options.stateSchema);
    checkReservedKeys(this.#stateKeys);
    this.#tools = resolveTools(options.tools ?? [], "Agent");
    checkToolStateKeys(this.#tools.values(), this.#stateKeys);
    this.#toolSpecs = toolSpecs(this.#tools.values());
    this.#exitConditions = checkExitConditions(options.exitConditions, [...this.#tools.keys()]);
    this.#maxAgentSteps = checkCount("maxAgentSteps", options.maxAgentSteps, 100, "one step is one model call");
    this.#toolConcurrency = checkCount("toolConcurrency", options.toolConcurrency, 4, "how many tool calls of a step run at once");
    this.#toolTimeoutMs = checkTimeout(options.toolTimeoutMs);
    this.#systemPrompt = checkSystemPrompt(options.systemPrompt, "Agent");
    this.#raiseOnToolInvocationFailure = options.raiseOnToolInvocationFailure ?? false;
    this.#streamingCallback = checkCallback(options.streamingCallback, "Agent");
  }

  /** The Agent's tools, in order. */
  get tools(): Tool[] {
    return [...this.#tools.values()];
  }

  /**
   * Runs the agent on a conversation. Every state key of the schema may be given as an initial
   * value. Resolves with the messages, the last message, why the run ended, the step count and
   * every state key that has a value.
   */
  async run(input: AgentRunInput<S>): Promise<AgentResult<S>> {
    if (typeof input !== "object" || input === null) throw new TypeError(`Agent.run(input) needs an input object such as { messages: [...] }, got ${describeKind(input)}.`);
    checkRunOptions(input);
    const { tools, toolSpecs } = this.#toolsForRun((input as AgentRunOptions).tools);
    const state = this.#initialState(input) as unknown as State;
    const signal = input.signal ?? new AbortController().signal;
    const streamingCallback = input.streamingCallback === undefined ? this.#streamingCallback : checkCallback(input.streamingCallback, "Agent.run");
    const outcome = await runLoop({
      chatGenerator: this.#chatGenerator,
      tools,
      toolSpecs,
      state,
      exitConditions: this.#exitConditions,
      maxAgentSteps: this.#maxAgentSteps,
      toolConcurrency: this.#toolConcurrency,
      toolTimeoutMs: this.#toolTimeoutMs,
      raiseOnToolInvocationFailure: this.#raiseOnToolInvocationFailure,
      generationKwargs: input.generationKwargs,
      streamingCallback,
      signal,
    });
    const data = state.data as Record<string, unknown>;
    const messages = data.messages as ChatMessage[];
    return { ...data, messages, lastMessage: messages[messages.length - 1]!, exitReason: outcome.exitReason, stepCount: outcome.stepCount } as AgentResult<S>;
  }

  #initialState(input: AgentRunInput<S>): State<S> {
    const initial: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (runOptionKeys.has(key)) continue;
      if (!this.#stateKeys.has(key)) throw new StateKeyError(key, [...this.#stateKeys.keys()]);
      initial[key] = value;
    }
    const state = new State(this.#stateSchema, initial as StateInitialValues<S>);
    const systemPrompt = input.systemPrompt ?? this.#systemPrompt;
    const messages = [...(systemPrompt ? [ChatMessage.fromSystem(systemPrompt)] : []), ...(input.messages ?? [])];
    if (messages.length === 0) {
      throw new TypeError("Agent.run needs at least one message: pass messages (such as [ChatMessage.fromUser(...)]) or give the Agent a systemPrompt.");
    }
    state.set("messages", messages);
    return state;
  }

  #toolsForRun(selection: AgentRunOptions["tools"]): { tools: ReadonlyMap<string, Tool>; toolSpecs: readonly ToolSpec[] } {
    if (selection === undefined) return { tools: this.#tools, toolSpecs: this.#toolSpecs };
    if (!Array.isArray(selection)) throw new ConfigurationError("Agent.run", `Agent.run needs tools as an array of tool names or tools, got ${describeKind(selection)}.`);
    const sources: ToolSource[] = [];
    for (const item of selection) {
      if (typeof item !== "string") {
        sources.push(item);
        continue;
      }
      const tool = this.#tools.get(item);
      if (!tool) {
        throw new ConfigurationError("Agent.run", `Agent.run selected tool '${item}', which the Agent does not have; select from its tools: ${[...this.#tools.keys()].join(", ") || "none"}.`);
      }
      sources.push(tool);
    }
    const tools = resolveTools(sources, "Agent.run");
    checkToolStateKeys(tools.values(), this.#stateKeys);
    return { tools, toolSpecs: toolSpecs(tools.values()) };
  }
}

function toolSpecs(tools: Iterable<Tool>): readonly ToolSpec[] {
  return Object.freeze(
    [...tools].map((tool) => Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strictCompatibility.compatible })),
  );
}

function checkTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError("Agent", `Agent has toolTimeoutMs ${describeKind(value)}: it must be a positive number of milliseconds, or left out for no limit.`);
  }
  return value;
}

function checkCallback(value: unknown, subject: "Agent" | "Agent.run"): StreamingCallback | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new ConfigurationError(subject, `${subject} has a streamingCallback that is not a function, got ${describeKind(value)}.`);
  }
  return value as StreamingCallback | undefined;
}

function checkSystemPrompt(value: unknown, subject: "Agent" | "Agent.run"): string | undefined {
  if (value !== undefined && typeof value !== "string") {
    throw new ConfigurationError(subject, `${subject} has a systemPrompt that is not a string, got ${describeKind(value)}.`);
  }
  return value;
}

// The run options the constructor's checks do not cover; a JavaScript caller can pass anything.
function checkRunOptions(input: AgentRunOptions): void {
  if (input.messages !== undefined && !Array.isArray(input.messages)) {
    throw new TypeError(`Agent.run needs messages as an array of ChatMessage, got ${describeKind(input.messages)}.`);
  }
  checkSystemPrompt(input.systemPrompt, "Agent.run");
  const kwargs: unknown = input.generationKwargs;
  if (kwargs !== undefined && (typeof kwargs !== "object" || kwargs === null || Array.isArray(kwargs))) {
    throw new ConfigurationError("Agent.run", `Agent.run has generationKwargs that is not an object of provider options, got ${describeKind(kwargs)}.`);
  }
  const signal = input.signal as Partial<AbortSignal> | undefined;
  if (signal !== undefined && (typeof signal !== "object" || signal === null || typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")) {
    throw new ConfigurationError("Agent.run", `Agent.run has a signal that is not an AbortSignal, got ${describeKind(input.signal)}; pass controller.signal of an AbortController.`);
  }
}
