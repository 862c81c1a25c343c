import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import fc from "fast-check";
import { openTelemetry } from "toolwright/otel";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { type AgentSnapshot, type AgentTracing, ChatGeneratorError, ChatMessage, ConfigurationError, DecisionError, DeferredConfirmationStrategy, SnapshotError, snapshotOf } from "toolwright";
import { callsReply, guardedAgent, guardedInput, rejectionOf } from "./securityAgent";

const key = "k".repeat(32);
const script = [callsReply({ id: "t1", toolName: "transfer", arguments: { to: "bob", amount: 5 } }), ChatMessage.fromAssistant("Sent.")];

async function pausedRun(options: { snapshotKey?: string | string[]; tracing?: AgentTracing } = {}) {
  const made = guardedAgent({ script, confirmationStrategies: { transfer: new DeferredConfirmationStrategy() }, ...options });
  const paused = await made.agent.run(guardedInput());
  return { ...made, snapshot: JSON.parse(JSON.stringify(paused.snapshot)) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely below
}

const resume = (made: Awaited<ReturnType<typeof pausedRun>>, snapshot: unknown) => made.agent.run({ snapshot: snapshot as AgentSnapshot, decisions: { t1: { action: "confirm" } } });

describe("snapshot integrity without a key", () => {
  const edits: Array<[string, (s: Record<string, any>) => void, string, string]> = [ // eslint-disable-line @typescript-eslint/no-explicit-any -- edits reach anywhere
    ["the pending arguments", (s) => (s.toolStep.pending[0].arguments.amount = 5000), "toolStep.pending[0].arguments", "differ from the arguments of the call in state.messages"],
    ["the call's arguments in the conversation", (s) => (s.state.messages[1].content[0].tool_call.arguments.amount = 5000), "toolStep.pending[0].arguments", "differ from the arguments of the call in state.messages"],
    ["the pending tool", (s) => (s.toolStep.pending[0].toolName = "lookup"), "toolStep.pending[0].toolName", "is 'lookup', but the call is to 'transfer'"],
    ["the pending id", (s) => (s.toolStep.pending[0].toolCallId = "t9"), "toolStep.pending[0].toolCallId", "'t9' names no tool call of the step; its calls: t1"],
    ["a decision for another call", (s) => (s.toolStep.decisions = { t9: { action: "confirm" } }), "toolStep.decisions.t9", "names no tool call of the step"],
    ["a decision next to the pending one", (s) => (s.toolStep.decisions = { t1: { action: "confirm" } }), "toolStep.pending[0].toolCallId", "'t1' is pending twice or already decided"],
    ["the replies count", (s) => (s.toolStep.replies = 2), "toolStep.replies", "is 2, but the last 2 messages of state.messages are not all replies of the model"],
    ["a state value", (s) => (s.state.owner = 42), "state.owner", "does not fit the Agent's state schema (State key 'owner' rejected a value that does not match its type: owner: Invalid input: expected string, received number. The value was not stored)"],
    ["a removed field", (s) => delete s.visits, "visits", "is undefined, not { chatGenerator, tools }"],
    ["an ill-typed decision list", (s) => (s.toolStep.decisions = []), "toolStep.decisions", "is an array, not an object of decisions"],
  ];

  it.each(edits)("refuses a snapshot with edited %s, naming the field", async (_what, edit, field, problem) => {
    const made = await pausedRun();
    edit(made.snapshot);

    const error = await rejectionOf(resume(made, made.snapshot));

    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).field).toBe(field);
    expect(error.message).toBe(`Agent.run was given a snapshot whose ${field} ${problem}; resume only with a snapshot a stopped run produced, unchanged.`);
    expect(made.log).toEqual([]);
  });

  it("never throws a TypeError for a snapshot with any one field removed", async () => {
    const made = await pausedRun();
    const paths: string[][] = [["version"], ["state"], ["stepCount"], ["visits", "chatGenerator"], ["visits", "tools"], ["next"], ["toolStep"], ["toolStep", "replies"], ["toolStep", "pending"], ["state", "messages"]];
    for (const path of paths) {
      const copy = JSON.parse(JSON.stringify(made.snapshot)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely
      let parent = copy;
      for (const segment of path.slice(0, -1)) parent = parent[segment];
      delete parent[path.at(-1)!];
      const error = await rejectionOf(resume(made, copy));
      expect([path.join("."), [SnapshotError, ConfigurationError, DecisionError].some((type) => error instanceof type) ? "typed" : `${error.name}: ${error.message}`]).toEqual([path.join("."), "typed"]);
    }
    expect(made.log).toEqual([]);
  });
});

