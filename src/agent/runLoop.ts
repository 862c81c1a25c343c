import type { ChatGenerator, ToolSpec } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { peekStateValue, type State } from "../state/state";
import { invokeTools } from "../tools/invokeTools";
import type { Tool } from "../tools/tool";
import { abortErrorFrom, raceWithSignal } from "../util/abort";
import { describeKind } from "../util/describeValue";
import type { ExitReason } from "./agentTypes";

/** Everything one run works with; built by `Agent.run`, private to that run. */
export interface RunContext {
  readonly chatGenerator: ChatGenerator;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly state: State;
  readonly exitConditions: readonly string[];
  readonly maxAgentSteps: number;
  readonly toolConcurrency: number;
  readonly toolTimeoutMs: number | undefined;
  readonly raiseOnToolInvocationFailure: boolean;
  readonly generationKwargs: Readonly<Record<string, unknown>> | undefined;
  readonly streamingCallback: StreamingCallback | undefined;
  readonly signal: AbortSignal;
}

/** How the loop ended. */
export interface LoopOutcome {
  readonly exitReason: ExitReason;
  readonly stepCount: number;
}

/**
 * The agent loop (§5): each step calls the model with the whole history and the tools, appends
 * the replies, and ends the run on a text reply; otherwise runs the tool calls (§6) and ends the
 * run when an exit-condition tool succeeded. Stops after `maxAgentSteps` model calls.
 */
export async function runLoop(context: RunContext): Promise<LoopOutcome> {
  let stepCount = 0;
  while (stepCount < context.maxAgentSteps) {
    const exitReason = await runStep(context, stepCount);
    stepCount += 1;
    if (exitReason) return { exitReason, stepCount };
  }
  return { exitReason: "max_agent_steps", stepCount };
}

/** One step: model call, then tool calls. Returns the exit reason when the step ends the run. */
async function runStep(context: RunContext, stepIndex: number): Promise<ExitReason | undefined> {
  const { signal, state } = context;
  if (signal.aborted) throw abortErrorFrom(signal);
  const messages = peekStateValue(state, "messages") as ChatMessage[];
  const request = {
    messages,
    tools: context.toolSpecs,
    ...(context.generationKwargs && { generationKwargs: context.generationKwargs }),
    ...(context.streamingCallback && { streamingCallback: context.streamingCallback }),
    signal,
  };
  const response = await raceWithSignal(context.chatGenerator.run(request), signal, () => abortErrorFrom(signal));
  const replies = checkReplies(response?.replies, stepIndex);
  state.set("messages", replies);

  const calls = replies.flatMap((reply) => reply.toolCalls);
  if (calls.length === 0) {
    const text = replies.at(-1)?.text;
    return text !== undefined && text.trim() !== "" ? "text" : undefined;
  }
  const outcomes = await invokeTools(calls, {
    tools: context.tools,
    state,
    signal,
    concurrency: context.toolConcurrency,
    raiseOnFailure: context.raiseOnToolInvocationFailure,
    timeoutMs: context.toolTimeoutMs,
    streamingCallback: context.streamingCallback,
  });
  state.set("messages", outcomes.map((outcome) => outcome.message));
  const exit = outcomes.find((outcome) => !outcome.failed && context.exitConditions.includes(outcome.toolCall.toolName));
  return exit?.toolCall.toolName;
}

function checkReplies(replies: unknown, stepIndex: number): ChatMessage[] {
  if (!Array.isArray(replies)) {
    throw new TypeError(`The chat generator answered step ${stepIndex + 1} without a replies array (got ${describeKind(replies)}); a ChatGenerator must resolve to { replies: ChatMessage[] }.`);
  }
  for (const [i, reply] of replies.entries()) {
    if (!(reply instanceof ChatMessage)) {
      throw new TypeError(`The chat generator answered step ${stepIndex + 1} with ${describeKind(reply)} at replies[${i}]; replies must be ChatMessage objects.`);
    }
  }
  return replies as ChatMessage[];
}
