import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Pool } from "pg";
import { postgresConversationStore } from "toolwright/conversations";
import { startPostgresServer, type PostgresServer } from "../helpers/postgresServer";

jest.setTimeout(90_000);

const run = promisify(execFile);
const script = join(__dirname, "../../dist/examples/sessions/main.js");

// Each turn in its own Node process, as `npm run example:sessions` runs them (on the built example).
async function turn(n: 1 | 2, env: Record<string, string>): Promise<string[]> {
  const { stdout } = await run(process.execPath, [script, String(n)], { env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env }, timeout: 60_000 });
  return stdout.trim().split("\n");
}

const secondTurn = [
  "turn 2: the thread holds 4 messages (version 1)",
  "customer: Close the printer one, it works again.",
  'assistant: Done: I closed T-1 ("Printer offline"). The other ticket stays open.',
  "appended 4 messages; the thread is at version 2",
];

describe("examples/sessions", () => {
  let dir: string;
  let server: PostgresServer | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "toolwright-sessions-test-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.stop();
  });

  it("keeps the thread in PGlite across two processes: the second turn reads the first turn's tickets from the history", async () => {
    const first = await turn(1, { SESSIONS_DATA_DIR: dir, DATABASE_URL: "" });
    expect(first[0]).toBe(`store: PGlite in ${dir}`);
    expect(first.slice(2)).toEqual([
      "turn 1: the thread holds 0 messages (version 0)",
      "customer: Which of my tickets are open?",
      'assistant: You have 2 open tickets: T-1 ("Printer offline") and T-2 ("Invoice shows the wrong address").',
      "appended 4 messages; the thread is at version 1",
    ]);
    const second = await turn(2, { SESSIONS_DATA_DIR: dir, DATABASE_URL: "" });
    expect(second.slice(2, 6)).toEqual(secondTurn);
    expect(second.slice(7).map((line) => line.trim().split(":")[0])).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
  });

  it("keeps the thread in Postgres when DATABASE_URL is set", async () => {
    server = await startPostgresServer();
    await turn(1, { DATABASE_URL: server.url });
    const second = await turn(2, { DATABASE_URL: server.url });
    expect(second[0]).toBe(`store: Postgres at 127.0.0.1:${server.port}`);
    expect(second.slice(2, 6)).toEqual(secondTurn);
    const pool = new Pool({ connectionString: server.url });
    try {
      const thread = await postgresConversationStore({ pool }).load("customer-c-42");
      expect(thread.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
      expect(thread.messages[7]!.text).toBe('Done: I closed T-1 ("Printer offline"). The other ticket stays open.');
    } finally {
      await pool.end();
    }
  });
});
