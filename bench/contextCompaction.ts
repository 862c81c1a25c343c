import { ChatMessage, type BeforeModelContext, type Middleware, pruneToolResults, slidingWindow, State, summarize, summaryStateKey, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fmt, median, timeRuns } from "./measure";

const noUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, toolCalls: 0, failedToolCalls: 0, toolCallsByName: {} };

// A conversation of `size` messages: a question, then calls each answered by a 4,000-character result.
function conversation(size: number): ChatMessage[] {
  const messages = [ChatMessage.fromSystem("You read the archive."), ChatMessage.fromUser("Read the archive.")];
  for (let i = 1; messages.length < size; i++) {
    const call: ToolCall = { id: `call_${i}`, toolName: "fetch_page", arguments: { page: i } };
    messages.push(ChatMessage.fromAssistant(undefined, { toolCalls: [call] }), ChatMessage.fromTool(`page ${i} `.repeat(500).slice(0, 4_000), call));
  }
  return messages.slice(0, size);
}

// What one beforeModel hook costs on a conversation of `size` messages, in µs per call, once warm
// (a run counts each message once; every later step meets it cached, as here).
async function hookMicros(middleware: Middleware, size: number): Promise<number> {
  const state = new State({ conversation_summary: summaryStateKey() });
  const context: BeforeModelContext = { runId: "bench", agentName: undefined, step: 1, state, usage: noUsage, signal: new AbortController().signal, messages: conversation(size), tools: [], callModel: () => Promise.reject(new Error("The compaction bench makes no model calls.")) };
  const calls = 50;
  const times = await timeRuns(async () => {
    for (let i = 0; i < calls; i++) await middleware.beforeModel!(context);
  }, 7, 2);
  return (median(times) / calls) * 1000;
}

/** The per-step cost of each compaction middleware at 25, 400 and 2,000 messages: it grows no faster than the conversation. */
export async function benchContextCompaction(): Promise<string[]> {
  const lines: string[] = [];
  const summarizer = () => new ScriptedChatGenerator(Array.from({ length: 100 }, () => ChatMessage.fromAssistant("Pages fetched so far: all of them.")));
  const kinds: Array<[string, () => Middleware]> = [
    ["slidingWindow (maxTokens 16,000)", () => slidingWindow({ maxTokens: 16_000 })],
    ["pruneToolResults (keepLast 2)", () => pruneToolResults({ keepLast: 2, maxChars: 500 })],
    ["summarize (maxTokens 16,000, cached)", () => summarize({ chatGenerator: summarizer(), maxTokens: 16_000, keepLast: 4 })],
  ];
  for (const [label, make] of kinds) {
    const figures: string[] = [];
    for (const size of [25, 400, 2_000]) {
      const micros = await hookMicros(make(), size);
      figures.push(`${size} msgs ${fmt(micros)} µs (${fmt((micros / size) * 1000, 0)} ns/msg)`);
    }
    lines.push(`context ${label}: ${figures.join(", ")}`);
  }
  return lines;
}

if (require.main === module) {
  void benchContextCompaction().then((lines) => {
    for (const line of lines) console.log(line);
  });
}
