import { z } from "zod";
import { Agent, type AgentResult, type AgentSnapshot, ChatMessage, ConfigurationError, SnapshotError, type StateSchema, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry, toolCallReply } from "toolwright/testing";

const notesState = {
  notes: { type: z.array(z.string()) },
} satisfies StateSchema;

/** One tool call as the tool saw it. */
interface Seen {
  tool: string;
  args: Record<string, unknown>;
  key: string;
}

/** `search` (answers with text) and `add_note` (appends its note to `notes`); both record their calls and idempotency keys. */
function notesTools(seen: Seen[], events?: string[]): Tool[] {
  return [
    new Tool({
      name: "search",
      description: "Search the documents.",
      parameters: z.object({ query: z.string() }),
      function: (args, context) => {
        seen.push({ tool: "search", args, key: context.idempotencyKey });
        events?.push(`tool search ${args.query}`);
        return `results for ${args.query}`;
      },
    }),
    new Tool({
      name: "add_note",
      description: "Write down a note.",
      parameters: z.object({ text: z.string() }),
      outputsToState: { notes: { source: "note" } },
      function: (args, context) => {
        seen.push({ tool: "add_note", args, key: context.idempotencyKey });
        events?.push(`tool add_note ${args.text}`);
        return { note: args.text };
      },
    }),
  ];
}

/** Three model calls: search, add a note, answer. */
const script: readonly ScriptEntry[] = [
  toolCallReply(["search", { query: "lamps" }, "c1"]),
  toolCallReply(["add_note", { text: "lamps found" }, "c2"]),
  ChatMessage.fromAssistant("Lamps are in stock."),
];

const key = "k".repeat(32);

function notesAgent(options: { script?: readonly ScriptEntry[]; snapshotKey?: string; events?: string[] } = {}) {
  const seen: Seen[] = [];
  const chatGenerator = new ScriptedChatGenerator(options.script ?? script);
  const agent = new Agent({
    chatGenerator,
    tools: notesTools(seen, options.events),
    stateSchema: notesState,
    systemPrompt: "You keep notes.",
    ...(options.snapshotKey !== undefined && { snapshotKey: options.snapshotKey }),
  });
  return { agent, chatGenerator, seen };
}

const input = () => ({ messages: [ChatMessage.fromUser("What is in stock?")], notes: [] as string[] });

function summary(result: AgentResult<typeof notesState>) {
  return { messages: result.messages.map((m) => m.toJSON()), notes: result.notes, exitReason: result.exitReason, stepCount: result.stepCount };
}

function callsPerTool(seen: readonly Seen[]): Record<string, number> {
  const counts: Record<string, number> = { search: 0, add_note: 0 };
  for (const call of seen) counts[call.tool] = (counts[call.tool] ?? 0) + 1;
  return counts;
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

/** Runs the 3-step scenario uninterrupted, keeping each checkpoint (and a deep copy made when it was given). */
async function checkpointedRun(options: { snapshotKey?: string; runId?: string } = {}) {
  const made = notesAgent({ snapshotKey: options.snapshotKey });
  const checkpoints: AgentSnapshot[] = [];
  const copies: AgentSnapshot[] = [];
  const result = await made.agent.run({
    ...input(),
    ...(options.runId !== undefined && { runId: options.runId }),
    onCheckpoint: (snapshot) => {
      checkpoints.push(snapshot);
      copies.push(JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot);
    },
  });
  return { ...made, result, checkpoints, copies };
}

const systemJSON = { role: "system", meta: {}, name: null, content: [{ text: "You keep notes." }] };
const userJSON = { role: "user", meta: {}, name: null, content: [{ text: "What is in stock?" }] };
const searchCallJSON = { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "search", arguments: { query: "lamps" }, id: "c1" } }] };
const searchResultJSON = {
  role: "tool",
  meta: {},
  name: null,
  content: [{ tool_call_result: { result: "results for lamps", origin: { tool_name: "search", arguments: { query: "lamps" }, id: "c1" }, error: false } }],
};
const noteCallJSON = { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "add_note", arguments: { text: "lamps found" }, id: "c2" } }] };

