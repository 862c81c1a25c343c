import { Agent, ChatMessage, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { createUIMessageStreamResponse, toUIMessageStream } from "toolwright/ui";
import { fmt, median, timeRuns } from "./measure";

// A run of 10 steps, each a tool call and 50 words of text: about 560 stream events.
function agent(): Agent {
  const words = Array.from({ length: 50 }, (_, i) => `word${i}`).join(" ");
  const script: ChatMessage[] = [];
  for (let i = 0; i < 10; i++) script.push(ChatMessage.fromAssistant(words, { toolCalls: [{ id: `c${i}`, toolName: "add", arguments: { a: i, b: 1 } }] }));
  script.push(ChatMessage.fromAssistant("done"));
  const add = new Tool({ name: "add", description: "Add.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, function: ({ a, b }) => Number(a) + Number(b) });
  return new Agent({ chatGenerator: new ScriptedChatGenerator(script), tools: [add] });
}

const input = () => ({ messages: [ChatMessage.fromUser("go")] });

async function drain(stream: AsyncIterable<unknown> | ReadableStream<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of stream as AsyncIterable<unknown>) count++;
  return count;
}

/**
 * What `toolwright/ui` adds over `agent.stream`: the cost per event of mapping to UI message chunks
 * (and of SSE encoding, through createUIMessageStreamResponse), and the time to the first chunk.
 */
export async function benchUIStream(): Promise<string[]> {
  const events = await drain(agent().stream(input()));
  const plain = await timeRuns(() => drain(agent().stream(input())), 9, 3);
  const mapped = await timeRuns(() => drain(toUIMessageStream(agent().stream(input()))), 9, 3);
  const sse = await timeRuns(async () => {
    const response = createUIMessageStreamResponse(agent().stream(input()));
    await drain(response.body!);
  }, 9, 3);
  const firstPlain = await timeRuns(async () => {
    const iterator = agent().stream(input())[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();
  }, 15, 3);
  const firstSse = await timeRuns(async () => {
    const reader = createUIMessageStreamResponse(agent().stream(input())).body!.getReader();
    await reader.read();
    await reader.cancel();
  }, 15, 3);
  const perEvent = (ms: number) => ((ms - median(plain)) * 1000) / events;
  return [
    `toolwright/ui over a ${events}-event run (10 tool steps): agent.stream ${fmt(median(plain), 2)} ms; toUIMessageStream ${fmt(median(mapped), 2)} ms (+${fmt(perEvent(median(mapped)), 2)} µs per event); createUIMessageStreamResponse read to the end ${fmt(median(sse), 2)} ms (+${fmt(perEvent(median(sse)), 2)} µs per event)`,
    `time to first chunk: agent.stream ${fmt(median(firstPlain) * 1000, 0)} µs, the SSE Response's first bytes ${fmt(median(firstSse) * 1000, 0)} µs`,
  ];
}

if (require.main === module) {
  benchUIStream().then((lines) => lines.forEach((line) => console.log(line)));
}
