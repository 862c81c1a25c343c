/**
 * Runs that outlive a process. bullmq and ioredis are optional peer dependencies.
 * @module toolwright/bullmq
 */
export type { RedisConnection, RunStoreOptions } from "./connection";
export { RedisConnectionError, RedisDataLostError, RunNotFoundError, RunStateError, RunWaitError } from "./errors";
export type { RunCallOptions } from "./redisDeadline";
export type { RunEvent, RunEventEntry, RunFailure, RunOutcome, RunResultJSON } from "./runEvents";
export type { RunConversationOption } from "./runConversationOption";
export type { RunStartInput } from "./runInput";
export { RunQueue } from "./runQueue";
export type { RunContinueOptions, RunEventsOptions, RunJobData, RunQueueOptions } from "./runQueue";
export type { RunStatus } from "./runStore";
export { RunWorker } from "./runWorker";
export type { RunWorkerOptions } from "./runWorker";
