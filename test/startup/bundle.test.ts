import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Agent, ChatMessage, Tool } from "../../src";
import { ScriptedChatGenerator, toolCallReply } from "../../src/testing";
import type { JsonSchema } from "../../src/tools/jsonSchema";

// The package's entry points are parts of one bundle (dist/runtime.js) and ajv is bundled into
// dist/ajv.js with a meta-schema validator compiled at build time (.ci/bundleRuntime.mjs). These
// tests run the built package in a fresh process and compare it with the source.
const root = path.join(__dirname, "..", "..");

function runPackage(script: string, type: "commonjs" | "module" = "commonjs"): string {
  const args = type === "module" ? ["--input-type=module", "-e", script] : ["-e", `(async () => { ${script} })().catch((e) => { console.error(e); process.exit(1); });`];
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();
}

// Schemas the meta-schema rejects (and one it accepts), in JSON so the script can embed them. Typed
// loosely on purpose: they are what a user's untyped JSON could hand to `new Tool`.
const schemas = [
  { type: "object", properties: { a: { type: "strnig" } } },
  { type: "object", required: "a" },
  { type: "object", properties: { a: { minimum: "x" } } },
  { type: "object", $schema: "http://json-schema.org/draft-07/schema#" },
  { type: "object", properties: { a: { type: "number" } } },
] as unknown as JsonSchema[];

// What the first call of a tool with these parameters ends in, from source.
async function firstCallOutcome(parameters: JsonSchema): Promise<string> {
  const tool = new Tool({ name: "t", description: "d", parameters, function: () => 1 });
  const model = new ScriptedChatGenerator([toolCallReply(["t", { a: 1 }]), ChatMessage.fromAssistant("done")]);
  try {
    const result = await new Agent({ chatGenerator: model, tools: [tool] }).run({ messages: [ChatMessage.fromUser("x")] });
    return `ok ${result.lastMessage.text}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the bundled package (issue #11)", () => {
  it("shares one ChatMessage class, one error hierarchy and one tool registry between its entry points", () => {
    const out = runPackage(`
      const main = require("toolwright");
      const testing = require("toolwright/testing");
      const openai = require("toolwright/openai");
      const reply = testing.toolCallReply(["add", { a: 1 }]);
      console.log(reply instanceof main.ChatMessage, typeof openai.OpenAIChatGenerator, new main.ConfigurationError("s", "m") instanceof main.ToolwrightError);`);
    expect(out).toBe("true function true");
  });

  it("names every export for ES modules", () => {
    const out = runPackage(`
      import * as main from "toolwright";
      import * as testing from "toolwright/testing";
      import * as openai from "toolwright/openai";
      import * as bullmq from "toolwright/bullmq";
      import * as mcp from "toolwright/mcp";
      import * as otel from "toolwright/otel";
      const cjs = (await import("node:module")).createRequire(process.cwd() + "/")
      const missing = [["toolwright", main], ["toolwright/testing", testing], ["toolwright/openai", openai], ["toolwright/bullmq", bullmq], ["toolwright/mcp", mcp], ["toolwright/otel", otel]]
        .flatMap(([name, ns]) => Object.keys(cjs(name)).filter((key) => key !== "__esModule" && !(key in ns)).map((key) => name + "." + key));
      console.log(JSON.stringify(missing), typeof main.Agent, typeof testing.ScriptedChatGenerator, typeof openai.OpenAIChatGenerator, typeof bullmq.RunQueue, typeof mcp.McpToolset, typeof mcp.serveMcp, typeof otel.openTelemetry);`, "module");
    expect(out).toBe("[] function function function function function function function");
  });

  it("traces with the app's own @opentelemetry/api, which it does not bundle", () => {
    const out = runPackage(`
      const api = require("@opentelemetry/api");
      const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
      const { openTelemetry } = require("toolwright/otel");
      const exporter = new InMemorySpanExporter();
      api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      const run = openTelemetry().startRun({ runId: "r", agentName: "a", resumed: false, stepCount: 0, model: undefined, provider: undefined, startTime: Date.now() }, undefined);
      run.end({ runId: "r", agentName: "a", startTime: Date.now(), endTime: Date.now(), exitReason: "text", stepCount: 0, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, toolCalls: 0, failedToolCalls: 0 }, pendingConfirmations: [], error: undefined });
      const apiFiles = Object.keys(require.cache).filter((file) => file.includes("/node_modules/@opentelemetry/api/")).length > 0;
      console.log(JSON.stringify(exporter.getFinishedSpans().map((span) => span.name)), apiFiles);`);

    expect(out).toBe('["invoke_agent a"] true');
    const bundle = fs.readFileSync(path.join(root, "dist", "runtime.js"), "utf8");
    expect(bundle).toContain('require("@opentelemetry/api")');
    expect(bundle).not.toMatch(/ProxyTracerProvider|opentelemetry\/api\/build/);
  });

  it("checks schemas against the precompiled meta-schema with the same outcome and text as the source", async () => {
    const fromSource: string[] = [];
    for (const parameters of schemas) fromSource.push(await firstCallOutcome(parameters));
    const out = runPackage(`
      const { Agent, ChatMessage, Tool } = require("toolwright");
      const { ScriptedChatGenerator, toolCallReply } = require("toolwright/testing");
      const outcomes = [];
      for (const parameters of ${JSON.stringify(schemas)}) {
        const tool = new Tool({ name: "t", description: "d", parameters, function: () => 1 });
        const model = new ScriptedChatGenerator([toolCallReply(["t", { a: 1 }]), ChatMessage.fromAssistant("done")]);
        try {
          const result = await new Agent({ chatGenerator: model, tools: [tool] }).run({ messages: [ChatMessage.fromUser("x")] });
          outcomes.push("ok " + result.lastMessage.text);
        } catch (error) { outcomes.push(error.message); }
      }
      console.log(JSON.stringify(outcomes));`);

    expect(JSON.parse(out)).toEqual(fromSource);
    expect(fromSource[0]).toBe(
      "Tool 't' has parameters that are not a valid JSON Schema: schema is invalid: data/properties/a/type must be equal to one of the allowed values, data/properties/a/type must be array, data/properties/a/type must match a schema in anyOf. Fix the schema, or pass a zod object.",
    );
    expect(fromSource[3]).toBe(`Tool 't' has parameters that are not a valid JSON Schema: no schema with key or ref "http://json-schema.org/draft-07/schema#". Fix the schema, or pass a zod object.`);
    expect(fromSource[4]).toBe("ok done");
  });
});