describe("snapshot signing", () => {
  it("signs every snapshot and resumes a signed one", async () => {
    const made = await pausedRun({ snapshotKey: key });
    expect(made.snapshot.signature).toMatch(/^hmac-sha256:[\w-]{43}$/);

    const result = await resume(made, made.snapshot);

    expect(result.exitReason).toBe("text");
    expect(made.log.map((e) => e.args.amount)).toEqual([5]);
  });

  it("refuses an unsigned snapshot", async () => {
    const made = await pausedRun({ snapshotKey: key });
    delete made.snapshot.signature;

    const error = await rejectionOf(resume(made, made.snapshot));

    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.message).toBe(
      "Agent.run was given a snapshot whose signature is missing, and this Agent has a snapshotKey, so it resumes only snapshots it signed; resume only with a snapshot a stopped run produced, unchanged.",
    );
  });

  it.each([
    ["consistent edits of the call and its pending copy", (s: Record<string, any>) => ((s.state.messages[1].content[0].tool_call.arguments.amount = 5000), (s.toolStep.pending[0].arguments.amount = 5000))], // eslint-disable-line @typescript-eslint/no-explicit-any
    ["a forged decision", (s: Record<string, any>) => (s.toolStep.decisions = { t1: { action: "confirm" } }, (s.toolStep.pending = []))], // eslint-disable-line @typescript-eslint/no-explicit-any
    ["a changed state value", (s: Record<string, any>) => (s.state.owner = "mallory")], // eslint-disable-line @typescript-eslint/no-explicit-any
  ])("refuses %s", async (_what, edit) => {
    const made = await pausedRun({ snapshotKey: key });
    edit(made.snapshot);

    const error = await rejectionOf(made.agent.run({ snapshot: made.snapshot as AgentSnapshot, decisions: made.snapshot.toolStep.pending.length ? { t1: { action: "confirm" } } : undefined }));

    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.message).toBe(
      "Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.",
    );
    expect(made.log).toEqual([]);
  });

  it("verifies with any key of a rotation and signs with the first", async () => {
    const old = await pausedRun({ snapshotKey: key });
    const rotated = guardedAgent({ script: script.slice(1), confirmationStrategies: { transfer: new DeferredConfirmationStrategy() }, snapshotKey: ["n".repeat(32), key] });

    const result = await rotated.agent.run({ snapshot: old.snapshot as AgentSnapshot, decisions: { t1: { action: "confirm" } } });

    expect(result.exitReason).toBe("text");
    expect(rotated.log.map((e) => e.args.amount)).toEqual([5]);
  });

  it("refuses a key shorter than 32 bytes", () => {
    expect(() => guardedAgent({ script, snapshotKey: "short" })).toThrow(
      new ConfigurationError(
        "Agent",
        "Agent has a snapshotKey that is not a key of at least 32 bytes (key 0 has 5 bytes); pass a secret string or bytes, such as the output of `openssl rand -base64 32`, or an array of them to rotate keys (the first signs).",
      ),
    );
  });
});

