import type { ContentInput, ToolCall } from "../chat/chatMessage";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";

// A modified call tells the model what actually ran; the history keeps the model's own call too.
// A result with media gets the note as a text part before its parts.
export function withDecisionNote<T extends string | readonly ContentInput[]>(content: T, decision: ConfirmationDecision | undefined): T {
  if (decision?.action !== "modify") return content;
  const note = `The user changed the arguments to ${JSON.stringify(decision.arguments)}${decision.feedback ? ` (${decision.feedback})` : ""}. Result:`;
  return (typeof content === "string" ? `${note} ${content}` : [note, ...content]) as T;
}

export function decidedCall(call: ToolCall, decision: ConfirmationDecision | undefined): ToolCall {
  return decision?.action === "modify" ? { ...call, arguments: decision.arguments } : call;
}

export function decisionMeta(call: ToolCall, decision: ConfirmationDecision): Record<string, unknown> {
  const confirmation: Record<string, unknown> = { action: decision.action };
  if (decision.feedback !== undefined) confirmation.feedback = decision.feedback;
  if (decision.action === "modify") confirmation.modelArguments = call.arguments;
  return { confirmation };
}
