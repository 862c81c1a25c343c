// A RunWorker in a process of its own, as a user runs one, so that the outage tests see exactly what
// it prints: `node test/bullmq/helpers/outageWorker.cjs` against the built package (dist/).
//
//   REDIS_PORT        the Redis port on 127.0.0.1                                  required
//   QUEUE_NAME        the queue's name                                             required
//   CLOSE_TIMEOUT_MS  the worker's closeTimeoutMs                                  default the worker's
//   LOCK_MS           lockDurationMs; stalledIntervalMs is half                    default the worker's
//   TOOL_DELAY_MS     how long each `record` call takes (it stops when aborted)    default 0
//
// The model is the cluster tests' CountingModel ("steps:N" calls `record` N times). Prints "ready",
// "called <idempotency key>" as each call starts, and on SIGTERM closes the worker, prints "closed" and
// lets the process end by itself: a handle left open keeps it running, which the tests would see.
const { setTimeout: sleep } = require("node:timers/promises");
const { Agent, Tool } = require("../../../dist/toolwright.js");
const { RunWorker } = require("../../../dist/bullmq.js");
const { CountingModel } = require("../../../dist/bench/cluster/countingModel.js");

const number = (name) => (process.env[name] ? Number(process.env[name]) : undefined);
const toolDelayMs = number("TOOL_DELAY_MS") ?? 0;
const lockMs = number("LOCK_MS");

const record = new Tool({
  name: "record",
  description: "Record step n.",
  parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
  function: async (_args, context) => {
    process.stdout.write(`called ${context.idempotencyKey}\n`);
    if (toolDelayMs > 0) await sleep(toolDelayMs, undefined, { signal: context.signal });
    return `worker ${process.pid}`;
  },
});
const worker = new RunWorker({
  agent: new Agent({ chatGenerator: new CountingModel(), tools: [record] }),
  connection: { host: "127.0.0.1", port: number("REDIS_PORT") },
  name: process.env.QUEUE_NAME,
  ...(number("CLOSE_TIMEOUT_MS") !== undefined && { closeTimeoutMs: number("CLOSE_TIMEOUT_MS") }),
  ...(lockMs !== undefined && { lockDurationMs: lockMs, stalledIntervalMs: Math.max(1, Math.floor(lockMs / 2)) }),
});
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void worker.close().then(() => process.stdout.write("closed\n"));
});