describe("state with no JSON form", () => {
  const circular = () => {
    const value: Record<string, unknown> = { name: "client" };
    value.self = value;
    return value;
  };

  it("keeps a model failure's own error and attaches the snapshot failure as snapshotError", async () => {
    const providerError = new ChatGeneratorError("OpenAI request for model 'm' failed with status 500: boom");
    const { agent } = guardedAgent({
      script: [
        () => {
          throw providerError;
        },
      ],
    });

    const error = await rejectionOf(agent.run({ ...guardedInput(), profile: circular() }));

    expect(error).toBe(providerError);
    expect(snapshotOf(error)).toBeUndefined();
    const snapshotError = (error as Error & { snapshotError: SnapshotError }).snapshotError;
    expect(snapshotError).toBeInstanceOf(SnapshotError);
    expect(snapshotError.message).toBe(
      "The run could not make its snapshot: profile.self holds a circular reference, which has no JSON form; keep only JSON-representable values in State to serialize it. A snapshot (to pause for confirmation, stop at a breakpoint, retry a failure or checkpoint a step) is plain JSON, so keep clients and other non-JSON values out of State (a tool's class can hold them).",
    );
  });

  it("fails a pause for confirmation with a SnapshotError naming the key", async () => {
    const { agent, log } = guardedAgent({ script, confirmationStrategies: { transfer: new DeferredConfirmationStrategy() } });

    const error = await rejectionOf(agent.run({ ...guardedInput(), profile: circular() }));

    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).field).toBe("state");
    expect(error.message).toMatch(/^The run could not make its snapshot: profile\.self holds a circular reference/);
    expect(log).toEqual([]);
  });
});

describe("usage and trace context in a snapshot", () => {
  const runs = fuzzRuns(100);
  const exporter = new InMemorySpanExporter();
  const tracing = openTelemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
  const traceHex = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: length, maxLength: length });
  const traceparent = fc.oneof(
    fc.tuple(fc.constantFrom("00", "01", "ff"), traceHex(32), traceHex(16), traceHex(2)).map((parts) => parts.join("-")),
    fc.string({ maxLength: 80 }),
  );
  const hostileUsage = fc.oneof(
    fc.constant("as made"),
    fc.anything(),
    fc.record({ inputTokens: fc.oneof(fc.nat(), fc.anything()), outputTokens: fc.nat(), totalTokens: fc.nat(), modelCalls: fc.nat(), toolCalls: fc.nat(), failedToolCalls: fc.nat() }),
  );
  const hostileTrace = fc.oneof(
    fc.constant(undefined),
    fc.anything(),
    fc.record({ traceparent, tracestate: fc.option(fc.string({ maxLength: 600 }), { nil: undefined }) }, { requiredKeys: ["traceparent"] }),
  );

  it(`resumes or refuses with a SnapshotError naming usage or trace, whatever they hold, and a trace it accepts continues only its own trace id (${runs} cases)`, async () => {
    let resumed = 0;
    await fc.assert(
      fc.asyncProperty(hostileUsage, hostileTrace, async (usage, trace) => {
        const made = await pausedRun({ tracing });
        exporter.reset();
        const edited = JSON.parse(JSON.stringify({ ...made.snapshot, ...(usage !== "as made" && { usage }), trace })) as Record<string, unknown>;
        let error: Error | undefined;
        try {
          await resume(made, edited);
        } catch (caught) {
          error = caught as Error;
        }
        if (error) {
          expect(error).toBeInstanceOf(SnapshotError);
          expect((error as SnapshotError).field).toMatch(/^(usage|trace)(\.|$)/);
          expect(made.log).toEqual([]);
          return;
        }
        resumed++;
        const run = exporter.getFinishedSpans().find((s) => s.name === "invoke_agent")!;
        const stored = (edited.trace as { traceparent?: string } | undefined)?.traceparent;
        if (stored !== undefined && !/^00-0{32}-/.test(stored) && !/-0{16}-/.test(stored)) expect(run.spanContext().traceId).toBe(stored.slice(3, 35));
      }),
      fuzzParameters(runs),
    );
    // Not vacuous: well-formed usage and trace contexts do resume. About 1 case in 6 does (11 to 23
    // of 100 over 16 seeds); more than 1 in 25 keeps the check meaningful without failing on a seed.
    expect(resumed).toBeGreaterThan(runs / 25);
  }, fuzzTimeout(runs, 20));
});
