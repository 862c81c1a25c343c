// Issue #15: what typed output and agents-as-tools cost. Models that cost nothing (answers built in
// advance), so the figures are the framework's own work:
// - a one-step run that answers text, without and with an `outputSchema` (the answer parsed and
//   validated by zod; and one invalid answer corrected, which is a second model call);
// - a coordinator step that calls a one-step sub-agent through `asTool()`, against the same step
//   calling a plain Tool that returns the same text (the difference is the sub-run's cost);
// - a nested pause: a sub-agent's deferred confirmation pausing the coordinator, the snapshot's
//   JSON size, and resuming from it.
// Setups take turns in rounds (the first one moving each round); per setup, the median over rounds
// of each round's median run.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { Agent, type ChatGenerator, type ChatGeneratorRequest, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { fmt, median } from "./measure";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Answers each call with the reply `answer` picks from the conversation: no I/O, no parsing. */
class RuleModel implements ChatGenerator {
  constructor(private readonly answer: (request: ChatGeneratorRequest) => ChatMessage) {}
  async run(request: ChatGeneratorRequest) {
    return { replies: [this.answer(request)] };
  }
}

const report = z.object({ title: z.string(), items: z.array(z.string()), priority: z.enum(["low", "high"]).optional() });
const validAnswer = ChatMessage.fromAssistant('{"title":"Stock","items":["lamps","chairs","desks"],"priority":"high"}');
const invalidAnswer = ChatMessage.fromAssistant('{"title":"Stock","items":"lamps"}');
const question = [ChatMessage.fromUser("Summarize the stock.")];
const lastIsTool = (request: ChatGeneratorRequest) => request.messages.at(-1)!.role === "tool";
const lastIsUser = (request: ChatGeneratorRequest) => request.messages.at(-1)!.role === "user" && request.messages.at(-1)!.meta.outputCorrection === undefined;

function subAgent(options: { defer?: boolean } = {}): Agent {
  const publish = new Tool({ name: "publish", description: "Publish.", parameters: { type: "object", properties: {} }, function: () => "published" });
  return new Agent({
    chatGenerator: new RuleModel((request) =>
      options.defer && !lastIsTool(request) ? ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "p1", toolName: "publish", arguments: {} }] }) : ChatMessage.fromAssistant("The research is done: lamps, chairs, desks."),
    ),
    tools: [publish],
    ...(options.defer && { confirmationStrategies: { publish: new DeferredConfirmationStrategy() } }),
  });
}

function coordinatorWith(tool: Tool): Agent {
  return new Agent({
    chatGenerator: new RuleModel((request) => (lastIsTool(request) ? ChatMessage.fromAssistant("Done.") : ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: tool.name, arguments: { input: "Research the stock." } }] }))),
    tools: [tool],
  });
}

interface Setup {
  readonly label: string;
  run(): Promise<unknown>;
}

function setups(): Setup[] {
  const plain = new Agent({ chatGenerator: new RuleModel(() => validAnswer) });
  const typed = new Agent({ chatGenerator: new RuleModel(() => validAnswer), outputSchema: report });
  const corrected = new Agent({ chatGenerator: new RuleModel((request) => (lastIsUser(request) ? invalidAnswer : validAnswer)), outputSchema: report });
  const direct = coordinatorWith(new Tool({ name: "research", description: "Researches.", parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] }, function: () => "The research is done: lamps, chairs, desks." }));
  const nested = coordinatorWith(subAgent().asTool({ name: "research", description: "Researches." }));
  return [
    { label: "1-step run, text answer", run: () => plain.run({ messages: question }) },
    { label: "1-step run, outputSchema (valid JSON answer)", run: () => typed.run({ messages: question }) },
    { label: "2-step run, outputSchema (one answer corrected)", run: () => corrected.run({ messages: question }) },
    { label: "coordinator step calling a plain Tool", run: () => direct.run({ messages: question }) },
    { label: "coordinator step calling an agent tool (1-step sub-run)", run: () => nested.run({ messages: question }) },
  ];
}

const rounds = 9;
const runsPerBatch = 400;

/** Lines for BENCHMARKS.md: µs per run of each setup, then the nested pause's snapshot and resume. */
export async function benchComposition(print: (line: string) => void): Promise<void> {
  const list = setups();
  const perRound = new Map<string, number[]>(list.map((s) => [s.label, []]));
  for (const setup of list) for (let i = 0; i < 200; i++) await setup.run();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < list.length; k++) {
      const setup = list[(k + round) % list.length]!;
      gc();
      const times: number[] = [];
      for (let i = 0; i < runsPerBatch; i++) {
        const start = performance.now();
        await setup.run();
        times.push((performance.now() - start) * 1000);
      }
      perRound.get(setup.label)!.push(median(times));
    }
  }
  print("| setup | µs per run (median over rounds) | range over rounds |");
  print("|---|---|---|");
  for (const setup of list) {
    const values = perRound.get(setup.label)!;
    print(`| ${setup.label} | ${fmt(median(values))} | ${fmt(Math.min(...values))}–${fmt(Math.max(...values))} |`);
  }

  // A nested pause: the sub-agent's deferred publish pauses the coordinator.
  const pausing = coordinatorWith(subAgent({ defer: true }).asTool({ name: "research", description: "Researches." }));
  const pauseTimes: number[] = [];
  const resumeTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    const paused = await pausing.run({ messages: question });
    const json = JSON.stringify(paused.snapshot);
    const mid = performance.now();
    const resumed = await pausing.run({ snapshot: JSON.parse(json), decisions: { "c1/p1": { action: "confirm" } } });
    const end = performance.now();
    if (resumed.exitReason !== "text") throw new Error(`nested resume ended with ${resumed.exitReason}`);
    bytes = json.length;
    if (i >= 50) {
      pauseTimes.push((mid - start) * 1000);
      resumeTimes.push((end - mid) * 1000);
    }
  }
  print(`nested pause (sub-agent defers a call): pause + snapshot JSON ${fmt(median(pauseTimes))} µs, resume from JSON ${fmt(median(resumeTimes))} µs, snapshot ${bytes} bytes (median of 250)`);
}
