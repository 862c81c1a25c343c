import { ChatMessage, type ToolCall } from "toolwright";

const words = (
  "refund order invoice shipping delivery address account password payment card subscription plan upgrade " +
  "downgrade cancel renewal receipt tracking parcel warehouse customs delay estimate support ticket agent " +
  "the a of to and in for on with your we our this that it is was be will can please thanks today"
).split(" ");

/** A small deterministic generator (a linear congruential one), so every run of the bench stores the same text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Prose of 200 to 400 characters. */
function prose(next: () => number): string {
  const target = 200 + Math.floor(next() * 201);
  let text = "";
  while (text.length < target) text += `${text === "" ? "" : " "}${words[Math.floor(next() * words.length)]}`;
  return `${text.slice(0, target - 1)}.`;
}

/** One turn of a support chat: the user's question, then a tool call, its result and the answer, or only the answer. */
function turn(next: () => number, id: string, withTool: boolean): ChatMessage[] {
  const question = ChatMessage.fromUser(prose(next));
  if (!withTool) return [question, ChatMessage.fromAssistant(prose(next))];
  const call: ToolCall = { id: `call_${id}`, toolName: "lookupOrder", arguments: { orderId: `A-${Math.floor(next() * 1e6)}`, include: ["items", "shipping"] } };
  const result = JSON.stringify({ status: "shipped", carrier: "DHL", note: prose(next) });
  return [question, ChatMessage.fromAssistant("Let me look that order up.", { toolCalls: [call] }), ChatMessage.fromTool(result, call), ChatMessage.fromAssistant(prose(next))];
}

/** A thread of `count` messages: user and assistant text of 200–400 characters, every other turn with a tool call and its result. */
export function sampleThread(count: number, seed = 1): ChatMessage[] {
  const next = random(seed);
  const messages: ChatMessage[] = [];
  for (let i = 0; messages.length < count; i++) messages.push(...turn(next, `${seed}_${i}`, i % 2 === 1));
  return messages.slice(0, count);
}

/** What one run appends: the user's message, a tool call, its result and the answer (4 messages). */
export function sampleRun(seed: number): ChatMessage[] {
  return turn(random(seed), `run_${seed}`, true);
}
