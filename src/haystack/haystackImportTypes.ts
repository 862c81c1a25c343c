import type { AgentDefinition } from "../definition/agentDefinition";

/** What a Haystack agent's conversion could not carry over, and where it was in the YAML. */
export interface HandWorkItem {
  /** The YAML path of the part: `init_parameters.tools[0].data.function` (a pipeline's starts with `components.<name>`). */
  readonly path: string;
  /** Its 1-based line and column in the YAML text. */
  readonly line: number;
  readonly column: number;
  /** What kind of part it is. */
  readonly kind: HandWorkKind;
  /** What to do, one sentence naming the Python part. */
  readonly message: string;
}

/** The kinds of hand work a conversion lists. */
export type HandWorkKind = "function" | "componentTool" | "pipelineTool" | "agentTool" | "mcpTool" | "toolset" | "handler" | "confirmation" | "hook" | "generator" | "setting";

/** Options of `importHaystackAgent`. */
export interface ImportHaystackOptions {
  /** The file name used in messages (default `agent.yaml`). */
  readonly file?: string;
  /** In a pipeline YAML, the component to convert (default: its only Agent component). */
  readonly component?: string;
  /** The class the Python function tools become in the stub module (default `HaystackTools`). */
  readonly className?: string;
}

/** A converted Haystack agent: the toolwright definition, the TypeScript stubs of its Python tools, and what needs hand work. */
export interface ImportHaystackResult {
  /** The toolwright agent definition (`loadAgent` / `Agent.fromJSON` read it). */
  readonly definition: AgentDefinition;
  /** The TypeScript module of the Python tools: a class of `@tool` methods whose bodies throw until ported, and handler stubs. */
  readonly toolsModule: string;
  /** Everything the conversion could not carry over, in YAML order. */
  readonly handWork: readonly HandWorkItem[];
}
