import type { ToolDecoratorOptions } from "./toolOptions";

/** What `@tool` or `defineTool` recorded about one tool. */
export interface ToolDecoration {
  /** How it was declared. */
  readonly kind: "method" | "function";
  /** The method's (or function's) name as written. */
  readonly memberName: string;
  /** True for a static method. */
  readonly isStatic: boolean;
  /** Which decorator semantics recorded it. */
  readonly mode: "legacy" | "standard" | "function";
  readonly options: Readonly<ToolDecoratorOptions>;
  /** The decorated function itself. */
  readonly fn: (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- any method signature
}

interface Storage {
  readonly byFunction: WeakMap<object, ToolDecoration>;
}

// One storage per process even when two copies of toolwright are loaded (CJS and ESM, or two
// versions): it lives on globalThis under a registry symbol.
const key = Symbol.for("toolwright.decorations.v1");
const globalStore = globalThis as unknown as { [key]?: Storage };

function storage(): Storage {
  return (globalStore[key] ??= { byFunction: new WeakMap() });
}

/** Records a decoration, keyed by the decorated function (or by the `defineTool` handle). */
export function recordDecoration(owner: object, decoration: ToolDecoration): void {
  storage().byFunction.set(owner, decoration);
}

/** The decoration recorded for a method function or a `defineTool` handle, if any. */
export function decorationOf(owner: object): ToolDecoration | undefined {
  return storage().byFunction.get(owner);
}

/** Forgets every decoration (for tests that define classes repeatedly). */
export function clearDecorations(): void {
  globalStore[key] = { byFunction: new WeakMap() };
}