describe("run({ onCheckpoint })", () => {
  it("calls onCheckpoint after each model reply with tool calls and each tool step, not after the final text reply", async () => {
    const { result, checkpoints, chatGenerator } = await checkpointedRun();

    expect(result.exitReason).toBe("text");
    expect(result.stepCount).toBe(3);
    expect(chatGenerator.requests).toHaveLength(3);
    expect(checkpoints).toHaveLength(4);
    expect(checkpoints.map((s) => s.next)).toEqual(["tool", "chat_generator", "tool", "chat_generator"]);
    expect(checkpoints.map((s) => s.stepCount)).toEqual([1, 1, 2, 2]);
    expect(checkpoints.map((s) => s.visits)).toEqual([
      { chatGenerator: 1, tools: {} },
      { chatGenerator: 1, tools: { search: 1, "*": 1 } },
      { chatGenerator: 2, tools: { search: 1, "*": 1 } },
      { chatGenerator: 2, tools: { search: 1, add_note: 1, "*": 2 } },
    ]);
    expect(checkpoints.map((s) => s.toolStep)).toEqual([{ replies: 1, decisions: {}, pending: [] }, undefined, { replies: 1, decisions: {}, pending: [] }, undefined]);
    expect(checkpoints.map((s) => "toolStep" in s)).toEqual([true, false, true, false]);
    expect(checkpoints.map((s) => s.signature)).toEqual([undefined, undefined, undefined, undefined]);
    expect(checkpoints.map((s) => s.version)).toEqual([1, 1, 1, 1]);
  });

  it("gives checkpoints holding the state as it was at that point", async () => {
    const { checkpoints } = await checkpointedRun();

    expect(checkpoints.map((s) => s.state)).toEqual([
      { notes: [], messages: [systemJSON, userJSON, searchCallJSON] },
      { notes: [], messages: [systemJSON, userJSON, searchCallJSON, searchResultJSON] },
      { notes: [], messages: [systemJSON, userJSON, searchCallJSON, searchResultJSON, noteCallJSON] },
      {
        notes: ["lamps found"],
        messages: [
          systemJSON,
          userJSON,
          searchCallJSON,
          searchResultJSON,
          noteCallJSON,
          {
            role: "tool",
            meta: {},
            name: null,
            content: [{ tool_call_result: { result: '{"note":"lamps found"}', origin: { tool_name: "add_note", arguments: { text: "lamps found" }, id: "c2" }, error: false } }],
          },
        ],
      },
    ]);
  });

  it("gives checkpoints that later steps of the run do not change", async () => {
    const { checkpoints, copies } = await checkpointedRun();

    expect(checkpoints).toEqual(copies);
  });

  it("is not called for a run that ends with its first text reply", async () => {
    const { agent } = notesAgent({ script: [ChatMessage.fromAssistant("Nothing to do.")] });
    const onCheckpoint = jest.fn();

    const result = await agent.run({ ...input(), onCheckpoint });

    expect(result.exitReason).toBe("text");
    expect(onCheckpoint).not.toHaveBeenCalled();
  });

  it("is not called after a tool step that ends the run through an exit condition", async () => {
    const seen: Seen[] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([toolCallReply(["add_note", { text: "done" }, "c1"])]),
      tools: notesTools(seen),
      stateSchema: notesState,
      exitConditions: ["add_note"],
    });
    const checkpoints: AgentSnapshot[] = [];

    const result = await agent.run({ ...input(), onCheckpoint: (s) => void checkpoints.push(s) });

    expect(result.exitReason).toBe("add_note");
    expect(checkpoints.map((s) => [s.next, s.stepCount])).toEqual([["tool", 1]]);
    expect(seen.map((c) => c.tool)).toEqual(["add_note"]);
  });

  describe("resuming from a checkpoint", () => {
    it("ends with the messages and state of the uninterrupted run, from every checkpoint, without repeating completed steps", async () => {
      const original = await checkpointedRun();
      const expectedCalls = [
        { search: 1, add_note: 1 },
        { search: 0, add_note: 1 },
        { search: 0, add_note: 1 },
        { search: 0, add_note: 0 },
      ];
      const expectedModelCalls = [2, 2, 1, 1];

      for (const [i, checkpoint] of original.checkpoints.entries()) {
        const fresh = notesAgent({ script: script.slice(checkpoint.stepCount) });

        const resumed = await fresh.agent.run({ snapshot: JSON.parse(JSON.stringify(checkpoint)) as AgentSnapshot });

        expect([i, summary(resumed)]).toEqual([i, summary(original.result)]);
        expect([i, callsPerTool(fresh.seen)]).toEqual([i, expectedCalls[i]]);
        expect([i, fresh.chatGenerator.requests.length]).toEqual([i, expectedModelCalls[i]]);
        expect([i, fresh.chatGenerator.remaining]).toEqual([i, 0]);
      }
    });

    it("runs the tool calls of the reply a 'tool' checkpoint was taken after, without calling the model for that step", async () => {
      const original = await checkpointedRun();
      const afterReply = original.checkpoints[0]!;
      expect(afterReply.next).toBe("tool");
      const fresh = notesAgent({ script: script.slice(1) });

      const resumed = await fresh.agent.run({ snapshot: afterReply });

      expect(fresh.seen.map((c) => [c.tool, c.args])).toEqual([
        ["search", { query: "lamps" }],
        ["add_note", { text: "lamps found" }],
      ]);
      // The first model call of the resumed run already sees the search result: the search ran first.
      expect(fresh.chatGenerator.requests[0]!.messages.map((m) => m.toJSON())).toEqual([systemJSON, userJSON, searchCallJSON, searchResultJSON]);
      expect(fresh.chatGenerator.requests).toHaveLength(2);
      expect(resumed.stepCount).toBe(3);
      expect(resumed.notes).toEqual(["lamps found"]);
    });

    it("calls onCheckpoint of the resumed run with the checkpoints the original run gave after that point", async () => {
      const original = await checkpointedRun();

      for (const [i, checkpoint] of original.checkpoints.entries()) {
        const fresh = notesAgent({ script: script.slice(checkpoint.stepCount) });
        const again: AgentSnapshot[] = [];

        await fresh.agent.run({ snapshot: checkpoint, onCheckpoint: (s) => void again.push(s) });

        expect([i, again]).toEqual([i, original.checkpoints.slice(i + 1)]);
      }
    });
  });

  describe("failures and ordering", () => {
    it("rejects the run with the error onCheckpoint throws, running no tool after it", async () => {
      const { agent, chatGenerator, seen } = notesAgent();
      const failure = new Error("checkpoint store is down");

      const error = await rejectionOf(
        agent.run({
          ...input(),
          onCheckpoint: () => {
            throw failure;
          },
        }),
      );

      expect(error).toBe(failure);
      expect(chatGenerator.requests).toHaveLength(1);
      expect(seen).toEqual([]);
    });

    it("rejects the run with the error an async onCheckpoint rejects with, at the checkpoint that failed", async () => {
      const { agent, chatGenerator, seen } = notesAgent();
      const failure = new Error("write failed");
      let calls = 0;

      const error = await rejectionOf(
        agent.run({
          ...input(),
          onCheckpoint: async (snapshot) => {
            calls += 1;
            if (snapshot.next === "chat_generator") throw failure;
          },
        }),
      );

      expect(error).toBe(failure);
      expect(calls).toBe(2);
      expect(seen.map((c) => c.tool)).toEqual(["search"]);
      expect(chatGenerator.requests).toHaveLength(1);
    });

    it("waits for an async onCheckpoint before the next step", async () => {
      const events: string[] = [];
      const entries: ScriptEntry[] = script.map((entry, i) => () => {
        events.push(`model ${i + 1}`);
        return entry as ChatMessage;
      });
      const { agent } = notesAgent({ script: entries, events });

      await agent.run({
        ...input(),
        onCheckpoint: async (snapshot) => {
          events.push(`checkpoint ${snapshot.next} ${snapshot.stepCount} start`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          events.push(`checkpoint ${snapshot.next} ${snapshot.stepCount} end`);
        },
      });

      expect(events).toEqual([
        "model 1",
        "checkpoint tool 1 start",
        "checkpoint tool 1 end",
        "tool search lamps",
        "checkpoint chat_generator 1 start",
        "checkpoint chat_generator 1 end",
        "model 2",
        "checkpoint tool 2 start",
        "checkpoint tool 2 end",
        "tool add_note lamps found",
        "checkpoint chat_generator 2 start",
        "checkpoint chat_generator 2 end",
        "model 3",
      ]);
    });

    it("rejects with an AbortError when the run is aborted while onCheckpoint is pending, without waiting for it", async () => {
      const { agent, seen } = notesAgent();
      const controller = new AbortController();
      const run = agent.run({
        ...input(),
        signal: controller.signal,
        onCheckpoint: () => {
          setTimeout(() => controller.abort(), 5);
          return new Promise<void>(() => {});
        },
      });

      await expect(run).rejects.toMatchObject({ name: "AbortError" });
      expect(seen).toEqual([]);
    });
  });

  describe("signed checkpoints", () => {
    it("carry a signature, and a fresh Agent with the key resumes each of them", async () => {
      const original = await checkpointedRun({ snapshotKey: key });

      expect(original.checkpoints).toHaveLength(4);
      for (const checkpoint of original.checkpoints) expect(checkpoint.signature).toMatch(/^hmac-sha256:[\w-]{43}$/);
      for (const [i, checkpoint] of original.checkpoints.entries()) {
        const fresh = notesAgent({ script: script.slice(checkpoint.stepCount), snapshotKey: key });
        const resumed = await fresh.agent.run({ snapshot: JSON.parse(JSON.stringify(checkpoint)) as AgentSnapshot });
        expect([i, summary(resumed)]).toEqual([i, summary(original.result)]);
      }
    });

    it("refuses a changed checkpoint, calling neither model nor tools", async () => {
      const original = await checkpointedRun({ snapshotKey: key });
      const edited = JSON.parse(JSON.stringify(original.checkpoints[1])) as { state: { messages: Array<{ content: Array<{ tool_call_result: { result: string } }> }> } };
      edited.state.messages[3]!.content[0]!.tool_call_result.result = "no lamps";
      const fresh = notesAgent({ script: script.slice(1), snapshotKey: key });

      const error = await rejectionOf(fresh.agent.run({ snapshot: edited as unknown as AgentSnapshot }));

      expect(error).toBeInstanceOf(SnapshotError);
      expect((error as SnapshotError).field).toBe("signature");
      expect(error.message).toBe(
        "Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.",
      );
      expect(fresh.chatGenerator.requests).toHaveLength(0);
      expect(fresh.seen).toEqual([]);
    });

    it("refuses an unsigned checkpoint in an Agent with a snapshotKey", async () => {
      const original = await checkpointedRun();
      const fresh = notesAgent({ script: script.slice(1), snapshotKey: key });

      const error = await rejectionOf(fresh.agent.run({ snapshot: original.checkpoints[0]! }));

      expect(error).toBeInstanceOf(SnapshotError);
      expect(error.message).toBe(
        "Agent.run was given a snapshot whose signature is missing, and this Agent has a snapshotKey, so it resumes only snapshots it signed; resume only with a snapshot a stopped run produced, unchanged.",
      );
      expect(fresh.seen).toEqual([]);
    });
  });
});

