import type { ToolCall, ToolCallResult } from "./chatMessage";

/** Where a chunk comes from: every chunk has it. */
export interface ChunkSource {
  /**
   * Set on the chunks of an agent tool's sub-run (`agent.asTool()`) as they reach the calling run's
   * stream: the agent tools it is nested in, outermost first, joined with `/` (`research`,
   * `research/search`). Absent on the run's own chunks.
   */
  readonly agent?: string;
}

/** A piece of assistant text as the model produces it. */
export interface TextDeltaChunk extends ChunkSource {
  readonly type: "text";
  readonly delta: string;
}

/** A piece of the model's reasoning (its summary or thinking text) as the provider streams it. */
export interface ReasoningDeltaChunk extends ChunkSource {
  readonly type: "reasoning";
  readonly delta: string;
}

/** A piece of a tool call as the model produces it; pieces with the same `index` form one call. */
export interface ToolCallDeltaChunk extends ChunkSource {
  readonly type: "toolCallDelta";
  /** Position of the call among the calls of the model's response. */
  readonly index: number;
  /** The call id, on the first piece. */
  readonly id?: string;
  /** The tool name, on the first piece. */
  readonly toolName?: string;
  /** A piece of the arguments' JSON text. */
  readonly argumentsDelta: string;
}

/** One finished tool call with its result, sent in call order after the result is merged. */
export interface ToolResultChunk extends ChunkSource {
  readonly type: "toolResult";
  /** Position of the call within the step. */
  readonly index: number;
  readonly toolCall: ToolCall;
  readonly result: ToolCallResult;
}

/**
 * How far a running tool call has got, as its tool reported it (`context.reportProgress`; an MCP
 * server's progress notifications): sent while the call runs, before its `toolResult`.
 */
export interface ToolProgressChunk extends ChunkSource {
  readonly type: "toolProgress";
  /** Position of the call within the step (as in its `toolResult`). */
  readonly index: number;
  readonly toolCall: ToolCall;
  /** How much is done; grows with each chunk of the call. */
  readonly progress: number;
  /** How much there is in all, when the tool knows. */
  readonly total?: number;
  /** What the tool is doing now, for a person to read. */
  readonly message?: string;
}

/** The end of a model call (`finishReason` from the provider) or of a step's tool calls (`"tool_call_results"`). */
export interface FinishChunk extends ChunkSource {
  readonly type: "finish";
  readonly finishReason: string;
}

/** What a streaming callback receives. */
export type StreamingChunk = TextDeltaChunk | ReasoningDeltaChunk | ToolCallDeltaChunk | ToolProgressChunk | ToolResultChunk | FinishChunk;

/**
 * Receives streaming chunks. When it returns a promise (or any thenable) the run waits for it before
 * going on; any other return value is ignored, so everyday callbacks such as
 * `(chunk) => chunks.push(chunk)` or `(chunk) => res.write(...)` work as they are. The return type
 * is `unknown` for that reason, not `void`: TypeScript would refuse those two under
 * `void | Promise<void>`.
 */
export type StreamingCallback = (chunk: StreamingChunk) => unknown;
