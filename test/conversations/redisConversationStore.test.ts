import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { ConversationCorruptError, redisConversationStore } from "toolwright/conversations";
import { redisConversationKey } from "../../src/conversations/redisConversationKeys";
import { type RedisServer, startRedis } from "../support/redisServer";
import { conversationStoreConformance } from "./conformance";

jest.setTimeout(60_000);

// A real redis-server started for this file; the store on a client the test owns, the second
// store on a connection of its own (the two ways to give the store Redis).
let server: RedisServer | undefined;
let owned: Redis | undefined;
beforeAll(async () => {
  server = await startRedis();
  owned = new Redis({ host: server.host, port: server.port });
});
afterAll(async () => {
  await owned?.quit();
  await server?.stop();
});
const prefix = "toolwright:conv:";

conversationStoreConformance(
  "redisConversationStore",
  async () => {
    const second = redisConversationStore({ connection: { host: server!.host, port: server!.port } });
    return {
      store: redisConversationStore({ client: owned! }),
      second,
      corrupt: async (threadId, seq, json) => {
        await owned!.lset(redisConversationKey(prefix, "messages", threadId), seq - 1, json);
      },
      close: () => second.close(),
    };
  },
  { storedForm: true },
);

describe("redisConversationStore", () => {
  const turn = [ChatMessage.fromUser("question"), ChatMessage.fromAssistant("answer")];

  it("builds key names from hex ids only, so ids with separators and hash tags stay data", async () => {
    const keyPrefix = "layout:";
    const store = redisConversationStore({ client: owned!, keyPrefix });
    const threadId = "a:b{tag}*threads ünï 😀";
    await store.append(threadId, "run:1", turn);
    await store.setMetadata(threadId, { owner: "user:{7}" });
    const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");
    expect((await owned!.keys(`${keyPrefix}*`)).sort()).toEqual([`layout:messages:${hex(threadId)}`, `layout:owner:${hex("user:{7}")}`, `layout:runs:${hex(threadId)}`, `layout:thread:${hex(threadId)}`, "layout:threads"]);
    expect((await store.listThreads({ owner: "user:{7}" })).threads.map((t) => t.threadId)).toEqual([threadId]);
    expect(await store.deleteThread(threadId)).toBe(true);
    expect(await owned!.keys(`${keyPrefix}*`)).toEqual([]);
  });

  it("orders threads updated in the same millisecond by thread id in code-point order", async () => {
    const keyPrefix = "ties:";
    const store = redisConversationStore({ client: owned!, keyPrefix });
    const ids = ["b", "a", "\u{1F600}", "\uFFFD", "ab"];
    for (const id of ids) await store.append(id, "run-1", turn);
    // The same updatedAt for all, written by hand where the scripts would only write the clock.
    for (const id of ids) {
      const key = redisConversationKey(keyPrefix, "thread", id);
      const indexed = await owned!.hget(key, "indexed");
      await owned!.zrem(`${keyPrefix}threads`, indexed!);
      const member = `${(Number.MAX_SAFE_INTEGER - 5).toString(16).padStart(16, "0")}${key}`;
      await owned!.zadd(`${keyPrefix}threads`, 0, member);
      await owned!.hset(key, "updated", "5", "indexed", member);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listThreads({ limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.threads.map((t) => t.threadId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(["a", "ab", "b", "\uFFFD", "\u{1F600}"]);
  });

  it("refuses to load or append to a thread whose version is not a number with ConversationCorruptError", async () => {
    const store = redisConversationStore({ client: owned! });
    const threadId = `corrupt-version-${process.pid}`;
    await store.append(threadId, "run-1", turn);
    await owned!.hset(redisConversationKey(prefix, "thread", threadId), "version", "one");
    const message = `Conversation '${threadId}': the thread row is corrupted: its version, message count, timestamps, title or owner are not the values the store writes. Repair the row or delete the thread; the store writes only ChatMessage.toJSON() forms.`;
    for (const call of [() => store.load(threadId), () => store.append(threadId, "run-2", turn), () => store.getMetadata(threadId)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationCorruptError);
      expect(error).toMatchObject({ threadId, row: "thread", message });
    }
    expect(await owned!.llen(redisConversationKey(prefix, "messages", threadId))).toBe(2);
    expect(await store.deleteThread(threadId)).toBe(true);
  });

  it("names the seq of a stored message that is not JSON", async () => {
    const store = redisConversationStore({ client: owned! });
    const threadId = `corrupt-json-${process.pid}`;
    await store.append(threadId, "run-1", turn);
    await owned!.lset(redisConversationKey(prefix, "messages", threadId), 0, "{not json");
    const error = await store.load(threadId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationCorruptError);
    expect(error).toMatchObject({ threadId, row: 1, message: `Conversation '${threadId}': the stored message at seq 1 is corrupted: it is not JSON. Repair the row or delete the thread; the store writes only ChatMessage.toJSON() forms.` });
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it("leaves a client it was given open, and closes the client it opened itself", async () => {
    const clients = async () => String(await owned!.client("LIST")).trim().split("\n").length;
    const before = await clients();
    const own = redisConversationStore({ connection: { host: server!.host, port: server!.port } });
    await own.load("any");
    expect(await clients()).toBe(before + 1);
    await own.close();
    expect(await clients()).toBe(before);
    await redisConversationStore({ client: owned! }).close();
    expect(owned!.status).toBe("ready");
    expect(await owned!.ping()).toBe("PONG");
  });

  it("runs its scripts again after SCRIPT FLUSH", async () => {
    const store = redisConversationStore({ client: owned! });
    const threadId = `flush-${process.pid}`;
    await store.append(threadId, "run-1", turn);
    await owned!.script("FLUSH");
    expect(await store.append(threadId, "run-2", turn)).toEqual({ version: 2, appended: true, firstSeq: 3 });
    expect((await store.load(threadId)).messages).toHaveLength(4);
  });
});
