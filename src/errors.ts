import { CallbackError, ModelBehaviorError, ProviderError, RunStoppedError, ToolwrightError, type ToolwrightErrorOptions, UsageError } from "../decorators/errors";
import { formatPath } from "./util/formatPath";

export { CallbackError, ModelBehaviorError, ProviderError, RunStoppedError, ToolwrightError, type ToolwrightErrorOptions, UsageError };

/** A problem with how an Agent, a tool or a state schema is set up; thrown before anything runs. */
export class ConfigurationError extends UsageError {
  /** What is misconfigured: `Agent`, `Tool 'search'`, `SupportTools.searchTickets`, `stateSchema.tickets`. */
  readonly subject: string;
  /** The option the error is about, when a constructor's option check knows it: `["timeout"]`, `["generationKwargs", "conversation"]`. */
  readonly optionPath?: readonly string[];

  constructor(subject: string, message: string, options?: ToolwrightErrorOptions & { readonly optionPath?: readonly string[] }) {
    super(message, options);
    this.subject = subject;
    if (options?.optionPath !== undefined) this.optionPath = Object.freeze([...options.optionPath]);
  }
}

/**
 * An agent definition (`Agent.fromJSON`, `loadAgent`) breaks a rule of the format, or names
 * something the registry and the generated modules do not offer; also thrown by `agent.toJSON()`
 * for a part of the Agent that has no data form. Nothing was built.
 */
export class DefinitionError extends ConfigurationError {
  /** Where in the definition: `["tools", 0, "inputsFromState", "customer"]` (empty for the whole definition). */
  readonly path: readonly (string | number)[];
  /** The problem and its fix, without the location. */
  readonly reason: string;
  /** The file, line and column (1-based) when the definition was read from a file. */
  readonly location: { readonly file: string; readonly line: number; readonly column: number } | undefined;

  constructor(path: readonly (string | number)[], reason: string, options?: { cause?: unknown; location?: { file: string; line: number; column: number } }) {
    const where = definitionPath(path);
    const at = options?.location ? `${options.location.file}:${options.location.line}:${options.location.column}: ` : "";
    super(where, `${at}${where}: ${reason}`, options);
    this.path = Object.freeze([...path]);
    this.reason = reason;
    this.location = options?.location ? Object.freeze({ ...options.location }) : undefined;
  }

  /** The same error, located in a file. */
  at(location: { file: string; line: number; column: number }): DefinitionError {
    return new DefinitionError(this.path, this.reason, { cause: this.cause, location });
  }
}

/** A definition path in messages: `tools[0].inputsFromState.customer`, `(definition)` for the root. */
export function definitionPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return "(definition)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** A generated schema entry no longer matches its method: the source changed after `toolwright codegen` ran. */
export class StaleSchemaError extends ConfigurationError {}

/** `State.set` (or initial data) named a key that the state schema does not declare. */
export class StateKeyError extends UsageError {
  /** The unknown key. */
  readonly key: string;
  /** The keys the schema declares. */
  readonly knownKeys: readonly string[];

  constructor(key: string, knownKeys: readonly string[]) {
    super(
      `State key '${key}' is not in the state schema. ` +
        `Declare it in stateSchema or use a known key. Known keys: ${knownKeys.join(", ")}.`,
    );
    this.key = key;
    this.knownKeys = knownKeys;
  }
}

/** A value written to State (after merging) does not match the key's zod type; nothing was stored. */
export class StateTypeError extends UsageError {
  /** The state key that rejected the value. */
  readonly key: string;
  /** What the zod type expected, as zod describes it (first problem). */
  readonly expected: string;
  /** What was received instead (first problem). */
  readonly got: string;

  constructor(key: string, problems: string, expected: string, got: string, options?: { cause?: unknown }) {
    super(`State key '${key}' rejected a value that does not match its type: ${problems}. The value was not stored.`, options);
    this.key = key;
    this.expected = expected;
    this.got = got;
  }
}

/**
 * A snapshot given to `agent.run({ snapshot })` cannot be resumed: a field is missing or
 * ill-typed, it disagrees with the conversation it carries, or its signature is missing or wrong.
 * Also thrown when a run cannot produce a snapshot (a state value with no JSON form).
 */
export class SnapshotError extends UsageError {
  /** The snapshot field at fault, as a path: `toolStep.pending[0].arguments`, `signature`, `state.client`. */
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.field = field;
  }
}

/**
 * The decisions given to `agent.run({ snapshot, decisions })` do not fit the paused run: a
 * decision for a call that is not pending, a pending call without one, or a malformed decision.
 * The caller's (or its client's) mistake: the paused run is unchanged and can be resumed again.
 */
export class DecisionError extends UsageError {
  /** The call key at fault, when there is one. */
  readonly toolCallId: string | undefined;

  constructor(toolCallId: string | undefined, message: string) {
    super(message);
    this.toolCallId = toolCallId;
  }
}

