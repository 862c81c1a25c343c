import { z } from "zod";
import { Agent, ChatMessage, ConfigurationError, type JsonSchema, StateMergeError, Tool, type ToolErrorEvent, ToolResultConversionError, type RunEndEvent } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";

// The run semantics of issue #33, each matched to Haystack main (3.2.0-rc0) or kept deliberately
// (docs/haystack.md "Differences from Haystack"). Haystack's sources:
// haystack/components/agents/agent.py and haystack/components/agents/tool_calling.py, and its tests
// in test/components/agents/test_agent.py.

function objectSchema(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties) };
}

function answerTool(name: string, fn: (args: Record<string, unknown>) => unknown = ({ answer }) => `${name}: ${String(answer)}`): Tool {
  return new Tool({ name, description: `Ends with ${name}.`, parameters: objectSchema({ answer: { type: "string" } }), function: fn });
}

function user(text: string): ChatMessage {
  return ChatMessage.fromUser(text);
}

function scripted(...entries: ConstructorParameters<typeof ScriptedChatGenerator>[0]): ScriptedChatGenerator {
  return new ScriptedChatGenerator(entries);
}

describe("Agent (Haystack main's run semantics)", () => {
  describe("exit conditions", () => {
    // Haystack: Agent._check_exit_conditions ("An errored exit-condition tool cancels the exit, even if another
    // exit-condition tool succeeded"); test_check_exit_conditions_errored_exit_tool_cancels_a_succeeding_one.
    it("does not exit when another exit-condition tool of the step fails, and calls the model again with the error", async () => {
      const broken = answerTool("escalate", () => {
        throw new Error("no one on call");
      });
      const model = scripted(toolCallReply(["finish", { answer: "42" }, "c1"], ["escalate", { answer: "help" }, "c2"]), ChatMessage.fromAssistant("Sorry."));

      const result = await new Agent({ chatGenerator: model, tools: [answerTool("finish"), broken], exitConditions: ["finish", "escalate"] }).run({ messages: [user("hi")] });

      expect(model.requests).toHaveLength(2);
      expect(model.requests[1]!.messages.map((m) => m.toolCallResult?.result)).toEqual([undefined, undefined, "finish: 42", "Tool 'escalate' failed: no one on call."]);
      expect(result.exitReason).toBe("text");
      expect(result.stepCount).toBe(2);
    });

    // Haystack: the first exit-condition tool called (in the model's order) names the exit reason.
    it("exits with the first exit-condition tool the model called when all of them succeed", async () => {
      const model = scripted(toolCallReply(["escalate", { answer: "a" }, "c1"], ["finish", { answer: "b" }, "c2"]));

      const result = await new Agent({ chatGenerator: model, tools: [answerTool("finish"), answerTool("escalate")], exitConditions: ["finish", "escalate"] }).run({ messages: [user("hi")] });

      expect(result.exitReason).toBe("escalate");
    });

    // Haystack main allows an exit condition naming a tool given only to a run (Agent.__init__ does not check the
    // names; _select_tools takes run-time tools). toolwright does the same at construction and checks at run start.
    it("accepts an exit condition naming a tool given only to a run, and ends on it", async () => {
      const model = scripted(toolCallReply(["finish", { answer: "42" }, "c1"]));
      const agent = new Agent({ chatGenerator: model, tools: [answerTool("search")], exitConditions: ["finish"] });

      const result = await agent.run({ messages: [user("hi")], tools: [answerTool("finish")] });

      expect(result.exitReason).toBe("finish");
    });

    // A deliberate difference (docs/haystack.md): Haystack never checks, so a misspelt name never ends a run.
    it("refuses at agent.run an exit condition naming none of the run's tools", async () => {
      const agent = new Agent({ chatGenerator: scripted(), tools: [answerTool("search"), answerTool("finish")], exitConditions: ["text", "finsh"] });

      await expect(agent.run({ messages: [user("hi")] })).rejects.toThrow(
        new ConfigurationError("Agent.run", `Agent has exit condition 'finsh', which names none of this run's tools (search, finish); give the run that tool (new Agent({ tools }) or agent.run({ tools })) or correct the condition.`),
      );
      await expect(agent.run({ messages: [user("hi")], tools: ["search"] })).rejects.toThrow(
        new ConfigurationError("Agent.run", `Agent has exit condition 'finsh', which names none of this run's tools (search); give the run that tool (new Agent({ tools }) or agent.run({ tools })) or correct the condition.`),
      );
    });
  });

  describe("replies without tool calls", () => {
    // Haystack: _is_text_exit needs bool(last.text), so " " is text and ends the run.
    it("ends on a reply whose text is only whitespace", async () => {
      const model = scripted(ChatMessage.fromAssistant("  "));

      const result = await new Agent({ chatGenerator: model, tools: [answerTool("search")] }).run({ messages: [user("hi")] });

      expect([result.exitReason, result.stepCount, model.requests.length]).toEqual(["text", 1, 1]);
    });

    // Haystack: _is_text_exit is False for "" and for a reply with no text part (an invalid response); no tools run,
    // and the loop calls the model again.
    it("calls the model again after an empty reply or one with only reasoning", async () => {
      const reasoning = ChatMessage.fromAssistant(undefined, { reasoning: { text: "thinking", extra: {} } });
      const model = scripted(ChatMessage.fromAssistant(""), reasoning, ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [answerTool("search")] }).run({ messages: [user("hi")] });

      expect([result.exitReason, result.stepCount, result.lastMessage.text]).toEqual(["text", 3, "Done."]);
    });

    // Haystack: `if not current_tools or _is_text_exit(...)`: an Agent without tools ends on its first reply.
    it("ends on any reply when the run has no tools", async () => {
      const model = scripted(ChatMessage.fromAssistant(""));

      const result = await new Agent({ chatGenerator: model }).run({ messages: [user("hi")] });

      expect([result.exitReason, result.stepCount]).toEqual(["text", 1]);
    });
  });

  describe("one step's calls", () => {
    const schema = { customer_id: { type: z.string() } };

    // Haystack: _schedule_tool_calls runs a call that reads a key (inputs_from_state) in a later batch than every
    // call that writes it (outputs_to_state), whatever order the model asked for; the tool messages keep the model's
    // order (results indexed by call position in _run_tool).
    it("runs a writer before a reader the model called first, and answers in the model's order", async () => {
      const login = new Tool({ name: "login", description: "Logs in.", parameters: objectSchema({}), function: () => ({ customerId: "c-new" }), outputsToState: { customer_id: { source: "customerId" } } });
      const lookup = new Tool({
        name: "lookup",
        description: "Looks the customer up.",
        parameters: { type: "object", properties: { customerId: { type: "string" } } },
        function: ({ customerId }) => `customer ${String(customerId)}`,
        inputsFromState: { customer_id: "customerId" },
      });
      const model = scripted(toolCallReply(["lookup", {}, "c1"], ["login", {}, "c2"]), ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [login, lookup], stateSchema: schema }).run({ messages: [user("hi")], customer_id: "c-old" });

      expect(result.messages.slice(2, 4).map((m) => [m.toolCallResult!.origin.toolName, m.toolCallResult!.result])).toEqual([
        ["lookup", "customer c-new"],
        ["login", '{"customerId":"c-new"}'],
      ]);
    });

    // Haystack: _run_tool returns `error_messages + results`: every unknown-tool error first (in call order among
    // themselves), then the other calls in call order; a tool's own failure keeps its place.
    it("puts the unknown-tool errors first, then the other calls in the model's order", async () => {
      const broken = answerTool("broken", () => {
        throw new Error("down");
      });
      const model = scripted(toolCallReply(["search", { answer: "a" }, "c1"], ["ghost", {}, "c2"], ["broken", { answer: "b" }, "c3"], ["phantom", {}, "c4"]), ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [answerTool("search"), broken] }).run({ messages: [user("hi")] });

      expect(result.messages.slice(2, 6).map((m) => [m.toolCallResult!.origin.id, m.toolCallResult!.result])).toEqual([
        ["c2", "Tool 'ghost' not found. Available tools: search, broken."],
        ["c4", "Tool 'phantom' not found. Available tools: search, broken."],
        ["c1", "search: a"],
        ["c3", "Tool 'broken' failed: down."],
      ]);
    });
  });

  describe("handlers that throw", () => {
    const schema = { notes: { type: z.array(z.string()) } };

    // Haystack: _merge_tool_outputs_into_state raises (RuntimeError) whatever raise_on_tool_invocation_failure says:
    // a developer's bug reaches the developer. toolwright fails the run with StateMergeError, tells onToolError, and
    // ends the run's events with the error.
    it("fails the run when an outputsToState handler throws, without raiseOnToolInvocationFailure", async () => {
      const events: { toolErrors: ToolErrorEvent[]; ends: RunEndEvent[] } = { toolErrors: [], ends: [] };
      const note = new Tool({
        name: "note",
        description: "Takes a note.",
        parameters: objectSchema({}),
        function: () => ({ note: "x" }),
        outputsToState: {
          notes: {
            source: "note",
            handler: () => {
              throw new Error("the notes store is read-only");
            },
          },
        },
      });
      const model = scripted(toolCallReply(["note", {}, "c1"]), ChatMessage.fromAssistant("never"));
      const agent = new Agent({
        chatGenerator: model,
        tools: [note],
        stateSchema: schema,
        raiseOnToolInvocationFailure: false,
        hooks: { onToolError: (event) => void events.toolErrors.push(event), onRunEnd: (event) => void events.ends.push(event) },
      });

      const error = await agent.run({ messages: [user("hi")] }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

      expect(error).toBeInstanceOf(StateMergeError);
      expect((error as Error).message).toBe("Tool 'note' ran, but its output could not be merged into state key 'notes': the notes store is read-only.");
      expect(model.requests).toHaveLength(1);
      expect(events.toolErrors.map((event) => [event.toolName, "kind" in event ? event.kind : undefined, "stateKey" in event ? event.stateKey : undefined])).toEqual([["note", "outputsToState", "notes"]]);
      expect(events.ends.map((event) => [event.exitReason, event.error?.type])).toEqual([[undefined, "StateMergeError"]]);
    });

    // Haystack: _process_tool_output logs a warning and falls back to _result_to_string (the default text) when an
    // outputs_to_string handler raises and raise_on_failure is False. toolwright deliberately keeps the error (a
    // silent fallback hides a developer's bug): the model gets the error, and with raiseOnToolInvocationFailure the run
    // fails (as in Haystack).
    it("sends the model an error where Haystack falls back to the default text when an outputsToString handler throws", async () => {
      const summary = new Tool({
        name: "summary",
        description: "Summarises.",
        parameters: objectSchema({}),
        function: () => ({ total: 2 }),
        outputsToString: {
          handler: () => {
            throw new Error("no template");
          },
        },
      });
      const model = scripted(toolCallReply(["summary", {}, "c1"]), ChatMessage.fromAssistant("Done."));

      const result = await new Agent({ chatGenerator: model, tools: [summary] }).run({ messages: [user("hi")] });

      const haystackFallback = '{"total": 2}';
      expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'summary' ran, but its result could not be turned into text: no template.", error: true });
      expect(result.messages[2]!.toolCallResult!.result).not.toBe(haystackFallback);

      const raising = new Agent({ chatGenerator: scripted(toolCallReply(["summary", {}, "c1"])), tools: [summary], raiseOnToolInvocationFailure: true });
      await expect(raising.run({ messages: [user("hi")] })).rejects.toThrow(ToolResultConversionError);
    });
  });
});
