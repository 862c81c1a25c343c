/**
 * Runs as the AI SDK's UI message stream, for useChat and other chat UIs. No runtime dependency on
 * `ai`.
 * @module toolwright/ui
 */
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
export { fromUIMessages } from "./fromUIMessages";
export type { FromUIMessagesOptions, FromUIMessagesResult } from "./fromUIMessages";
export { UIRequestError } from "./uiRequestError";
export type { UIRequestStatus } from "./uiRequestError";
export type { ApprovalStore } from "./approvalStore";
export { recordPauses } from "./recordPauses";
export { resumeFromApproval } from "./resumeFromApproval";
export type { ApprovalRequest } from "./resumeFromApproval";
export { resumeQueuedRun } from "./resumeQueuedRun";
export { resumableRunEvents } from "./resumableRunEvents";
export type { ResumableRunEventsOptions } from "./resumableRunEvents";
