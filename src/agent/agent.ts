import type { ChatGenerator, ToolSpec } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { AbortError, ConfigurationError, DecisionError, DefinitionError, StateKeyError } from "../errors";
import type { ConfirmationStrategy } from "../hitl/confirmationTypes";
import { appendMessages, State } from "../state/state";
import { type NormalizedStateKey, normalizeStateSchema, type StateInitialValues, type StateSchema, type StateValues } from "../state/stateSchema";
import { resolveTools, type ToolSource } from "../tools/resolveTools";
import type { Tool } from "../tools/tool";
import { Toolset } from "../tools/toolset";
import { AbortScope } from "../util/abortScope";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import { type AgentOptions, type AgentResult, type AgentRunInput, type AgentRunOptions, runOptionKeys, type SystemPromptFunction, type SystemPromptRun } from "./agentTypes";
import type { AgentDefinition } from "../definition/agentDefinition";
import type { AgentFromJSONOptions, AgentToJSONOptions } from "../definition/agentDefinitionOptions";
import { isPromptTemplate, type PromptTemplate } from "../prompt/isPromptTemplate";
import { checkPromptBlocks, promptMessage } from "./promptMessage";
import { agentDefinitions } from "./agentDefinitions";
import { type FinalOutput, finalOutput, type OutputSchema } from "./finalOutput";
import { agentTool, type AgentToolOptions } from "../compose/agentTool";
import { nestedDepth } from "../compose/nestedRun";
import { type AgentStreamEvent, EventQueue } from "./agentStream";
import { resumeRun } from "./resumeRun";
import type { SnapshotConversation } from "./snapshot";
import { runInThread } from "./threadRun";
import { runLoop } from "../run/runLoop";
import { redactValues } from "../util/redact";
import { reportToolFault } from "../tools/reportToolFault";
import type { LoopOutcome, LoopStart, RunContext } from "../run/runContext";
import { attachFeatures } from "../run/runFeatures";
import { checkMiddleware } from "../run/checkMiddleware";
import { applyAfterRun } from "../run/afterRun";
import type { Middleware, RunResultLike } from "../run/middleware";
import { BreakpointError } from "./breakpoint";
import type { AgentTracing } from "../observe/agentTracing";
import type { AgentHooks } from "../observe/runEvents";
import { RunObserver } from "../observe/runObserver";
import { noUsage, UsageTally } from "../observe/runUsage";
import { SnapshotSigner } from "./snapshotSigner";
import { checkReservedKeys, checkToolStateKeys } from "./validateAgentOptions";
import { checkAgentOption, checkExitConditions, checkHooks, checkRunExitConditions, checkStrategies } from "./agentOptions";
import { checkBreakpoint, checkCallback, checkPromptVariables, checkRunOptions } from "./runOptions";

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
export class Agent<S extends StateSchema = {}, const E extends string = never, O extends OutputSchema | undefined = undefined> {
  readonly #chatGenerator: ChatGenerator;
  readonly #toolSources: readonly ToolSource[];
  /** The Toolsets among the tool sources: when one's tools change, the tools are read again. */
  readonly #toolsets: readonly Toolset[];
  // Each Toolset's revision when the Agent was made: one that moved on may have changed its tools.
  readonly #firstRevisions: readonly number[];
  #toolTable: ToolTable;
  readonly #exitConditionOption: readonly string[] | undefined;
  readonly #strategiesOption: unknown;
  readonly #systemPrompt: Prompt<S> | undefined;
  readonly #userPrompt: Prompt<S> | undefined;
  /** The options it was made with, for `toJSON` (typed loosely: the Agent's type parameters stay free to vary). */
  readonly #options: object;
  /** The definition it was read from (`fromJSON`), which `toJSON` returns. */
  #definition: AgentDefinition | undefined;
  readonly #output: FinalOutput | undefined;
  readonly #maxOutputRetries: number;
  readonly #stateSchema: S | undefined;
  readonly #stateKeys: ReadonlyMap<string, NormalizedStateKey>;
  #exitConditions: ReadonlySet<string>;
  readonly #maxAgentSteps: number;
  readonly #toolConcurrency: number;
  readonly #toolTimeoutMs: number | undefined;
  readonly #maxToolResultChars: number;
  readonly #raiseOnToolInvocationFailure: boolean;
  readonly #streamingCallback: StreamingCallback | undefined;
  #confirmationStrategies: ReadonlyMap<string, ConfirmationStrategy> | undefined;
  readonly #signer: SnapshotSigner | undefined;
  readonly #name: string | undefined;
  readonly #hooks: readonly AgentHooks[];
  readonly #tracing: AgentTracing | undefined;
  readonly #middleware: readonly Middleware[];

