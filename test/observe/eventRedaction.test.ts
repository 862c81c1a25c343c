// A secret injected from state (and one a tool writes into the injected key midway) must not reach
// any hook event or any span attribute, span event or status, whatever the model does with the
// secrets it reads in tool results: echo them in its text, in arguments, in a call that pauses for
// confirmation, or make a tool fail with them in its message.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import fc from "fast-check";
import { z } from "zod";
import { Agent, type AgentHooks, ChatMessage, DeferredConfirmationStrategy, Tool, type ToolCall } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { ScriptedChatGenerator } from "toolwright/testing";
import { hookNames } from "../../src/observe/runEvents";

type CallKind = "lookup" | "boom" | "rotate" | "note";

function agentFor(secrets: { first: string; second: string }, script: ChatMessage[], events: unknown[]) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // onToolError is the one event that is not redacted, by design (README "Redaction"): it hands the
  // developer's hook the original error. Its own tests are in toolErrorEvent.test.ts.
  const redacted = hookNames.filter((name) => name !== "onToolError");
  const hooks: AgentHooks = Object.fromEntries(redacted.map((name) => [name, (event: unknown) => void events.push([name, event])]));
  const lookup = new Tool({
    name: "lookup",
    description: "Looks a topic up with the account's token.",
    parameters: { type: "object", properties: { q: { type: "string" }, token: { type: "string" } }, required: ["q", "token"] },
    inputsFromState: { token: "token" },
    function: (args) => {
      if (String(args.q).startsWith("boom")) throw new Error(`the index for ${String(args.token)} is down`);
      return `found ${String(args.q)} for ${String(args.token)}`;
    },
  });
  const rotate = new Tool({
    name: "rotate",
    description: "Rotates the account's token.",
    parameters: { type: "object", properties: {} },
    outputsToState: { token: { source: "token" } },
    function: () => ({ token: secrets.second }),
  });
  const note = new Tool({ name: "note", description: "Notes a text.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, function: (args) => `noted ${String(args.text)}` });
  const publish = new Tool({ name: "publish", description: "Publishes a text.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, function: (args) => `published ${String(args.text)}` });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator(script),
    tools: [lookup, rotate, note, publish],
    stateSchema: { token: { type: z.string() } },
    confirmationStrategies: { publish: new DeferredConfirmationStrategy() },
    tracing: openTelemetry({ tracerProvider: provider, captureContent: true }),
    hooks,
  });
  return { agent, spans: () => exporter.getFinishedSpans(), resetSpans: () => exporter.reset() };
}

// The model's script: each step's calls, echoing the secrets it has read so far (the second only after a step rotated it in).
function scriptOf(steps: readonly (readonly CallKind[])[], ending: "answer" | "publish", secrets: { first: string; second: string }): { script: ChatMessage[]; publishId: string | undefined } {
  const known = [secrets.first];
  const script: ChatMessage[] = [];
  steps.forEach((kinds, i) => {
    const echo = known.join(" and ");
    const calls: ToolCall[] = kinds.map((kind, j) => {
      const id = `s${i}c${j}`;
      if (kind === "lookup") return { id, toolName: "lookup", arguments: { q: `about ${echo}` } };
      if (kind === "boom") return { id, toolName: "lookup", arguments: { q: `boom ${echo}` } };
      if (kind === "rotate") return { id, toolName: "rotate", arguments: {} };
      return { id, toolName: "note", arguments: { text: `remember ${echo}` } };
    });
    script.push(ChatMessage.fromAssistant(`Using ${echo}.`, { toolCalls: calls, meta: { finishReason: `tool_calls ${echo}` } }));
    if (kinds.includes("rotate") && !known.includes(secrets.second)) known.push(secrets.second);
  });
  const echo = known.join(" and ");
  if (ending === "answer") return { script: [...script, ChatMessage.fromAssistant(`Done with ${echo}.`)], publishId: undefined };
  // The call that pauses runs in the resumed part, whose observer knows only the value in state
  // then (a snapshot carries state, not the values it held before): it echoes that one.
  script.push(ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "pub", toolName: "publish", arguments: { text: `the token is ${known.at(-1)!}` } }] }));
  script.push(ChatMessage.fromAssistant(`Published ${echo}.`));
  return { script, publishId: "pub" };
}

