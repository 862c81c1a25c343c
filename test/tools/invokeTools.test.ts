import { redactValues } from "../../src/util/redact";
import { reportToolFault } from "../../src/tools/reportToolFault";
import {
  ChatMessage,
  State,
  StateMergeError,
  type StreamingChunk,
  Tool,
  ToolArgumentsError,
  type ToolCall,
  type ToolContext,
  ToolInvocationError,
  ToolNotFoundError,
  type ToolOptions,
  ToolResultConversionError,
  type ToolwrightError,
} from "toolwright";
import { z } from "zod";
import { type InvokeToolsOptions, invokeTools } from "../../src/tools/invokeTools";
import { AbortScope } from "../../src/util/abortScope";

const stateSchema = {
  customer_id: { type: z.string() },
  customer: { type: z.object({ name: z.string(), id: z.string() }) },
  note: { type: z.string() },
  documents: { type: z.array(z.string()) },
  log: { type: z.array(z.string()) },
  count: { type: z.number() },
  last: { type: z.record(z.string(), z.unknown()) },
};

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

function deferred<T = unknown>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback and I/O callback run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const never = () => new Promise<never>(() => undefined);

function makeState(data: Record<string, unknown> = {}): State {
  return new State(stateSchema, data) as unknown as State;
}

function makeTool(name: string, fn: ToolOptions["function"], extra: Partial<ToolOptions> = {}): Tool {
  return new Tool({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} }, function: fn, ...extra });
}

/** A tool whose calls each wait until the test resolves them; records how many run at once. */
function controlledTool(name: string, extra: Partial<ToolOptions> = {}) {
  const pending: Array<{ args: Record<string, unknown>; context: ToolContext; done: Deferred<unknown> }> = [];
  const tracker = { inFlight: 0, maxInFlight: 0, started: 0 };
  const tool = makeTool(
    name,
    async (args, context) => {
      tracker.started += 1;
      tracker.inFlight += 1;
      tracker.maxInFlight = Math.max(tracker.maxInFlight, tracker.inFlight);
      const done = deferred<unknown>();
      pending.push({ args, context, done });
      try {
        return await done.promise;
      } finally {
        tracker.inFlight -= 1;
      }
    },
    { parameters: { type: "object", properties: { n: { type: "integer" } } }, ...extra },
  );
  const find = (n: number) => {
    const entry = pending.find((p) => p.args.n === n);
    if (!entry) throw new Error(`call n=${n} of ${name} has not started`);
    return entry;
  };
  return { tool, pending, tracker, find };
}

function call(toolName: string, args: ToolCall["arguments"] = {}, id = `call_${toolName}`): ToolCall {
  return { id, toolName, arguments: args };
}

