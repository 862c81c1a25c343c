import { PGlite } from "@electric-sql/pglite";
import { migrateConversationStore, pgliteConversationStore } from "toolwright/conversations";
import { conversationStoreConformance } from "./conformance";

// PGlite's WebAssembly loader calls import("node:module"); jest's VM forwards a dynamic import only
// when Node runs with --experimental-vm-modules (`npm test` passes it: see package.json "test").
if (typeof (require("node:vm") as { SyntheticModule?: unknown }).SyntheticModule !== "function") {
  throw new Error("test/conversations/pgliteConversationStore.test.ts needs Node's --experimental-vm-modules: run node --experimental-vm-modules node_modules/jest/bin/jest.js test/conversations.");
}

// One in-memory PGlite, two store objects on it: two clients of one embedded database.
conversationStoreConformance(
  "pgliteConversationStore",
  async () => {
    const db = new PGlite();
    await migrateConversationStore({ db });
    const store = await pgliteConversationStore({ db });
    const second = await pgliteConversationStore({ db, migrate: false });
    return {
      store,
      second,
      corrupt: async (threadId, seq, json) => {
        await db.query("UPDATE conversation_messages SET message = $3::jsonb WHERE thread_id = $1 AND seq = $2", [threadId, seq, json]);
      },
      close: async () => {
        await store.close();
        await second.close();
        await db.close();
      },
    };
  },
  { storedForm: true },
);