describe("context.idempotencyKey", () => {
  it("is <runId>:<step>:<call id> with the run's runId", async () => {
    const { seen } = await checkpointedRun({ runId: "r-1" });

    expect(seen.map((c) => [c.tool, c.key])).toEqual([
      ["search", "r-1:1:c1"],
      ["add_note", "r-1:2:c2"],
    ]);
  });

  it("keys calls that share an id, or have none, by their position in the step", async () => {
    const twoReplies: ToolCall[] = [{ toolName: "search", arguments: { query: "tables" } }];
    const { agent, seen } = notesAgent({
      script: [
        toolCallReply(["search", { query: "lamps" }, "dup"], ["search", { query: "chairs" }, "dup"], ["search", { query: "desks" }, "solo"]),
        [ChatMessage.fromAssistant(undefined, { toolCalls: twoReplies }), toolCallReply(["add_note", { text: "x" }, "n1"])],
        ChatMessage.fromAssistant("Done."),
      ],
    });

    await agent.run({ ...input(), runId: "r-1" });

    expect(seen.map((c) => [c.args, c.key])).toEqual([
      [{ query: "lamps" }, "r-1:1:#0"],
      [{ query: "chairs" }, "r-1:1:#1"],
      [{ query: "desks" }, "r-1:1:solo"],
      [{ query: "tables" }, "r-1:2:#0"],
      [{ text: "x" }, "r-1:2:n1"],
    ]);
  });

  it("gives the calls of a step re-run from its checkpoint the keys they had in the original run", async () => {
    const original = await checkpointedRun({ runId: "r-1" });

    const fromFirst = notesAgent({ script: script.slice(1) });
    await fromFirst.agent.run({ snapshot: original.checkpoints[0]!, runId: "r-1" });
    const fromThird = notesAgent({ script: script.slice(2) });
    await fromThird.agent.run({ snapshot: original.checkpoints[2]!, runId: "r-1" });

    expect(fromFirst.seen.map((c) => c.key)).toEqual(["r-1:1:c1", "r-1:2:c2"]);
    expect(fromFirst.seen.map((c) => c.key)).toEqual(original.seen.map((c) => c.key));
    expect(fromThird.seen.map((c) => c.key)).toEqual(["r-1:2:c2"]);
  });

  it("uses one random UUID for all calls of a run without runId, and another for the next run", async () => {
    const uuidKey = /^([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}):(\d+):(\w+)$/;
    const first = await checkpointedRun();
    const second = await checkpointedRun();

    const parts = (seen: readonly Seen[]) => seen.map((c) => uuidKey.exec(c.key)?.slice(1) ?? c.key);
    const [a, b] = [parts(first.seen), parts(second.seen)] as [string[][], string[][]];
    expect(a.map((p) => p.slice(1))).toEqual([
      ["1", "c1"],
      ["2", "c2"],
    ]);
    expect(b.map((p) => p.slice(1))).toEqual([
      ["1", "c1"],
      ["2", "c2"],
    ]);
    expect(a[0]![0]).toBe(a[1]![0]);
    expect(b[0]![0]).toBe(b[1]![0]);
    expect(a[0]![0]).not.toBe(b[0]![0]);
  });

  it("accepts a runId of 200 characters", async () => {
    const runId = "r".repeat(200);
    const { agent, seen } = notesAgent();

    await agent.run({ ...input(), runId });

    expect(seen.map((c) => c.key)).toEqual([`${runId}:1:c1`, `${runId}:2:c2`]);
  });
});

