import { Client, Pool } from "pg";
import { migrateConversationStore, postgresConversationStore } from "toolwright/conversations";
import { type PostgresServer, startPostgresServer } from "../helpers/postgresServer";
import { conversationStoreConformance } from "./conformance";

jest.setTimeout(60_000);

// A real Postgres 15 started for this file; the store on a pg Pool, the second client on its own
// connected Client (the two driver paths of postgresConversationStore).
let server: PostgresServer | undefined;
afterAll(async () => server?.stop());

conversationStoreConformance(
  "postgresConversationStore",
  async () => {
    server = await startPostgresServer();
    const pool = new Pool({ connectionString: server.url, max: 4 });
    const client = new Client({ connectionString: server.url });
    await client.connect();
    await migrateConversationStore({ pool });
    // A second migration (another replica starting) changes nothing.
    await migrateConversationStore({ client });
    return {
      store: postgresConversationStore({ pool }),
      second: postgresConversationStore({ client }),
      corrupt: async (threadId, seq, json) => {
        await pool.query("UPDATE conversation_messages SET message = $3::jsonb WHERE thread_id = $1 AND seq = $2", [threadId, seq, json]);
      },
      close: async () => {
        await client.end();
        await pool.end();
      },
    };
  },
  { storedForm: true },
);
