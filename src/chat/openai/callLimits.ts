import { CallLimits as ModelCallLimits, type CallLimitsOptions } from "../callLimits";
import { providerFault } from "./toChatGeneratorError";

export type { CallLimitsOptions };

/**
 * The abort scope of one OpenAI call: src/chat/callLimits.ts (shared with the AI SDK generator),
 * with its errors worded as OpenAI faults of `model`.
 */
export class CallLimits extends ModelCallLimits {
  constructor(model: string, callerSignal: AbortSignal | undefined, options: CallLimitsOptions) {
    super((detail) => providerFault(model, detail), callerSignal, options);
  }
}
