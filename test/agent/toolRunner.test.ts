// ToolRunner: tool calls outside an Agent run, with the guarantees of a run's calls.
import { AbortError, ConfigurationError, State, Tool, ToolRunner } from "toolwright";
import { z } from "zod";

const stateSchema = { owner: { type: z.string() }, notes: { type: z.array(z.string()) } };

function runnerWith(log: string[] = []) {
  const note = new Tool({
    name: "note",
    description: "Write a note for the owner.",
    parameters: z.object({ text: z.string(), owner: z.string() }),
    inputsFromState: { owner: "owner" },
    outputsToState: { notes: { source: "note" } },
    function: async ({ text, owner }, { idempotencyKey }) => {
      log.push(`${idempotencyKey} ${owner}`);
      if (text === "boom") throw new Error(`cannot write for ${owner}`);
      return { note: text };
    },
  });
  const wait = new Tool({
    name: "wait",
    description: "Wait until aborted.",
    parameters: z.object({}),
    function: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
  });
  return new ToolRunner({ tools: [note, wait], stateSchema, toolTimeoutMs: 5_000 });
}

describe("ToolRunner", () => {
  it("runs a call as a run would: state injected, outputs merged, idempotency key from run id, step and call id", async () => {
    const log: string[] = [];
    const runner = runnerWith(log);
    const state = runner.newState({ owner: "ann" });

    const result = await runner.call(state, { name: "note", arguments: { text: "hello" }, id: "c1" }, { runId: "session-1", step: 7 });

    expect(result).toEqual({ text: '{"note":"hello"}', error: false, value: { note: "hello" } });
    expect(state.get("notes")).toEqual(["hello"]);
    expect(log).toEqual(["session-1:7:c1 ann"]);
    expect(runner.tools.map((tool) => tool.name)).toEqual(["note", "wait"]);
    expect(runner.tools[0]!.parameters.properties).toEqual({ text: { type: "string" } });
  });

  // An Agent run fails for a merge handler that throws (Haystack main; test/agent/haystackSemantics.test.ts); a
  // ToolRunner answers every failure, so that its callers (serveMcp) get an error result instead of a rejection.
  it("answers a merge handler that throws with an error result", async () => {
    const tally = new Tool({
      name: "tally",
      description: "Counts.",
      parameters: z.object({}),
      outputsToState: {
        notes: {
          source: "note",
          handler: () => {
            throw new Error("read-only notes");
          },
        },
      },
      function: () => ({ note: "x" }),
    });
    const runner = new ToolRunner({ tools: [tally], stateSchema });

    const result = await runner.call(runner.newState(), { name: "tally", arguments: {} });

    expect(result).toEqual({ text: "Tool 'tally' ran, but its output could not be merged into state key 'notes': read-only notes.", error: true });
  });

  it("refuses an injected parameter from the caller, as from a model, and redacts injected values in failures", async () => {
    const runner = runnerWith();
    const state = runner.newState({ owner: "ann-secret-owner" });

    expect(await runner.call(state, { name: "note", arguments: { text: "x", owner: "eve" } })).toEqual({
      text: "Tool 'note' was called with invalid arguments: owner is not a parameter of this tool (parameters: text). Call the tool again with corrected arguments.",
      error: true,
    });
    const failed = await runner.call(state, { name: "note", arguments: { text: "boom" } });
    expect(failed.error).toBe(true);
    expect(failed.text).not.toContain("ann-secret-owner");
    expect(await runner.call(state, { name: "nope", arguments: {} })).toEqual({ text: "Tool 'nope' not found. Available tools: note, wait.", error: true });
    expect(await runner.call(state, { name: "note", arguments: "{not json" })).toEqual({ text: expect.stringContaining("not valid JSON"), error: true });
  });

  it("rejects with the abort when the caller's signal aborts, and the tool's signal is aborted", async () => {
    const runner = runnerWith();
    const controller = new AbortController();
    const pending = runner.call(runner.newState(), { name: "wait", arguments: {} }, { signal: controller.signal });
    const reason = new Error("client went away");
    controller.abort(reason);
    const error = await pending.then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(AbortError);
    expect(error!.cause).toBe(reason);
  });

  it("runs calls that write one State one at a time, in order", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new Tool({
      name: "append",
      description: "Append.",
      parameters: z.object({ text: z.string() }),
      outputsToState: { notes: { source: "note" } },
      function: async ({ text }) => {
        order.push(`start ${text}`);
        if (text === "first") await gate;
        order.push(`end ${text}`);
        return { note: text };
      },
    });
    const runner = new ToolRunner({ tools: [slow], stateSchema });
    const state = runner.newState();
    const first = runner.call(state, { name: "append", arguments: { text: "first" } });
    const second = runner.call(state, { name: "append", arguments: { text: "second" } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["start first"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["start first", "end first", "start second", "end second"]);
    expect(state.get("notes")).toEqual(["first", "second"]);
  });

  it("checks its configuration like an Agent", () => {
    expect(() => new ToolRunner({ tools: [], toolTimeoutMs: -1 })).toThrow(new ConfigurationError("ToolRunner", "ToolRunner has a toolTimeoutMs that is not a positive number of milliseconds, got number -1."));
    expect(() => new ToolRunner({ tools: ["x" as never] })).toThrow(/^ToolRunner was given string "x" at tools\[0\], which is not a tool/);
    const runner = runnerWith();
    return expect(runner.call({} as State<typeof stateSchema>, { name: "note", arguments: {} })).rejects.toThrow(
      new ConfigurationError("ToolRunner.call", "ToolRunner.call needs a State (runner.newState(...)), got an object."),
    );
  });
});
