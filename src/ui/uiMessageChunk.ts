/**
 * The AI SDK's finish reasons as the UI message stream carries them (`ai` 6 and 7 both accept these;
 * 7 adds `interrupted`, which toolwright never sends).
 */
export type UIFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

/** A JSON object, as `toolMetadata` must be. */
export type UIJsonObject = { [key: string]: UIJsonValue };

/** A JSON value. */
export type UIJsonValue = string | number | boolean | null | UIJsonObject | UIJsonValue[];

/**
 * One message of the AI SDK's UI message stream protocol (`x-vercel-ai-ui-message-stream: v1`), the
 * subset toolwright sends: each is a member of `UIMessageChunk` in `ai` 6 and in `ai` 7, so the SDK's
 * `readUIMessageStream` and `useChat` read every one (checked by test/ui/toUIMessageStream.test.ts).
 */
export type UIMessageChunk =
  | { readonly type: "start"; readonly messageId?: string }
  | { readonly type: "start-step" }
  | { readonly type: "finish-step" }
  | { readonly type: "text-start"; readonly id: string }
  | { readonly type: "text-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "text-end"; readonly id: string }
  | { readonly type: "reasoning-start"; readonly id: string }
  | { readonly type: "reasoning-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "reasoning-end"; readonly id: string }
  | { readonly type: "tool-input-start"; readonly toolCallId: string; readonly toolName: string; readonly toolMetadata?: UIJsonObject }
  | { readonly type: "tool-input-delta"; readonly toolCallId: string; readonly inputTextDelta: string }
  | { readonly type: "tool-input-available"; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly toolMetadata?: UIJsonObject }
  | { readonly type: "tool-input-error"; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly errorText: string }
  | { readonly type: "tool-output-available"; readonly toolCallId: string; readonly output: unknown; readonly preliminary?: boolean }
  | { readonly type: "tool-output-error"; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: "tool-approval-request"; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: `data-${string}`; readonly id?: string; readonly data: unknown }
  | { readonly type: "error"; readonly errorText: string }
  | { readonly type: "abort"; readonly reason?: string }
  | { readonly type: "finish"; readonly finishReason?: UIFinishReason };
