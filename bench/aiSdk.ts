// What toolwright/ai-sdk adds per model call: converting the conversation to a LanguageModel prompt,
// the call settings, reading the result (or the stream's parts) back into a ChatMessage, the call's
// limits (an abort scope and a deadline timer). The model is the AI SDK's own MockLanguageModelV3
// answering at once, so the figures are the adapter's work, not a provider's.
//
// Two measures:
// - the agent loop of bench/loopOverhead.ts (one call of a trivial tool per step, runs of 25 and 400
//   steps) on a plain ChatGenerator that answers the same call (the baseline), and on
//   AISdkChatGenerator over doGenerate and over doStream. The difference per step is the adapter's
//   cost per model call, with the whole conversation converted on every call as it grows.
// - one `run` of each generator on a fixed conversation of 2, 50 and 400 messages, outside the loop.
// Setups take turns in rounds (the first one moving each round), with a forced gc between batches;
// per setup, the median over rounds of each round's median, with the range over rounds.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { performance } from "node:perf_hooks";
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { Agent, type ChatGenerator, type ChatGeneratorRequest, ChatMessage } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { add, OneCallPerStepModel } from "./loopOverhead";
import { fmt, median } from "./measure";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const stepCounts = [25, 400] as const;
const rounds = 7;
const runsPerBatch: Record<(typeof stepCounts)[number], number> = { 25: 120, 400: 6 };

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 8, text: 8, reasoning: undefined } };

function generateResult(step: number): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "tool-call", toolCallId: `c${step}`, toolName: "add", input: `{"a":${step},"b":1}` }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    response: { id: `resp-${step}`, modelId: "mock-model" },
    warnings: [],
  };
}

function streamParts(step: number): LanguageModelV3StreamPart[] {
  const id = `c${step}`;
  return [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: `resp-${step}`, modelId: "mock-model" },
    { type: "tool-input-start", id, toolName: "add" },
    { type: "tool-input-delta", id, delta: `{"a":${step},` },
    { type: "tool-input-delta", id, delta: `"b":1}` },
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName: "add", input: `{"a":${step},"b":1}` },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
  ];
}

/**
 * A MockLanguageModelV3 that asks for one call of `add` per step. The mock keeps every call's
 * options (the whole prompt); it forgets them at each call here, or a 400-step run would measure
 * the collector walking 400 retained prompts rather than the adapter.
 */
function mockModel(): MockLanguageModelV3 {
  let step = 0;
  const forget = () => void ((model.doGenerateCalls.length = 0), (model.doStreamCalls.length = 0));
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: "mock.chat",
    modelId: "mock-model",
    doGenerate: async () => (forget(), generateResult(++step)),
    doStream: async () => {
      forget();
      const parts = streamParts(++step);
      return { stream: new ReadableStream<LanguageModelV3StreamPart>({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });
  return model;
}

interface Setup {
  readonly label: string;
  readonly generator: () => ChatGenerator;
  readonly streaming: boolean;
}

const noop = (): void => undefined;

function setups(): Setup[] {
  const aiSdk = () => new AISdkChatGenerator({ model: mockModel() });
  return [
    { label: "baseline: a ChatGenerator returning the reply", generator: () => new OneCallPerStepModel(), streaming: false },
    { label: "AISdkChatGenerator, doGenerate", generator: aiSdk, streaming: false },
    { label: "AISdkChatGenerator, doStream (8 parts a call)", generator: aiSdk, streaming: true },
  ];
}

/** Interleaved rounds: per setup, each round's median of `runs` timed calls of `once(setup index)`, in µs per `per`. */
async function measure(count: number, runs: number, per: number, once: (index: number) => Promise<unknown>): Promise<number[][]> {
  const perRound: number[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < count; i++) for (let w = 0; w < Math.max(2, runs / 4); w++) await once(i);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < count; k++) {
      const i = (round + k) % count;
      gc();
      const times: number[] = [];
      for (let r = 0; r < runs; r++) {
        const start = performance.now();
        await once(i);
        times.push(performance.now() - start);
      }
      perRound[i]!.push((median(times) * 1000) / per);
    }
  }
  return perRound;
}

function summary(values: readonly number[]): string {
  return `${fmt(median(values), 1)} µs (${fmt(Math.min(...values), 1)}–${fmt(Math.max(...values), 1)})`;
}

/** A conversation of `size` messages: a user message, then tool calls of `add` and their results. */
function conversation(size: number): ChatMessage[] {
  const messages = [ChatMessage.fromUser("go")];
  for (let step = 1; messages.length < size; step++) {
    const call = { id: `c${step}`, toolName: "add", arguments: { a: step, b: 1 } };
    messages.push(ChatMessage.fromAssistant(undefined, { toolCalls: [call] }));
    if (messages.length < size) messages.push(ChatMessage.fromTool(String(step + 1), call));
  }
  return messages;
}

/** µs per model call that toolwright/ai-sdk adds, in the agent loop and on one call. */
export async function benchAiSdk(print: (line: string) => void): Promise<void> {
  const list = setups();
  for (const steps of stepCounts) {
    print(`### agent loop, ${steps} steps per run (${rounds} interleaved rounds of ${runsPerBatch[steps]} runs; median of the rounds' median runs, range over rounds)`);
    const built = list.map((setup) => {
      const generator = setup.generator();
      const agent = new Agent({ chatGenerator: generator, tools: [add], maxAgentSteps: steps });
      return { agent, input: { messages: [ChatMessage.fromUser("go")], ...(setup.streaming && { streamingCallback: noop }) } };
    });
    const results = await measure(list.length, runsPerBatch[steps], steps, async (i) => {
      const { agent, input } = built[i]!;
      await agent.run(input);
    });
    const base = median(results[0]!);
    for (const [i, setup] of list.entries()) {
      const delta = i === 0 ? "" : `, +${fmt(median(results[i]!) - base, 1)} µs per model call vs baseline`;
      print(`aisdk, ${String(steps).padStart(3)} steps, ${setup.label.padEnd(48)} ${summary(results[i]!)} per step${delta}`);
    }
  }
  for (const size of [2, 50, 400]) {
    const runs = size >= 400 ? 400 : 2000;
    print(`### one run() on a conversation of ${size} messages (${rounds} interleaved rounds of ${runs} calls)`);
    const request: ChatGeneratorRequest = { messages: conversation(size), tools: [{ name: "add", description: "Add two numbers.", parameters: add.parameters, strict: true }] };
    const generators = list.map((setup) => setup.generator());
    const results = await measure(list.length, runs, 1, async (i) => {
      await generators[i]!.run(list[i]!.streaming ? { ...request, streamingCallback: noop } : request);
    });
    const base = median(results[0]!);
    for (const [i, setup] of list.entries()) {
      const delta = i === 0 ? "" : `, +${fmt(median(results[i]!) - base, 1)} µs vs baseline`;
      print(`aisdk, run() on ${String(size).padStart(3)} messages, ${setup.label.padEnd(48)} ${summary(results[i]!)} per call${delta}`);
    }
  }
}
