/**
 * What every toolwright error can be built with: the original error as `cause`, and the facts the
 * run adds (`snapshot`, declared beside `AgentSnapshot` in src/agent/snapshot.ts: this layer is
 * below the runtime and cannot name its types without an import cycle).
 */
export interface ToolwrightErrorOptions {
  /** The error that led to this one. */
  readonly cause?: unknown;
}

/**
 * Every error toolwright throws extends `ToolwrightError`: `name` is the class name, the original
 * error is `cause`, and structured fields sit beside the message. It lives here, in the layer
 * everything else depends on, so that decorator and codegen errors are ToolwrightErrors too. Each
 * error belongs to one group by whose fault it is: `UsageError`, `ModelBehaviorError`,
 * `ProviderError`, `CallbackError` or `RunStoppedError`.
 */
export class ToolwrightError extends Error {
  /** Why the run could not attach its `snapshot` (a state value with no JSON form); the error itself is unchanged. */
  declare readonly snapshotError?: unknown;

  /**
   * `instanceof` also recognises an error of another copy of these classes: "toolwright/codegen"
   * loads its own modules beside the runtime bundle that "toolwright" loads, and a codegen error
   * must still be a `ToolwrightError` (and a `UsageError`) to a caller holding the runtime's.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this, value) || ofAnotherCopy(this, value);
  }

  constructor(message: string, options?: ToolwrightErrorOptions) {
    // `cause` only when given (even as undefined), as Error itself does.
    super(message, options !== undefined && Object.hasOwn(options, "cause") ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    const { snapshot } = (options ?? {}) as { snapshot?: unknown };
    if (snapshot !== undefined) defineFact(this, "snapshot", snapshot);
  }
}

// Marks the classes of every copy (Symbol.for is one registry per process); read as a static, so subclasses have it too.
const copyMarker = Symbol.for("toolwright.ToolwrightError");
Object.defineProperty(ToolwrightError, copyMarker, { value: true });

// A class of another copy has the same name and the marker. Values from outside (a tool's thrown
// Proxy) are read defensively and at most 64 prototypes deep: a failed read is "no".
function ofAnotherCopy(type: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    let proto: unknown = Object.getPrototypeOf(value);
    for (let depth = 0; proto !== null && depth < 64; depth++, proto = Object.getPrototypeOf(proto)) {
      const constructor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
      if (typeof constructor === "function" && constructor !== type && constructor.name === type.name && (constructor as unknown as Record<symbol, unknown>)[copyMarker] === true) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * Sets a fact on an error as a non-enumerable own property, like `cause`: `JSON.stringify` and
 * `util.inspect` leave it out, reading it by name works. A frozen error is left as it is.
 */
export function defineFact(target: object, key: string, value: unknown): void {
  try {
    Object.defineProperty(target, key, { value, enumerable: false, configurable: true, writable: true });
  } catch {
    // A frozen error object cannot carry it; the error itself still surfaces unchanged.
  }
}

/**
 * The code or the data given to toolwright breaks a rule (an option, a decorator, a definition, a
 * state value, a snapshot or decisions to resume with): the developer's or the caller's to fix.
 */
export abstract class UsageError extends ToolwrightError {}

/** The model's output cannot be used: it called an unknown tool, sent invalid arguments, or gave no valid final answer. */
export abstract class ModelBehaviorError extends ToolwrightError {}

/** A service the run depends on failed or answered something unusable: the model's provider, an MCP server, Redis. */
export abstract class ProviderError extends ToolwrightError {}

/** Code the app gave toolwright to run (a tool, a merge or `outputsToString` handler, a lifecycle hook) threw; its error is `cause`. */
export abstract class CallbackError extends ToolwrightError {}

/** The run stopped before its end on purpose: its signal aborted, or it reached its breakpoint. */
export abstract class RunStoppedError extends ToolwrightError {}

/**
 * `@tool` or `defineTool` was misused: `@tool` put on something that is not a method (a field, a
 * getter, a symbol-named or #private member), `@tool(options)` given no options object, or
 * `defineTool` given no function.
 */
export class ToolDecoratorError extends UsageError {
  /** `Class.member`, as written in the source; `@tool` or `defineTool` when the call itself was wrong. */
  readonly member: string;

  constructor(member: string, message: string) {
    super(message);
    this.member = member;
  }
}
