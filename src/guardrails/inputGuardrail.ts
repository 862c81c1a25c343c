import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import type { AlongsideVerdict, HookContext, Middleware, StopAction } from "../run/middleware";
import { describeKind } from "../util/describeValue";
import { type Guardrail, guardrailMiddlewareName, tripStop, verdictOf } from "./guardrail";

/** Options of `inputGuardrail`. */
export interface InputGuardrailOptions {
  /**
   * Check beside the model call instead of before it (default false). The call starts at once, so a
   * message that passes costs no wait; a trip cancels the call (its signal aborts; its tokens count
   * when it had already answered) and ends the run as before; a block or retry cancels it and calls
   * the model again with the reason in place of the message. The model may have seen the message,
   * and a streaming run may have sent chunks of the cancelled answer to its callback: keep the
   * default for input that must never reach the model.
   */
  readonly runInParallel?: boolean;
}

/**
 * A middleware that checks the run's input, each user message, before the model sees it
 * (`beforeModel`), or beside the model call (`runInParallel`): a message that passes is sent as it
 * is; a blocked one (`block` or `retry`) is sent as a user message with the reason instead, on every
 * model call of the run (state keeps the original); a trip ends the run with `exitReason:
 * "guardrail_tripped"` before the model call, and resuming checks the message again. Verdicts are
 * remembered per message for the life of the middleware, so later steps, and a resume in the same
 * process, do not check it again; new user messages are checked when they appear. Rejection
 * feedback (`meta.rejectedBy`) is not input.
 *
 * @example
 * new Agent({ chatGenerator, tools, middleware: [inputGuardrail(maxInputLength({ chars: 4000 }))] });
 */
export function inputGuardrail(guardrail: Guardrail, options: InputGuardrailOptions = {}): Middleware {
  const name = guardrailMiddlewareName(guardrail, "inputGuardrail", "input-guardrail");
  const runInParallel = checkRunInParallel(options);
  // By message object: the conversation keeps its messages, so a verdict holds for the run; a
  // snapshot revived elsewhere has new objects and is checked once more.
  const blocked = new WeakMap<ChatMessage, ChatMessage | null>();
  // The verdict on one message, remembered unless it trips (a resume checks it again).
  const check = async (message: ChatMessage, context: HookContext): Promise<StopAction | ChatMessage | null> => {
    const verdict = await verdictOf(guardrail, { point: "input", text: message.text ?? "", message }, context);
    if ("trip" in verdict) return tripStop(guardrail, "input", verdict);
    const reason = "block" in verdict ? verdict.block : "retry" in verdict ? verdict.retry : undefined;
    const replacement = reason === undefined ? null : ChatMessage.fromUser(reason, { meta: { blockedBy: name } });
    blocked.set(message, replacement);
    return replacement;
  };
  return {
    name,
    async beforeModel(context) {
      let changed = false;
      const messages: ChatMessage[] = [];
      const unchecked: ChatMessage[] = [];
      for (const message of context.messages) {
        if (message.role !== "user" || message.meta.rejectedBy !== undefined) {
          messages.push(message);
          continue;
        }
        let replacement = blocked.get(message);
        if (replacement === undefined && runInParallel) unchecked.push(message);
        if (replacement === undefined && !runInParallel) {
          const checked = await check(message, context);
          if (checked !== null && !(checked instanceof ChatMessage)) return checked;
          replacement = checked;
        }
        if (replacement) changed = true;
        messages.push(replacement ?? message);
      }
      if (unchecked.length === 0) return changed ? { messages } : undefined;
      // Beside the call: the checks run together; a trip stops, a block has the model called again
      // (this hook then sends the reason, now remembered, in place of the message).
      const alongside = async (signal: AbortSignal): Promise<AlongsideVerdict | undefined> => {
        const verdicts = await Promise.all(unchecked.map((message) => check(message, { ...context, signal })));
        const trip = verdicts.find((v): v is StopAction => v !== null && !(v instanceof ChatMessage));
        if (trip) return trip;
        return verdicts.some((v) => v !== null) ? { callAgain: true } : undefined;
      };
      return changed ? { messages, alongside } : { alongside };
    },
  };
}

function checkRunInParallel(options: InputGuardrailOptions): boolean {
  const value: unknown = options?.runInParallel ?? false;
  if (typeof value !== "boolean") {
    throw new ConfigurationError("inputGuardrail", `inputGuardrail needs runInParallel as a boolean, got ${describeKind(value)}; give true (check beside the model call) or false (before it, the default).`, { optionPath: ["runInParallel"] });
  }
  return value;
}
