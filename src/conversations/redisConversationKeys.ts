/** What a Redis key of the conversation store holds: a thread's hash, its message list, its run records, an owner's index. */
export type RedisConversationKeyKind = "thread" | "messages" | "runs" | "owner";

/**
 * The one function that puts data (a thread id, an owner) into a Redis key name:
 * `<prefix><kind>:<hex of the UTF-8 bytes>`. Hex keeps every id inside `[0-9a-f]`, so no id can
 * reach another thread's keys, the index keys (`<prefix>threads`) or a cluster hash tag.
 */
export function redisConversationKey(prefix: string, kind: RedisConversationKeyKind, id: string): string {
  return `${prefix}${kind}:${Buffer.from(id, "utf8").toString("hex")}`;
}

/** The sorted set of every thread, in list order. */
export function redisThreadIndexKey(prefix: string): string {
  return `${prefix}threads`;
}

/**
 * A thread's member in the indexes (all scores 0, so members sort by bytes): the time left until
 * Number.MAX_SAFE_INTEGER ms as 16 hex digits (most recently updated first), then the thread's hash
 * key (thread id bytes in code-point order on ties). The Lua scripts compute the same form.
 */
export function redisIndexMember(threadKey: string, updatedAt: number): string {
  return `${(Number.MAX_SAFE_INTEGER - updatedAt).toString(16).padStart(16, "0")}${threadKey}`;
}
