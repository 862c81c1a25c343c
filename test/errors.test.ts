import { inspect } from "node:util";
import { expectTypeOf } from "expect-type";
import { z } from "zod";
import {
  AbortError,
  type AgentSnapshot,
  BreakpointError,
  CallbackError,
  ChatGeneratorError,
  ChatMessage,
  ConfigurationError,
  defineTool,
  JsonFormError,
  ModelBehaviorError,
  ProviderError,
  RunStoppedError,
  snapshotOf,
  State,
  ToolDecoratorError,
  ToolInvocationError,
  ToolNotFoundError,
  ToolwrightError,
  UsageError,
} from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { notesAgent, notesInput, notesScript, rejectionOf } from "./helpers/notesAgent";

const groups = [UsageError, ModelBehaviorError, ProviderError, CallbackError, RunStoppedError];

/** Asserts the error is a ToolwrightError of exactly one group, `group`. */
function expectInGroup(error: unknown, group: (typeof groups)[number]): void {
  expect(error).toBeInstanceOf(ToolwrightError);
  expect(error).toBeInstanceOf(Error);
  expect(groups.filter((g) => error instanceof g)).toEqual([group]);
}

const modelDown = () => {
  throw new ChatGeneratorError("OpenAI request for model 'm' failed with status 503: overloaded", { status: 503, providerMessage: "overloaded" });
};

describe("UsageError", () => {
  it("groups the developer's mistakes: a defineTool call without a function is a ToolDecoratorError", () => {
    let error: unknown;
    try {
      defineTool(42 as unknown as () => string);
    } catch (thrown) {
      error = thrown;
    }

    expectInGroup(error, UsageError);
    expect(error).toBeInstanceOf(ToolDecoratorError);
    expect((error as ToolDecoratorError).name).toBe("ToolDecoratorError");
    expect((error as ToolDecoratorError).member).toBe("defineTool");
    expect((error as ToolDecoratorError).message).toBe("defineTool(fn, options) needs a function, got number.");
  });

  it("groups a state value with no JSON form as a JsonFormError naming its path", () => {
    const state = new State({ index: { type: z.map(z.string(), z.number()) } }, { index: new Map([["a", 1]]) });
    let error: unknown;
    try {
      state.toJSON();
    } catch (thrown) {
      error = thrown;
    }

    expectInGroup(error, UsageError);
    expect(error).toBeInstanceOf(JsonFormError);
    expect((error as JsonFormError).name).toBe("JsonFormError");
    expect((error as JsonFormError).path).toBe("index");
    expect((error as JsonFormError).message).toBe("index holds a Map, which has no JSON form; keep only JSON-representable values in State to serialize it.");
  });

  it("keeps the option a generator's check is about as optionPath", () => {
    let error: unknown;
    try {
      new OpenAIChatGenerator({ model: "gpt-4o-mini", apiKey: "sk-test", timeout: -1 });
    } catch (thrown) {
      error = thrown;
    }

    expectInGroup(error, UsageError);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).optionPath).toEqual(["timeout"]);
    expect(Object.isFrozen((error as ConfigurationError).optionPath)).toBe(true);
    expect((error as ConfigurationError).message).toBe("OpenAIChatGenerator needs timeout to be a number of milliseconds greater than 0 and at most 2147483647, e.g. timeout: 600000, got number -1.");
    expect(new ConfigurationError("Agent", "Agent needs a chatGenerator.").optionPath).toBeUndefined();
  });
});

describe("ModelBehaviorError", () => {
  it("groups what the model got wrong: a call to an unknown tool, raised", async () => {
    const { agent } = notesAgent({
      script: [ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "nope", arguments: {} }] })],
      raiseOnToolInvocationFailure: true,
    });

    const error = await rejectionOf(agent.run(notesInput()));

    expectInGroup(error, ModelBehaviorError);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect(error.name).toBe("ToolNotFoundError");
    expect(error.message).toBe("Tool 'nope' not found. Available tools: search, add_note.");
  });
});

