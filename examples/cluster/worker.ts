// A worker process: takes steps of queued runs from Redis and runs them with the refund desk Agent.
// Any number of these run side by side; a run's steps may go to different workers, each continuing
// from the checkpoint the previous step left in Redis.
//
// Environment: REDIS_URL (required), SNAPSHOT_KEY (required: shared by every worker, see below),
// QUEUE_NAME (default toolwright-runs), OPENAI_API_KEY / OPENAI_BASE_URL for a real model.

// The generated schemas must be registered before the Agent is built with the tools.
import "../service/tools.generated";
import { RunWorker } from "toolwright/bullmq";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { refundDeskAgent } from "../service/main";
import { RefundDeskModel } from "../service/ruleModel";
import { connectionFromUrl } from "./redis";

const redisUrl = process.env.REDIS_URL;
const snapshotKey = process.env.SNAPSHOT_KEY;
if (!redisUrl || !snapshotKey) {
  console.error("worker: set REDIS_URL and SNAPSHOT_KEY (main.ts does)");
  process.exit(2);
}

// The same Agent as examples/service, tools, deferred confirmation of issue_refund and all. Its
// snapshots are signed, and every worker must verify the checkpoints the others signed: one key
// for all of them (an array of keys while one is rotated).
const { chatGenerator } = chooseChatGenerator(() => new RefundDeskModel());
const agent = refundDeskAgent(chatGenerator, snapshotKey);

const worker = new RunWorker({
  agent,
  connection: connectionFromUrl(redisUrl),
  ...(process.env.QUEUE_NAME && { name: process.env.QUEUE_NAME }),
  concurrency: 1, // steps this process runs at once; 1 here, so that both workers get steps
});

// Each job fetch is one step: one model call and the tool calls it asks for.
worker.bullWorker.on("active", (job) => console.log(`took a step of run ${job.data.runId}`));
worker.bullWorker.on("error", (error) => console.error(`BullMQ: ${error.message}`));

void worker.bullWorker.waitUntilReady().then(() => console.log("ready"));

// SIGTERM: stop taking steps, let the running ones finish (or, past lockDurationMs, let another
// worker take them over from their checkpoint), close the connections, exit.
process.once("SIGTERM", () => {
  worker.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`close failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
});
