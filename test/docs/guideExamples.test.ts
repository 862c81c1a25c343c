import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { guides, runGuide } from "../../examples/docs/main";
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

  it("has a directory of code for every guide page that shows TypeScript, and no directory without a page", () => {
    const pages = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => name.replace(/\.md$/, ""));
    expect(guides.filter((guide) => !pages.includes(guide))).toEqual([]);
  });

  it.each(guides)("runs the code of docs/%s.md, whose assertions hold", async (guide) => {
    expect(await runGuide(guide)).toEqual([]);
  });
});
