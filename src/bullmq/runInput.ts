import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { setOwn } from "../util/ownProperty";
import type { StoredInput, StoredOptions } from "./runStore";
import type { RunConversationOption } from "./runConversationOption";

/**
 * What `RunQueue.start` takes: the conversation, run options that apply to every step, and initial
 * state values. Everything crosses Redis as JSON, so state values must be JSON values that their
 * keys' schemas accept; per-process options (a signal, callbacks, a confirmation context) belong to
 * the worker's Agent.
 */
export interface RunStartInput {
  /** `ChatMessage`s or their JSON form (`toJSON()`). */
  messages?: ReadonlyArray<ChatMessage | unknown>;
  systemPrompt?: string;
  generationKwargs?: Record<string, unknown>;
  /** Names of the Agent's tools to use in this run. */
  tools?: readonly string[];
  /** The thread the run belongs to: its history is loaded before the run and its new messages appended once when it ends, in the RunWorker's `conversationStore`. */
  conversation?: RunConversationOption;
  /** Initial state values by key. */
  [stateKey: string]: unknown;
}

const optionKeys = new Set(["systemPrompt", "generationKwargs", "tools"]);
const refused = new Set(["signal", "streamingCallback", "snapshot", "decisions", "stateUpdates", "breakpoint", "confirmationContext", "runId", "onCheckpoint"]);

/** Splits and checks a start input into its JSON parts; errors name the field and the fix. */
export function encodeStartInput(input: RunStartInput): { input: StoredInput; options: StoredOptions } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigurationError("RunQueue.start", `RunQueue.start needs an input object such as { messages: [...] }, got ${describeKind(input)}.`);
  }
  const options: Record<string, unknown> = {};
  const state: Record<string, unknown> = {};
  let messages: unknown[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === "messages") {
      if (!Array.isArray(value)) throw new ConfigurationError("RunQueue.start", `RunQueue.start needs messages as an array of ChatMessage, got ${describeKind(value)}.`);
      messages = value.map((message, i) => {
        try {
          return (message instanceof ChatMessage ? message : ChatMessage.fromJSON(message)).toJSON();
        } catch (error) {
          throw new ConfigurationError("RunQueue.start", `RunQueue.start has messages[${i}] that is not a ChatMessage or its JSON form: ${(error as Error).message}`);
        }
      });
    } else if (key === "conversation") {
      setOwn(options, key, checkConversation(value));
    } else if (refused.has(key)) {
      throw new ConfigurationError(
        "RunQueue.start",
        `RunQueue.start was given '${key}', which cannot cross to a worker; a queued run gets its id from start, and signals, callbacks and strategies from the worker's Agent (cancel with queue.cancel(runId), resume with queue.resume(runId, decisions)).`,
      );
    } else {
      const problem = jsonProblem(value, key, 0);
      if (problem) throw new ConfigurationError("RunQueue.start", `RunQueue.start has ${problem}; a queued run's input crosses Redis as JSON, so pass plain data (strings, numbers, booleans, null, arrays, plain objects).`);
      // setOwn: a key named __proto__ (JSON.parse keeps it as data) stays data, not the copy's prototype.
      setOwn(optionKeys.has(key) ? options : state, key, value);
    }
  }
  return { input: { messages, state }, options: options as StoredOptions };
}

// A queued run's thread: what agent.run's conversation takes, less the store (the worker's).
function checkConversation(value: unknown): RunConversationOption {
  const shape = "pass conversation: { threadId, persistState?, onConflict? } (the store is the RunWorker's conversationStore).";
  if (!isPlainObject(value)) throw new ConfigurationError("RunQueue.start", `RunQueue.start has a conversation that is not an object, got ${describeKind(value)}; ${shape}`);
  for (const key of Object.keys(value)) {
    if (key === "threadId" || key === "persistState" || key === "onConflict") continue;
    const why = key === "store" ? "which cannot cross to a worker" : "which is not a conversation option";
    throw new ConfigurationError("RunQueue.start", `RunQueue.start has conversation.${key}, ${why}; ${shape}`);
  }
  const { threadId, persistState, onConflict } = value;
  if (typeof threadId !== "string" || threadId.length === 0 || threadId.length > 256) {
    throw new ConfigurationError("RunQueue.start", `RunQueue.start has a conversation.threadId that is not a string of 1 to 256 characters, got ${describeKind(threadId)}.`);
  }
  if (persistState !== undefined && (!Array.isArray(persistState) || persistState.some((key) => typeof key !== "string"))) {
    throw new ConfigurationError("RunQueue.start", `RunQueue.start has a conversation.persistState that is not an array of state key names, got ${describeKind(persistState)}.`);
  }
  if (onConflict !== undefined && onConflict !== "error" && onConflict !== "append") {
    throw new ConfigurationError("RunQueue.start", `RunQueue.start has conversation.onConflict ${describeKind(onConflict)}; it is "error" (the default) or "append".`);
  }
  return { threadId, ...(persistState !== undefined && { persistState: [...(persistState as string[])] }), ...(onConflict !== undefined && { onConflict }) };
}

/** The first part of a value that has no JSON form, described with its path; undefined for plain data. */
export function jsonProblem(value: unknown, path: string, depth: number): string | undefined {
  if (depth > 64) return `'${path}' nested deeper than 64 levels`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `'${path}' = ${value}, which JSON cannot carry`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonProblem(value[i], `${path}[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === "object" && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  return `'${path}' that is ${describeKind(value)}`;
}
