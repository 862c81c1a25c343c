import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ToolwrightError } from "toolwright";
import * as conversations from "toolwright/conversations";

const root = path.join(__dirname, "..", "..");

// Runs a script in a fresh Node process from the repository root, where `toolwright/conversations` resolves to the built package.
function runPackage(script: string, type: "commonjs" | "module" = "commonjs"): string {
  const args = type === "module" ? ["--input-type=module", "-e", script] : ["-e", `(async () => { ${script} })().catch((e) => { console.error(e); process.exit(1); });`];
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();
}

const runtimeNames = [
  "ConversationAppendError",
  "ConversationConflictError",
  "ConversationCorruptError",
  "ConversationError",
  "ConversationLimitError",
  "ConversationRunConflictError",
  "memoryConversationStore",
  "migrateConversationStore",
  "pgliteConversationStore",
  "postgresConversationStore",
  "redisConversationStore",
];

describe("toolwright/conversations", () => {
  it("exports exactly the public runtime names", () => {
    expect(Object.keys(conversations).sort()).toEqual(runtimeNames);
  });

  it("places its errors in toolwright's hierarchy", () => {
    for (const type of [conversations.ConversationConflictError, conversations.ConversationCorruptError, conversations.ConversationLimitError, conversations.ConversationRunConflictError]) {
      expect(type.prototype).toBeInstanceOf(conversations.ConversationError);
    }
    expect(new conversations.ConversationConflictError("t", 1, 2)).toBeInstanceOf(ToolwrightError);
    expect(new conversations.ConversationConflictError("t", 1, 2).name).toBe("ConversationConflictError");
  });

  it("names the same exports for ES modules in the built package", () => {
    const out = runPackage(
      `
      import * as c from "toolwright/conversations";
      const { createRequire } = await import("node:module");
      const cjs = Object.keys(createRequire(process.cwd() + "/")("toolwright/conversations")).filter((key) => key !== "__esModule").sort();
      console.log(JSON.stringify(cjs), JSON.stringify(Object.keys(c).filter((key) => key !== "default").sort()));`,
      "module",
    );
    expect(out).toBe(`${JSON.stringify(runtimeNames)} ${JSON.stringify(runtimeNames)}`);
  });

  it("loads neither pg, PGlite nor ioredis on import, and the memory store loads none of them", () => {
    const out = runPackage(`
      const { memoryConversationStore } = require("toolwright/conversations");
      const { ChatMessage } = require("toolwright");
      const store = memoryConversationStore();
      await store.append("t", "r", [ChatMessage.fromUser("hi")]);
      console.log(Object.keys(require.cache).filter((f) => /node_modules[\\\\/](pg|@electric-sql|ioredis)[\\\\/]/.test(f)).length);`);
    expect(out).toBe("0");
  });

  it("keeps a thread in the default embedded PGlite's dataDir across two processes", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolwright-pglite-"));
    try {
      const turn = (n: number) => `
        const { pgliteConversationStore } = require("toolwright/conversations");
        const { ChatMessage } = require("toolwright");
        const store = await pgliteConversationStore({ dataDir: ${JSON.stringify(dataDir)} });
        const before = await store.load("support-1");
        const result = await store.append("support-1", "run-${n}", [ChatMessage.fromUser("question ${n}"), ChatMessage.fromAssistant("answer ${n}")], { expectedVersion: before.version });
        const after = await store.load("support-1");
        await store.close();
        console.log(JSON.stringify({ before: before.version, result, texts: after.messages.map((m) => m.text) }));`;
      expect(JSON.parse(runPackage(turn(1)))).toEqual({ before: 0, result: { version: 1, appended: true, firstSeq: 1 }, texts: ["question 1", "answer 1"] });
      expect(JSON.parse(runPackage(turn(2)))).toEqual({ before: 1, result: { version: 2, appended: true, firstSeq: 3 }, texts: ["question 1", "answer 1", "question 2", "answer 2"] });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
