// Cross-replica with real service processes: the cluster example's HTTP replicas (three) and workers
// (two) run as separate processes (dist/examples/cluster, built by `npm test` before jest runs) that
// share nothing but a real redis-server. The client is plain fetch with a third-party SSE parser
// (eventsource-parser), as a browser's EventSource would be.
import * as path from "node:path";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { RunQueue, type RunEventEntry } from "toolwright/bullmq";
import { type RunningProcess, startProcess } from "../support/childProcess";
import { startRedis, type RedisServer } from "../support/redisServer";

const cluster = path.join(__dirname, "../../dist/examples/cluster");
const queueName = "refund-desk";

let redis: RedisServer;
let queue: RunQueue;
let workers: RunningProcess[] = [];
let replicas: RunningProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name: queueName });
  const env = { REDIS_URL: `redis://${redis.host}:${redis.port}`, QUEUE_NAME: queueName, SNAPSHOT_KEY: "replicas-test-key-replicas-test-key" };
  // No model key reaches the workers: they answer with the scripted refund desk model.
  const scripted = { ...env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
  [workers, replicas] = await Promise.all([
    Promise.all([1, 2].map((n) => startProcess(`worker ${n}`, path.join(cluster, "worker.js"), scripted, /^ready$/))),
    Promise.all([1, 2, 3].map((n) => startProcess(`replica ${n}`, path.join(cluster, "replica.js"), env, /^listening on (\S+)$/))),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([...replicas, ...workers].map((member) => member.stop()));
  await queue?.close();
  await redis?.stop();
});

interface ServerSentEvent {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** The replica's event stream from `lastEventId` on; breaking out of the loop drops the connection. */
async function* follow(replica: RunningProcess, runId: string, lastEventId?: string): AsyncGenerator<ServerSentEvent> {
  const response = await fetch(`${replica.ready[1]}/runs/${runId}/events`, { headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId } });
  expect({ status: response.status, type: response.headers.get("content-type") }).toEqual({ status: 200, type: "text/event-stream" });
  const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) yield { id: event.id ?? "", type: event.event ?? "message", data: JSON.parse(event.data) as Record<string, unknown> };
}

async function post(replica: RunningProcess, route: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${replica.ready[1]}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** Every event of the run as stored in its Redis Stream, across legs, up to its end. */
async function stored(runId: string): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for (;;) {
    for await (const entry of queue.events(runId, { after: out.at(-1)?.id ?? "0" })) out.push(entry);
    if (out.at(-1)?.event.type !== "paused") return out;
  }
}

describe("RunQueue across service processes", () => {
  it("starts a run on replica 1, follows it on replica 3 across a dropped connection, approves it on replica 2 and refuses the repeat on replica 1", async () => {
    const [replica1, replica2, replica3] = replicas as [RunningProcess, RunningProcess, RunningProcess];

    const started = await post(replica1, "/runs", { message: "Please refund order A-100" }, { "x-customer-id": "c-42" });
    expect(started.status).toBe(201);
    const runId = (started.body as { runId: string }).runId;

    // Replica 3: two events, then the connection drops; the client reconnects with the last id it saw.
    const seen: ServerSentEvent[] = [];
    for await (const event of follow(replica3, runId)) {
      seen.push(event);
      if (seen.length === 2) break;
    }
    for await (const event of follow(replica3, runId, seen.at(-1)!.id)) seen.push(event);
    const pause = seen.at(-1)!;
    expect(pause).toMatchObject({ type: "paused", data: { pendingConfirmations: [{ toolCallId: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }] } });

    // Replica 2 resumes the pause; the same decisions again on replica 1 lose.
    const decisions = { decisions: { call_refund: { action: "confirm" } } };
    expect(await post(replica2, `/runs/${runId}/decisions`, decisions)).toEqual({ status: 202, body: { runId, status: "queued" } });
    expect(await post(replica1, `/runs/${runId}/decisions`, decisions)).toEqual({
      status: 409,
      body: {
        error: "RunStateError",
        // The run is queued, running or done by now, depending on how fast the workers were.
        message: expect.stringMatching(
          new RegExp(`^RunQueue\\.resume: run '${runId}' is not paused \\(it is (queued|running|done)\\); another resume of the same pause may have won, or the run was cancelled\\. Follow it with queue\\.events\\('${runId}'\\)\\.$`),
        ),
      },
    });

    // Replica 3 again, after the pause's id: the rest of the run.
    for await (const event of follow(replica3, runId, pause.id)) seen.push(event);
    expect(seen.at(-1)).toMatchObject({
      type: "result",
      data: { exitReason: "text", answer: "Done: your refund of 49 for A-100 is on its way.", refunds: [{ orderId: "A-100", amount: 49 }] },
    });

    // Nothing lost and nothing twice: what the client saw over three connections is the run's stream, in order.
    const all = await stored(runId);
    expect(seen.map(({ id, type }) => `${id} ${type}`)).toEqual(all.map(({ id, event }) => `${id} ${event.type}`));
    expect(all.filter(({ event }) => event.type === "toolResult")).toHaveLength(2);

    // Which process did what: the replicas only queued, streamed and resumed; the workers took the steps.
    expect(replica1.lines()).toContain(`POST /runs → run ${runId} queued`);
    expect(replica2.lines()).toContain(`POST /runs/${runId}/decisions → resumed`);
    expect(replica3.lines().filter((line) => line.startsWith(`GET /runs/${runId}/events`))).toHaveLength(3);
    const steps = workers.flatMap((worker) => worker.lines()).filter((line) => line === `took a step of run ${runId}`);
    expect(steps.length).toBeGreaterThanOrEqual(3);
  });

  it("stops every replica and worker cleanly on SIGTERM", async () => {
    const exits = await Promise.all([...replicas, ...workers].map((member) => member.stop()));
    expect(exits).toEqual(Array(5).fill({ code: 0, signal: null }));
  });
});
