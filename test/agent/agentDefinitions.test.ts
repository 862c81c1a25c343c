// Only the Agent module is imported at first: agents as data are attached by the package's entries.
import { Agent } from "../../src/agent/agent";
import { ConfigurationError } from "../../src/errors";
import { ScriptedChatGenerator } from "../../src/testing/scriptedChatGenerator";

function configurationErrorOf(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected the function to throw");
}

describe("Agent.fromJSON", () => {
  it("names the import that attaches the definition module when no entry did", () => {
    const read = configurationErrorOf(() => Agent.fromJSON({ version: 1, chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } } }));
    expect(read.subject).toBe("Agent.fromJSON");
    expect(read.message).toBe('Agent.fromJSON needs the agent definition module, which the toolwright entry attaches; import Agent from "toolwright" (or loadAgent from "toolwright/yaml").');

    const written = configurationErrorOf(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]) }).toJSON());
    expect(written.message).toBe('Agent.toJSON needs the agent definition module, which the toolwright entry attaches; import Agent from "toolwright" (or loadAgent from "toolwright/yaml").');
  });

  it("reads and writes definitions once the toolwright entry is imported", async () => {
    await import("../../src");

    const agent = Agent.fromJSON({ version: 1, name: "desk", chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } } });
    expect(agent.name).toBe("desk");
    expect(new Agent({ name: "desk", chatGenerator: new ScriptedChatGenerator([]), maxAgentSteps: 3 }).toJSON()).toEqual({
      version: 1,
      name: "desk",
      chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } },
      maxAgentSteps: 3,
    });
  });
});