describe("ProviderError", () => {
  it("groups a provider's failure, and carries the run's snapshot as a typed field", async () => {
    const { agent } = notesAgent({ script: [notesScript[0]!, modelDown] });

    const error = await rejectionOf(agent.run(notesInput()));

    expectInGroup(error, ProviderError);
    if (!(error instanceof ChatGeneratorError)) throw new Error(`expected a ChatGeneratorError, got ${String(error)}`);
    expect(error.name).toBe("ChatGeneratorError");
    expect(error.message).toBe("OpenAI request for model 'm' failed with status 503: overloaded");
    expect(error.status).toBe(503);
    expectTypeOf(error.snapshot).toEqualTypeOf<AgentSnapshot | undefined>();
    expect(error.snapshot).toBeDefined();
    expect(error.snapshot!.stepCount).toBe(1);
    expect(error.snapshot!.next).toBe("chat_generator");
    expect(snapshotOf(error)).toBe(error.snapshot);
  });

  it("keeps the snapshot out of JSON.stringify, Object.keys and util.inspect, like cause", async () => {
    const { agent } = notesAgent({ script: [modelDown] });

    const error = await rejectionOf(agent.run(notesInput()));

    expect(error).toBeInstanceOf(ChatGeneratorError);
    expect((error as ChatGeneratorError).snapshot!.stepCount).toBe(0);
    expect(Object.keys(error)).not.toContain("snapshot");
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "ChatGeneratorError", status: 503, providerMessage: "overloaded" });
    expect(inspect(error)).not.toContain("visits");
  });

  it("takes a snapshot at construction from its options", () => {
    const snapshot: AgentSnapshot = { version: 1, state: {}, stepCount: 0, visits: { chatGenerator: 0, tools: {} }, next: "chat_generator" };

    const error = new ToolwrightError("The run stopped.", { snapshot, cause: "why" });

    expect(error.snapshot).toBe(snapshot);
    expect(error.cause).toBe("why");
    expect(Object.keys(error)).toEqual(["name"]);
    expect(Object.hasOwn(new ToolwrightError("No cause."), "cause")).toBe(false);
  });
});

describe("CallbackError", () => {
  it("groups the app's own code failing: a tool that threw, raised, with the tool's error as cause", async () => {
    const thrown = new Error("index offline");
    const { agent } = notesAgent({
      searchImpl: () => {
        throw thrown;
      },
      raiseOnToolInvocationFailure: true,
    });

    const error = await rejectionOf(agent.run(notesInput()));

    expectInGroup(error, CallbackError);
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect(error.name).toBe("ToolInvocationError");
    expect(error.message).toBe("Tool 'search' failed: index offline.");
    expect(error.cause).toBe(thrown);
    expect((error as ToolInvocationError).snapshot!.stepCount).toBe(1);
  });
});

describe("RunStoppedError", () => {
  it("groups a run stopped on purpose: an aborted run", async () => {
    const controller = new AbortController();
    controller.abort();
    const { agent } = notesAgent();

    const error = await rejectionOf(agent.run({ ...notesInput(), signal: controller.signal }));

    expectInGroup(error, RunStoppedError);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.name).toBe("AbortError");
    expect(error.message).toBe("The agent run was aborted.");
  });

  it("groups a run stopped at its breakpoint, whose snapshot stays an enumerable field as before", async () => {
    const { agent } = notesAgent();

    const error = await rejectionOf(agent.run({ ...notesInput(), breakpoint: { at: "tool", toolName: "add_note" } }));

    expectInGroup(error, RunStoppedError);
    expect(error).toBeInstanceOf(BreakpointError);
    expect(error.name).toBe("BreakpointError");
    expect(error.message).toBe("The run stopped at its breakpoint before running tool 'add_note' (visit 0); continue it with agent.run({ snapshot: error.snapshot }).");
    expect(Object.keys(error)).toContain("snapshot");
  });
});

describe("ToolwrightError", () => {
  it("recognises an error of another copy of the classes by its class name and toolwright's marker", () => {
    // What "toolwright/codegen" does when it loads its own copy of the error modules.
    jest.isolateModules(() => {
      const isolated = require("../decorators/errors") as typeof import("../decorators/errors");
      const error = new isolated.ToolDecoratorError("@tool", "@tool(options) takes an options object such as { name: \"search\" }, got string.");

      expect(isolated.ToolDecoratorError).not.toBe(ToolDecoratorError);
      expect(error).toBeInstanceOf(ToolwrightError);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toBeInstanceOf(ToolDecoratorError);
      expect(error).not.toBeInstanceOf(ProviderError);
      expect(error).not.toBeInstanceOf(ConfigurationError);
    });
  });

  it("recognises no other error, nor a class of the same name without the marker", () => {
    class UsageErrorLookalike extends Error {}
    Object.defineProperty(UsageErrorLookalike, "name", { value: "UsageError" });

    expect(new UsageErrorLookalike("x")).not.toBeInstanceOf(UsageError);
    expect(new TypeError("x")).not.toBeInstanceOf(ToolwrightError);
    expect(Object.create(null)).not.toBeInstanceOf(ToolwrightError);
    expect("UsageError").not.toBeInstanceOf(ToolwrightError);
  });

  it("gives a thrown foreign value no snapshot through snapshotOf", () => {
    expect(snapshotOf(new Error("plain"))).toBeUndefined();
    expect(snapshotOf(new ToolwrightError("bare"))).toBeUndefined();
  });
});
