import { Agent, ChatMessage, ConfigurationError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { rejectionOf, thrownBy } from "../helpers/refundDesk";

const hook = () => undefined;

// Each bad `middleware` option, and the sentence after the subject ("Agent" or "Agent.run").
const bad: Array<[string, unknown, string]> = [
  ["not an array", { name: "budget", beforeModel: hook }, 'has middleware that is not an array, got an object; pass middleware: [{ name: "budget", beforeModel(context) { ... } }].'],
  ["an entry that is not an object", ["budget"], 'has middleware[0] that is string "budget", not an object with a name and hooks.'],
  ["an entry that is null", [null], "has middleware[0] that is null, not an object with a name and hooks."],
  ["an entry without a name", [{ name: "budget", beforeModel: hook }, { beforeModel: hook }], 'has middleware[1] without a name (1-64 characters); errors and stops name it, so give it one: { name: "budget", ... }.'],
  ["a blank name", [{ name: "  ", beforeModel: hook }], 'has middleware[0] without a name (1-64 characters); errors and stops name it, so give it one: { name: "budget", ... }.'],
  ["a name over 64 characters", [{ name: "x".repeat(65), beforeModel: hook }], 'has middleware[0] without a name (1-64 characters); errors and stops name it, so give it one: { name: "budget", ... }.'],
  ["two entries with one name", [{ name: "budget", beforeModel: hook }, { name: "budget", afterRun: hook }], "has two middleware named 'budget'; give each its own name."],
  ["a hook that is not a function", [{ name: "budget", beforeModel: "stop" }], "has middleware 'budget' whose beforeModel is string \"stop\", not a function."],
  ["a hook that is an object", [{ name: "guard", afterTool: { stop: true } }], "has middleware 'guard' whose afterTool is an object, not a function."],
  ["no hook at all", [{ name: "budget", onModelStart: hook }], "has middleware 'budget' with no hook; give it at least one of beforeModel, afterModel, beforeTool, afterTool, afterRun."],
];

describe("Agent middleware option", () => {
  it.each(bad)("refuses %s in new Agent with a ConfigurationError", (_case, middleware, message) => {
    const error = thrownBy(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), middleware: middleware as never }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ subject: "Agent", message: `Agent ${message}` });
  });

  it.each(bad)("refuses %s in agent.run with a ConfigurationError, before the model is called", async (_case, middleware, message) => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi.")]);
    const agent = new Agent({ chatGenerator: model });

    const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi")], middleware: middleware as never }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ subject: "Agent.run", message: `Agent.run ${message}` });
    expect(model.requests).toHaveLength(0);
  });

  it("refuses a run's middleware named like one of the Agent's, which its stops and errors could not tell apart", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), middleware: [{ name: "budget", beforeModel: hook }] });

    const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi")], middleware: [{ name: "guard", beforeTool: hook }, { name: "budget", afterRun: hook }] }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ subject: "Agent.run", message: "Agent.run has middleware named 'budget', a name the Agent's own middleware already uses; give each its own name." });
  });

  it("accepts an empty list, and a middleware whose other hooks are undefined", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi.")]), middleware: [] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")], middleware: [{ name: "end", beforeModel: undefined, afterRun: hook }] });

    expect(result.exitReason).toBe("text");
  });

  it("tells no lifecycle hook of a run refused for its middleware option", async () => {
    const onRunStart = jest.fn();
    const onRunEnd = jest.fn();
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), hooks: { onRunStart, onRunEnd } });

    await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi")], middleware: "budget" as never }));

    expect(onRunStart).not.toHaveBeenCalled();
    expect(onRunEnd).not.toHaveBeenCalled();
  });
});
