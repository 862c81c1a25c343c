// The tests start their redis-server with the benchmarks' helper: one way to start it, used by both.
import { startRedis, type RedisServer } from "../../bench/cluster/redis";

export { startRedis, type RedisServer };

/**
 * A redis-server of the test file's own, started before its tests and stopped after them: read
 * `host` and `port` inside tests (they are set once `beforeAll` has run).
 */
export function useRedisServer(): { readonly host: string; readonly port: number } {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): RedisServer => {
    if (!server) throw new Error("useRedisServer: the redis-server is started in beforeAll; read host and port inside a test or a hook.");
    return server;
  };
  return {
    get host() {
      return started().host;
    },
    get port() {
      return started().port;
    },
  };
}
