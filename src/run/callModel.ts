import type { ChatGeneratorRequest, ChatGeneratorResponse } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import { ChatGeneratorError } from "../errors";
import { callTokens } from "../observe/runUsage";
import { peekStateValue } from "../state/state";
import { attachSnapshot } from "../agent/snapshot";
import { describeKind } from "../util/describeValue";
import { isThenable } from "../util/isThenable";
import type { RunStop } from "./middleware";
import type { RunContext } from "./runContext";
import { snapshotAt } from "./runSnapshot";

/** What the model call of a step came to: replies to record (and perhaps a rejection or a stop to apply after), or a stop before the call. */
export type ModelAnswer =
  | { readonly replies: readonly ChatMessage[]; readonly reject?: { readonly text: string; readonly by: string }; readonly stop?: RunStop }
  | { readonly replies?: undefined; readonly stop: RunStop };

/**
 * Calls the model for the next step: the features before the call (a breakpoint, middleware) may
 * change what is sent or stop the run; the features after it may replace, reject or stop. A failure
 * carries a snapshot from before the call.
 */
export async function callModel(run: RunContext): Promise<ModelAnswer> {
  const { abort, observer, features } = run;
  const step = run.cursor.stepCount + 1;
  let observed: ReturnType<NonNullable<RunContext["observer"]>["modelStart"]> | undefined;
  try {
    let messages = peekStateValue(run.state, "messages") as readonly ChatMessage[];
    let tools = run.toolSpecs;
    for (const feature of features.beforeModel) {
      let change = feature.beforeModel!(run, { messages, tools });
      if (isThenable(change)) change = await abort.race(Promise.resolve(change), () => abort.abortError());
      if (!change) continue;
      if ("stop" in change) return { stop: change.stop };
      messages = change.messages ?? messages;
      tools = change.tools ?? tools;
    }
    run.cursor.resuming = false;
    if (abort.aborted) throw abort.abortError();
    // A frozen copy: a generator that pushes to or truncates it cannot change the run's history.
    const request: { -readonly [K in keyof ChatGeneratorRequest]: ChatGeneratorRequest[K] } = { messages: Object.freeze(messages.slice()), tools, signal: abort.signal };
    if (run.generationKwargs) request.generationKwargs = run.generationKwargs;
    if (run.output) request.responseFormat = run.output.responseFormat;
    if (run.streamingCallback) request.streamingCallback = run.streamingCallback;
    observed = observer?.modelStart(step, request);
    if (observed && request.streamingCallback) request.streamingCallback = observed.timeChunks(request.streamingCallback);
    const response: ChatGeneratorResponse = await abort.race(observed ? observed.within(() => run.chatGenerator.run(request)) : run.chatGenerator.run(request), () => abort.abortError());
    let replies: readonly ChatMessage[] = checkReplies(response?.replies, step);
    const tokens = callTokens(response, replies as ChatMessage[]);
    run.usage.addModelCall(tokens);
    observed?.end(response, replies as ChatMessage[], tokens);
    observed = undefined;
    for (const feature of features.afterModel) {
      let verdict = feature.afterModel!(run, replies);
      if (isThenable(verdict)) verdict = await abort.race(Promise.resolve(verdict), () => abort.abortError());
      if (!verdict) continue;
      if ("replies" in verdict) replies = verdict.replies;
      else if ("reject" in verdict) return { replies, reject: { text: verdict.reject, by: verdict.by } };
      else return { replies, stop: verdict.stop };
    }
    return { replies };
  } catch (error) {
    // The observation ends as failed only for the call itself (not for a feature before or after it).
    observed?.fail(error);
    attachSnapshot(error, () => snapshotAt(run));
    throw error;
  }
}

function checkReplies(replies: unknown, step: number): ChatMessage[] {
  const subject = `The chat generator answered step ${step}`;
  if (!Array.isArray(replies)) {
    throw new ChatGeneratorError(`${subject} without a replies array (got ${describeKind(replies)}); a ChatGenerator must resolve to { replies: ChatMessage[] }.`);
  }
  for (let i = 0; i < replies.length; i++) {
    const reply: unknown = replies[i];
    if (!(reply instanceof ChatMessage)) {
      throw new ChatGeneratorError(`${subject} with ${describeKind(reply)} at replies[${i}]; replies must be ChatMessage objects.`);
    }
  }
  return replies as ChatMessage[];
}
