// One of the processes of test/conversations/twoProcesses.test.ts: appends RUNS runs of WORKER to
// THREAD_ID on the built package (toolwright/conversations resolves to dist/), on Redis (REDIS_PORT)
// or Postgres (DATABASE_URL). Prints `ready`, waits for `go` on stdin so that both processes start
// together, then one line per event; exits 1 on any error that is not a ConversationConflictError.
"use strict";
const { createInterface } = require("node:readline");
const { ChatMessage } = require("toolwright");
const { ConversationConflictError, postgresConversationStore, redisConversationStore } = require("toolwright/conversations");

/** The messages of run `i` of `worker`: 1 to 3 of them, each `<runId> <k>/<parts>` padded to `bytes`. */
function runMessages(worker, i, bytes) {
  const runId = `${worker}-${i}`;
  const parts = 1 + (i % 3);
  return Array.from({ length: parts }, (_, k) => {
    const text = `${runId} ${k + 1}/${parts} `.padEnd(bytes, "x");
    return k % 2 === 0 ? ChatMessage.fromUser(text) : ChatMessage.fromAssistant(text);
  });
}

async function open() {
  if (process.env.REDIS_PORT !== undefined) {
    const store = redisConversationStore({ connection: { host: "127.0.0.1", port: Number(process.env.REDIS_PORT) } });
    return { store, close: () => store.close() };
  }
  const { Pool } = require("pg");
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  return { store: postgresConversationStore({ pool }), close: () => pool.end() };
}

async function main() {
  const { THREAD_ID: threadId, WORKER: worker } = process.env;
  const runs = Number(process.env.RUNS);
  const bytes = Number(process.env.MESSAGE_BYTES ?? "32");
  const { store, close } = await open();
  await store.load(threadId);
  console.log("ready");
  await new Promise((resolve) => {
    const input = createInterface({ input: process.stdin });
    input.on("line", (line) => line === "go" && (input.close(), process.stdin.destroy(), resolve()));
  });
  let conflicts = 0;
  for (let i = 0; i < runs; i++) {
    const runId = `${worker}-${i}`;
    const messages = runMessages(worker, i, bytes);
    let result;
    if (i % 2 === 0) {
      // Optimistic: append only on the version just loaded; on a conflict load again and retry.
      for (let attempt = 0; result === undefined; attempt++) {
        if (attempt === 1000) throw new Error(`${runId}: 1000 conflicts in a row`);
        const { version } = await store.load(threadId);
        try {
          result = await store.append(threadId, runId, messages, { expectedVersion: version });
        } catch (error) {
          if (!(error instanceof ConversationConflictError) || error.expectedVersion !== version || !(error.actualVersion > version)) throw error;
          conflicts++;
          console.log(`conflict ${runId} ${error.expectedVersion} ${error.actualVersion}`);
        }
      }
    } else {
      result = await store.append(threadId, runId, messages);
    }
    if (!result.appended) throw new Error(`${runId}: the first append reported appended: false`);
    console.log(`appended ${runId} ${result.version} ${result.firstSeq} ${messages.length}`);
    if (i % 5 === 4) {
      // A retried request: the same run id and messages again, even with a stale expectedVersion.
      const again = await store.append(threadId, runId, messages, { expectedVersion: 0 });
      if (again.appended || again.version !== result.version || again.firstSeq !== result.firstSeq) throw new Error(`${runId}: the retry returned ${JSON.stringify(again)} after ${JSON.stringify(result)}`);
      console.log(`retried ${runId}`);
    }
  }
  await close();
  console.log(`done ${JSON.stringify({ conflicts })}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.log(`error ${error && error.name}: ${error && error.message}`);
    process.exit(1);
  });
}

module.exports = { runMessages };
