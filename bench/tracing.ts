// Issue #14: what lifecycle hooks and OpenTelemetry tracing cost per step of the agent loop, and
// whether a run with neither (or with `openTelemetry()` and no provider registered) costs what it did.
//
// The loop bench's shape (bench/loopOverhead.ts): a model that costs nothing asks for one call of a
// trivial tool per step; an Agent built once per setup; runs of 25 and 400 steps. The setups take
// turns (round-robin, the first setup moving by one each round), so that other load on the machine
// and the JIT's progress touch all of them alike; a forced gc between batches keeps one setup's
// garbage out of the next one's timings. Per setup and run length: the median over rounds of each
// round's median run, as µs per step, with the range over rounds.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { performance } from "node:perf_hooks";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { Agent, type AgentHooks, ChatMessage, Tool } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { add, OneCallPerStepModel } from "./loopOverhead";
import { fmt, median } from "./measure";

const stepCounts = [25, 400] as const;
const rounds = 9;
/** Timed runs per setup per round: about 4,000 steps each. */
const runsPerBatch: Record<(typeof stepCounts)[number], number> = { 25: 160, 400: 10 };

// The same tool with a state value injected (hidden from the model): what content is redacted of.
const customerSchema = { customer: { type: z.object({ id: z.string(), email: z.string(), apiToken: z.string() }) } };
const customer = { id: "cust_8f3a2c91", email: "ana.lima@example.com", apiToken: "sk-live-4f9c2e7b1a8d6f3c5e0b9a7d2c4e" };
const addForCustomer = new Tool({
  name: "add",
  description: "Add two numbers for the customer.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" }, customer: { type: "object" } }, required: ["a", "b", "customer"] },
  inputsFromState: { customer: "customer" },
  function: ({ a, b }) => (a as number) + (b as number),
});

const emptyHooks: AgentHooks = { onRunStart() {}, onModelStart() {}, onModelEnd() {}, onToolStart() {}, onToolEnd() {}, onRunEnd() {} };

interface Setup {
  readonly label: string;
  /** A fresh Agent for runs of `steps` steps. */
  agent(steps: number): { run(input: Record<string, unknown>): Promise<unknown> };
  readonly input: Record<string, unknown>;
  /** Timed runs per batch, when not `runsPerBatch` (content capture at 400 steps takes seconds a run). */
  readonly runs?: Partial<Record<(typeof stepCounts)[number], number>>;
  /** Spans the last run exported (undefined when the setup records none); called after each timed run, outside the timing. */
  settle?(): Promise<number>;
}

function recording(processor: "simple" | "batch"): { provider: BasicTracerProvider; exporter: InMemorySpanExporter; settle(): Promise<number> } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [processor === "simple" ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)] });
  return {
    provider,
    exporter,
    async settle() {
      if (processor === "batch") await provider.forceFlush();
      const spans = exporter.getFinishedSpans().length;
      exporter.reset();
      return spans;
    },
  };
}

function setups(): Setup[] {
  const simple = recording("simple");
  const batch = recording("batch");
  const content = recording("simple");
  const injectedNoContent = recording("simple");
  const plain = { messages: [ChatMessage.fromUser("go")] };
  const withCustomer = { ...plain, customer };
  const agent = (options: Record<string, unknown>) => (steps: number) => new Agent({ chatGenerator: new OneCallPerStepModel(), tools: [add], maxAgentSteps: steps, ...options });
  const customerAgent = (options: Record<string, unknown>) => (steps: number) =>
    new Agent({ chatGenerator: new OneCallPerStepModel(), tools: [addForCustomer], stateSchema: customerSchema, maxAgentSteps: steps, ...options });
  return [
    { label: "1 off (no hooks, no tracing)", agent: agent({}), input: plain },
    { label: "2 openTelemetry(), no provider registered", agent: agent({ tracing: openTelemetry() }), input: plain },
    { label: "3 hooks: six empty callbacks", agent: agent({ hooks: emptyHooks }), input: plain },
    { label: "4 openTelemetry, SimpleSpanProcessor, in-memory", agent: agent({ tracing: openTelemetry({ tracerProvider: simple.provider }) }), input: plain, settle: simple.settle },
    { label: "5 openTelemetry, BatchSpanProcessor, in-memory", agent: agent({ tracing: openTelemetry({ tracerProvider: batch.provider }) }), input: plain, settle: batch.settle },
    { label: "6 as 4 + captureContent, injected tool", agent: customerAgent({ tracing: openTelemetry({ tracerProvider: content.provider, captureContent: true }) }), input: withCustomer, settle: content.settle, runs: { 400: 1 } },
    { label: "6a as 4, injected tool, no content", agent: customerAgent({ tracing: openTelemetry({ tracerProvider: injectedNoContent.provider }) }), input: withCustomer, settle: injectedNoContent.settle },
    { label: "6b off, injected tool", agent: customerAgent({}), input: withCustomer },
  ];
}

