import { ChatMessage, ImageContent } from "toolwright";
import { ConversationConflictError, ConversationCorruptError, ConversationLimitError, ConversationRunConflictError, type ConversationStore } from "toolwright/conversations";
import { pngImage } from "../helpers/pngImage";

/** What a conformance run gets from a store implementation: two handles on one database, and a way to spoil a row. */
export interface ConformanceHandles {
  /** The store under test. */
  readonly store: ConversationStore;
  /** A second handle on the same data (another pool, another store object): a second client. */
  readonly second: ConversationStore;
  /** Overwrites the stored JSON of a message (SQL stores); absent where there is no stored form. */
  readonly corrupt?: (threadId: string, seq: number, json: string) => Promise<void>;
  /** Closes both handles and what the factory opened. */
  close(): Promise<void>;
}

let unique = 0;
/** A thread id no other test of the run uses (the database is shared by the whole suite). */
const newId = (label: string): string => `${label}-${process.pid}-${Date.now()}-${unique++}`;

const turn = (n: number): ChatMessage[] => [ChatMessage.fromUser(`question ${n}`), ChatMessage.fromAssistant(`answer ${n}`)];
const texts = (messages: readonly ChatMessage[]): unknown[] => messages.map((m) => m.toJSON());

/** Registers the conformance suite of a ConversationStore: every implementation runs these same cases. */
export function conversationStoreConformance(name: string, open: () => Promise<ConformanceHandles>, options: { readonly storedForm: boolean }): void {
  describe(`ConversationStore conformance: ${name}`, () => {
    let handles: ConformanceHandles;
    let store: ConversationStore;
    beforeAll(async () => {
      handles = await open();
      store = handles.store;
    });
    afterAll(async () => handles?.close());

    it("loads a thread never written as version 0 with no messages and no metadata", async () => {
      const threadId = newId("empty");
      expect(await store.load(threadId)).toEqual({ threadId, version: 0, messages: [], metadata: null, state: {} });
      expect(await store.getMetadata(threadId)).toBeNull();
      expect(await store.deleteThread(threadId)).toBe(false);
    });

    it("appends runs and loads their messages in order, an image by its base64", async () => {
      const threadId = newId("order");
      const image = ChatMessage.fromUser(["what is this?", ImageContent.fromBytes(pngImage(2, 2), { mimeType: "image/png" })]);
      expect(await store.append(threadId, "run-1", turn(1))).toEqual({ version: 1, appended: true, firstSeq: 1 });
      expect(await store.append(threadId, "run-2", [image, ChatMessage.fromAssistant("a red square")])).toEqual({ version: 2, appended: true, firstSeq: 3 });
      const thread = await handles.second.load(threadId);
      expect(thread.version).toBe(2);
      expect(texts(thread.messages)).toEqual(texts([...turn(1), image, ChatMessage.fromAssistant("a red square")]));
      expect(thread.messages[2]?.images[0]?.toDataUrl()).toBe(`data:image/png;base64,${Buffer.from(pngImage(2, 2)).toString("base64")}`);
      expect(thread.messages.every((m) => m instanceof ChatMessage)).toBe(true);
    });

    it("treats a retried append with the same run id and messages as a no-op", async () => {
      const threadId = newId("retry");
      await store.append(threadId, "run-1", turn(1));
      await store.append(threadId, "run-2", turn(2));
      expect(await store.append(threadId, "run-1", turn(1))).toEqual({ version: 1, appended: false, firstSeq: 1 });
      // A retry carrying the version it first ran against is still the same append, not a conflict.
      expect(await handles.second.append(threadId, "run-2", turn(2), { expectedVersion: 1 })).toEqual({ version: 2, appended: false, firstSeq: 3 });
      const thread = await store.load(threadId);
      expect(thread.version).toBe(2);
      expect(texts(thread.messages)).toEqual(texts([...turn(1), ...turn(2)]));
    });

    it("refuses the same run id with other messages with ConversationRunConflictError", async () => {
      const threadId = newId("runconflict");
      await store.append(threadId, "run-1", turn(1));
      const error = await store.append(threadId, "run-1", turn(9)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationRunConflictError);
      expect(error).toMatchObject({ threadId, runId: "run-1" });
      expect((error as Error).message).toBe(`Conversation '${threadId}': run 'run-1' already appended other messages to this thread. A run appends once: retry with the same messages, or give the new messages a new run id.`);
      expect(texts((await store.load(threadId)).messages)).toEqual(texts(turn(1)));
    });

    it("refuses an append with a stale expectedVersion with ConversationConflictError", async () => {
      const threadId = newId("stale");
      expect((await store.append(threadId, "run-1", turn(1), { expectedVersion: 0 })).version).toBe(1);
      const error = await handles.second.append(threadId, "run-2", turn(2), { expectedVersion: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationConflictError);
      expect(error).toMatchObject({ threadId, expectedVersion: 0, actualVersion: 1 });
      expect((error as Error).message).toBe(`Conversation '${threadId}': the append expected version 0 but the thread is at version 1 (another run appended first). Load the thread again and retry the append with expectedVersion 1.`);
      expect((await store.append(threadId, "run-2", turn(2), { expectedVersion: 1 })).version).toBe(2);
    });

    it("applies concurrent appends from two clients one after the other, each run's messages together", async () => {
      const threadId = newId("concurrent");
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : handles.second).append(threadId, `run-${i}`, turn(i))));
      expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(results.map((r) => r.firstSeq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i + 1));
      const thread = await store.load(threadId);
      expect(thread.version).toBe(20);
      expect(thread.messages).toHaveLength(40);
      for (let i = 0; i < 20; i++) {
        const first = results[i]!.firstSeq - 1;
        expect(texts(thread.messages.slice(first, first + 2))).toEqual(texts(turn(i)));
      }
    });

    it("lets exactly one of two concurrent appends expecting the same version win", async () => {
      const threadId = newId("race");
      await store.append(threadId, "run-0", turn(0));
      const outcomes = await Promise.allSettled([store.append(threadId, "run-a", turn(1), { expectedVersion: 1 }), handles.second.append(threadId, "run-b", turn(2), { expectedVersion: 1 })]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(ConversationConflictError);
      expect(rejected.reason).toMatchObject({ threadId, expectedVersion: 1, actualVersion: 2 });
      expect((await store.load(threadId)).messages).toHaveLength(4);
    });

    it("lists an owner's threads most recently updated first, in pages, and forgets a deleted thread", async () => {
      const owner = newId("owner");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const threadId = newId(`list${i}`);
        ids.push(threadId);
        await store.append(threadId, "run-1", turn(i));
        await store.setMetadata(threadId, { owner, title: `thread ${i}` });
      }
      await store.setMetadata(newId("other-owner"), { owner: `${owner}-not` });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await handles.second.listThreads({ owner, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.threads.length).toBeLessThanOrEqual(2);
        seen.push(...page.threads.map((t) => t.threadId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect([...seen].sort()).toEqual([...ids].sort());
      const all = (await store.listThreads({ owner })).threads;
      expect(all.map((t) => t.threadId)).toEqual(seen);
      for (let i = 1; i < all.length; i++) expect(all[i - 1]!.metadata.updatedAt.getTime()).toBeGreaterThanOrEqual(all[i]!.metadata.updatedAt.getTime());
      expect(all.find((t) => t.threadId === ids[0])).toMatchObject({ version: 1, messageCount: 2, metadata: { owner, title: "thread 0" } });

      expect(await store.deleteThread(ids[0]!)).toBe(true);
      expect(await handles.second.deleteThread(ids[0]!)).toBe(false);
      expect((await store.listThreads({ owner })).threads.map((t) => t.threadId).sort()).toEqual(ids.slice(1).sort());
      expect(await store.load(ids[0]!)).toEqual({ threadId: ids[0], version: 0, messages: [], metadata: null, state: {} });
      // The deleted thread's run ids are gone with it: the same run appends afresh.
      expect(await store.append(ids[0]!, "run-1", turn(7))).toEqual({ version: 1, appended: true, firstSeq: 1 });
    });

    it("sets, keeps and clears metadata fields, and an append keeps them", async () => {
      const threadId = newId("meta");
      const created = await store.setMetadata(threadId, { title: "Refund for order 7", owner: "user-1" });
      expect(created).toMatchObject({ title: "Refund for order 7", owner: "user-1" });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created.updatedAt.getTime()).toBeGreaterThanOrEqual(created.createdAt.getTime());
      expect(await store.setMetadata(threadId, { title: null })).toMatchObject({ title: null, owner: "user-1" });
      await store.append(threadId, "run-1", turn(1));
      const after = await handles.second.getMetadata(threadId);
      expect(after).toMatchObject({ title: null, owner: "user-1", createdAt: created.createdAt });
      expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      expect((await store.load(threadId)).metadata).toEqual(after);
    });

    it("stores the state an append carries in the same write, keeps it when an append carries none, and writes none on a retry", async () => {
      const threadId = newId("state");
      const summary = { conversation_summary: { covered: 4, text: "Ana asked for a refund of order 7 (€20)." }, nested: [1, "two", null, { deep: true }] };
      await store.append(threadId, "run-1", turn(1), { state: summary });
      expect((await handles.second.load(threadId)).state).toEqual(summary);
      await store.append(threadId, "run-2", turn(2));
      expect((await store.load(threadId)).state).toEqual(summary);
      // A retry of run-2 carrying a state is the same append: nothing is written, the state included.
      expect(await store.append(threadId, "run-2", turn(2), { state: { other: 1 } })).toMatchObject({ appended: false });
      expect((await store.load(threadId)).state).toEqual(summary);
      await handles.second.append(threadId, "run-3", turn(3), { state: {} });
      expect((await store.load(threadId)).state).toEqual({});
      // The caller's object changing later does not change what is stored.
      const mutable: Record<string, unknown> = { count: 1 };
      await store.append(threadId, "run-4", turn(4), { state: mutable });
      mutable.count = 2;
      expect((await store.load(threadId)).state).toEqual({ count: 1 });
    });

    it("refuses a state that is not a plain JSON object or is too large, writing nothing", async () => {
      const threadId = newId("badstate");
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      const cases: [unknown, string, string][] = [
        [[1, 2], "state", `Conversation '${threadId}': run 'run-1' appends a state that is not a plain object of JSON values. Pass { key: value } or leave state out.`],
        [new Date(0), "state", `Conversation '${threadId}': run 'run-1' appends a state that is not a plain object of JSON values. Pass { key: value } or leave state out.`],
        [cycle, "state", `Conversation '${threadId}': run 'run-1' appends a state that is not JSON (Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'self' closes the circle). Pass plain JSON values.`],
        [{ text: "a\u0000b" }, "state", `Conversation '${threadId}': run 'run-1' appends a state that contains a NUL character (U+0000), which Postgres JSONB cannot store. Remove NUL characters first.`],
        [{ big: "x".repeat(1024 * 1024) }, "stateBytes", `Conversation '${threadId}': run 'run-1' appends a state of ${1024 * 1024 + 10} bytes as JSON, more than limits.maxStateBytes (1048576). Persist fewer state keys or raise the limit.`],
      ];
      for (const [state, limit, message] of cases) {
        const error = await store.append(threadId, "run-1", turn(1), { state: state as Record<string, unknown> }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConversationLimitError);
        expect({ limit: (error as ConversationLimitError).limit, message: (error as Error).message }).toEqual({ limit, message });
      }
      expect(await store.load(threadId)).toEqual({ threadId, version: 0, messages: [], metadata: null, state: {} });
    });

    it("refuses ids, metadata and appends beyond its bounds with ConversationLimitError, writing nothing", async () => {
      const long = "t".repeat(257);
      const threadId = newId("bounds");
      const cases: [() => Promise<unknown>, string, string][] = [
        [() => store.load(long), "threadId", `Conversation thread id "${"t".repeat(60)}…": the thread id must be a string of 1 to 256 characters, got 257 characters. Pass a shorter thread id.`],
        [() => store.append("", "run-1", turn(1)), "threadId", `Conversation thread id "": the thread id must be a string of 1 to 256 characters, got 0 characters. Pass a shorter thread id.`],
        [() => store.append("a\u0000b", "run-1", turn(1)), "threadId", `Conversation thread id "a\\u0000b": the thread id contains a control character or a lone surrogate. Pass a thread id of printable characters.`],
        [() => store.append(threadId, "run\n1", turn(1)), "runId", `Conversation '${threadId}': the run id contains a control character or a lone surrogate. Pass a run id of printable characters.`],
        [() => store.append(threadId, "run-1", []), "messagesPerAppend", `Conversation '${threadId}': run 'run-1' appends 0 messages; an append takes 1 to 1000. Split the append or raise limits.maxMessagesPerAppend.`],
        [() => store.append(threadId, "run-1", Array.from({ length: 1001 }, () => ChatMessage.fromUser("x"))), "messagesPerAppend", `Conversation '${threadId}': run 'run-1' appends 1001 messages; an append takes 1 to 1000. Split the append or raise limits.maxMessagesPerAppend.`],
        [() => store.append(threadId, "run-1", [ChatMessage.fromUser("x".repeat(8 * 1024 * 1024))]), "messageBytes", `Conversation '${threadId}': run 'run-1' message 0 is ${8 * 1024 * 1024 + Buffer.byteLength(JSON.stringify(ChatMessage.fromUser("").toJSON()))} bytes as JSON, more than limits.maxMessageBytes (8388608). Send smaller media or raise the limit.`],
        [() => store.append(threadId, "run-1", [ChatMessage.fromUser("a\u0000b")]), "messageText", `Conversation '${threadId}': run 'run-1' message 0 contains a NUL character (U+0000), which Postgres JSONB cannot store. Remove NUL characters before appending.`],
        [() => store.append(threadId, "run-1", turn(1), { expectedVersion: -1 }), "expectedVersion", `Conversation '${threadId}': expectedVersion -1 is not a whole number of at least 0. Pass the version load returned.`],
        [() => store.setMetadata(threadId, { title: "x".repeat(1001) }), "title", `Conversation '${threadId}': the title must be a string of at most 1000 characters without NUL. Pass a shorter title.`],
        [() => store.listThreads({ cursor: "not-a-cursor" }), "cursor", "Conversation listThreads: the cursor is not a nextCursor this store returned. Pass the nextCursor of the previous page, or no cursor for the first page."],
        [() => store.listThreads({ limit: 0 }), "limit", "Conversation listThreads: limit 0 is not a whole number from 1 to 1000. Pass a page size in that range."],
      ];
      for (const [call, limit, message] of cases) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConversationLimitError);
        expect({ limit: (error as ConversationLimitError).limit, message: (error as Error).message }).toEqual({ limit, message });
      }
      expect(await store.load(threadId)).toEqual({ threadId, version: 0, messages: [], metadata: null, state: {} });
      expect((await store.load("t".repeat(256))).version).toBe(0);
    });

    it("stores injection-looking thread ids, run ids and metadata as data", async () => {
      const threadId = `x'); DROP TABLE conversation_messages; -- ${newId("inj")}`;
      const owner = `o' OR '1'='1 ${newId("owner")}`;
      const title = `'; DELETE FROM conversation_threads; -- $1 \\ "`;
      await store.append(threadId, "r'; DROP TABLE conversation_runs; --", [ChatMessage.fromUser("'; TRUNCATE conversation_threads; --")]);
      await store.setMetadata(threadId, { owner, title });
      const thread = await handles.second.load(threadId);
      expect(thread.metadata).toMatchObject({ owner, title });
      expect(thread.messages[0]?.text).toBe("'; TRUNCATE conversation_threads; --");
      expect((await store.listThreads({ owner })).threads.map((t) => t.threadId)).toEqual([threadId]);
      expect((await store.listThreads({ owner: "o' OR '1'='1" })).threads).toEqual([]);
      const other = newId("survivor");
      await store.append(other, "run-1", turn(1));
      expect((await store.load(other)).messages).toHaveLength(2);
    });

    // The memory store keeps ChatMessage objects: it has no stored form to spoil.
    (options.storedForm ? it : it.skip)("refuses to load a thread with a corrupted row with ConversationCorruptError naming the thread and row", async () => {
      if (handles.corrupt === undefined) throw new Error(`${name}: storedForm is true but the factory gave no corrupt().`);
      const threadId = newId("corrupt");
      await store.append(threadId, "run-1", turn(1));
      await handles.corrupt(threadId, 2, JSON.stringify({ role: "wizard", content: "abracadabra" }));
      const error = await store.load(threadId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationCorruptError);
      expect(error).toMatchObject({ threadId, row: 2 });
      expect((error as Error).message).toMatch(new RegExp(`^Conversation '${threadId}': the stored message at seq 2 is corrupted: ChatMessage\\.fromJSON received a value that is not a ChatMessage JSON object: .+\\. Repair the row or delete the thread; the store writes only ChatMessage\\.toJSON\\(\\) forms\\.$`));
      expect((error as Error).cause).toBeInstanceOf(Error);
      // The rest of the store is untouched, and deleting the thread clears it.
      expect(await store.deleteThread(threadId)).toBe(true);
      expect((await store.load(threadId)).version).toBe(0);
    });
  });
}
