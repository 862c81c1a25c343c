// The tests start their redis-server with the benchmarks' helper: one way to start it, used by both.
export { startRedis, type RedisServer } from "../../bench/cluster/redis";