function forceGc(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

interface Batch {
  /** Median run, µs per step. */
  readonly usPerStep: number;
  readonly spansPerStep: number | undefined;
}

async function batch(setup: Setup, agent: { run(input: Record<string, unknown>): Promise<unknown> }, steps: number, runs: number): Promise<Batch> {
  const times: number[] = [];
  let spans: number | undefined;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await agent.run(setup.input);
    times.push(performance.now() - start);
    if (setup.settle) spans = await setup.settle();
  }
  return { usPerStep: (median(times) * 1000) / steps, spansPerStep: spans === undefined ? undefined : spans / steps };
}

/** Interleaved rounds of `list`; per setup, each round's median µs per step and the last span count. */
async function measure(list: readonly Setup[], steps: (typeof stepCounts)[number], roundCount: number): Promise<Array<{ perRound: number[]; spansPerStep: number | undefined }>> {
  const agents = list.map((setup) => setup.agent(steps));
  const results = list.map(() => ({ perRound: [] as number[], spansPerStep: undefined as number | undefined }));
  // Warm-up: every setup, unmeasured.
  for (const [i, setup] of list.entries()) await batch(setup, agents[i]!, steps, Math.max(1, Math.round((setup.runs?.[steps] ?? runsPerBatch[steps]) / 4)));
  for (let round = 0; round < roundCount; round++) {
    for (let k = 0; k < list.length; k++) {
      const i = (round + k) % list.length;
      forceGc();
      const { usPerStep, spansPerStep } = await batch(list[i]!, agents[i]!, steps, list[i]!.runs?.[steps] ?? runsPerBatch[steps]);
      results[i]!.perRound.push(usPerStep);
      results[i]!.spansPerStep = spansPerStep;
    }
  }
  return results;
}

function summary(values: readonly number[]): string {
  const decimals = median(values) >= 100 ? 0 : 1;
  return `${fmt(median(values), decimals)} µs (${fmt(Math.min(...values), decimals)}–${fmt(Math.max(...values), decimals)})`;
}

/** The size of the content one chat span records at the end of a 400-step run (informative). */
async function contentSize(): Promise<string> {
  const { provider, exporter } = recording("simple");
  const agent = new Agent({ chatGenerator: new OneCallPerStepModel(), tools: [addForCustomer], stateSchema: customerSchema, maxAgentSteps: 400, tracing: openTelemetry({ tracerProvider: provider, captureContent: true }) });
  await agent.run({ messages: [ChatMessage.fromUser("go")], customer });
  const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith("chat"));
  const first = String(chats[0]?.attributes["gen_ai.input.messages"] ?? "");
  const last = String(chats.at(-1)?.attributes["gen_ai.input.messages"] ?? "");
  const leaked = chats.some((span) => JSON.stringify(span.attributes).includes(customer.apiToken));
  return `gen_ai.input.messages of the 1st chat span ${first.length} chars, of the 400th ${(last.length / 1024).toFixed(1)} KiB (${chats.length} chat spans; the token ${leaked ? "LEAKED" : "appears in none"})`;
}

/** µs per step of the agent loop with hooks and tracing on and off (issue #14). */
export async function benchTracing(print: (line: string) => void): Promise<void> {
  const list = setups();
  for (const steps of stepCounts) {
    print(`### ${steps} steps per run (${rounds} interleaved rounds of ${runsPerBatch[steps]} runs per setup, 6: ${list[5]!.runs?.[steps] ?? runsPerBatch[steps]}; median of the rounds' median runs, range over rounds)`);
    const results = await measure(list, steps, rounds);
    const off = median(results[0]!.perRound);
    for (const [i, setup] of list.entries()) {
      const { perRound, spansPerStep } = results[i]!;
      const delta = i === 0 ? "" : `, ${median(perRound) - off >= 0 ? "+" : ""}${fmt(median(perRound) - off, 1)} µs vs off`;
      print(`tracing, ${String(steps).padStart(3)} steps, ${setup.label.padEnd(50)} ${summary(perRound)} per step${delta}${spansPerStep === undefined ? "" : `; ${fmt(spansPerStep, 2)} spans per step`}`);
    }
  }
  print(await contentSize());
  // Last, as it changes the process: with a context manager registered (as NodeSDK registers one),
  // `context.with` enters an AsyncLocalStorage, and Node then tracks async context for every promise.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  try {
    const withManager = [list[0]!, list[1]!, list[3]!];
    print(`### with an AsyncLocalStorageContextManager registered (as NodeSDK does), 400 steps, ${rounds} rounds`);
    const results = await measure(withManager, 400, rounds);
    for (const [i, setup] of withManager.entries()) print(`tracing, 400 steps, context manager, ${setup.label.padEnd(50)} ${summary(results[i]!.perRound)} per step`);
  } finally {
    context.disable();
  }
}
