import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { Tool } from "./tool";

/** Options of a Toolset. */
export interface ToolsetOptions {
  /** A name for the group, used in messages. */
  name?: string;
  /**
   * Told when an Agent leaves one of these tools out: after the tools changed (`replaceTools`), one
   * of them has the name of another of the Agent's tools. The Agent keeps running with the rest.
   */
  onToolLeftOut?: (leftOut: ToolLeftOut) => void;
}

/** A tool of a Toolset that an Agent left out, and why. */
export interface ToolLeftOut {
  readonly tool: Tool;
  /** Why, as a sentence naming the tool it collides with. */
  readonly reason: string;
}

const leftOutListeners = new WeakMap<Toolset, (leftOut: ToolLeftOut) => void>();

/** Tells a Toolset that an Agent left one of its tools out (its `onToolLeftOut`). */
export function toolLeftOut(toolset: Toolset, leftOut: ToolLeftOut): void {
  leftOutListeners.get(toolset)?.(Object.freeze(leftOut));
}

/**
 * A named group of tools; an Agent flattens it into its tools. A Toolset whose tools change over its
 * life (an MCP server's, whose list may change) replaces them with `replaceTools`; an Agent given it
 * reads the new ones at the start of its next run.
 */
export class Toolset {
  readonly name: string | undefined;
  #tools: readonly Tool[];
  #revision = 0;

  constructor(tools: readonly Tool[], options: ToolsetOptions = {}) {
    this.name = options.name;
    if (typeof options.onToolLeftOut === "function") leftOutListeners.set(this, options.onToolLeftOut);
    this.#tools = checkTools(this.#subject(), tools, "new Toolset(tools)");
    // A subclass freezes itself when its constructor is done.
    if (new.target === Toolset) Object.freeze(this);
  }

  /** The tools, in order: the current ones, for a Toolset whose tools change. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /** How many times the tools were replaced; an Agent compares it to re-read them. */
  get revision(): number {
    return this.#revision;
  }

  /** Replaces the tools (checked like the constructor's), for a Toolset whose tools change. */
  protected replaceTools(tools: readonly Tool[]): void {
    this.#tools = checkTools(this.#subject(), tools, "Toolset.replaceTools(tools)");
    this.#revision++;
  }

  #subject(): string {
    return this.name ? `Toolset '${this.name}'` : "Toolset";
  }
}

function checkTools(subject: string, tools: readonly Tool[], call: string): readonly Tool[] {
  if (!Array.isArray(tools)) {
    throw new ConfigurationError(subject, `${call} needs an array of Tool objects.`);
  }
  for (const [index, tool] of tools.entries()) {
    if (!(tool instanceof Tool)) throw new ConfigurationError(subject, `${subject} was given ${describeKind(tool)} at tools[${index}], which is not a Tool: pass Tool objects.`);
  }
  return Object.freeze([...tools]);
}
