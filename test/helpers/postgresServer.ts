// The tests start Postgres with the benchmark's helper (one way to start it), without fsync: durability is not under test.
import { startPostgresServer as start, type PostgresServer } from "../../bench/conversations/postgresServer";

export type { PostgresServer };

/** Starts a real Postgres for a test (initdb into a temp dir, pg_ctl on a free 127.0.0.1 port, fsync off). */
export function startPostgresServer(): Promise<PostgresServer> {
  return start({ fsync: false });
}