/** The model called a tool that is not among the run's tools (raised with `raiseOnToolInvocationFailure`). */
export class ToolNotFoundError extends ModelBehaviorError {
  readonly toolName: string;
  readonly availableTools: readonly string[];

  constructor(message: string, toolName: string, availableTools: readonly string[]) {
    super(message);
    this.toolName = toolName;
    this.availableTools = availableTools;
  }
}

/** One problem found in a tool call's arguments, at a path such as `filter.dateRange.from`. */
export interface ArgumentProblem {
  /** Where the problem is: `""` for the arguments object itself, else `limit`, `items[2].name`. */
  readonly path: string;
  /** What is wrong there, e.g. `must be integer`. */
  readonly message: string;
}

/** The model's arguments for a tool call were not valid JSON or did not match the tool's schema. */
export class ToolArgumentsError extends ModelBehaviorError {
  readonly toolName: string;
  readonly problems: readonly ArgumentProblem[];

  constructor(message: string, toolName: string, problems: readonly ArgumentProblem[]) {
    super(message);
    this.toolName = toolName;
    this.problems = problems;
  }
}

/** A tool threw (raised with `raiseOnToolInvocationFailure`); the tool's own error is `cause`. */
export class ToolInvocationError extends CallbackError {
  readonly toolName: string;

  constructor(message: string, toolName: string, options: { cause: unknown }) {
    super(message, options);
    this.toolName = toolName;
  }
}

/** Merging a tool's output into State failed (unknown key, ill-typed value, a handler that threw). */
export class StateMergeError extends CallbackError {
  readonly toolName: string;
  readonly stateKey: string;

  constructor(message: string, toolName: string, stateKey: string, options: { cause: unknown }) {
    super(message, options);
    this.toolName = toolName;
    this.stateKey = stateKey;
  }
}

/** Turning a tool's result into message text failed (an `outputsToString` handler threw). */
export class ToolResultConversionError extends CallbackError {
  readonly toolName: string;

  constructor(message: string, toolName: string, options: { cause: unknown }) {
    super(message, options);
    this.toolName = toolName;
  }
}

/** The chat model's provider failed (after its own retries). */
export class ChatGeneratorError extends ProviderError {
  /** HTTP status, when the provider answered with one. */
  readonly status?: number;
  /** The provider's own error message, when it sent one. */
  readonly providerMessage?: string;

  constructor(message: string, options: { cause?: unknown; status?: number; providerMessage?: string } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.providerMessage = options.providerMessage;
  }
}

/** A run was aborted through its `signal`. Its `name` is `"AbortError"`, like the platform's. */
export class AbortError extends RunStoppedError {
  constructor(message = "The agent run was aborted.", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AbortError";
  }
}

/** Describes any thrown value in one line, for messages: an Error's message, else its string form. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * A lifecycle hook (or the Agent's tracer) threw or rejected. The run went on unchanged; the error
 * is reported to `hooks.onHookError`, else emitted as a process warning.
 */
export class HookError extends CallbackError {
  /** The callback that failed: `onToolEnd`, `tracing.startRun`, … */
  readonly hook: string;

  constructor(hook: string, message: string, options: { cause: unknown }) {
    super(message, options);
    this.hook = hook;
  }
}

/**
 * A run with an `outputSchema` got no valid final answer: the model's last answer still did not
 * match the schema after `maxOutputRetries` corrections. The error's `snapshot` continues the run
 * (the correction for the last answer is in its conversation), so nothing is lost.
 */
export class OutputValidationError extends ModelBehaviorError {
  /** What was wrong with the last answer, one problem per line (`path: message`). */
  readonly problems: readonly string[];
  /** The last answer's text (its first 2,000 characters). */
  readonly answer: string;

  constructor(message: string, problems: readonly string[], answer: string) {
    super(message);
    this.problems = problems;
    this.answer = answer;
  }
}

/** A prompt template cannot be compiled, or a render is missing a variable or fails. */
export class PromptTemplateError extends UsageError {
  /** The template's name: `systemPrompt`, `userPrompt`, or the name its caller gave. */
  readonly template: string;
  /** The variable at fault (missing, or holding a value a template cannot read), when there is one. */
  readonly variable: string | undefined;

  constructor(template: string, message: string, options?: { variable?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.template = template;
    this.variable = options?.variable;
  }
}

/**
 * A value that must become JSON has no JSON form (a Map, a Set, a circular reference, a function, a
 * non-finite number): thrown by `State.toJSON()` naming the state key and the path inside it, and
 * the cause of the errors of a tool result or a snapshot that cannot be JSON.
 */
export class JsonFormError extends UsageError {
  /** Where the value is: `tickets[2].tags`, `(root)`. */
  readonly path: string;

  /** `value` describes what was found (`a Map`, `a circular reference`); `fix` says what to do about it. */
  constructor(options: { readonly path: readonly PropertyKey[]; readonly value: string; readonly fix?: string }) {
    const path = formatPath(options.path);
    super(`${path} holds ${options.value}, which has no JSON form${options.fix ? `; ${options.fix}` : ""}.`);
    this.path = path;
  }
}
