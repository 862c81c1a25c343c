import type { ToolCall } from "../chat/chatMessage";
import type { ToolProgressChunk } from "../chat/streaming";
import { limits } from "../util/limits";
import type { ToolProgress } from "./tool";

/**
 * The `toolProgress` chunk for a tool's progress report, or undefined when the report is not one
 * (a progress that is not a finite number). A total that is not a finite number and a message that
 * is not a string are left out, and a message is cut at `limits.maxProgressMessageLength`: reports
 * may come from a server nobody here wrote.
 */
export function toolProgressChunk(index: number, toolCall: ToolCall, report: ToolProgress): ToolProgressChunk | undefined {
  const { progress, total, message } = (typeof report === "object" && report !== null ? report : {}) as Partial<Record<keyof ToolProgress, unknown>>;
  if (typeof progress !== "number" || !Number.isFinite(progress)) return undefined;
  return Object.freeze({
    type: "toolProgress",
    index,
    toolCall,
    progress,
    ...(typeof total === "number" && Number.isFinite(total) && { total }),
    ...(typeof message === "string" && { message: message.length > limits.maxProgressMessageLength ? `${message.slice(0, limits.maxProgressMessageLength)}…` : message }),
  });
}
