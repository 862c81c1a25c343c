// Ids and names that come from outside (a model's call ids and tool names, a provider's finish
// reasons, response ids, model names, error names) reach hooks and spans cut to
// limits.maxEchoedNameLength (64) characters, however long they are; the run's own result keeps them whole.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Agent, type AgentHooks, type ChatGenerator, type ChatGeneratorResponse, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { hookNames } from "../../src/observe/runEvents";
import { rejectionOf } from "../helpers/notesAgent";

const long = (char: string) => char.repeat(100_000);
const cut = (char: string) => `${char.repeat(64)}…(100000 characters)`;

/** A generator answering with the given responses in turn (a function throws), naming a 100,000-character provider. */
function hostileGenerator(responses: Array<ChatGeneratorResponse | (() => never)>): ChatGenerator {
  return {
    model: "m-1",
    provider: long("p"),
    run: async () => {
      const next = responses.shift();
      if (next === undefined) throw new Error("the script ran out");
      return typeof next === "function" ? next() : next;
    },
  };
}

function observed(chatGenerator: ChatGenerator) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const events: Array<[string, Record<string, unknown>]> = [];
  const hooks: AgentHooks = Object.fromEntries(hookNames.map((name) => [name, (event: Record<string, unknown>) => void events.push([name, event])]));
  const publish = new Tool({ name: "publish", description: "Publishes.", parameters: { type: "object", properties: { title: { type: "string" } }, required: ["title"] }, function: () => "published" });
  const agent = new Agent({ chatGenerator, tools: [publish], tracing: openTelemetry({ tracerProvider: provider, captureContent: true }), hooks, confirmationStrategies: { publish: new DeferredConfirmationStrategy() } });
  // Everything told but the conversation itself (hook events' messages and replies are the messages as JSON).
  const told = () =>
    JSON.stringify(events.map(([name, event]) => [name, { ...event, messages: undefined, replies: undefined }])) +
    JSON.stringify(exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
  return { agent, events, told, spans: () => exporter.getFinishedSpans() };
}

describe("RunObserver ids and names", () => {
  it("cuts every id and name from outside in hook events, span names, attributes and span events, paused and resumed", async () => {
    const id = long("i");
    const generator = hostileGenerator([
      {
        replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [{ id, toolName: "publish", arguments: { title: "Lamps" } }, { id: "c2", toolName: long("n"), arguments: {} }], meta: { finishReason: long("f") } })],
        meta: { id: long("r"), model: long("m") },
      },
      { replies: [ChatMessage.fromAssistant("Done.")] },
    ]);
    const { agent, events, told, spans } = observed(generator);

    const paused = await agent.run({ messages: [ChatMessage.fromUser("Publish.")] });
    if (paused.exitReason !== "confirmation_required") throw new Error(`expected a pause, got ${paused.exitReason}`);
    // The result keeps the id whole: it is what the decision names.
    expect(paused.pendingConfirmations.map((p) => p.toolCallId)).toEqual([id]);
    const runEnd = events.find(([name]) => name === "onRunEnd")![1] as { pendingConfirmations: Array<{ toolCallId: string }> };
    expect(runEnd.pendingConfirmations.map((p) => p.toolCallId)).toEqual([cut("i")]);
    const pausedSpan = spans().find((s) => s.name === "invoke_agent")!;
    expect(pausedSpan.events.map((e) => [e.name, e.attributes])).toEqual([["toolwright.run.paused", { "toolwright.pending.tool_call_ids": [cut("i")], "toolwright.pending.tool_names": ["publish"] }]]);

    const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { [id]: { action: "confirm" } } });
    expect(resumed.exitReason).toBe("text");
    const resumedSpan = spans().filter((s) => s.name === "invoke_agent")[1]!;
    expect(resumedSpan.events.map((e) => [e.name, e.attributes])).toEqual([["toolwright.confirmation", { "gen_ai.tool.name": "publish", "gen_ai.tool.call.id": cut("i"), "toolwright.confirmation.action": "confirm" }]]);
    expect(spans().map((s) => s.name)).toContain(`execute_tool ${cut("n")}`);
    const modelEnd = events.find(([name]) => name === "onModelEnd")![1];
    expect([modelEnd.finishReasons, modelEnd.responseId, modelEnd.responseModel, modelEnd.provider]).toEqual([[cut("f")], cut("r"), cut("m"), cut("p")]);

    const everything = told();
    for (const char of ["i", "n", "f", "r", "m", "p"]) expect(everything).not.toContain(char.repeat(65));
  });

  it("cuts an error's name in the run's end and its span", async () => {
    const error = Object.assign(new Error("the provider broke"), { name: long("e") });
    const { agent, events, told } = observed(
      hostileGenerator([
        () => {
          throw error;
        },
      ]),
    );

    expect(await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Hi.")] }))).toBe(error);
    const runEnd = events.find(([name]) => name === "onRunEnd")![1] as { error: { type: string } };
    expect(runEnd.error.type).toBe(cut("e"));
    expect(told()).not.toContain("e".repeat(65));
  });
});
