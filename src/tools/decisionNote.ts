import type { ToolCall } from "../chat/chatMessage";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";

// A modified call tells the model what actually ran; the history keeps the model's own call too.
export function withDecisionNote(text: string, decision: ConfirmationDecision | undefined): string {
  if (decision?.action !== "modify") return text;
  return `The user changed the arguments to ${JSON.stringify(decision.arguments)}${decision.feedback ? ` (${decision.feedback})` : ""}. Result: ${text}`;
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
