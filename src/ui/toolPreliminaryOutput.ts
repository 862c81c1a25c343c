import type { MediaDescriptor } from "../media/mediaDescriptor";

/** A piece of what a nested agent did, inside its calling tool's preliminary output, labelled by agent. */
export type NestedAgentPart =
  | { readonly type: "text"; readonly agent: string; readonly text: string }
  | { readonly type: "reasoning"; readonly agent: string; readonly text: string }
  | {
      readonly type: "tool";
      readonly agent: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly state: "input-streaming" | "input-available" | "output-available" | "output-error";
      /** The arguments' JSON text while they stream; the parsed arguments once the call is made. */
      readonly input: unknown;
      readonly output?: ToolOutputValue;
      readonly errorText?: string;
    };

/**
 * What a tool part's preliminary output (`tool-output-available` with `preliminary: true`) holds
 * while the call runs: its progress reports, or, for an agent tool, what its sub-run did so far.
 * The call's final output replaces it.
 */
export type ToolPreliminaryOutput =
  | { readonly type: "progress"; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly type: "agent"; readonly agent: string; readonly parts: readonly NestedAgentPart[] };

/** A part of a tool result with images or files, as a UI tool part's output shows it. */
export type ToolOutputPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image" | "file"; readonly media: MediaDescriptor; readonly url?: string };

/** A tool part's final output: the result's text, or its parts when it has images or files. */
export type ToolOutputValue = string | readonly ToolOutputPart[];
