// A Toolset whose tools change over its life (an MCP server's list): an Agent reads the new tools at
// the start of its next run, and a run in flight keeps the tools it started with.
import { Agent, ChatMessage, ConfigurationError, Tool, Toolset } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";

class ChangingToolset extends Toolset {
  constructor(tools: Tool[]) {
    super(tools, { name: "changing" });
  }
  set(tools: Tool[]): void {
    this.replaceTools(tools);
  }
}

function echo(name: string): Tool {
  return new Tool({ name, description: `Echo as ${name}.`, parameters: z.object({ text: z.string() }), function: ({ text }) => `${name}: ${text}` });
}

describe("a Toolset whose tools change", () => {
  it("gives the model the new tools from the next run on, and counts each change in revision", async () => {
    const toolset = new ChangingToolset([echo("a")]);
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("one"), toolCallReply(["b", { text: "hi" }, "c1"]), ChatMessage.fromAssistant("two")]);
    const agent = new Agent({ chatGenerator: model, tools: [toolset] });

    await agent.run({ messages: [ChatMessage.fromUser("first")] });
    expect(toolset.revision).toBe(0);
    toolset.set([echo("a"), echo("b")]);
    expect(toolset.revision).toBe(1);
    const second = await agent.run({ messages: [ChatMessage.fromUser("second")] });

    expect(model.requests.map((request) => request.tools?.map((tool) => tool.name))).toEqual([["a"], ["a", "b"], ["a", "b"]]);
    expect(second.messages[2]!.toolCallResults[0]!.result).toBe("b: hi");
    expect(agent.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
  });

  it("keeps a run in flight on the tools it started with", async () => {
    const toolset = new ChangingToolset([echo("a")]);
    const model = new ScriptedChatGenerator([
      () => {
        toolset.set([echo("b")]);
        return toolCallReply(["a", { text: "still here" }, "c1"]);
      },
      ChatMessage.fromAssistant("done"),
    ]);
    const result = await new Agent({ chatGenerator: model, tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")] });

    expect(result.messages[2]!.toolCallResults[0]).toMatchObject({ result: "a: still here", error: false });
    expect(model.requests.map((request) => request.tools?.map((tool) => tool.name))).toEqual([["a"], ["a"]]);
  });

  it("checks exit conditions and confirmation strategies against the new names at the next run", async () => {
    const toolset = new ChangingToolset([echo("a"), echo("finish")]);
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [toolset], exitConditions: ["finish"] });
    toolset.set([echo("a")]);

    // Since #33 the exit conditions are checked against each run's tools when it starts (Agent.run).
    await expect(agent.run({ messages: [ChatMessage.fromUser("go")] })).rejects.toThrow(
      new ConfigurationError("Agent.run", `Agent has exit condition 'finish', which names none of this run's tools (a); give the run that tool (new Agent({ tools }) or agent.run({ tools })) or correct the condition.`),
    );
  });

  it("refuses replacement tools that are not Tools, naming the Toolset", () => {
    const toolset = new ChangingToolset([echo("a")]);
    expect(() => toolset.set([echo("a"), "b" as unknown as Tool])).toThrow(new ConfigurationError("Toolset 'changing'", `Toolset 'changing' was given string "b" at tools[1], which is not a Tool: pass Tool objects.`));
    expect(toolset.tools.map((tool) => tool.name)).toEqual(["a"]);
    expect(toolset.revision).toBe(0);
  });

  it("keeps a plain Toolset frozen", () => {
    const toolset = new Toolset([echo("a")]);
    expect(Object.isFrozen(toolset)).toBe(true);
    expect(Object.isFrozen(toolset.tools)).toBe(true);
  });
});
