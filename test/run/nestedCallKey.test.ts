import fc from "fast-check";
import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { escapeKeySegment, nestedCallKey } from "../../src/run/stepCalls";
import { rejectionOf } from "../helpers/notesAgent";

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const calls = (...list: ToolCall[]) => ChatMessage.fromAssistant(undefined, { toolCalls: list });
const text = (t: string) => ChatMessage.fromAssistant(t);

/** An agent whose model calls `act` once per label (each deferred for confirmation), then answers. */
function leafAgent(name: string, acts: ReadonlyArray<{ id: string; label: string }>, log: string[]) {
  const act = new Tool({
    name: "act",
    description: "Acts.",
    parameters: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
    function: (args) => {
      log.push(String(args.label));
      return "done";
    },
  });
  return new Agent({
    name,
    chatGenerator: new ScriptedChatGenerator([calls(...acts.map((a) => call(a.id, "act", { label: a.label }))), text("finished")]),
    tools: [act],
    confirmationStrategies: { act: new DeferredConfirmationStrategy() },
  });
}

/** An agent whose model calls the given agent tools in one step, then answers. */
function callerAgent(name: string, toolCalls: ReadonlyArray<{ id: string; tool: Tool }>) {
  return new Agent({
    name,
    chatGenerator: new ScriptedChatGenerator([calls(...toolCalls.map((c) => call(c.id, c.tool.name, { input: "go" }))), text("finished")]),
    tools: toolCalls.map((c) => c.tool),
  });
}

describe("escapeKeySegment", () => {
  it("escapes the escape character before the separator", () => {
    expect(escapeKeySegment("a~1/b~")).toBe("a~01~1b~0");
  });
});

describe("nestedCallKey", () => {
  it("escapes a sub-run's own call id and keeps a sub-run's nested key whole", () => {
    expect(nestedCallKey("x/y", { toolCallId: "z", toolName: "act", arguments: {} })).toBe("x~1y/z");
    expect(nestedCallKey("x", { toolCallId: "y/z", toolName: "act", arguments: {} })).toBe("x/y~1z");
    expect(nestedCallKey("x", { toolCallId: "y~1z/w", toolName: "act", arguments: {}, agent: "inner" })).toBe("x/y~1z/w");
  });

  it("gives caller ids x and x/y with sub-run ids y/z and z two keys, and one decision runs one call", async () => {
    const log: string[] = [];
    const publisher = leafAgent("publisher", [{ id: "y/z", label: "publish" }], log).asTool({ name: "publisher", description: "Publishes." });
    const wiper = leafAgent("wiper", [{ id: "z", label: "wipe" }], log).asTool({ name: "wiper", description: "Wipes." });
    const caller = callerAgent("caller", [
      { id: "x", tool: publisher },
      { id: "x/y", tool: wiper },
    ]);

    const paused = await caller.run({ messages: [ChatMessage.fromUser("go")] });
    if (paused.exitReason !== "confirmation_required") throw new Error(`expected a pause, got ${paused.exitReason}`);
    expect(paused.pendingConfirmations).toEqual([
      { toolCallId: "x/y~1z", toolName: "act", arguments: { label: "publish" }, agent: "publisher" },
      { toolCallId: "x~1y/z", toolName: "act", arguments: { label: "wipe" }, agent: "wiper" },
    ]);
    // The key both calls had before escaping now names neither.
    expect((await rejectionOf(caller.run({ snapshot: paused.snapshot, decisions: { "x/y/z": { action: "confirm" } } }))).message).toBe(
      "Agent.run was given a decision for 'x/y/z', which is not a call waiting for confirmation; pending calls: x/y~1z, x~1y/z.",
    );
    expect(log).toEqual([]);

    const resumed = await caller.run({ snapshot: paused.snapshot, decisions: { "x/y~1z": { action: "confirm" }, "x~1y/z": { action: "reject" } } });
    expect(resumed.exitReason).toBe("text");
    expect(log).toEqual(["publish"]);
  });

  it("refuses a snapshot whose sub-run lists two calls under one key", async () => {
    const log: string[] = [];
    const publisher = leafAgent("publisher", [{ id: "y/z", label: "publish" }], log).asTool({ name: "publisher", description: "Publishes." });
    const caller = callerAgent("caller", [{ id: "x", tool: publisher }]);
    const paused = await caller.run({ messages: [ChatMessage.fromUser("go")] });
    const forged = JSON.parse(JSON.stringify(paused.snapshot));
    const [own] = forged.toolStep.nested.x.pending;
    forged.toolStep.nested.x.pending = [own, { ...own, toolCallId: "y~1z", agent: "inner" }];
    expect((await rejectionOf(caller.run({ snapshot: forged, decisions: { "x/y~1z": { action: "confirm" } } }))).message).toBe(
      "Agent.run was given a snapshot whose toolStep.nested.x.pending has two calls decided by the key 'x/y~1z'; resume only with a snapshot a stopped run produced, unchanged.",
    );
    expect(log).toEqual([]);
  });

  it("confirms exactly one call for any ids, whatever separators and escapes they contain", async () => {
    const id = fc.string({ unit: fc.constantFrom("x", "/", "~", "0", "1", "#"), minLength: 0, maxLength: 5 });
    // Random ids, or ids built so that joining them with a bare '/' gives a key of one side the other side also has.
    const ids = fc.tuple(fc.constantFrom("random", "a-longer", "b-longer"), fc.array(id, { minLength: 7, maxLength: 7 }), id).map(([mode, list, piece]) => {
      const [outerA, outerB, inner, a1, a2, c1, c2] = list as [string, string, string, string, string, string, string];
      if (mode === "b-longer") return [outerA, `${outerA}/${piece}`, inner, `${piece}/${inner}/${c1}`, a2, c1, c2] as const;
      if (mode === "a-longer") return [`${outerB}/${inner}`, outerB, inner, a1, a2, a1, c2] as const;
      return [outerA, outerB, inner, a1, a2, c1, c2] as const;
    });
    await fc.assert(
      fc.asyncProperty(ids, fc.nat(3), async ([outerA, outerB, inner, a1, a2, c1, c2], chosen) => {
        const log: string[] = [];
        // Two levels under the caller on one side, one on the other: a → (a1, a2); b → c → (c1, c2).
        const a = leafAgent("a", [{ id: a1, label: "a1" }, { id: a2, label: "a2" }], log).asTool({ name: "a", description: "A." });
        const c = leafAgent("c", [{ id: c1, label: "c1" }, { id: c2, label: "c2" }], log).asTool({ name: "c", description: "C." });
        const b = callerAgent("b", [{ id: inner, tool: c }]).asTool({ name: "b", description: "B." });
        const caller = callerAgent("caller", [
          { id: outerA, tool: a },
          { id: outerB, tool: b },
        ]);
        const paused = await caller.run({ messages: [ChatMessage.fromUser("go")] });
        if (paused.exitReason !== "confirmation_required") throw new Error(`expected a pause, got ${paused.exitReason}`);
        const keys = paused.pendingConfirmations.map((p) => p.toolCallId);
        expect(new Set(keys).size).toBe(4);
        const labels = paused.pendingConfirmations.map((p) => p.arguments.label);
        const decisions = Object.fromEntries(keys.map((key, i) => [key, { action: i === chosen ? ("confirm" as const) : ("reject" as const) }]));
        const resumed = await caller.run({ snapshot: JSON.parse(JSON.stringify(paused.snapshot)), decisions });
        expect(resumed.exitReason).toBe("text");
        expect(log).toEqual([labels[chosen]]);
      }),
      { numRuns: 60 },
    );
  });
});
