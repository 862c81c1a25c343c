import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse } from "../chat/chatGenerator";
import { callTokens } from "../observe/runUsage";
import { describeKind } from "../util/describeValue";
import { checkReplies } from "./callModel";
import { MiddlewareError } from "./middlewareError";
import type { HookPoint, MiddlewareModelRequest } from "./middleware";
import type { RunContext } from "./runContext";

/** Who calls: the middleware, at which hook point of which step. */
export interface MiddlewareCaller {
  readonly middleware: string;
  readonly hook: HookPoint;
  readonly step: number;
}

/**
 * A model call a middleware makes as part of the run (a summarizer's): with the run's signal, its
 * tokens and the call counted in the run's usage (so budgets see them), and observed like the run's
 * own calls, its events and span naming the middleware (`by`). The replies are checked like the
 * run's; a failure rejects (the middleware's hook then ends the run with a MiddlewareError).
 */
export async function middlewareModelCall(run: RunContext, caller: MiddlewareCaller, chatGenerator: ChatGenerator, request: MiddlewareModelRequest): Promise<ChatGeneratorResponse> {
  if (typeof (chatGenerator as Partial<ChatGenerator> | null)?.run !== "function") {
    throw new MiddlewareError({ middleware: caller.middleware, hook: caller.hook, message: `called callModel with ${describeKind(chatGenerator)}, not a chat generator (an object with run(request)).` });
  }
  const { abort, observer } = run;
  const sent: { -readonly [K in keyof ChatGeneratorRequest]: ChatGeneratorRequest[K] } = { messages: Object.freeze(request.messages.slice()), tools: request.tools ?? [], signal: abort.signal };
  if (request.generationKwargs) sent.generationKwargs = { ...request.generationKwargs };
  const observed = observer?.modelStart(caller.step, sent, { middleware: caller.middleware, chatGenerator });
  try {
    const response = await abort.race(Promise.resolve(observed ? observed.within(() => chatGenerator.run(sent)) : chatGenerator.run(sent)), () => abort.abortError());
    const replies = checkReplies(response?.replies, caller.step);
    const tokens = callTokens(response, replies);
    run.usage.addModelCall(tokens);
    observed?.end(response, replies, tokens);
    return response;
  } catch (error) {
    observed?.fail(error);
    throw error;
  }
}
