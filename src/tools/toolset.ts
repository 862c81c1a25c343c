import { ConfigurationError } from "../errors";
import type { Tool } from "./tool";

/** Options of a Toolset. */
export interface ToolsetOptions {
  /** A name for the group, used in messages. */
  name?: string;
}

/** A named group of tools; an Agent flattens it into its tools. */
export class Toolset {
  readonly name: string | undefined;
  readonly tools: readonly Tool[];

  constructor(tools: readonly Tool[], options: ToolsetOptions = {}) {
    if (!Array.isArray(tools)) {
      throw new ConfigurationError(options.name ? `Toolset '${options.name}'` : "Toolset", `new Toolset(tools) needs an array of Tool objects.`);
    }
    this.name = options.name;
    this.tools = Object.freeze([...tools]);
    Object.freeze(this);
  }
}