describe("run option checks", () => {
  const runIdMessage = (kind: string) => `Agent.run has a runId that is not a string of 1 to 200 characters, got ${kind}; pass a stable id of the run, or leave it out for a random one.`;

  it.each<[string, unknown, string]>([
    ["an empty string", "", 'string ""'],
    ["a number", 5, "number 5"],
    ["null", null, "null"],
    ["201 characters", "r".repeat(201), `string "${"r".repeat(56)}...`],
  ])("refuses a runId that is %s with a ConfigurationError", async (_what, runId, kind) => {
    const { agent, chatGenerator } = notesAgent();

    const error = await rejectionOf(agent.run({ ...input(), runId: runId as string }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).subject).toBe("Agent.run");
    expect(error.message).toBe(runIdMessage(kind));
    expect(chatGenerator.requests).toHaveLength(0);
  });

  it.each<[unknown, string]>([
    ["x", 'string "x"'],
    [{ save: true }, "an object"],
    [null, "null"],
  ])("refuses an onCheckpoint of %p with a ConfigurationError", async (onCheckpoint, kind) => {
    const { agent, chatGenerator } = notesAgent();

    const error = await rejectionOf(agent.run({ ...input(), onCheckpoint: onCheckpoint as () => void }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).subject).toBe("Agent.run");
    expect(error.message).toBe(`Agent.run has an onCheckpoint that is not a function, got ${kind}; pass (snapshot) => save(snapshot).`);
    expect(chatGenerator.requests).toHaveLength(0);
  });

  it("checks runId and onCheckpoint given with a snapshot too", async () => {
    const original = await checkpointedRun();
    const { agent, seen } = notesAgent({ script: script.slice(1) });

    const badId = await rejectionOf(agent.run({ snapshot: original.checkpoints[0]!, runId: 5 as unknown as string }));
    const badCallback = await rejectionOf(agent.run({ snapshot: original.checkpoints[0]!, onCheckpoint: "x" as unknown as () => void }));

    expect(badId.message).toBe(runIdMessage("number 5"));
    expect(badCallback.message).toBe('Agent.run has an onCheckpoint that is not a function, got string "x"; pass (snapshot) => save(snapshot).');
    expect(seen).toEqual([]);
  });
});
