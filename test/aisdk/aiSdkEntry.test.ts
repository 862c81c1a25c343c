import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");

// Runs a script in a fresh Node process from the repository root (where `toolwright` resolves to the
// built package) and prints the packages it had loaded and the files of the build as `toolwright:<file>`.
function run(script: string, type: "commonjs" | "module" = "commonjs"): string {
  const report = `
    const { createRequire } = await import("node:module");
    const req = createRequire(${JSON.stringify(path.join(root, "package.json"))});
    const seen = new Set();
    for (const file of Object.keys(req.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (m) seen.add(m[1]);
      else if (req("node:path").dirname(file) === ${JSON.stringify(path.join(root, "dist"))}) seen.add("toolwright:" + req("node:path").basename(file));
    }
    console.log([...seen].sort().join(" "));`;
  const args = type === "module" ? ["--input-type=module", "-e", `${script} ${report}`] : ["-e", `(async () => { ${script} ${report} })().catch((e) => { console.error(e); process.exit(1); });`];
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();
}

describe("toolwright/ai-sdk (the built package)", () => {
  it("loads no AI SDK package, neither on import nor when its generator runs a model", () => {
    const out = run(`
      const { AISdkChatGenerator } = require("toolwright/ai-sdk");
      const { ChatMessage } = require("toolwright");
      const usage = { inputTokens: { total: 3 }, outputTokens: { total: 2 } };
      const model = { specificationVersion: "v3", provider: "anthropic.messages", modelId: "m", doStream: async () => ({}),
        doGenerate: async () => ({ content: [{ type: "text", text: "Hi." }], finishReason: { unified: "stop", raw: "end_turn" }, usage, warnings: [] }) };
      const response = await new AISdkChatGenerator({ model }).run({ messages: [ChatMessage.fromUser("Hi")], tools: [] });
      console.log(response.replies[0].text);`);

    expect(out).toBe("Hi.\nreflect-metadata toolwright:aisdk.js toolwright:runtime.js toolwright:toolwright.js");
  });

  it("names its exports for ES modules, and shares the error classes of toolwright", () => {
    const out = run(
      `
      import * as aisdk from "toolwright/ai-sdk";
      import { ChatGeneratorError } from "toolwright";
      const model = { specificationVersion: "v3", provider: "p.chat", modelId: "m", doStream: async () => ({}), doGenerate: async () => ({}) };
      const error = await new aisdk.AISdkChatGenerator({ model, maxRetries: 0 }).run({ messages: [], tools: [] }).catch((e) => e);
      console.log(Object.keys(aisdk).filter((key) => key !== "default").join(","), error instanceof ChatGeneratorError);`,
      "module",
    );

    expect(out.split("\n")[0]).toBe("AISdkChatGenerator true");
  });
});