const secret = fc.stringMatching(/^[a-z0-9]{8,16}$/).map((s) => `sk-${s}`);
const step = fc.array(fc.constantFrom<CallKind>("lookup", "boom", "rotate", "note"), { minLength: 1, maxLength: 3 });

describe("RunObserver redaction", () => {
  it("keeps injected values, and a value a tool writes into an injected key, out of every hook event and span", async () => {
    await fc.assert(
      fc.asyncProperty(secret, secret, fc.array(step, { minLength: 1, maxLength: 4 }), fc.constantFrom<"answer" | "publish">("answer", "publish"), async (first, second, steps, ending) => {
        fc.pre(!first.includes(second) && !second.includes(first));
        const secrets = { first, second };
        const events: unknown[] = [];
        const { script, publishId } = scriptOf(steps, ending, secrets);
        const { agent, spans, resetSpans } = agentFor(secrets, script, events);
        // JSON.stringify reads every getter (messages, arguments, results, replies) as a hook would.
        const told = () => JSON.stringify(events.splice(0)) + JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
        const rotated = steps.some((kinds) => kinds.includes("rotate"));
        let result = await agent.run({ messages: [ChatMessage.fromUser("Go.")], token: first });
        let part = told();
        expect(part).not.toContain(first);
        expect(part).not.toContain(second);
        expect(part).toContain("[token]");
        if (publishId !== undefined) {
          expect(result.exitReason).toBe("confirmation_required");
          // The app's own result keeps what the model sent; only what observers get is redacted.
          expect(JSON.stringify(result.pendingConfirmations)).toContain(rotated ? second : first);
          resetSpans();
          result = await agent.run({ snapshot: result.snapshot!, decisions: { [publishId]: { action: "confirm" } } });
          part = told();
          // A resumed part knows the values in state when it starts (a snapshot carries state, not
          // the values it held before): a value replaced before the pause is not hidden in it.
          expect(part).not.toContain(rotated ? second : first);
          expect(part).toContain("[token]");
        }
        expect(result.exitReason).toBe("text");
      }),
      { numRuns: 40 },
    );
  });

  it("hides what a tool writes into an injected key in that call's own result, as in every later event", async () => {
    const events: unknown[] = [];
    const secrets = { first: "sk-first-1", second: "sk-second-2" };
    const { script } = scriptOf([["rotate"], ["lookup"]], "answer", secrets);
    const { agent, spans } = agentFor(secrets, script, events);
    await agent.run({ messages: [ChatMessage.fromUser("Go.")], token: secrets.first });

    const toolEnds = events.filter((e) => (e as [string])[0] === "onToolEnd").map((e) => (e as [string, { toolName: string; result: string }])[1]);
    expect(toolEnds.map((e) => [e.toolName, e.result])).toEqual([
      ["rotate", '{"token":"[token]"}'],
      ["lookup", "found about [token] and [token] for [token]"],
    ]);
    const toolSpans = spans().filter((s) => s.name.startsWith("execute_tool"));
    expect(toolSpans.map((s) => s.attributes["gen_ai.tool.call.result"])).toEqual(['{"token":"[token]"}', "found about [token] and [token] for [token]"]);
  });

  it("redacts a hook's error in the toolwright.hook_error span event", async () => {
    const secrets = { first: "sk-first-1", second: "sk-second-2" };
    const { script } = scriptOf([["lookup"]], "answer", secrets);
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const lookup = new Tool({
      name: "lookup",
      description: "Looks a topic up.",
      parameters: { type: "object", properties: { q: { type: "string" }, token: { type: "string" } }, required: ["q", "token"] },
      inputsFromState: { token: "token" },
      function: () => "found",
    });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator(script),
      tools: [lookup],
      stateSchema: { token: { type: z.string() } },
      tracing: openTelemetry({ tracerProvider: provider }),
      // A hook that knows the secret some other way, and throws with it.
      hooks: {
        onToolEnd: () => {
          throw new Error(`could not log the call of ${secrets.first}`);
        },
      },
    });
    await agent.run({ messages: [ChatMessage.fromUser("Go.")], token: secrets.first });
    const run = exporter.getFinishedSpans().find((s) => s.name === "invoke_agent")!;
    expect(run.events.map((e) => [e.name, e.attributes?.["exception.message"]])).toEqual([
      [
        "toolwright.hook_error",
        "Hook onToolEnd threw: could not log the call of [token]. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.",
      ],
    ]);
  });
});
