// toolwright/ui: runs as the AI SDK's UI message stream, for useChat and other chat UIs. No runtime dependency on `ai`.
export { createUIMessageStreamResponse } from "./createUIMessageStreamResponse";
export type { UIMessageStreamResponseOptions } from "./createUIMessageStreamResponse";
export { pipeUIMessageStreamToResponse } from "./pipeUIMessageStreamToResponse";
export type { UIStreamOutcome } from "./pipeUIMessageStreamToResponse";
export { toUIMessageStream } from "./toUIMessageStream";
export type { UIStreamSource } from "./toUIMessageStream";
export type { NestedAgentPart, ToolOutputPart, ToolOutputValue, ToolPreliminaryOutput } from "./toolPreliminaryOutput";
export type { UIMediaMode } from "./toolOutputValue";
export type { UIFinishReason, UIJsonObject, UIJsonValue, UIMessageChunk } from "./uiMessageChunk";
export { uiMessageStreamHeaders } from "./uiMessageStreamHeaders";
export { UIStreamError } from "./uiStreamError";
export type { ToUIMessageStreamOptions, UIRunFailure } from "./uiStreamOptions";
