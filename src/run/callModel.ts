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
import type { ModelRequestParts } from "./runContext";
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
  const step = run.cursor.stepCount + 1;
  let parts: ModelRequestParts = { messages: peekStateValue(run.state, "messages") as ChatMessage[], tools: run.toolSpecs };
  try {
    for (const feature of run.features.beforeModel) {
      let change = feature.beforeModel!(run, parts);
      if (isThenable(change)) change = await run.abort.race(Promise.resolve(change), () => run.abort.abortError());
      if (!change) continue;
      if ("stop" in change) return { stop: change.stop };
      parts = { messages: change.messages ?? parts.messages, tools: change.tools ?? parts.tools };
    }
    run.cursor.resuming = false;
    let replies: readonly ChatMessage[] = await modelReplies(run, parts, step);
    for (const feature of run.features.afterModel) {
      let verdict = feature.afterModel!(run, replies);
      if (isThenable(verdict)) verdict = await run.abort.race(Promise.resolve(verdict), () => run.abort.abortError());
      if (!verdict) continue;
      if ("replies" in verdict) replies = verdict.replies;
      else if ("reject" in verdict) return { replies, reject: { text: verdict.reject, by: verdict.by } };
      else return { replies, stop: verdict.stop };
    }
    return { replies };
  } catch (error) {
    attachSnapshot(error, () => snapshotAt(run));
    throw error;
  }
}

// The call itself: a frozen copy of the messages (a generator that pushes to or truncates it cannot
// change the run's history), the tools, the run's options; counted in the run's usage and observed.
async function modelReplies(run: RunContext, parts: ModelRequestParts, step: number): Promise<ChatMessage[]> {
  const { abort, observer } = run;
  if (abort.aborted) throw abort.abortError();
  const request: { -readonly [K in keyof ChatGeneratorRequest]: ChatGeneratorRequest[K] } = {
    messages: Object.freeze(parts.messages.slice()),
    tools: parts.tools,
    signal: abort.signal,
  };
  if (run.generationKwargs) request.generationKwargs = run.generationKwargs;
  if (run.output) request.responseFormat = run.output.responseFormat;
  if (run.streamingCallback) request.streamingCallback = run.streamingCallback;
  const observed = observer?.modelStart(step, request);
  if (observed && request.streamingCallback) request.streamingCallback = observed.timeChunks(request.streamingCallback);
  let response: ChatGeneratorResponse;
  let replies: ChatMessage[];
  try {
    const call = observed ? observed.within(() => run.chatGenerator.run(request)) : run.chatGenerator.run(request);
    response = await abort.race(call, () => abort.abortError());
    replies = checkReplies(response?.replies, step);
  } catch (error) {
    observed?.fail(error);
    throw error;
  }
  const tokens = callTokens(response, replies);
  run.usage.addModelCall(tokens);
  observed?.end(response, replies, tokens);
  return replies;
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
