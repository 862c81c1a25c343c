import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatMessage, DefinitionError, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { agentToYaml, loadAgent } from "toolwright/yaml";

const guardedYaml = `version: 1
name: reader
chatGenerator:
  type: ScriptedChatGenerator
  options:
    script: []
tools:
  - tool: fetch_page
maxToolResultChars: 40
budget:
  maxModelCalls: 2
  maxCost:
    amount: 0.5
    model: gpt-4o-mini
    prices:
      gpt-4o-mini:
        input: 0.15
        output: 0.6
compaction:
  pruneToolResults:
    keepLast: 1
    maxChars: 100
  slidingWindow:
    maxTokens: 4000
`;

const fetchPage = new Tool({ name: "fetch_page", description: "Fetch a page's text.", parameters: { type: "object", properties: {} }, function: () => "p".repeat(500) });
const registry = { tools: { fetch_page: fetchPage } };
const call = (id: string): ToolCall => ({ id, toolName: "fetch_page", arguments: {} });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-guarded-yaml-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("loadAgent", () => {
  it("reads maxToolResultChars, budget and compaction from agent.yaml, runs under them, and writes the same YAML back", async () => {
    const file = join(dir, "agent.yaml");
    writeFileSync(file, guardedYaml);
    const model = new ScriptedChatGenerator([1, 2, 3].map((n) => ChatMessage.fromAssistant(undefined, { toolCalls: [call(`c${n}`)] })));

    const agent = await loadAgent(file, { registry, chatGenerator: model });
    const result = await agent.run({ messages: [ChatMessage.fromUser("read them")] });

    expect(result).toMatchObject({ exitReason: "budget_exhausted", stopped: { middleware: "budget", details: { budget: "modelCalls", limit: 2, used: 2 } } });
    expect(model.requests[1]!.messages.at(-1)!.toolCallResult!.result).toBe(`${"p".repeat(40)}\n[Tool 'fetch_page' returned 500 characters; the first 40 are shown]`);
    expect(agentToYaml(agent)).toBe(guardedYaml);
  });

  it("locates a budget value budget() refuses in the file", async () => {
    const file = join(dir, "agent.yaml");
    writeFileSync(file, guardedYaml.replace("maxModelCalls: 2", "maxModelCalls: -2"));

    const error = await loadAgent(file, { registry }).catch((thrown: unknown) => thrown);

    if (!(error instanceof DefinitionError)) throw error;
    expect({ message: error.message, path: error.path, location: error.location }).toEqual({
      message: `${file}:11:18: budget.maxModelCalls: Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -2.`,
      path: ["budget", "maxModelCalls"],
      location: { file, line: 11, column: 18 },
    });
  });
});
