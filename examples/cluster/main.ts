// The refund desk as a cluster: two HTTP replicas and two workers, separate processes that share
// nothing but Redis (toolwright/bullmq). This script starts them all, then plays a client whose
// requests land on different replicas, as behind a load balancer:
//
//   1. POST /runs to replica 1 starts a refund run (a BullMQ job; a worker takes its first step).
//   2. GET /runs/:id/events on replica 2 follows the run's events as SSE until it pauses: the
//      refund waits for a person's approval.
//   3. POST /runs/:id/decisions to replica 2 approves it; the same decisions sent again to
//      replica 1 are refused with 409, since a pause is resumed exactly once.
//   4. GET /runs/:id/events on replica 2 with Last-Event-ID continues after the pause: the refund
//      runs on a worker and the final answer arrives.
//
// Then it stops every process and exits 0 (1 if anything went wrong). Lines from the child
// processes are prefixed with their name. No API key is needed (the scripted refund desk model);
// with OPENAI_API_KEY or OPENAI_BASE_URL set, the workers use a real model. With REDIS_URL set,
// that Redis is used instead of a redis-server started here.
//
// The client reads the server-sent events with eventsource-parser (a dev dependency here).
//
// Run: npm run example:cluster (builds first; the processes run the compiled .js files).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { type RedisServer, startRedis } from "./redis";

const startedAt = Date.now();

function say(line: string): void {
  console.log(`${stamp()} ${line}`);
}

function stamp(): string {
  return `[${((Date.now() - startedAt) / 1000).toFixed(2).padStart(5)} s]`;
}

/** A child process of the cluster whose output lines are printed with its name. */
class Member {
  readonly process: ChildProcess;
  readonly #waiting: Array<{ pattern: RegExp; resolve: (match: RegExpMatchArray) => void }> = [];