function options(tools: Tool[], overrides: Partial<InvokeToolsOptions> = {}): InvokeToolsOptions {
  return {
    tools: new Map(tools.map((t) => [t.name, t])),
    state: makeState(),
    abort: new AbortScope(),
    redact: redactValues,
    reportFault: reportToolFault,
    concurrency: 4,
    raiseOnFailure: false,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return settlesWithin(
    promise.then(
      (value) => {
        throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
      },
      (error: unknown) => error as Error,
    ),
  );
}

/** Fails the test instead of hanging when a promise never settles. */
async function settlesWithin<T>(promise: Promise<T>, ms = 1000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("invokeTools", () => {
  describe("results", () => {
    it("answers each call with a tool message carrying the result text", async () => {
      const echo = makeTool("echo", (args) => `echo ${args.text}`, { parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } });
      const list = makeTool("list", () => ({ items: [1, 2] }));
      const calls = [call("echo", { text: "hi" }), call("list")];

      const outcomes = await invokeTools(calls, options([echo, list]));

      expect(outcomes.map((o) => [o.message.role, o.message.toolCallResult?.result, o.failed, o.message.toolCallResult?.error])).toEqual([
        ["tool", "echo hi", false, false],
        ["tool", '{"items":[1,2]}', false, false],
      ]);
      expect(outcomes[0]!.toolCall).toBe(calls[0]);
      expect(outcomes[0]!.message.toolCallResult?.origin).toEqual(calls[0]);
      expect(outcomes[0]!.message).toBeInstanceOf(ChatMessage);
    });

    it("parses arguments given as JSON text", async () => {
      const echo = makeTool("echo", (args) => `echo ${args.text}`, { parameters: { type: "object", properties: { text: { type: "string" } } } });

      const [outcome] = await invokeTools([call("echo", '{"text":"hi"}')], options([echo]));

      expect(outcome!.message.toolCallResult?.result).toBe("echo hi");
    });

    it("passes the signal and the call to the tool", async () => {
      let seen: ToolContext | undefined;
      const probe = makeTool("probe", (_args, context) => {
        seen = context;
        return "ok";
      });
      const theCall = call("probe");

      await invokeTools([theCall], options([probe]));

      expect(seen!.signal).toBeInstanceOf(AbortSignal);
      expect(seen!.signal.aborted).toBe(false);
      expect(seen!.toolCall).toBe(theCall);
    });

    it("answers an unknown tool name with the available tools", async () => {
      const outcomes = await invokeTools([call("x")], options([makeTool("a", () => "a"), makeTool("b", () => "b")]));

      expect(outcomes[0]!.failed).toBe(true);
      expect(outcomes[0]!.message.toolCallResult).toMatchObject({ result: "Tool 'x' not found. Available tools: a, b.", error: true });
    });

    it("answers an unknown tool name with none when there are no tools", async () => {
      const outcomes = await invokeTools([call("x")], options([]));

      expect(outcomes[0]!.message.toolCallResult?.result).toBe("Tool 'x' not found. Available tools: none.");
    });

    it("answers invalid arguments without running the tool", async () => {
      const fn = jest.fn(() => "ran");
      const search = makeTool("search", fn, { parameters: { type: "object", properties: { limit: { type: "integer" } } } });

      const outcomes = await invokeTools([call("search", { limit: "5" })], options([search]));

      expect(fn).not.toHaveBeenCalled();
      expect(outcomes[0]!.failed).toBe(true);
      expect(outcomes[0]!.message.toolCallResult?.result).toBe(
        "Tool 'search' was called with invalid arguments: limit must be integer (got string \"5\"). Call the tool again with corrected arguments.",
      );
    });

    it("turns a throw into a failure message that ends with a period", async () => {
      const boom = makeTool("boom", () => {
        throw new Error("disk full");
      });
      const done = makeTool("done", async () => {
        throw new Error("already closed.");
      });
      const str = makeTool("str", () => {
        throw "plain string";
      });

      const outcomes = await invokeTools([call("boom"), call("done"), call("str")], options([boom, done, str]));

      expect(outcomes.map((o) => [o.message.toolCallResult?.result, o.failed])).toEqual([
        ["Tool 'boom' failed: disk full.", true],
        ["Tool 'done' failed: already closed.", true],
        ["Tool 'str' failed: plain string.", true],
      ]);
    });

    it("uses outputsToString for the message text", async () => {
      const search = makeTool("search", () => ({ summary: "2 tickets", tickets: [1, 2] }), { outputsToString: { source: "summary" } });

      const [outcome] = await invokeTools([call("search")], options([search]));

      expect(outcome!.message.toolCallResult?.result).toBe("2 tickets");
    });

    it("answers a result that cannot become text with a failure message", async () => {
      const raw = makeTool("raw", () => ({ count: 5 }), { outputsToString: { source: "count", rawResult: true } });
      const map = makeTool("map", () => new Map());

      const outcomes = await invokeTools([call("raw"), call("map")], options([raw, map]));

      expect(outcomes.map((o) => [o.message.toolCallResult?.result, o.failed])).toEqual([
        ["Tool 'raw' ran, but its result could not be turned into text: outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got number 5; drop rawResult to send JSON.", true],
        ["Tool 'map' ran, but its result could not be turned into text: (root) holds a Map, which has no JSON form; return plain data, or give the tool an outputsToString handler.", true],
      ]);
    });

    it("returns no outcomes for no calls", async () => {
      await expect(invokeTools([], options([]))).resolves.toEqual([]);
    });
  });

  describe("inputsFromState", () => {
    const lookupParameters = {
      type: "object",
      properties: { query: { type: "string" }, customerId: { type: "string" }, customer: { type: "object" } },
      required: ["query", "customerId"],
    };

    it("injects the state value into the argument it names", async () => {
      let received: Record<string, unknown> | undefined;
      const lookup = makeTool(
        "lookup",
        (args) => {
          received = args;
          return "ok";
        },
        { parameters: lookupParameters, inputsFromState: { customer_id: "customerId" } },
      );

      await invokeTools([call("lookup", { query: "refund" })], options([lookup], { state: makeState({ customer_id: "c-42" }) }));

      expect(received).toEqual({ query: "refund", customerId: "c-42" });
    });

    it("injects a copy, so the tool cannot change state through it", async () => {
      const state = makeState({ customer: { name: "Ada", id: "c-1" } });
      const rename = makeTool(
        "rename",
        (args) => {
          (args.customer as { name: string }).name = "Mallory";
          return "ok";
        },
        { parameters: lookupParameters, inputsFromState: { customer: "customer" } },
      );

      await invokeTools([call("rename", { query: "x", customerId: "c-1" })], options([rename], { state }));

      expect(state.get("customer")).toEqual({ name: "Ada", id: "c-1" });
    });

    it("injects undefined when the state key has no value", async () => {
      let received: Record<string, unknown> | undefined;
      const lookup = makeTool(
        "lookup",
        (args) => {
          received = args;
          return "ok";
        },
        { parameters: { type: "object", properties: { customerId: { type: "string" } } }, inputsFromState: { customer_id: "customerId" } },
      );

      await invokeTools([call("lookup")], options([lookup]));

      expect(received).toEqual({ customerId: undefined });
    });

    it("refuses a model that sends an injected parameter", async () => {
      const fn = jest.fn(() => "ran");
      const lookup = makeTool("lookup", fn, { parameters: lookupParameters, inputsFromState: { customer_id: "customerId" } });

      const [outcome] = await invokeTools([call("lookup", { query: "x", customerId: "c-evil" })], options([lookup], { state: makeState({ customer_id: "c-42" }) }));

      expect(fn).not.toHaveBeenCalled();
      expect(outcome!.message.toolCallResult?.result).toBe(
        "Tool 'lookup' was called with invalid arguments: customerId is not a parameter of this tool (parameters: query, customer). Call the tool again with corrected arguments.",
      );
    });

    it("overrides the model's value even when the schema allows extra properties", async () => {
      let received: Record<string, unknown> | undefined;
      const lookup = makeTool(
        "lookup",
        (args) => {
          received = args;
          return "ok";
        },
        { parameters: { ...lookupParameters, additionalProperties: true }, inputsFromState: { customer_id: "customerId" } },
      );

      await invokeTools([call("lookup", { query: "x", customerId: "c-evil" })], options([lookup], { state: makeState({ customer_id: "c-42" }) }));

      expect(received).toEqual({ query: "x", customerId: "c-42" });
    });
  });

  describe("redaction of injected values", () => {
    function failingLookup(message: (args: Record<string, unknown>) => string, inputsFromState: Record<string, string>) {
      return makeTool(
        "lookup",
        (args) => {
          throw new Error(message(args));
        },
        {
          parameters: { type: "object", properties: { customerId: { type: "string" }, customer: { type: "object" }, note: { type: "string" } } },
          inputsFromState,
        },
      );
    }

    it("replaces an injected value in a failure message with the state key", async () => {
      const lookup = failingLookup((args) => `customer ${args.customerId} not found in region eu (id ${args.customerId})`, { customer_id: "customerId" });

      const [outcome] = await invokeTools([call("lookup")], options([lookup], { state: makeState({ customer_id: "c-secret-42" }) }));

      expect(outcome!.message.toolCallResult?.result).toBe("Tool 'lookup' failed: customer [customer_id] not found in region eu (id [customer_id]).");
    });

    it("replaces an object value, as JSON and leaf by leaf, without mangling the label", async () => {
      const lookup = failingLookup((args) => `cannot bill ${JSON.stringify(args.customer)}: no card for tom`, { customer: "customer" });

      const [outcome] = await invokeTools([call("lookup")], options([lookup], { state: makeState({ customer: { name: "tom", id: "c-1234" } }) }));

      expect(outcome!.message.toolCallResult?.result).toBe("Tool 'lookup' failed: cannot bill [customer]: no card for [customer].");
    });

    it("replaces a value the error message embeds as a JSON string", async () => {
      const lookup = failingLookup((args) => `invalid note ${JSON.stringify(args.note)}`, { note: "note" });

      const [outcome] = await invokeTools([call("lookup")], options([lookup], { state: makeState({ note: 'call "Bob" at home\\office' }) }));

      expect(outcome!.message.toolCallResult?.result).toBe('Tool \'lookup\' failed: invalid note "[note]".');
    });

    it("redacts the raised ToolInvocationError too and keeps the original as cause", async () => {
      const original = new Error("customer c-secret-42 not found");
      const lookup = makeTool(
        "lookup",
        () => {
          throw original;
        },
        { parameters: { type: "object", properties: { customerId: { type: "string" } } }, inputsFromState: { customer_id: "customerId" } },
      );

      const error = await rejection(invokeTools([call("lookup")], options([lookup], { state: makeState({ customer_id: "c-secret-42" }), raiseOnFailure: true })));

      expect(error).toBeInstanceOf(ToolInvocationError);
      expect(error.message).toBe("Tool 'lookup' failed: customer [customer_id] not found.");
      expect(error.cause).toBe(original);
      expect((error as ToolInvocationError).toolName).toBe("lookup");
    });
  });

  describe("outputsToState", () => {
    it("merges the source property with the key's handler", async () => {
      const state = makeState({ documents: ["d0"] });
      const search = makeTool("search", () => ({ documents: ["d1", "d2"], summary: "2 found" }), { outputsToState: { documents: { source: "documents" } } });

      await invokeTools([call("search")], options([search], { state }));

      expect(state.get("documents")).toEqual(["d0", "d1", "d2"]);
    });

    it("writes the whole result without a source", async () => {
      const state = makeState();
      const fetchIt = makeTool("fetch", () => ({ status: 200, body: "ok" }), { outputsToState: { last: {} } });

      await invokeTools([call("fetch")], options([fetchIt], { state }));

      expect(state.get("last")).toEqual({ status: 200, body: "ok" });
    });

    it("uses the entry's handler instead of the key's", async () => {
      const state = makeState({ documents: ["old"] });
      const replace = makeTool("replace", () => ({ documents: ["new"] }), { outputsToState: { documents: { source: "documents", handler: (_current, incoming) => incoming } } });

      await invokeTools([call("replace")], options([replace], { state }));

      expect(state.get("documents")).toEqual(["new"]);
    });

    it("writes nothing when the source property is absent or the result is not a plain object", async () => {
      const state = makeState({ count: 1 });
      const absent = makeTool("absent", () => ({ other: 2 }), { outputsToState: { count: { source: "count" } } });
      const text = makeTool("text", () => "7", { outputsToState: { count: {} } });

      await invokeTools([call("absent"), call("text")], options([absent, text], { state }));

      expect(state.get("count")).toBe(1);
    });

    it("answers a merge failure with a failure message and stores nothing", async () => {
      const state = makeState({ count: 1 });
      const counter = makeTool("counter", () => ({ count: "three" }), { outputsToState: { count: { source: "count" } } });

      const [outcome] = await invokeTools([call("counter")], options([counter], { state }));

      expect(outcome!.failed).toBe(true);
      expect(outcome!.message.toolCallResult?.result).toBe(
        "Tool 'counter' ran, but its output could not be merged into state key 'count': State key 'count' rejected a value that does not match its type: count: Invalid input: expected number, received string. The value was not stored.",
      );
      expect(state.get("count")).toBe(1);
    });
  });

  describe("usesState", () => {
    it("fails a tool that reads context.state without usesState", async () => {
      const peek = makeTool("peek", (_args, context) => context.state.get("count"));

      const [outcome] = await invokeTools([call("peek")], options([peek]));

      expect(outcome!.message.toolCallResult?.result).toBe(
        "Tool 'peek' failed: Tool 'peek' read context.state but was not declared with usesState: true; declare it so that its calls are ordered against the other calls of a step.",
      );
    });

    it("gives a usesState tool the live State", async () => {
      const state = makeState({ count: 1 });
      const bump = makeTool(
        "bump",
        (_args, context) => {
          context.state.set("count", (context.state.get("count") as number) + 1);
          return "bumped";
        },
        { usesState: true },
      );

      await invokeTools([call("bump"), call("bump", {}, "call_2")], options([bump], { state }));

      expect(state.get("count")).toBe(3);
    });
  });

  describe("scheduling", () => {
    it("runs at most `concurrency` calls at once", async () => {
      const slow = controlledTool("slow");
      const calls = [0, 1, 2, 3, 4, 5].map((n) => call("slow", { n }, `call_${n}`));

      const running = invokeTools(calls, options([slow.tool], { concurrency: 2 }));
      await flush();
      expect(slow.tracker.started).toBe(2);

      for (let finished = 0; finished < 6; finished++) {
        slow.pending[finished]!.done.resolve(`done ${finished}`);
        await flush();
      }
      const outcomes = await running;

      expect(slow.tracker.maxInFlight).toBe(2);
      expect(slow.tracker.started).toBe(6);
      expect(outcomes).toHaveLength(6);
    });

    it("runs calls in parallel up to the limit", async () => {
      const slow = controlledTool("slow");
      const calls = [0, 1, 2].map((n) => call("slow", { n }, `call_${n}`));

      const running = invokeTools(calls, options([slow.tool], { concurrency: 4 }));
      await flush();

      expect(slow.tracker.inFlight).toBe(3);
      slow.pending.forEach((p) => p.done.resolve("ok"));
      await running;
    });

    it("applies results, merges and streaming chunks in call order when calls finish in reverse order", async () => {
      const state = makeState({ log: [] });
      const slow = controlledTool("slow", { outputsToState: { log: { source: "log" } } });
      const chunks: StreamingChunk[] = [];
      const calls = [0, 1, 2].map((n) => call("slow", { n }, `call_${n}`));

      const running = invokeTools(calls, options([slow.tool], { state, streamingCallback: (chunk) => void chunks.push(chunk) }));
      await flush();
      slow.find(2).done.resolve({ log: ["2"], text: "two" });
      await flush();
      slow.find(1).done.resolve({ log: ["1"], text: "one" });
      await flush();

      expect(state.get("log")).toEqual([]);
      expect(chunks).toEqual([]);

      slow.find(0).done.resolve({ log: ["0"], text: "zero" });
      const outcomes = await running;

      expect(state.get("log")).toEqual(["0", "1", "2"]);
      expect(outcomes.map((o) => o.toolCall.id)).toEqual(["call_0", "call_1", "call_2"]);
      expect(outcomes.map((o) => o.message.toolCallResult?.result)).toEqual([
        '{"log":["0"],"text":"zero"}',
        '{"log":["1"],"text":"one"}',
        '{"log":["2"],"text":"two"}',
      ]);
      expect(chunks.map((c) => (c.type === "toolResult" ? [c.type, c.index, c.toolCall.id, c.result.result] : c.type === "finish" ? [c.type, c.finishReason] : [c.type]))).toEqual([
        ["toolResult", 0, "call_0", '{"log":["0"],"text":"zero"}'],
        ["toolResult", 1, "call_1", '{"log":["1"],"text":"one"}'],
        ["toolResult", 2, "call_2", '{"log":["2"],"text":"two"}'],
        ["finish", "tool_call_results"],
      ]);
    });

    it("sends a toolResult chunk for failed calls too, and waits for an async callback", async () => {
      const chunks: string[] = [];
      const ok = makeTool("ok", () => "fine");

      await invokeTools([call("missing"), call("ok")], options([ok], {
        streamingCallback: async (chunk) => {
          await flush();
          chunks.push(chunk.type === "toolResult" ? `${chunk.index}:${chunk.result.error}:${chunk.result.result}` : chunk.type);
        },
      }));

      expect(chunks).toEqual(["0:true:Tool 'missing' not found. Available tools: ok.", "1:false:fine", "finish"]);
    });

    // Haystack main runs a step in batches (`_schedule_tool_calls`, haystack/components/agents/tool_calling.py): the
    // reader starts once the whole batch before it (the writer and the unrelated call) is in. toolwright did the same
    // for the writer alone before #33.
    it("starts a call that reads a key another call writes after that call's batch is committed, and it sees the value", async () => {
      const state = makeState({ customer_id: "c-old" });
      const login = controlledTool("login", { outputsToState: { customer_id: { source: "customerId" } } });
      const unrelated = controlledTool("unrelated");
      let seen: unknown;
      let readerStarted = false;
      const reader = makeTool(
        "reader",
        (args) => {
          readerStarted = true;
          seen = args.customerId;
          return "read";
        },
        { parameters: { type: "object", properties: { customerId: { type: "string" } } }, inputsFromState: { customer_id: "customerId" } },
      );

      const running = invokeTools([call("login", { n: 0 }), call("reader"), call("unrelated", { n: 1 })], options([login.tool, reader, unrelated.tool], { state }));
      await flush();

      expect(login.tracker.started).toBe(1);
      expect(unrelated.tracker.started).toBe(1);
      expect(readerStarted).toBe(false);

      login.find(0).done.resolve({ customerId: "c-new" });
      await flush();
      expect(readerStarted).toBe(false);
      unrelated.find(1).done.resolve("ok");
      await flush();

      expect(readerStarted).toBe(true);
      expect(seen).toBe("c-new");
      expect((await running).map((o) => o.message.toolCallResult?.result)).toEqual(['{"customerId":"c-new"}', "read", "ok"]);
    });

    // Haystack main: a reader waits for a writer whatever order the model asked for (test_agent.py
    // read-after-write tests; `_schedule_tool_calls`). Before #33 toolwright let this reader see the old value.
    it("makes a reader called before a writer wait for it, and answers in the model's order", async () => {
      const state = makeState({ customer_id: "c-old" });
      let seen: unknown;
      const reader = makeTool(
        "reader",
        (args) => {
          seen = args.customerId;
          return "read";
        },
        { parameters: { type: "object", properties: { customerId: { type: "string" } } }, inputsFromState: { customer_id: "customerId" } },
      );
      const login = makeTool("login", () => ({ customerId: "c-new" }), { outputsToState: { customer_id: { source: "customerId" } } });

      const outcomes = await invokeTools([call("reader"), call("login")], options([reader, login], { state }));

      expect(seen).toBe("c-new");
      expect(state.get("customer_id")).toBe("c-new");
      expect(outcomes.map((o) => o.toolCall.toolName)).toEqual(["reader", "login"]);
    });

    // Haystack main streams each result as it is merged (`_run_tool`: batch after batch) and lists the
    // unknown-tool errors first; the returned messages keep the model's order after those errors.
    it("streams results in merge order and returns unknown-tool errors first, then the model's order", async () => {
      const state = makeState({ customer_id: "c-old" });
      const chunks: string[] = [];
      const reader = makeTool("reader", (args) => `saw ${String(args.customerId)}`, { parameters: { type: "object", properties: { customerId: { type: "string" } } }, inputsFromState: { customer_id: "customerId" } });
      const login = makeTool("login", () => ({ customerId: "c-new" }), { outputsToState: { customer_id: { source: "customerId" } } });

      const outcomes = await invokeTools([call("reader"), call("ghost"), call("login")], options([reader, login], { state, streamingCallback: (chunk) => void chunks.push(chunk.type === "toolResult" ? `${chunk.index}` : chunk.type) }));

      expect(chunks).toEqual(["1", "2", "0", "finish"]);
      expect(outcomes.map((o) => [o.index, o.message.toolCallResult?.result])).toEqual([
        [1, "Tool 'ghost' not found. Available tools: reader, login."],
        [0, "saw c-new"],
        [2, '{"customerId":"c-new"}'],
      ]);
    });

    // Haystack main: a tool given the State reads and writes every key (`_state_io_for_call`), so it
    // waits for every writer and every reader waits for it; a call that touches no key runs beside it.
    it("orders a usesState tool against the calls that read or write state, and runs the others beside it", async () => {
      const state = makeState({ customer_id: "c-old" });
      const first = controlledTool("first", { outputsToState: { customer_id: { source: "customerId" } } });
      const stateful = controlledTool("stateful", { usesState: true });
      const free = controlledTool("free");
      const last = controlledTool("last", { inputsFromState: { customer_id: "customerId" }, parameters: { type: "object", properties: { n: { type: "number" }, customerId: { type: "string" } } } });

      const running = invokeTools(
        [call("first", { n: 0 }), call("stateful", { n: 1 }), call("free", { n: 2 }), call("last", { n: 3 })],
        options([first.tool, stateful.tool, free.tool, last.tool], { state }),
      );
      await flush();

      expect([first.tracker.started, stateful.tracker.started, free.tracker.started, last.tracker.started]).toEqual([1, 0, 1, 0]);
      first.find(0).done.resolve({ customerId: "c-new" });
      free.find(2).done.resolve("free");
      await flush();
      expect([stateful.tracker.started, last.tracker.started]).toEqual([1, 0]);
      stateful.find(1).done.resolve("2");
      await flush();
      expect(last.tracker.started).toBe(1);
      last.find(3).done.resolve("3");

      expect((await running).map((o) => o.message.toolCallResult?.result)).toEqual(['{"customerId":"c-new"}', "2", "free", "3"]);
    });
  });

  describe("raiseOnFailure", () => {
    const raise = { raiseOnFailure: true };

    it("throws ToolNotFoundError", async () => {
      const error = await rejection(invokeTools([call("x")], options([makeTool("a", () => "a")], raise)));

      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error.message).toBe("Tool 'x' not found. Available tools: a.");
      expect((error as ToolNotFoundError).toolName).toBe("x");
      expect((error as ToolNotFoundError).availableTools).toEqual(["a"]);
    });

    it("throws ToolArgumentsError", async () => {
      const search = makeTool("search", () => "ran", { parameters: { type: "object", properties: { limit: { type: "integer" } } } });

      const error = await rejection(invokeTools([call("search", "{")], options([search], raise)));

      expect(error).toBeInstanceOf(ToolArgumentsError);
      expect(error.message).toMatch(/^Tool 'search' was called with arguments that are not valid JSON \(.+\)\. Send one JSON object with the tool's parameters: limit\.$/);
    });

    it("throws ToolInvocationError with the tool's error as cause", async () => {
      const original = new TypeError("bad input");
      const boom = makeTool("boom", () => {
        throw original;
      });

      const error = await rejection(invokeTools([call("boom")], options([boom], raise)));

      expect(error).toBeInstanceOf(ToolInvocationError);
      expect(error.name).toBe("ToolInvocationError");
      expect(error.message).toBe("Tool 'boom' failed: bad input.");
      expect(error.cause).toBe(original);
    });

    it("throws StateMergeError", async () => {
      const counter = makeTool("counter", () => ({ count: "three" }), { outputsToState: { count: { source: "count" } } });

      const error = await rejection(invokeTools([call("counter")], options([counter], raise)));

      expect(error).toBeInstanceOf(StateMergeError);
      expect(error.message).toBe(
        "Tool 'counter' ran, but its output could not be merged into state key 'count': State key 'count' rejected a value that does not match its type: count: Invalid input: expected number, received string. The value was not stored.",
      );
      expect((error as StateMergeError).stateKey).toBe("count");
      expect((error as ToolwrightError).cause).toBeInstanceOf(Error);
    });

    it("throws ToolResultConversionError", async () => {
      const raw = makeTool("raw", () => 5, { outputsToString: { rawResult: true } });

      const error = await rejection(invokeTools([call("raw")], options([raw], raise)));

      expect(error).toBeInstanceOf(ToolResultConversionError);
      expect(error.message).toBe("Tool 'raw' ran, but its result could not be turned into text: outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got number 5; drop rawResult to send JSON.");
    });

    it("aborts the signals of the other running calls, even if they ignore them", async () => {
      let slowSignal: AbortSignal | undefined;
      const boom = makeTool("boom", () => {
        throw new Error("disk full");
      });
      const hang = makeTool("hang", (_args, context) => {
        slowSignal = context.signal;
        return never();
      });

      const error = await rejection(invokeTools([call("boom"), call("hang")], options([boom, hang], raise)));

      expect(error.message).toBe("Tool 'boom' failed: disk full.");
      expect(slowSignal?.aborted).toBe(true);
    });

    it("settles when a later call waits for the write of a call that will never commit", async () => {
      const boom = makeTool("boom", () => {
        throw new Error("disk full");
      });
      const writer = makeTool("writer", () => never(), { outputsToState: { customer_id: { source: "id" } } });
      const readerFn = jest.fn(() => "read");
      const reader = makeTool("reader", readerFn, { parameters: { type: "object", properties: { id: { type: "string" } } }, inputsFromState: { customer_id: "id" } });

      const error = await rejection(invokeTools([call("boom"), call("writer"), call("reader")], options([boom, writer, reader], raise)));

      expect(error.message).toBe("Tool 'boom' failed: disk full.");
      expect(readerFn).not.toHaveBeenCalled();
    });

    // Haystack main raises for an unknown tool in `_resolve_tool_calls`, before any call runs; before #33
    // toolwright ran and merged the calls before it.
    it("runs no call when one names an unknown tool", async () => {
      const state = makeState({ log: [] });
      let ran = false;
      const write = makeTool("write", () => ((ran = true), { log: ["w"] }), { outputsToState: { log: { source: "log" } } });

      const error = await rejection(invokeTools([call("write"), call("missing")], options([write], { ...raise, state })));

      expect(error.message).toBe("Tool 'missing' not found. Available tools: write.");
      expect(ran).toBe(false);
      expect(state.get("log")).toEqual([]);
    });
  });

  describe("timeoutMs", () => {
    it("fails a call that does not finish in time and aborts its signal", async () => {
      let signal: AbortSignal | undefined;
      const hang = makeTool("hang", (_args, context) => {
        signal = context.signal;
        return never();
      });
      const quick = makeTool("quick", () => "quick");

      const outcomes = await settlesWithin(invokeTools([call("hang"), call("quick")], options([hang, quick], { timeoutMs: 20 })));

      expect(outcomes.map((o) => [o.message.toolCallResult?.result, o.failed])).toEqual([
        ["Tool 'hang' failed: it did not finish within 20 ms.", true],
        ["quick", false],
      ]);
      expect(signal?.aborted).toBe(true);
    });

    it("throws ToolInvocationError for a timeout with raiseOnFailure", async () => {
      const hang = makeTool("hang", () => never());

      const error = await rejection(invokeTools([call("hang")], options([hang], { timeoutMs: 20, raiseOnFailure: true })));

      expect(error).toBeInstanceOf(ToolInvocationError);
      expect(error.message).toBe("Tool 'hang' failed: it did not finish within 20 ms.");
    });

    it("lets a call that finishes in time succeed", async () => {
      const quick = makeTool("quick", async () => "quick");

      const [outcome] = await invokeTools([call("quick")], options([quick], { timeoutMs: 1000 }));

      expect(outcome!.failed).toBe(false);
    });
  });

  describe("the run signal", () => {
    it("rejects with an AbortError promptly even when a tool ignores its signal", async () => {
      const controller = new AbortController();
      let signal: AbortSignal | undefined;
      const started = deferred<void>();
      const hang = makeTool("hang", (_args, context) => {
        signal = context.signal;
        started.resolve();
        return never();
      });

      const running = invokeTools([call("hang")], options([hang], { abort: new AbortScope(controller.signal) }));
      await started.promise;
      controller.abort();
      const error = await rejection(running);

      expect(error.name).toBe("AbortError");
      expect(signal?.aborted).toBe(true);
    });

    it("rejects promptly while a call waits for an earlier call's write", async () => {
      const controller = new AbortController();
      const started = deferred<void>();
      const writer = makeTool(
        "writer",
        () => {
          started.resolve();
          return never();
        },
        { outputsToState: { customer_id: { source: "id" } } },
      );
      const readerFn = jest.fn(() => "read");
      const reader = makeTool("reader", readerFn, { parameters: { type: "object", properties: { id: { type: "string" } } }, inputsFromState: { customer_id: "id" } });

      const running = invokeTools([call("writer"), call("reader")], options([writer, reader], { abort: new AbortScope(controller.signal) }));
      await started.promise;
      controller.abort();
      const error = await rejection(running);

      expect(error.name).toBe("AbortError");
      expect(readerFn).not.toHaveBeenCalled();
    });

    it("rejects promptly while calls wait for a permit", async () => {
      const controller = new AbortController();
      const slow = controlledTool("slow");

      const running = invokeTools([0, 1, 2].map((n) => call("slow", { n }, `call_${n}`)), options([slow.tool], { abort: new AbortScope(controller.signal), concurrency: 1 }));
      await flush();
      controller.abort();
      const error = await rejection(running);

      expect(error.name).toBe("AbortError");
      expect(slow.tracker.started).toBe(1);
    });

    it("wraps a reason that is not an AbortError, keeping it as cause", async () => {
      const controller = new AbortController();
      const started = deferred<void>();
      const hang = makeTool("hang", () => {
        started.resolve();
        return never();
      });

      const running = invokeTools([call("hang")], options([hang], { abort: new AbortScope(controller.signal) }));
      await started.promise;
      controller.abort("user left");
      const error = await rejection(running);

      expect(error.name).toBe("AbortError");
      expect(error.message).toBe("The agent run was aborted.");
      expect(error.cause).toBe("user left");
    });

    it("runs no tool when the signal is already aborted", async () => {
      const fn = jest.fn(() => "ran");
      const tool = makeTool("t", fn);

      const error = await rejection(invokeTools([call("t")], options([tool], { abort: new AbortScope(AbortSignal.abort()) })));

      expect(error.name).toBe("AbortError");
      expect(fn).not.toHaveBeenCalled();
    });
  });
});
