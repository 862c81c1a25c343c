import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { guides, pageOf, runGuide } from "../../examples/docs/main";
import { startRedis, type RedisServer } from "../support/redisServer";

const root = resolve(__dirname, "../..");

describe("the guides' code (examples/docs)", () => {
  // The guides that scale out need a real Redis; every guide runs here, none is skipped.
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
    process.env.REDIS_URL = `redis://${redis.host}:${redis.port}`;
  });
  afterAll(async () => {
    delete process.env.REDIS_URL;
    await redis.stop();
  });

  it("has a page for every directory of code", () => {
    expect(guides.filter((guide) => !existsSync(join(root, pageOf(guide))))).toEqual([]);
  });

  it.each(guides.map((guide) => [pageOf(guide), guide]))("runs the code of %s, whose assertions hold", async (_page, guide) => {
    expect(await runGuide(guide)).toEqual([]);
    // The conversations guide opens an embedded Postgres (PGlite): seconds on a loaded 2-core machine.
  }, 60_000);
});