  constructor(
    readonly name: string,
    script: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.process = spawn(process.execPath, [join(__dirname, script)], { env, stdio: ["ignore", "pipe", "pipe"] });
    const print = (line: string) => {
      console.log(`${stamp()} ${name}: ${line}`);
      for (const waiter of [...this.#waiting]) {
        const match = waiter.pattern.exec(line);
        if (!match) continue;
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    };
    createInterface({ input: this.process.stdout! }).on("line", print);
    createInterface({ input: this.process.stderr! }).on("line", print);
  }

  /** Resolves with the first line (from now on) that matches; rejects if the process exits first or after 15 s. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} printed nothing matching ${pattern} within 15 s`)), 15_000);
      const onExit = (code: number | null) => reject(new Error(`${this.name} exited with code ${code} before it printed ${pattern}`));
      this.process.once("exit", onExit);
      this.#waiting.push({
        pattern,
        resolve: (match) => {
          clearTimeout(timer);
          this.process.off("exit", onExit);
          resolve(match);
        },
      });
    });
  }

  /** SIGTERM, then the exit code (the processes close their queue, worker and server first). */
  stop(): Promise<number | null> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return Promise.resolve(this.process.exitCode);
    return new Promise((resolve) => {
      this.process.once("exit", (code) => resolve(code));
      this.process.kill("SIGTERM");
    });
  }
}

interface ServerSentEvent {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** Reads a server-sent event stream (parsed by eventsource-parser) until the server ends it (the replica does at each end of a leg). */
async function* followEvents(url: string, lastEventId?: string): AsyncGenerator<ServerSentEvent> {
  const response = await fetch(url, { headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId } });
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) {
    yield { id: event.id ?? "", type: event.event ?? "message", data: JSON.parse(event.data) as Record<string, unknown> };
  }
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Follows one leg of the run on a replica, printing each event (text pieces are joined and printed
 * before the next event of another kind). Resolves with the leg's last event.
 */
async function followLeg(replica: string, url: string, lastEventId?: string): Promise<ServerSentEvent> {
  say(`client → ${replica}: GET ${new URL(url).pathname}${lastEventId === undefined ? "" : ` (Last-Event-ID: ${lastEventId})`}`);
  let text = "";
  let last: ServerSentEvent | undefined;
  const from = `${replica} → client`;
  for await (const event of followEvents(url, lastEventId)) {
    last = event;
    const { data } = event;
    if (text && event.type !== "text") {
      say(`${from}: the model says: ${JSON.stringify(text)}`);
      text = "";
    }
    switch (event.type) {
      case "text":
        text += String(data.delta);
        break;
      case "toolCallDelta":
        say(`${from}: [${event.id}] the model calls ${String(data.toolName ?? "")}${String(data.argumentsDelta)}`);
        break;
      case "toolResult": {
        const result = data.result as { result: string; error: boolean };
        say(`${from}: [${event.id}] ${(data.toolCall as { toolName: string }).toolName} ${result.error ? "failed" : "returned"}: ${result.result}`);
        break;
      }
      case "finish":
        break;
      case "recovered":
        say(`${from}: [${event.id}] a worker was lost; another continues from step ${String(data.stepCount)}`);
        break;
      case "paused":
        for (const pending of data.pendingConfirmations as Array<{ toolCallId: string; toolName: string; arguments: unknown }>) {
          say(`${from}: [${event.id}] paused: ${pending.toolName}(${JSON.stringify(pending.arguments)}) waits for approval (call ${pending.toolCallId})`);
        }
        break;
      case "result":
        say(`${from}: [${event.id}] result (${String(data.exitReason)}): ${JSON.stringify(data.answer)}, refunds ${JSON.stringify(data.refunds)}`);
        break;
      default:
        say(`${from}: [${event.id}] ${event.type} ${JSON.stringify(data)}`);
    }
  }
  if (!last) throw new Error(`${url} ended without an event`);
  return last;
}

async function main(): Promise<number> {
  const redis: RedisServer = process.env.REDIS_URL ? { url: process.env.REDIS_URL, stop: async () => {} } : await startRedis();
  say(process.env.REDIS_URL ? `using the Redis at REDIS_URL` : `redis-server on ${redis.url}`);
  // Every worker must verify the checkpoints the others signed: one snapshot key for all.
  const env = { ...process.env, REDIS_URL: redis.url, QUEUE_NAME: "refund-desk", SNAPSHOT_KEY: process.env.SNAPSHOT_KEY ?? randomBytes(32).toString("base64") };
  const members = [
    new Member("worker 1", "worker.js", env),
    new Member("worker 2", "worker.js", env),
    new Member("replica 1", "replica.js", env),
    new Member("replica 2", "replica.js", env),
  ];
  const [, , replica1, replica2] = members as [Member, Member, Member, Member];
  let failed = false;
  try {
    const [, , listening1, listening2] = await Promise.all([
      members[0]!.waitFor(/^ready$/),
      members[1]!.waitFor(/^ready$/),
      replica1.waitFor(/listening on (\S+)/),
      replica2.waitFor(/listening on (\S+)/),
    ]);
    const url1 = listening1[1]!;
    const url2 = listening2[1]!;

    // 1. Start the run on replica 1.
    const started = await post(`${url1}/runs`, { message: "Please refund order A-100" }, { "x-customer-id": "c-42" });
    if (started.status !== 201) throw new Error(`POST /runs answered ${started.status}: ${JSON.stringify(started.body)}`);
    const runId = String(started.body.runId);
    say(`client → replica 1: POST /runs → ${started.status}, run ${runId} queued`);

    // 2–4. Follow it on replica 2; approve each pause there; continue after it with Last-Event-ID.
    let last = await followLeg("replica 2", `${url2}/runs/${runId}/events`);
    while (last.type === "paused") {
      const pending = last.data.pendingConfirmations as Array<{ toolCallId: string }>;
      const decisions = Object.fromEntries(pending.map((call) => [call.toolCallId, { action: "confirm" }]));
      const approved = await post(`${url2}/runs/${runId}/decisions`, { decisions });
      say(`client → replica 2: POST /runs/${runId}/decisions ${JSON.stringify(decisions)} → ${approved.status}`);
      if (approved.status !== 202) throw new Error(`the approval was refused: ${JSON.stringify(approved.body)}`);
      // The same approval again, on the other replica (a double click, a retried request): refused.
      const again = await post(`${url1}/runs/${runId}/decisions`, { decisions });
      say(`client → replica 1: the same decisions again → ${again.status} ${String(again.body.error)}`);
      if (again.status !== 409) throw new Error(`a second resume of the same pause answered ${again.status}, expected 409`);
      last = await followLeg("replica 2", `${url2}/runs/${runId}/events`, last.id);
    }
    if (last.type !== "result") throw new Error(`the run ended with ${last.type}: ${JSON.stringify(last.data)}`);
    say(`client: the answer is ${JSON.stringify(last.data.answer)}`);
  } catch (error) {
    failed = true;
    say(`client: failed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    // Replicas first (no new requests), then workers (they finish the steps they hold), then Redis.
    const codes = [...(await Promise.all([replica1.stop(), replica2.stop()])), ...(await Promise.all([members[0]!.stop(), members[1]!.stop()]))];
    await redis.stop();
    const bad = codes.filter((code) => code !== 0);
    if (bad.length > 0) failed = true;
    say(`stopped ${members.length} processes (exit codes ${codes.join(", ")}) and ${process.env.REDIS_URL ? "left REDIS_URL's Redis running" : "redis-server"}`);
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
