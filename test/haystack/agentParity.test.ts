// toolwright's Agent against what Haystack's own Agent did on the same scripted replies, recorded
// by test/haystack/recorder/record.py on Haystack main (3.2.0-rc0) and v2.31.0 (issue #33). Each
// scenario builds the tools of its Python counterpart, feeds the recorded script (Haystack's
// message dicts, read by ChatMessage.fromJSON) and compares the run's transcript, exit reason,
// step count, model calls and state with Haystack main's. Where toolwright differs on purpose, the
// test states Haystack's behaviour from the fixture and ours, and names the "Differences from
// Haystack" item of docs/haystack.md that explains why.
import { z } from "zod";
import { Agent, ChatMessage, type JsonSchema, promptTemplate, StateMergeError, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { type AgentFixture, haystackFixture, type HaystackMessageDict, type HaystackScenario, haystackToolResults, haystackVersions } from "./haystackFixtures";

type AgentScenario = { [K in HaystackScenario]: ReturnType<typeof haystackFixture<K>> extends AgentFixture ? K : never }[HaystackScenario];

/** One message as both sides are compared: what the model and the caller see, without meta. */
type Turn = Array<
  | { text: string }
  | { call: string; arguments: unknown; id: string | null }
  | { result: unknown; error: boolean; of: string | null }
  | { image: string }
>;

const errorText = "<error>";

// Error texts are each library's own (toolwright's never include injected values, item 4), so an
// error result is compared by its flag; a JSON string result by its value, since toolwright writes
// JSON without the spaces Python's json.dumps puts after ',' and ':' (items 6 and 14).
function turns(messages: readonly HaystackMessageDict[]): Array<{ role: string; parts: Turn }> {
  return messages.map((message) => ({
    role: message.role,
    parts: message.content.map((part): Turn[number] => {
      if ("text" in part) return { text: part.text as string };
      if ("tool_call" in part) {
        const call = part.tool_call as { tool_name: string; arguments: unknown; id: string | null };
        return { call: call.tool_name, arguments: call.arguments, id: call.id };
      }
      if ("tool_call_result" in part) {
        const { result, error, origin } = part.tool_call_result as { result: unknown; error: boolean; origin: { id: string | null } };
        return { result: error ? errorText : jsonValue(result), error, of: origin.id };
      }
      if ("image" in part) return { image: (part.image as { mime_type: string }).mime_type };
      throw new Error(`unexpected part ${JSON.stringify(part).slice(0, 200)}`);
    }),
  }));
}

function jsonValue(result: unknown): unknown {
  if (typeof result !== "string") return Array.isArray(result) ? turns([{ role: "tool", meta: {}, name: null, content: result as Array<Record<string, unknown>> }])[0]!.parts : result;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}

const ours = (messages: readonly ChatMessage[]) => turns(messages.map((message) => message.toJSON() as unknown as HaystackMessageDict));

function objectSchema(properties: Record<string, string>): JsonSchema {
  return { type: "object", properties: Object.fromEntries(Object.entries(properties).map(([key, type]) => [key, { type }])), required: Object.keys(properties) } as JsonSchema;
}

function tool(name: string, properties: Record<string, string>, fn: (args: Record<string, unknown>) => unknown, more: Partial<ConstructorParameters<typeof Tool>[0]> = {}): Tool {
  return new Tool({ name, description: `${name}.`, parameters: objectSchema(properties), function: fn, ...more });
}

const fail = (message: string) => (): never => {
  throw new Error(message);
};

const search = () => tool("search", { query: "string" }, ({ query }) => `results for ${String(query)}`);
const lookup = () => tool("lookup", { key: "string" }, ({ key }) => `value of ${String(key)}`);
const finish = () => tool("finish", { answer: "string" }, ({ answer }) => `final: ${String(answer)}`);
const throwingMerge = fail("merge failed");
const addItem = (more: Partial<ConstructorParameters<typeof Tool>[0]> = {}) => tool("add_item", { item: "string" }, ({ item }) => ({ items: [item] }), { outputsToState: { items: { source: "items" } }, ...more });

/** A scenario run by toolwright: the Agent's options and the run's, beside what the fixture recorded. */
interface Counterpart {
  agent: Omit<ConstructorParameters<typeof Agent>[0], "chatGenerator">;
  run?: Record<string, unknown>;
}

const counterparts: Record<AgentScenario, () => Counterpart> = {
  "exit-tool-succeeds-other-exit-tool-fails": () => ({ agent: { tools: [finish(), tool("abort", { reason: "string" }, fail("abort failed"))], exitConditions: ["finish", "abort"] } }),
  "no-tools-empty-reply": () => ({ agent: {} }),
  "tools-empty-reply": () => ({ agent: { tools: [search()] } }),
  "whitespace-only-reply": () => ({ agent: { tools: [search()] } }),
  "exit-condition-names-run-time-tool": () => ({ agent: { tools: [search()], exitConditions: ["finish"] }, run: { tools: [search(), finish()] } }),
  "read-after-write-reader-requested-first": () => ({
    agent: {
      tools: [
        // Item 19: the injected parameter is declared (Haystack's Tool reads it from the function's signature).
        new Tool({ name: "read_note", description: "Read the note.", parameters: { type: "object", properties: { note: { type: "string" } } }, function: ({ note }) => `note is ${String(note)}`, inputsFromState: { note: "note" } }),
        tool("write_note", { text: "string" }, ({ text }) => ({ note: text }), { outputsToState: { note: { source: "note" } } }),
      ],
      stateSchema: { note: { type: z.string() } },
    },
    run: { note: "old" },
  }),
  "unknown-tool-error-position": () => ({ agent: { tools: [search(), lookup()] } }),
  "schema-merge-handler-throws": () => ({ agent: { tools: [addItem()], stateSchema: { items: { type: z.array(z.string()), handler: throwingMerge } }, raiseOnToolInvocationFailure: false } }),
  "outputs-to-state-handler-throws": () => ({
    agent: { tools: [addItem({ outputsToState: { items: { source: "items", handler: throwingMerge } } })], stateSchema: { items: { type: z.array(z.string()) } }, raiseOnToolInvocationFailure: false },
  }),
  "outputs-to-string-handler-throws": () => ({
    agent: { tools: [tool("lookup", { key: "string" }, ({ key }) => ({ value: `v-${String(key)}`, count: 2 }), { outputsToString: { source: "value", handler: fail("format failed") } })], raiseOnToolInvocationFailure: false },
  }),
  "multi-output-outputs-to-string": () => ({
    agent: {
      tools: [
        tool("search", { query: "string" }, () => ({ docs: [{ title: "Alpha" }, { title: "Bét" }], total: 2, debug: "hidden" }), {
          outputsToString: { docs: { source: "docs", handler: (docs: unknown) => (docs as Array<{ title: string }>).map((doc) => `- ${doc.title}`).join("\n") }, total: { source: "total" } },
        }),
      ],
    },
  }),
  "raw-result-parts": () => ({
    agent: {
      tools: [
        tool("screenshot", { url: "string" }, ({ url }) => [`shot of ${String(url)}`, pngFromFixture()], { outputsToString: { rawResult: true } }),
      ],
    },
  }),
  "raw-result-dict": () => ({ agent: { tools: [tool("lookup", { key: "string" }, ({ key }) => ({ value: `v-${String(key)}`, count: 2 }), { outputsToString: { rawResult: true } })] } }),
  "agent-user-prompt-message-block": () => ({
    agent: { userPrompt: promptTemplate('{% message role="user" %}Hello {{ name }}!{% endmessage %}'), systemPrompt: promptTemplate("You help {{ name }}.") },
    run: { promptVariables: { name: "Ada" } },
  }),
  "usage-summed-and-tool-call-counts": () => ({ agent: { tools: [search(), lookup()] } }),
  "model-argument-overrides-inputs-from-state": () => ({
    agent: {
      tools: [tool("lookup", { order: "string", user_id: "string" }, ({ order, user_id }) => `order ${String(order)} of ${String(user_id)}`, { inputsFromState: { user: "user_id" } })],
      stateSchema: { user: { type: z.string() } },
    },
    run: { user: "u-1" },
  }),
  "parameter-named-like-state-key": () => ({
    agent: {
      tools: [
        new Tool({ name: "lookup", description: "Look up an order.", parameters: { type: "object", properties: { order: { type: "string" }, user: { type: "string" } }, required: ["order"] }, function: ({ order, user }) => `order ${String(order)} of ${String(user ?? "nobody")}` }),
      ],
      stateSchema: { user: { type: z.string() } },
    },
    run: { user: "u-1" },
  }),
  "arguments-not-matching-schema": () => ({ agent: { tools: [tool("repeat", { word: "string", times: "integer" }, ({ word, times }) => Array(Number(times)).fill(word).join(" "))] } }),
  "tool-error-with-injected-value": () => ({
    agent: { tools: [tool("charge", { amount: "integer", card_number: "string" }, fail("card declined"), { inputsFromState: { card: "card_number" } })], stateSchema: { card: { type: z.string() } } },
    run: { card: "4111-1111-1111-1111" },
  }),
  "state-value-of-another-type": () => ({
    agent: { tools: [tool("count", {}, () => ({ total: 3 }), { outputsToState: { label: { source: "total" } } })], stateSchema: { label: { type: z.string() } } },
    run: { label: "none yet" },
  }),
  "outputs-to-state-without-source-non-dict-result": () => ({
    agent: { tools: [new Tool({ name: "list_items", description: "List items.", parameters: { type: "object", properties: {} }, function: () => ["a", "b"], outputsToState: { items: {} } })], stateSchema: { items: { type: z.array(z.string()) } } },
    run: { items: ["start"] },
  }),
};

// The screenshot tool's image: the very PNG the recorder's tool returned.
function pngFromFixture() {
  const [, image] = haystackToolResults(haystackFixture("main", "raw-result-parts"))[0]!.result as [unknown, { image: Record<string, unknown> }];
  return ChatMessage.fromJSON({ role: "user", meta: {}, name: null, content: [{ image: image.image }] }).images[0]!;
}

/** What toolwright did with a scenario's script: the result, or the error, and the model's requests. */
async function runToolwright(scenario: AgentScenario) {
  const fixture = haystackFixture("main", scenario);
  const { agent: options, run } = counterparts[scenario]();
  const chatGenerator = new ScriptedChatGenerator(fixture.script.map((entry) => entry.map((dict) => ChatMessage.fromJSON(dict))));
  const messages = fixture.input.messages.map((dict) => ChatMessage.fromJSON(dict));
  const agent = new Agent({ chatGenerator, ...options } as ConstructorParameters<typeof Agent>[0]);
  const outcome = await agent.run({ ...(messages.length > 0 && { messages }), ...run } as Parameters<typeof agent.run>[0]).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { fixture, ...outcome, modelCalls: chatGenerator.requests.length };
}

/** Scenarios where toolwright does what Haystack main did, transcript and all. */
const matched: AgentScenario[] = [
  "exit-tool-succeeds-other-exit-tool-fails",
  "tools-empty-reply",
  "whitespace-only-reply",
  "exit-condition-names-run-time-tool",
  "read-after-write-reader-requested-first",
  "unknown-tool-error-position",
  "multi-output-outputs-to-string",
  "raw-result-parts",
  "agent-user-prompt-message-block",
  "usage-summed-and-tool-call-counts",
  "parameter-named-like-state-key",
];

describe("toolwright's Agent against Haystack main's, on the recorded scenarios", () => {
  it.each(matched)("%s: the same transcript, exit reason, step count and model calls", async (scenario) => {
    const { fixture, result, error, modelCalls } = await runToolwright(scenario);

    expect(error).toBeUndefined();
    expect(ours(result!.messages)).toStrictEqual(turns(fixture.result!.messages));
    expect([result!.exitReason, result!.stepCount, modelCalls]).toStrictEqual([fixture.result!.exit_reason, fixture.result!.step_count, fixture.model_calls]);
  });

  it("read-after-write: the reader sees the writer's value and State ends with it", async () => {
    const { fixture, result } = await runToolwright("read-after-write-reader-requested-first");

    expect(fixture.result!.note).toBe("new");
    expect((result as Record<string, unknown>).note).toBe(fixture.result!.note);
  });

  it("usage: the same token sums and the same count per called tool", async () => {
    const { fixture, result } = await runToolwright("usage-summed-and-tool-call-counts");
    const { prompt_tokens, completion_tokens, total_tokens } = fixture.result!.token_usage!;

    expect([result!.usage.inputTokens, result!.usage.outputTokens, result!.usage.totalTokens]).toStrictEqual([prompt_tokens, completion_tokens, total_tokens]);
    // Item 13: Haystack lists every tool, called or not (lookup: 0); toolwright only the called ones.
    expect(fixture.result!.tool_call_counts).toStrictEqual({ search: 3, lookup: 0 });
    expect(result!.usage.toolCallsByName).toStrictEqual({ search: 3 });
  });

  it("unknown tool: the invented name is counted, as Haystack counts it", async () => {
    const { fixture, result } = await runToolwright("unknown-tool-error-position");

    expect(fixture.result!.tool_call_counts).toStrictEqual({ search: 1, lookup: 1, nope: 1 });
    expect(result!.usage.toolCallsByName).toStrictEqual({ search: 1, lookup: 1, nope: 1 });
    expect(result!.messages[2]!.toolCallResult!.result).toBe("Tool 'nope' not found. Available tools: search, lookup.");
  });

  it("no tools and an empty reply: the run ends after one model call", async () => {
    const { fixture, result, modelCalls } = await runToolwright("no-tools-empty-reply");

    expect([fixture.model_calls, fixture.result!.exit_reason, fixture.result!.step_count]).toStrictEqual([1, "text", 1]);
    expect([modelCalls, result!.exitReason, result!.stepCount]).toStrictEqual([1, "text", 1]);
    expect(ours(result!.messages)).toStrictEqual(turns(fixture.result!.messages));
  });

  it("a merge handler that throws fails the run, with raiseOnToolInvocationFailure false, after one model call", async () => {
    for (const scenario of ["schema-merge-handler-throws", "outputs-to-state-handler-throws"] as const) {
      const { fixture, error, modelCalls } = await runToolwright(scenario);

      expect([fixture.run_error?.class, fixture.run_error?.message, fixture.model_calls]).toStrictEqual(["RuntimeError", "Tool 'add_item': failed to merge outputs into state. merge failed", 1]);
      expect(error).toBeInstanceOf(StateMergeError);
      expect((error as Error).message).toBe("Tool 'add_item' ran, but its output could not be merged into state key 'items': merge failed.");
      expect(modelCalls).toBe(1);
    }
  });
});

describe("where toolwright differs from Haystack main on purpose (docs/haystack.md, Differences from Haystack)", () => {
  it("item 16: an outputsToString handler that throws is an error for the model, where Haystack sends the default text", async () => {
    const { fixture, result } = await runToolwright("outputs-to-string-handler-throws");

    expect(haystackToolResults(fixture)).toStrictEqual([{ result: "v-k", origin: expect.objectContaining({ tool_name: "lookup" }) as unknown, error: false }]);
    expect(result!.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'lookup' ran, but its result could not be turned into text: format failed.", error: true });
    expect([result!.exitReason, result!.stepCount]).toStrictEqual([fixture.result!.exit_reason, fixture.result!.step_count]);
  });

  it("item 14: rawResult with an object is an error for the model, where Haystack keeps the dict in the tool message", async () => {
    const { fixture, result } = await runToolwright("raw-result-dict");

    expect(haystackToolResults(fixture)[0]!.result).toStrictEqual({ value: "v-k", count: 2 });
    expect(result!.messages[2]!.toolCallResult).toMatchObject({
      result: "Tool 'lookup' ran, but its result could not be turned into text: outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got an object; drop rawResult to send JSON.",
      error: true,
    });
    expect([result!.exitReason, result!.stepCount]).toStrictEqual([fixture.result!.exit_reason, fixture.result!.step_count]);
  });

  it("item 19: a Tool's inputsFromState names a parameter of its schema, where Haystack also reads the function's signature", () => {
    const haystackForm = () => new Tool({ name: "read_note", description: "Read the note.", parameters: { type: "object", properties: {} }, function: ({ note }) => `note is ${String(note)}`, inputsFromState: { note: "note" } });

    expect(haystackFixture("main", "read-after-write-reader-requested-first").result!.messages[2]!.content).toMatchObject([{ tool_call_result: { result: "note is new" } }]);
    expect(haystackForm).toThrow("Tool 'read_note' fills 'note' from state, but 'note' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: none.");
  });

  it("item 12: outputsToState without source writes a list result, where Haystack writes nothing for a non-dict", async () => {
    const { fixture, result, error } = await runToolwright("outputs-to-state-without-source-non-dict-result");
    expect(error).toBeUndefined();

    expect(fixture.result!.items).toStrictEqual(["start"]);
    expect((result as Record<string, unknown>).items).toStrictEqual(["start", "a", "b"]);
    expect(ours(result!.messages)).toStrictEqual(turns(fixture.result!.messages));
  });
});

describe("the older Differences from Haystack (items 1-5), stated from what both Haystack versions did", () => {
  const results = (scenario: AgentScenario) => haystackVersions.map((version) => haystackToolResults(haystackFixture(version, scenario))[0]!);

  it("item 1: the model cannot send a value for an inputsFromState parameter (it is told, and the tool does not run); Haystack lets the model's value win", async () => {
    const { result, error } = await runToolwright("model-argument-overrides-inputs-from-state");

    expect(results("model-argument-overrides-inputs-from-state").map((r) => r.result)).toStrictEqual(["order o-1 of someone-else", "order o-1 of someone-else"]);
    expect(error).toBeUndefined();
    expect(result!.messages[2]!.toolCallResult).toMatchObject({
      result: "Tool 'lookup' was called with invalid arguments: user_id is not a parameter of this tool (parameters: order). Call the tool again with corrected arguments.",
      error: true,
    });
  });

  it("item 2: a parameter named like a state key is not filled from it, as in Haystack main; 2.31 filled it", async () => {
    const { result } = await runToolwright("parameter-named-like-state-key");

    expect(results("parameter-named-like-state-key").map((r) => r.result)).toStrictEqual(["order o-1 of nobody", "order o-1 of u-1"]);
    expect(result!.messages[2]!.toolCallResult!.result).toBe("order o-1 of nobody");
  });

  it("item 3: arguments that do not match the schema are answered with what is wrong; Haystack calls the function with them", async () => {
    const { result } = await runToolwright("arguments-not-matching-schema");

    // The recorded function reports the type it got and falls back to its defaults for what is missing.
    expect(results("arguments-not-matching-schema").map((r) => [r.result, r.error])).toStrictEqual([["str: ? ?", false], ["str: ? ?", false]]);
    expect(result!.messages[2]!.toolCallResult).toMatchObject({
      result: 'Tool \'repeat\' was called with invalid arguments: word is required; times must be integer (got string "2"). Call the tool again with corrected arguments.',
      error: true,
    });
  });

  it("item 4: the model's error message never holds an injected value; Haystack's lists every parameter, the card number too", async () => {
    const { result } = await runToolwright("tool-error-with-injected-value");

    for (const haystack of results("tool-error-with-injected-value")) {
      expect(haystack).toMatchObject({ result: "Failed to invoke Tool `charge` with parameters {'amount': 5, 'card_number': '4111-1111-1111-1111'}. Error: card declined", error: true });
    }
    expect(result!.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'charge' failed: card declined.", error: true });
    expect(JSON.stringify(result!.messages.map((message) => message.toJSON()))).not.toContain("4111");
  });

  it("item 5: a value of another type is refused on write, and an unknown initial key is an error; Haystack stores both", async () => {
    const { result } = await runToolwright("state-value-of-another-type");
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), stateSchema: { label: { type: z.string() } } });

    for (const version of haystackVersions) {
      const fixture = haystackFixture(version, "state-value-of-another-type");
      expect([fixture.result!.label, fixture.unknown_initial_key]).toStrictEqual([3, "accepted"]);
    }
    expect((result as Record<string, unknown>).label).toBe("none yet");
    expect(result!.messages[2]!.toolCallResult).toMatchObject({
      result: "Tool 'count' ran, but its output could not be merged into state key 'label': State key 'label' rejected a value that does not match its type: label: Invalid input: expected string, received number. The value was not stored.",
      error: true,
    });
    await expect(agent.run({ messages: [ChatMessage.fromUser("go")], unknown: 1 } as never)).rejects.toThrow("State key 'unknown' is not in the state schema. Declare it in stateSchema or use a known key. Known keys: label, messages.");
  });
});

describe("Haystack v2.31.0, where it differs from main (recorded, for users coming from 2.x)", () => {
  it("refused an exit condition naming a run-time tool at construction; main (and toolwright) run it", () => {
    const fixture = haystackFixture("v2.31.0", "exit-condition-names-run-time-tool");

    expect(fixture.construction_error?.message).toMatch(/^Invalid exit conditions provided: \['finish'\]\. Valid exit conditions must be a subset of \['text', 'search'\]/);
  });

  it("ran a reader requested before its writer on the old value; main (and toolwright) run the writer first", () => {
    const [read] = haystackToolResults(haystackFixture("v2.31.0", "read-after-write-reader-requested-first"));

    expect(read!.result).toBe("note is old");
  });

  it("answered a throwing merge handler to the model; main (and toolwright) fail the run", () => {
    const [merge] = haystackToolResults(haystackFixture("v2.31.0", "schema-merge-handler-throws"));

    expect(merge).toMatchObject({ result: "Failed to merge tool outputs from tool add_item into State: merge failed", error: true });
  });
});
