import type { Redis } from "ioredis";
import { newRedisClient, redisTarget, type RedisConnection } from "./connection";
import { RedisConnectionError } from "./errors";

/**
 * The Redis clients of one RunWorker: the one BullMQ is given (and the copies BullMQ makes of it for
 * its blocking reads) and the worker's own. It reports an outage once, when the first of them fails
 * to connect, and again only after each client that failed was connected again (or ended); and it
 * can drop every connection at once, which BullMQ's own close cannot do while Redis is down.
 */
export class WorkerRedis {
  /** The client BullMQ runs its commands on; BullMQ duplicates it for its blocking reads and leaves it to us to close. */
  readonly bullmq: Redis;
  readonly #clients = new Set<Redis>();
  readonly #connection: RedisConnection;
  readonly #queueName: string;
  readonly #report: (error: RedisConnectionError) => void;
  // The clients whose last word was a connection error: an outage lasts while there is one.
  readonly #failing = new Set<Redis>();

  constructor(connection: RedisConnection, queueName: string, report: (error: RedisConnectionError) => void) {
    this.#connection = connection;
    this.#queueName = queueName;
    this.#report = report;
    this.bullmq = this.#watch(newRedisClient(connection));
    // BullMQ's blocking connection is a duplicate of the client it is given: watched like ours, so
    // that its connection errors are not printed and it can be dropped on close.
    const duplicate = this.bullmq.duplicate.bind(this.bullmq);
    this.bullmq.duplicate = (override) => this.#watch(duplicate(override));
  }

  /** A new client of the worker's own (a subscription holds its connection), watched like BullMQ's. */
  newClient(): Redis {
    return this.#watch(newRedisClient(this.#connection));
  }

  /** The Redis the worker uses, as errors name it: `host:port`, or its Unix socket path. */
  get target(): string {
    return redisTarget(this.bullmq);
  }

  /** Whether BullMQ's client is connected now (a paused Redis still counts as connected). */
  get connected(): boolean {
    return this.bullmq.status === "ready";
  }

  /** Whether an outage was reported and Redis has not been back since. */
  get down(): boolean {
    return this.#failing.size > 0;
  }

  /** Closes every connection at once, without waiting for Redis: commands waiting on them reject. */
  disconnect(): void {
    for (const client of this.#clients) endRedisClient(client);
  }

  /** QUIT on BullMQ's client (which BullMQ leaves open), or a disconnect when Redis is not connected or does not answer within `ms`. */
  async quit(ms: number): Promise<void> {
    const client = this.bullmq;
    // QUIT waits in the offline queue while the client is not connected: it would never settle.
    if (client.status !== "ready") return endRedisClient(client);
    let timer: NodeJS.Timeout | undefined;
    const quitting = client.quit().then(
      () => undefined,
      () => client.disconnect(),
    );
    await Promise.race([quitting, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    endRedisClient(client);
  }

  #watch(client: Redis): Redis {
    this.#clients.add(client);
    client.on("ready", () => void this.#failing.delete(client));
    client.on("end", () => void this.#failing.delete(client));
    client.on("error", (error: Error) => {
      const reported = this.#failing.size > 0;
      this.#failing.add(client);
      if (reported) return;
      const redis = redisTarget(client);
      this.#report(
        new RedisConnectionError({
          redis,
          queueName: this.#queueName,
          cause: error,
          message: `RunWorker of queue '${this.#queueName}' cannot reach Redis at ${redis} (${error.message}); it takes no steps until Redis answers there again and then goes on by itself, so start Redis at that address or give the RunWorker the connection its RunQueue uses.`,
        }),
      );
    });
    return client;
  }
}

// Disconnects a client at once, whatever its state. Between two reconnection attempts ioredis's own
// disconnect() only clears the retry timer: with no socket to close it emits no 'end', the client
// stays 'reconnecting' for good, and whatever waits for it (BullMQ's close does) waits forever. Such a
// client is ended the way ioredis ends one whose socket closed after a disconnect(): its 'end' is
// emitted and the commands waiting for a connection reject.
export function endRedisClient(client: Redis): void {
  if (client.status === "end") return;
  const between = client.status === "reconnecting";
  client.disconnect();
  if (!between) return;
  let closeHandler: ((client: Redis) => () => void) | undefined;
  try {
    ({ closeHandler } = require("ioredis/built/redis/event_handler") as { closeHandler?: (client: Redis) => () => void });
  } catch {
    // Another ioredis layout: the client is left between attempts, as its own disconnect() leaves it.
  }
  if (typeof closeHandler === "function") closeHandler(client)();
}