  constructor(options: AgentOptions<S, E, O>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("Agent", `new Agent(options) needs an options object, got ${describeKind(options)}.`);
    this.#chatGenerator = checkAgentOption("chatGenerator", options.chatGenerator);
    this.#options = Object.freeze({ ...options });
    this.#stateSchema = options.stateSchema;
    this.#stateKeys = normalizeStateSchema(options.stateSchema);
    checkReservedKeys(this.#stateKeys);
    this.#toolSources = Array.isArray(options.tools) ? [...options.tools] : (options.tools ?? []);
    this.#toolsets = Array.isArray(this.#toolSources) ? this.#toolSources.filter((source): source is Toolset => source instanceof Toolset) : [];
    this.#exitConditionOption = options.exitConditions;
    this.#strategiesOption = options.confirmationStrategies;
    this.#firstRevisions = this.#toolsets.map((toolset) => toolset.revision);
    this.#toolTable = this.#readTools();
    this.#exitConditions = new Set(checkExitConditions(options.exitConditions, [...this.#toolTable.tools.keys()]));
    this.#maxAgentSteps = checkAgentOption("maxAgentSteps", options.maxAgentSteps);
    this.#toolConcurrency = checkAgentOption("toolConcurrency", options.toolConcurrency);
    this.#toolTimeoutMs = checkAgentOption("toolTimeoutMs", options.toolTimeoutMs);
    this.#maxToolResultChars = checkAgentOption("maxToolResultChars", options.maxToolResultChars);
    this.#systemPrompt = checkAgentOption("systemPrompt", options.systemPrompt) as Prompt<S> | undefined;
    this.#userPrompt = checkAgentOption("userPrompt", options.userPrompt) as Prompt<S> | undefined;
    if (isPromptTemplate(this.#systemPrompt)) checkPromptBlocks("Agent", "systemPrompt", this.#systemPrompt);
    if (isPromptTemplate(this.#userPrompt)) checkPromptBlocks("Agent", "userPrompt", this.#userPrompt);
    this.#output = finalOutput(options.outputSchema, "Agent");
    this.#maxOutputRetries = checkAgentOption("maxOutputRetries", options.maxOutputRetries);
    this.#raiseOnToolInvocationFailure = checkAgentOption("raiseOnToolInvocationFailure", options.raiseOnToolInvocationFailure);
    this.#streamingCallback = checkAgentOption("streamingCallback", options.streamingCallback);
    this.#confirmationStrategies = checkStrategies(options.confirmationStrategies, [...this.#toolTable.tools.keys()]);
    this.#signer = options.snapshotKey === undefined ? undefined : new SnapshotSigner(options.snapshotKey);
    this.#name = checkAgentOption("name", options.name);
    const hooks = checkHooks(options.hooks, "Agent");
    this.#hooks = hooks ? [hooks] : [];
    this.#tracing = checkAgentOption("tracing", options.tracing);
    this.#middleware = checkMiddleware(options.middleware, "Agent");
  }

  /**
   * An Agent from a definition (plain data: parsed JSON, or YAML through `loadAgent` from
   * `toolwright/yaml`). The definition is untrusted: it can name only what `registry` and the
   * imported generated modules offer, and every problem is a `DefinitionError` at its place.
   * With `stateSchema` (the app's zod schema, which the definition must describe), the state is typed.
   *
   * @example
   * const agent = Agent.fromJSON(JSON.parse(text), { registry: { classes: { SupportTools: () => new SupportTools(store) } } });
   */
  static fromJSON<S extends StateSchema = StateSchema>(data: unknown, options: AgentFromJSONOptions<S> = {}): Agent<S, string, OutputSchema | undefined> {
    const defined = agentDefinitions("Agent.fromJSON").fromDefinition(data, options);
    let agent: Agent<S, string, OutputSchema | undefined>;
    try {
      agent = new Agent(defined.options as AgentOptions<S, string, OutputSchema | undefined>);
    } catch (error) {
      if (error instanceof ConfigurationError && !(error instanceof DefinitionError)) throw new DefinitionError([], error.message, { cause: error });
      throw error;
    }
    agent.#definition = defined.definition;
    return agent;
  }

  /**
   * This Agent as plain data (`AgentDefinition`): `Agent.fromJSON(agent.toJSON(), { registry })`
   * makes an Agent that runs the same. An Agent read from a definition returns that definition.
   * Code is written by name: pass the `registry` that names the Agent's tools, handlers and
   * strategies. Hooks, tracing and the streaming callback are not part of a definition. Throws
   * `DefinitionError` for a part with no data form (a prompt function, an unregistered handler).
   */
  toJSON(options?: AgentToJSONOptions | string): AgentDefinition {
    // JSON.stringify calls toJSON with the property name.
    if (this.#definition) return JSON.parse(JSON.stringify(this.#definition)) as AgentDefinition;
    return agentDefinitions("Agent.toJSON").toDefinition(this.#options as AgentOptions<StateSchema, string, OutputSchema | undefined>, typeof options === "object" && options !== null ? options : {});
  }

  /** The Agent's name (`gen_ai.agent.name` in traces), when it has one. */
  get name(): string | undefined {
    return this.#name;
  }

  /**
   * This Agent as a tool another agent can call: the calling model sends the task as `input`, and
   * the tool runs this Agent on it. The sub-run's state is its own, started from `inputsFromState`
   * (caller's key → this Agent's key) and mapped back with `outputsToState` (caller's key →
   * `{ source: this Agent's key | "output" | "text" }`). Its stream chunks reach the caller's stream
   * tagged `agent: <name>`, the caller's abort reaches it, and a confirmation it defers pauses the
   * whole run with one snapshot.
   *
   * @example
   * const coordinator = new Agent({ chatGenerator, tools: [research.asTool({ name: "research", description: "Finds sources." })] });
   */
  asTool(options: AgentToolOptions): Tool {
    return agentTool(
      {
        stateKeys: [...this.#stateKeys.keys()],
        run: (input) => this.run(input as AgentRunInput<S, O>) as never,
        checkResume: (snapshot, decisions) => {
          const { tools } = this.#currentTools();
          resumeRun(snapshot, decisions, { schema: this.#stateSchema, tools, strategies: this.#confirmationStrategies, confirmationContext: undefined, signal: neverAborted, signer: this.#signer, checkOnly: true });
        },
      },
      options,
    );
  }

  /** The Agent's tools, in order (for a Toolset whose tools change, as of the last run's start). */
  get tools(): Tool[] {
    return [...this.#currentTools().tools.values()];
  }

  /**
   * Runs the agent on a conversation. Every state key of the schema may be given as an initial
   * value. Resolves with the messages, the last message, why the run ended, the step count and
   * every state key that has a value.
   */
  async run<R extends OutputSchema | undefined = O>(input: AgentRunInput<S, R>): Promise<AgentResult<S, E, R>> {
    if (typeof input !== "object" || input === null) throw new ConfigurationError("Agent.run", `Agent.run(input) needs an input object such as { messages: [...] }, got ${describeKind(input)}.`);
    if ((input as AgentRunOptions).conversation === undefined) return this.#run(input, undefined);
    checkRunOptions(input);
    return runInThread(input as AgentRunOptions & Record<string, unknown>, {
      run: (inner, binding) => this.#run(inner as AgentRunInput<S, R>, { binding }),
      seal: (snapshot) => this.#signer?.sign(snapshot) ?? snapshot,
      stateKeys: new Set(this.#stateKeys.keys()),
    });
  }

  // The run itself; `thread` is set when it runs in a thread (runInThread), with the binding a fresh run's snapshots carry.
  async #run<R extends OutputSchema | undefined>(input: AgentRunInput<S, R>, thread: { readonly binding: SnapshotConversation | undefined } | undefined): Promise<AgentResult<S, E, R>> {
    checkRunOptions(input);
    const options = input as AgentRunOptions;
    const { tools, toolSpecs } = this.#toolsForRun(options.tools);
    checkRunExitConditions(this.#exitConditions, [...tools.keys()]);
    const breakpoint = options.breakpoint === undefined ? undefined : checkBreakpoint(options.breakpoint, [...tools.keys()]);
    if (options.decisions !== undefined && options.snapshot === undefined) {
      throw new DecisionError(undefined, "Agent.run was given decisions without a snapshot; decisions continue a paused run, so pass them with its snapshot: agent.run({ snapshot, decisions }).");
    }
    if (options.stateUpdates !== undefined && options.snapshot === undefined) {
      throw new ConfigurationError("Agent.run", "Agent.run was given stateUpdates without a snapshot; they change a stopped or paused run's state before it continues, so pass them with its snapshot (agent.run({ snapshot, stateUpdates })), or give a new run's state as its keys (agent.run({ messages, key: value })).");
    }
    const streamingCallback = input.streamingCallback === undefined ? this.#streamingCallback : checkCallback(input.streamingCallback, "Agent.run");
    const output = input.outputSchema === undefined ? this.#output : finalOutput(input.outputSchema, "Agent.run");
    const runMiddleware = checkMiddleware(options.middleware, "Agent.run", this.#middleware);
    const middleware = runMiddleware.length > 0 ? [...this.#middleware, ...runMiddleware] : this.#middleware;
    const runId = options.runId === undefined ? randomRunId() : () => options.runId!;
    // One controller per run, linked to the caller's signal until the run ends.
    const abort = new AbortScope(input.signal);
    let prepared: { state: State; start: LoopStart };
    try {
      prepared = options.snapshot !== undefined ? this.#resume(input, tools, abort.signal) : { state: (await this.#initialState(input, runId)) as unknown as State, start: freshStart };
    } catch (error) {
      abort.dispose();
      throw error;
    }
    const { state, start } = prepared;
    const binding = start.conversation ?? thread?.binding;
    if (start.conversation !== undefined && thread === undefined) {
      abort.dispose();
      throw new ConfigurationError("Agent.run", `Agent.run was given a snapshot of a run in thread '${start.conversation.threadId}' without conversation; pass conversation: { store, threadId: '${start.conversation.threadId}' } so that its messages are appended when it ends.`);
    }
    const runHooks = checkHooks(options.hooks, "Agent.run");
    const usage = new UsageTally(start.usage);
    let observer = RunObserver.create({
      hooks: runHooks ? [...this.#hooks, runHooks] : this.#hooks,
      tracing: this.#tracing,
      runId,
      agentName: this.#name,
      chatGenerator: this.#chatGenerator,
      state,
      tools,
      continues: start.trace,
      resumed: start.resumed,
      stepCount: start.stepCount,
      usage: start.usage,
    });
    observer?.runStart();
    // The context snapshots carry on: the one continued, else the new trace's (even one that records nothing).
    const continues = observer?.traceContext ?? start.trace;
    if (observer?.idle) observer = undefined;
    const context: RunContext = {
      chatGenerator: this.#chatGenerator,
      tools,
      toolSpecs,
      state,
      exitConditions: this.#exitConditions,
      maxAgentSteps: this.#maxAgentSteps,
      toolConcurrency: this.#toolConcurrency,
      toolTimeoutMs: this.#toolTimeoutMs,
      maxToolResultChars: this.#maxToolResultChars,
      raiseOnToolInvocationFailure: this.#raiseOnToolInvocationFailure,
      generationKwargs: input.generationKwargs,
      streamingCallback,
      abort,
      redact: redactValues,
      reportFault: reportToolFault,
      sealSnapshot: (snapshot) => {
        const bound = binding === undefined ? snapshot : { ...snapshot, conversation: binding };
        return this.#signer?.sign(bound) ?? bound;
      },
      runId,
      agentName: this.#name,
      usage,
      observer,
      continues,
      output,
      maxOutputRetries: this.#maxOutputRetries,
      depth: runDepth(input),
      features: attachFeatures({ breakpoint, middleware, confirmationStrategies: this.#confirmationStrategies, confirmationContext: options.confirmationContext, onCheckpoint: options.onCheckpoint }),
      cursor: {
        stepCount: start.stepCount,
        modelVisits: start.visits.chatGenerator,
        toolVisits: new Map(start.visits.tools),
        next: start.next,
        toolStep: start.toolStep,
        resuming: start.resumed,
        corrections: 0,
      },
    };
    let outcome: LoopOutcome;
    try {
      outcome = await (observer ? observer.within(() => runLoop(context)) : runLoop(context));
    } catch (error) {
      abort.dispose();
      observeFailure(context, error);
      throw error;
    }
    const data = state.data as Record<string, unknown>;
    const messages = data.messages as ChatMessage[];
    const paused = "pending" in outcome ? { pendingConfirmations: [...outcome.pending], snapshot: outcome.snapshot } : "stopped" in outcome ? { stopped: outcome.stopped, snapshot: outcome.snapshot } : {};
    const totals = usage.toJSON();
    observer?.runEnd(outcome, totals);
    const answer = "output" in outcome ? { output: outcome.output } : {};
    const result = { ...data, messages, lastMessage: messages[messages.length - 1]!, exitReason: outcome.exitReason, stepCount: outcome.stepCount, usage: totals, ...answer, ...paused } as AgentResult<S, E, R>;
    if (middleware.length === 0) {
      abort.dispose();
      return result;
    }
    // The run's signal follows the caller's until the afterRun hooks are done.
    try {
      return (await applyAfterRun(context, middleware, result as unknown as RunResultLike)) as unknown as AgentResult<S, E, R>;
    } finally {
      abort.dispose();
    }
  }

  /**
   * Runs the agent like `run`, as an async iterable of its streaming chunks (text and tool-call
   * deltas, tool results, finish chunks) ending with `{ type: "result", result }`. Leaving the loop
   * early aborts the run.
   *
   * @example
   * for await (const event of agent.stream({ messages })) {
   *   if (event.type === "text") res.write(`data: ${JSON.stringify(event)}\n\n`);
   * }
   */
  stream<R extends OutputSchema | undefined = O>(input: AgentRunInput<S, R>): AsyncIterable<AgentStreamEvent<AgentResult<S, E, R>>> {
    const outer = (input as AgentRunOptions | undefined)?.signal;
    // Linked to the caller's signal only while the run lasts: one shared signal serves any number of streams.
    const link = new AbortScope(outer ?? new AbortController().signal);
    const queue = new EventQueue<AgentStreamEvent<AgentResult<S, E, R>>>(() => link.abort(new AbortError("The agent stream was closed by its consumer.")));
    const forward = (input as AgentRunOptions | undefined)?.streamingCallback ?? this.#streamingCallback;
    this.run({
      ...input,
      signal: link.signal,
      streamingCallback: async (chunk) => {
        await forward?.(chunk);
        queue.push(chunk);
      },
    })
      .then(
        (result) => {
          queue.push({ type: "result", result });
          queue.end();
        },
        (error: unknown) => queue.fail(error),
      )
      .finally(() => link.dispose());
    return queue;
  }

  #resume(input: AgentRunInput<S, OutputSchema | undefined>, tools: ReadonlyMap<string, Tool>, signal: AbortSignal): { state: State; start: LoopStart } {
    const options = input as AgentRunOptions;
    const extra = Object.keys(input).filter((key) => !runOptionKeys.has(key) || key === "messages" || key === "systemPrompt");
    if (extra.length > 0) {
      throw new ConfigurationError(
        "Agent.run",
        `Agent.run was given a snapshot and ${extra.map((k) => `'${k}'`).join(", ")}; a resumed run continues the snapshot's conversation and state, so pass only run options (generationKwargs, tools, signal, streamingCallback, breakpoint, decisions, confirmationContext, runId, onCheckpoint, hooks, middleware, outputSchema) with it.`,
      );
    }
    return resumeRun(options.snapshot, options.decisions, {
      schema: this.#stateSchema,
      tools,
      strategies: this.#confirmationStrategies,
      confirmationContext: options.confirmationContext,
      signal,
      signer: this.#signer,
      stateUpdates: options.stateUpdates,
    });
  }

  async #initialState(input: AgentRunInput<S, OutputSchema | undefined>, runId: () => string): Promise<State<S>> {
    const initial: Record<string, unknown> = Object.create(null);
    for (const [key, value] of Object.entries(input)) {
      if (runOptionKeys.has(key)) continue;
      if (!this.#stateKeys.has(key)) throw new StateKeyError(key, [...this.#stateKeys.keys()]);
      setOwn(initial, key, value);
    }
    const state = new State(this.#stateSchema, initial as StateInitialValues<S>);
    const inputMessages = input.messages ?? [];
    const variables = checkPromptVariables(input.promptVariables, this.#stateKeys);
    let run: SystemPromptRun | undefined;
    const runOf = () => (run ??= Object.freeze({ runId: runId(), variables }));
    const systemOption = input.systemPrompt ?? this.#systemPrompt;
    const systemPrompt = systemOption === undefined ? undefined : await promptOf({ prompt: systemOption, state, messages: inputMessages, run: runOf, subject: input.systemPrompt === undefined ? "Agent" : "Agent.run", name: "systemPrompt" });
    const userPrompt = this.#userPrompt === undefined ? undefined : await promptOf({ prompt: this.#userPrompt, state, messages: inputMessages, run: runOf, subject: "Agent", name: "userPrompt" });
    const system = typeof systemPrompt === "string" ? (systemPrompt ? ChatMessage.fromSystem(systemPrompt) : undefined) : systemPrompt;
    const user = typeof userPrompt === "string" ? ChatMessage.fromUser(userPrompt) : userPrompt;
    const messages = [...(system ? [system] : []), ...inputMessages, ...(user ? [user] : [])];
    if (messages.length === 0) {
      throw new ConfigurationError("Agent.run", "Agent.run needs at least one message: pass messages (such as [ChatMessage.fromUser(...)]) or give the Agent a systemPrompt.");
    }
    appendMessages(state, messages);
    return state;
  }

  // Resolves the tool sources into tools and their specs, checked against the state schema. A
  // Toolset whose tools changed since the Agent was made loses a tool that collides with another.
  #readTools(): ToolTable {
    const changed = this.#toolTable && new Set(this.#toolsets.filter((toolset, i) => toolset.revision !== this.#firstRevisions[i]));
    const tools = resolveTools(this.#toolSources, "Agent", changed);
    checkToolStateKeys(tools.values(), this.#stateKeys);
    return { tools, toolSpecs: toolSpecs(tools.values()), revisions: this.#toolsets.map((toolset) => toolset.revision) };
  }

  // The tools as of now: read again when a Toolset's tools changed (an MCP server's list), with the
  // exit conditions and confirmation strategies checked against the new names.
  #currentTools(): ToolTable {
    const table = this.#toolTable;
    if (this.#toolsets.every((toolset, i) => toolset.revision === table.revisions[i])) return table;
    const next = this.#readTools();
    const names = [...next.tools.keys()];
    this.#exitConditions = new Set(checkExitConditions(this.#exitConditionOption, names));
    this.#confirmationStrategies = checkStrategies(this.#strategiesOption, names);
    this.#toolTable = next;
    return next;
  }

  #toolsForRun(selection: AgentRunOptions["tools"]): { tools: ReadonlyMap<string, Tool>; toolSpecs: readonly ToolSpec[] } {
    const current = this.#currentTools();
    if (selection === undefined) return current;
    if (!Array.isArray(selection)) throw new ConfigurationError("Agent.run", `Agent.run needs tools as an array of tool names or tools, got ${describeKind(selection)}.`);
    const sources: ToolSource[] = [];
    for (const item of selection) {
      if (typeof item !== "string") {
        sources.push(item);
        continue;
      }
      const tool = current.tools.get(item);
      if (!tool) {
        throw new ConfigurationError("Agent.run", `Agent.run selected tool '${item}', which the Agent does not have; select from its tools: ${[...current.tools.keys()].join(", ") || "none"}.`);
      }
      sources.push(tool);
    }
    const tools = resolveTools(sources, "Agent.run");
    checkToolStateKeys(tools.values(), this.#stateKeys);
    return { tools, toolSpecs: toolSpecs(tools.values()) };
  }
}

/** The Agent's tools by name, their specs for the model, and the revisions of its Toolsets they were read at. */
interface ToolTable {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly revisions: readonly number[];
}

// A run given no runId gets a random one, made only if a tool reads its idempotency key.
function randomRunId(): () => string {
  let id: string | undefined;
  return () => (id ??= (require("node:crypto") as typeof import("node:crypto")).randomUUID());
}

const neverAborted = new AbortController().signal;

// How deep a run is among agents calling agents (a sub-run of an agent tool is told by its caller).
function runDepth(input: object): number {
  const depth: unknown = (input as Record<symbol, unknown>)[nestedDepth];
  return typeof depth === "number" ? depth : 1;
}

const freshStart: LoopStart = { stepCount: 0, visits: { chatGenerator: 0, tools: new Map() }, next: "chat_generator", resumed: false, usage: noUsage };

// A run that threw ends its observation (when it has one): a breakpoint as a stop (with an event), anything else as a failure.
function observeFailure(run: RunContext, error: unknown): void {
  const { observer, usage } = run;
  if (!observer) return;
  const totals = usage.toJSON();
  // Not from usage: modelCalls also counts a middleware's calls (a summarizer's) and answers a guardrail dropped.
  const stepCount = run.cursor.stepCount;
  if (error instanceof BreakpointError) {
    const { at, toolName, visit } = error.breakpoint;
    observer.event("toolwright.breakpoint", { "toolwright.breakpoint.at": at, ...(toolName !== undefined && { "gen_ai.tool.name": toolName }), ...(visit !== undefined && { "toolwright.breakpoint.visit": visit }) });
    observer.runEnd({ exitReason: "breakpoint", stepCount }, totals);
  } else {
    observer.runEnd({ error, stepCount }, totals);
  }
}

function toolSpecs(tools: Iterable<Tool>): readonly ToolSpec[] {
  return Object.freeze(
    [...tools].map((tool) => Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strictCompatibility.compatible })),
  );
}

/** A prompt option: literal text, a template, or a function of the run's state. */
type Prompt<S extends StateSchema> = string | PromptTemplate | SystemPromptFunction<S>;

/** A run's prompt option, what it is made from, and how an error names it. */
interface PromptSource<S extends StateSchema> {
  readonly prompt: Prompt<S>;
  /** The run's initial state. */
  readonly state: State<S>;
  /** The run's input messages. */
  readonly messages: readonly ChatMessage[];
  /** The run's id and prompt variables, made on first use. */
  readonly run: () => SystemPromptRun;
  /** Who gave the prompt: the Agent's options, or the run's. */
  readonly subject: "Agent" | "Agent.run";
  readonly name: "systemPrompt" | "userPrompt";
}

// Makes a run's prompt from its initial state, input messages and prompt variables (copies: a function cannot change the run's):
// its text, or the message of a template with a {% message %} block.
async function promptOf<S extends StateSchema>(source: PromptSource<S>): Promise<string | ChatMessage> {
  const { prompt, state, messages, run, subject, name } = source;
  if (typeof prompt === "string") return prompt;
  const data: Record<string, unknown> = state.data;
  data.messages = Object.freeze([...messages]);
  if (isPromptTemplate(prompt)) {
    const values = { ...data, ...run().variables };
    if (!prompt.rendersMessages) return prompt.render(values);
    if (subject === "Agent.run") checkPromptBlocks(subject, name, prompt);
    return promptMessage(subject, name, prompt, values);
  }
  const text: unknown = await prompt(Object.freeze(data) as Readonly<Partial<StateValues<S>>>, run());
  if (typeof text !== "string") {
    throw new ConfigurationError(subject, `${subject} has a ${name} function that returned ${describeKind(text)}; it must return the prompt as a string (or a promise of one).`);
  }
  return text;
}
