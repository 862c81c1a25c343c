import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");

// Runs a script in a fresh Node process from the repository root (where `toolwright` resolves to the
// built package) and returns the packages it had loaded at the end, and the files of the package's
// build it had loaded as `toolwright:<file>` (ajv is bundled into `toolwright:ajv.js`).
function loadedPackages(script: string): string[] {
  const report = `
    const seen = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (m) seen.add(m[1]);
      else if (require("node:path").dirname(file) === ${JSON.stringify(path.join(root, "dist"))}) seen.add("toolwright:" + require("node:path").basename(file));
    }
    console.log([...seen].sort().join("\\n"));`;
  const out = execFileSync(process.execPath, ["-e", `(async () => { ${script} ${report} })().catch((e) => { console.error(e); process.exit(1); });`], { cwd: root, encoding: "utf8" });
  return out.trim().split("\n").filter(Boolean);
}

describe("what importing and running toolwright loads (issue #11)", () => {
  it("loads neither zod nor ajv on import", () => {
    expect(loadedPackages(`require("toolwright");`)).toEqual(["reflect-metadata", "toolwright:runtime.js", "toolwright:toolwright.js"]);
  });

  it("loads no MCP SDK on importing toolwright/mcp, nor Redis clients on importing toolwright/bullmq", () => {
    expect(loadedPackages(`require("toolwright/mcp"); require("toolwright/bullmq");`)).toEqual(["reflect-metadata", "toolwright:bullmq.js", "toolwright:mcp.js", "toolwright:runtime.js"]);
  });

  it("loads no OpenTelemetry API on importing toolwright/otel; openTelemetry() loads the app's", () => {
    expect(loadedPackages(`require("toolwright/otel");`)).toEqual(["toolwright:otel.js", "toolwright:runtime.js"]);
    expect(loadedPackages(`require("toolwright/otel").openTelemetry();`)).toEqual(["@opentelemetry/api", "toolwright:otel.js", "toolwright:runtime.js"]);
  });

  it("runs an agent whose state schema and tools use no zod without loading zod; ajv loads at the first tool call", () => {
    const script = `
      const { Agent, ChatMessage, Tool } = require("toolwright");
      const { ScriptedChatGenerator, toolCallReply } = require("toolwright/testing");
      const add = new Tool({ name: "add", description: "Add.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, function: ({ a, b }) => a + b });
      const model = new ScriptedChatGenerator([toolCallReply(["add", { a: 1, b: 2 }]), (request) => ChatMessage.fromAssistant(request.messages.at(-1).toolCallResult.result)]);
      const result = await new Agent({ chatGenerator: model, tools: [add] }).run({ messages: [ChatMessage.fromUser("1 + 2?")] });
      if (result.lastMessage.text !== "3") throw new Error("unexpected answer " + result.lastMessage.text);`;

    const loaded = loadedPackages(script);

    expect(loaded).not.toContain("zod");
    expect(loaded).toContain("toolwright:ajv.js");
    expect(loaded).not.toContain("ajv");
    expect(loaded).not.toContain("toolwright:re2.js");
  });

  it("loads the bundled RE2 (dist/re2.js) when a JSON Schema with a pattern is compiled, and matches with it", () => {
    const script = `
      const { Agent, ChatMessage, Tool } = require("toolwright");
      const { ScriptedChatGenerator, toolCallReply } = require("toolwright/testing");
      const code = new Tool({ name: "code", description: "Code.", parameters: { type: "object", properties: { c: { type: "string", pattern: "^(a+)+$" } }, required: ["c"] }, function: ({ c }) => c });
      const model = new ScriptedChatGenerator([toolCallReply(["code", { c: "a".repeat(5000) + "!" }], ["code", { c: "aaa" }]), ChatMessage.fromAssistant("done")]);
      const result = await new Agent({ chatGenerator: model, tools: [code] }).run({ messages: [ChatMessage.fromUser("go")] });
      const results = result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult.error);
      if (JSON.stringify(results) !== "[true,false]") throw new Error("unexpected results " + JSON.stringify(results));`;

    const loaded = loadedPackages(script);

    expect(loaded).toContain("toolwright:re2.js");
    expect(loaded).not.toContain("re2js");
  });

  it("loads zod when chatMessageSchema is first read", () => {
    expect(loadedPackages(`const { chatMessageSchema } = require("toolwright"); if (typeof chatMessageSchema.safeParse !== "function") throw new Error("not a zod schema");`)).toContain("zod");
  });
});
