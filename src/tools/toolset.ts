import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { Tool } from "./tool";

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
    const subject = options.name ? `Toolset '${options.name}'` : "Toolset";
    if (!Array.isArray(tools)) {
      throw new ConfigurationError(subject, `new Toolset(tools) needs an array of Tool objects.`);
    }
    for (const [index, tool] of tools.entries()) {
      if (!(tool instanceof Tool)) throw new ConfigurationError(subject, `${subject} was given ${describeKind(tool)} at tools[${index}], which is not a Tool: pass Tool objects.`);
    }
    this.name = options.name;
    this.tools = Object.freeze([...tools]);
    Object.freeze(this);
  }
}
