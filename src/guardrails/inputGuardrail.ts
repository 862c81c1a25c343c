import { ChatMessage } from "../chat/chatMessage";
import type { Middleware } from "../run/middleware";
import { type Guardrail, guardrailMiddlewareName, tripStop, verdictOf } from "./guardrail";

/**
 * A middleware that checks the run's input, each user message, before the model sees it
 * (`beforeModel`): a message that passes is sent as it is; a blocked one (`block` or `retry`) is
 * sent as a user message with the reason instead, on every model call of the run (state keeps the
 * original); a trip ends the run with `exitReason: "guardrail_tripped"` before the model call, and
 * resuming checks the message again. Verdicts are remembered per message for the life of the
 * middleware, so later steps, and a resume in the same process, do not check it again; new user
 * messages are checked when they appear. Rejection feedback (`meta.rejectedBy`) is not input.
 *
 * @example
 * new Agent({ chatGenerator, tools, middleware: [inputGuardrail(maxInputLength({ chars: 4000 }))] });
 */
export function inputGuardrail(guardrail: Guardrail): Middleware {
  const name = guardrailMiddlewareName(guardrail, "inputGuardrail", "input-guardrail");
  // By message object: the conversation keeps its messages, so a verdict holds for the run; a
  // snapshot revived elsewhere has new objects and is checked once more.
  const blocked = new WeakMap<ChatMessage, ChatMessage | null>();
  return {
    name,
    async beforeModel(context) {
      let changed = false;
      const messages: ChatMessage[] = [];
      for (const message of context.messages) {
        if (message.role !== "user" || message.meta.rejectedBy !== undefined) {
          messages.push(message);
          continue;
        }
        let replacement = blocked.get(message);
        if (replacement === undefined) {
          const verdict = await verdictOf(guardrail, { point: "input", text: message.text ?? "", message }, context);
          if ("trip" in verdict) return tripStop(guardrail, "input", verdict);
          const reason = "block" in verdict ? verdict.block : "retry" in verdict ? verdict.retry : undefined;
          replacement = reason === undefined ? null : ChatMessage.fromUser(reason, { meta: { blockedBy: name } });
          blocked.set(message, replacement);
        }
        if (replacement) changed = true;
        messages.push(replacement ?? message);
      }
      return changed ? { messages } : undefined;
    },
  };
}
