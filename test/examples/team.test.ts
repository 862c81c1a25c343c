import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ChatMessage, type ChatMessageJSON } from "toolwright";
import { scriptedCoordinator, scriptedResearcher, scriptedWriter } from "../../examples/team/scriptedModels";
import { teamAgent } from "../../examples/team/team";
import { published } from "../../examples/team/teamTools";

const run = promisify(execFile);
const script = "dist/examples/team/main.js";
// The scripted models answer from the conversation, so a fresh process's models answer a resumed run the same.
const env = { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };

const models = () => ({ coordinator: scriptedCoordinator(), researcher: scriptedResearcher(), writer: scriptedWriter() });
const question = () => ({ messages: [ChatMessage.fromUser("Write us a short article on whether a heat pump is worth it.")], audience: "homeowners" as const });

describe("examples/team", () => {
  beforeEach(() => {
    published.length = 0;
  });

  test("the coordinator delegates to research and writing, pauses for the publish confirmation, and returns a typed report", async () => {
    const m = models();
    const agent = teamAgent(m);
    const first = await agent.run(question());
    if (first.exitReason !== "confirmation_required") throw new Error(`paused expected, got ${first.exitReason}`);
    expect(first.pendingConfirmations).toEqual([{ toolCallId: "co2/wr1", toolName: "publish", agent: "write", arguments: { title: "Is a heat pump worth it?", body: expect.any(String) } }]);
    expect(published).toEqual([]);
    // The research sub-run already merged its sources into the coordinator's state.
    expect(first.sources?.map((s) => s.url)).toEqual(["https://example.org/heat-pumps", "https://example.org/cold-climates", "https://example.org/boilers"]);
    // The sub-agents' prompts came from their state: the researcher got the coordinator's audience.
    expect(m.researcher.requests[0]!.messages[0]!.text).toBe("You research facts for homeowners. Search, then answer with your findings as JSON.");
    expect(m.coordinator.requests[0]!.messages[0]!.text).toBe("You lead a small team writing for homeowners. Delegate research, then writing, then report.");

    const result = await agent.run({ snapshot: first.snapshot, decisions: { "co2/wr1": { action: "confirm" } } });
    if (result.exitReason !== "text") throw new Error(`text expected, got ${result.exitReason}`);
    expect(result.output).toEqual({ title: "Is a heat pump worth it?", summary: expect.stringContaining("Heat pumps deliver"), published: true });
    expect(published.map((p) => p.title)).toEqual(["Is a heat pump worth it?"]);
    // research ran once, not again on resume.
    expect(m.researcher.requests).toHaveLength(2);
  });

  test("a paused team run resumes in another process: one snapshot carries the coordinator's and the writer's runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "team-"));
    try {
      const file = join(dir, "paused.json");
      const first = await run(process.execPath, [script, "--pause-to", file], { env });
      expect(first.stdout).toContain("waiting for a person: write wants publish(\"Is a heat pump worth it?\") [co2/wr1]");
      const saved = JSON.parse(readFileSync(file, "utf8")) as { snapshot: { toolStep: { nested: Record<string, { snapshot: { state: { messages: ChatMessageJSON[] } } }> } } };
      expect(Object.keys(saved.snapshot.toolStep.nested)).toEqual(["co2"]);
      expect(saved.snapshot.toolStep.nested.co2!.snapshot.state.messages.at(-1)!.content).toEqual([{ tool_call: { tool_name: "publish", arguments: expect.any(Object), id: "wr1" } }]);

      const second = await run(process.execPath, [script, "--resume-from", file], { env });
      expect(second.stdout.split("\n").slice(0, 3)).toEqual([
        'report: {"title":"Is a heat pump worth it?","summary":"Heat pumps deliver 2-3 units of heat per unit of electricity, even in cold weather; gas boilers about 0.9.","published":true}',
        "sources: https://example.org/heat-pumps, https://example.org/cold-climates, https://example.org/boilers",
        "published in this process: Is a heat pump worth it?",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
