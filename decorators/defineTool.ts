import { ToolDecoratorError } from "./errors";
import { recordDecoration } from "./metadataStorage";
import type { ToolDecoratorOptions } from "./toolOptions";

/**
 * A plain function made into a tool with `defineTool`; give it to an Agent like a Tool.
 * @typeParam F The function's type, kept so that `function` stays callable as written.
 */
export interface DefinedTool<F extends (...args: any[]) => unknown> { // eslint-disable-line @typescript-eslint/no-explicit-any -- any function signature
  /** The function, callable as before. */
  readonly function: F;
  /** The function's name as written (the tool name unless `options.name` is given). */
  readonly functionName: string;
  readonly options: Readonly<ToolDecoratorOptions>;
}

/**
 * Makes a plain function a tool, with the same build-time schema generation as `@tool`. Assign
 * the result to an exported const so the generated module can import it:
 *
 * @example
 * export const searchDocs = defineTool(async function searchDocs(query: string, state: State) { … }, { outputsToState: { docs: {} } });
 * @typeParam F The function's type, kept so that the result's `function` stays callable as written.
 */
export function defineTool<F extends (...args: any[]) => unknown>(fn: F, options: ToolDecoratorOptions = {}): DefinedTool<F> { // eslint-disable-line @typescript-eslint/no-explicit-any -- any function signature
  if (typeof fn !== "function") throw new ToolDecoratorError("defineTool", `defineTool(fn, options) needs a function, got ${fn === null ? "null" : typeof fn}.`);
  const handle: DefinedTool<F> = Object.freeze({ function: fn, functionName: fn.name, options: Object.freeze({ ...options }) });
  recordDecoration(handle, { kind: "function", memberName: fn.name, isStatic: false, mode: "function", options: handle.options, fn });
  return handle;
}
