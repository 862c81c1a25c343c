// A worker process of the cluster section (issue #12):
//   node dist/bench/cluster/benchChild.js <host> <port> <queue name> <concurrency>
// runs a RunWorker over the scripted agent below and prints "ready" once BullMQ's worker is
// connected; it answers a line "cpu" on stdin with "cpu <ms>" (its CPU time so far, user + system)
// and closes the worker and exits when its stdin ends (the parent ends it, or dies).
import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse, Tool } from "toolwright";

/**
 * A model that costs nothing and keeps no state of its own, so any worker can take any step of any
 * run: it asks for one `add` call until `calls` tool results are in the history, then answers text.
 * It streams the way a streaming model would (one tool-call delta, then `finish`) when asked to.
 */
export class CallsThenTextModel implements ChatGenerator {
  constructor(readonly calls: number) {}

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    let results = 0;
    for (const message of request.messages) if (message.role === "tool") results += 1;
    if (results >= this.calls) {
      if (request.streamingCallback) {
        await request.streamingCallback({ type: "text", delta: "done" });
        await request.streamingCallback({ type: "finish", finishReason: "stop" });
      }
      return { replies: [ChatMessage.fromAssistant("done")] };
    }
    const toolCall = { id: `c${results + 1}`, toolName: "add", arguments: { a: results, b: 1 } };
    if (request.streamingCallback) {
      await request.streamingCallback({ type: "toolCallDelta", index: 0, id: toolCall.id, toolName: "add", argumentsDelta: JSON.stringify(toolCall.arguments) });
      await request.streamingCallback({ type: "finish", finishReason: "tool_calls" });
    }
    return { replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [toolCall] })] };
  }
}

/** The trivial tool of the peer section. */
export function addTool(): Tool {
  return new Tool({
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    function: ({ a, b }) => (a as number) + (b as number),
  });
}

/** An Agent whose runs make `calls` tool calls, one per step, then answer text (`calls + 1` steps). */
export function scriptedAgent(calls: number): Agent {
  return new Agent({ chatGenerator: new CallsThenTextModel(calls), tools: [addTool()], maxAgentSteps: calls + 1 });
}

/** Tool calls per run of the throughput workload: one call, then text (2 steps). */
export const shortRunCalls = 1;

async function main(argv: readonly string[]): Promise<void> {
  const [host, port, name, concurrency] = argv;
  const { RunWorker } = await import("toolwright/bullmq");
  const worker = new RunWorker({ agent: scriptedAgent(shortRunCalls), connection: { host: host!, port: Number(port) }, name: name!, concurrency: Number(concurrency) });
  worker.bullWorker.on("error", (error) => console.error(error));
  await worker.bullWorker.waitUntilReady();
  let pending = "";
  process.stdin.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line === "cpu") {
        const usage = process.cpuUsage();
        console.log(`cpu ${(usage.user + usage.system) / 1000}`);
      }
    }
  });
  process.stdin.on("end", () => {
    worker.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.stdin.resume();
  console.log("ready");
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
