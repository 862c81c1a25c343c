import type { Redis, RedisOptions } from "ioredis";

/** How to reach Redis: ioredis options (`{ host, port }`), or an ioredis client to copy the settings of. */
export type RedisConnection = RedisOptions | Redis;

/** What both sides of a run queue are configured with. */
export interface RunStoreOptions {
  /** Redis, for BullMQ and for the run records and event streams. */
  connection: RedisConnection;
  /** The BullMQ queue's name; workers and queues that share it share runs. Default `toolwright-runs`. */
  name?: string;
  /** Prefix of every Redis key (BullMQ's and the runs'). Default `toolwright`. */
  prefix?: string;
  /** How long a finished, failed or cancelled run (its record and events) stays readable. Default 24 hours. */
  finishedTtlMs?: number;
  /** How long a paused run waits for `resume`, and a stopped one for `continue`, before it is gone. Default 7 days. */
  pausedTtlMs?: number;
  /**
   * How long a queued or running run may go without progress (a step taken, a checkpoint, a resume)
   * before its record and events expire, so that a run nothing can continue does not stay forever.
   * Default 7 days.
   */
  activeTtlMs?: number;
}

function isClient(connection: RedisConnection): connection is Redis {
  return typeof (connection as Redis).duplicate === "function";
}

/**
 * A new ioredis client of its own (blocking reads and subscriptions hold their connection): a copy of
 * the given client, or one made from the options. ioredis is an optional peer dependency, loaded here.
 */
export function newRedisClient(connection: RedisConnection): Redis {
  let client: Redis;
  if (isClient(connection)) client = connection.duplicate();
  else {
    const { Redis: Client } = require("ioredis") as typeof import("ioredis");
    client = new Client({ ...connection, maxRetriesPerRequest: null });
  }
  // Connection errors reach the commands that fail (and ioredis reconnects); without a listener
  // ioredis would also print "Unhandled error event" for each reconnection attempt. The last one is
  // kept for the message of a call Redis leaves unanswered.
  client.on("error", (error: Error) => void lastErrors.set(client, error));
  client.on("ready", () => void lastErrors.delete(client));
  return client;
}

const lastErrors = new WeakMap<Redis, Error>();

/**
 * Where a client of `newRedisClient` connects and, while it is not connected, why not:
 * `127.0.0.1:6380 (last connection error: connect ECONNREFUSED 127.0.0.1:6380)`.
 */
export function describeRedis(client: Redis): string {
  const target = redisTarget(client);
  const error = client.status === "ready" ? undefined : lastErrors.get(client);
  return error ? `${target} (last connection error: ${error.message})` : target;
}

/** Where an ioredis client connects: `127.0.0.1:6380`, or its Unix socket path. */
export function redisTarget(client: Redis): string {
  const { host, port, path } = client.options;
  return path ? path : `${host ?? "localhost"}:${port ?? 6379}`;
}

/** BullMQ's connection option: the ioredis options, or a copy of the given client (BullMQ closes what it is given). */
export function bullmqConnection(connection: RedisConnection): RedisOptions | Redis {
  return isClient(connection) ? connection.duplicate() : { ...connection, maxRetriesPerRequest: null };
}
