import type { ChatGeneratorRequest, ToolSpec } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import { ChatGeneratorError } from "../errors";
import { callTokens } from "../observe/runUsage";
import { peekStateValue } from "../state/state";
import { attachSnapshot } from "../agent/snapshot";
import { describeKind } from "../util/describeValue";
import { isThenable } from "../util/isThenable";
import { type BesideOutcome, callBeside } from "./callBeside";
import type { RunStop } from "./middleware";
import { MiddlewareError } from "./middlewareError";
import type { AlongsideCheck, RunContext } from "./runContext";
import { snapshotAt } from "./runSnapshot";

/** What the model call of a step came to: replies to record (and perhaps a rejection or a stop to apply after), or a stop before the call. */
export type ModelAnswer =
  | { readonly replies: readonly ChatMessage[]; readonly reject?: { readonly text: string; readonly by: string }; readonly stop?: RunStop }
  | { readonly replies?: undefined; readonly stop: RunStop };

// A check beside the model call may ask for the call again (it changed what is sent); more than
// this many times in one step is its bug, not progress.
const maxCallsAgain = 8;

/**
 * Calls the model for the next step: the features before the call (a breakpoint, middleware) may
 * change what is sent, run checks beside the call (which may cancel it) or stop the run; the
 * features after it may replace, reject or stop. A failure carries a snapshot from before the call.
 */
export async function callModel(run: RunContext): Promise<ModelAnswer> {
  const step = run.cursor.stepCount + 1;
  try {
    for (let again = 0; ; again++) {
      // Without features before the call nothing is awaited: the run's hot path.
      const parts = run.features.beforeModel.length === 0 ? { messages: peekStateValue(run.state, "messages") as readonly ChatMessage[], tools: run.toolSpecs, checks: noChecks } : await requestParts(run);
      if ("stop" in parts) return { stop: parts.stop };
      run.cursor.resuming = false;
      const answer = await modelCall(run, step, parts);
      if (!("callAgain" in answer)) return answer;
      if (again === maxCallsAgain) {
        throw new MiddlewareError({ middleware: answer.by, hook: "beforeModel", message: `asked to call the model again ${maxCallsAgain + 1} times in step ${step}; ask again only after changing what the next call sends (block a message, then pass it).` });
      }
    }
  } catch (error) {
    attachSnapshot(error, () => snapshotAt(run));
    throw error;
  }
}

type RequestParts = { readonly messages: readonly ChatMessage[]; readonly tools: readonly ToolSpec[]; readonly checks: readonly AlongsideCheck[] };

// The features before the call, in order: each may change the messages and tools, add a check beside the call, or stop.
async function requestParts(run: RunContext): Promise<RequestParts | { readonly stop: RunStop }> {
  const { abort, features } = run;
  let messages = peekStateValue(run.state, "messages") as readonly ChatMessage[];
  let tools = run.toolSpecs;
  let checks: AlongsideCheck[] | undefined;
  for (const feature of features.beforeModel) {
    let change = feature.beforeModel!(run, { messages, tools });
    if (isThenable(change)) change = await abort.race(Promise.resolve(change), () => abort.abortError());
    if (!change) continue;
    if ("stop" in change) return { stop: change.stop };
    messages = change.messages ?? messages;
    tools = change.tools ?? tools;
    if (change.alongside) (checks ??= []).push(change.alongside);
  }
  return { messages, tools, checks: checks ?? noChecks };
}

const noChecks: readonly AlongsideCheck[] = Object.freeze([]);

// The call itself, observed, with the checks beside it; then the features after it.
async function modelCall(run: RunContext, step: number, parts: RequestParts): Promise<ModelAnswer | { readonly callAgain: true; readonly by: string }> {
  const { abort, observer, features } = run;
  if (abort.aborted) throw abort.abortError();
  // A frozen copy: a generator that pushes to or truncates it cannot change the run's history.
  const request: { -readonly [K in keyof ChatGeneratorRequest]: ChatGeneratorRequest[K] } = { messages: Object.freeze(parts.messages.slice()), tools: parts.tools, signal: abort.signal };
  if (run.generationKwargs) request.generationKwargs = run.generationKwargs;
  if (run.output) request.responseFormat = run.output.responseFormat;
  if (run.streamingCallback) request.streamingCallback = run.streamingCallback;
  const observed = observer?.modelStart(step, request);
  if (observed && request.streamingCallback) request.streamingCallback = observed.timeChunks(request.streamingCallback);
  const generate = (signal: AbortSignal) => {
    const sent = signal === request.signal ? request : { ...request, signal };
    return observed ? observed.within(() => run.chatGenerator.run(sent)) : run.chatGenerator.run(sent);
  };
  let outcome: BesideOutcome;
  try {
    outcome = parts.checks.length === 0 ? { response: await abort.race(generate(abort.signal), () => abort.abortError()) } : await callBeside(abort, parts.checks, generate);
  } catch (error) {
    // The observation ends as failed only for the call itself (not for a feature before or after it).
    observed?.fail(error);
    throw error;
  }
  let replies: readonly ChatMessage[] = [];
  if (!("response" in outcome) && outcome.verdict) {
    observed?.fail(new Error(`Cancelled by ${"stop" in outcome.verdict ? `middleware '${outcome.verdict.stop.middleware}', which stopped the run` : `middleware '${outcome.verdict.by}', which asked for the call again`}.`));
  } else {
    try {
      replies = checkReplies(outcome.response?.replies, step);
    } catch (error) {
      observed?.fail(error);
      throw error;
    }
    const tokens = callTokens(outcome.response, replies as ChatMessage[]);
    run.usage.addModelCall(tokens);
    observed?.end(outcome.response!, replies as ChatMessage[], tokens);
  }
  if (outcome.verdict) return "stop" in outcome.verdict ? { stop: outcome.verdict.stop } : outcome.verdict;
  for (const feature of features.afterModel) {
    let verdict = feature.afterModel!(run, replies);
    if (isThenable(verdict)) verdict = await abort.race(Promise.resolve(verdict), () => abort.abortError());
    if (!verdict) continue;
    if ("replies" in verdict) replies = verdict.replies;
    else if ("reject" in verdict) return { replies, reject: { text: verdict.reject, by: verdict.by } };
    else return { replies, stop: verdict.stop };
  }
  return { replies };
}

/** The replies a chat generator answered with, checked: an array of ChatMessage objects. */
export function checkReplies(replies: unknown, step: number): ChatMessage[] {
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
