import { ChatMessage, type ChatMessageJSON, ConfigurationError, type ToolCall } from "toolwright";

const searchCall: ToolCall = { id: "call_1", toolName: "search", arguments: { query: "refund", filter: { tags: ["open"] } } };

describe("ChatMessage", () => {
  describe("factories and getters", () => {
    it("builds a user message with one text part and no tool parts", () => {
      const message = ChatMessage.fromUser("Find my tickets");

      expect(message.role).toBe("user");
      expect(message.text).toBe("Find my tickets");
      expect(message.toolCalls).toEqual([]);
      expect(message.toolCall).toBeUndefined();
      expect(message.toolCallResults).toEqual([]);
      expect(message.toolCallResult).toBeUndefined();
      expect(message.meta).toEqual({});
      expect(message.name).toBeUndefined();
    });

    it("builds a system message", () => {
      const message = ChatMessage.fromSystem("You are terse.");

      expect(message.role).toBe("system");
      expect(message.text).toBe("You are terse.");
    });

    it("keeps the meta and name options", () => {
      const message = ChatMessage.fromUser("hi", { meta: { source: "web" }, name: "alice" });

      expect(message.meta).toEqual({ source: "web" });
      expect(message.name).toBe("alice");
    });

    it("builds an assistant message with text, tool calls, meta and name", () => {
      const second: ToolCall = { id: "call_2", toolName: "close_ticket", arguments: { ticketId: "t-1" } };
      const message = ChatMessage.fromAssistant("Looking.", { toolCalls: [searchCall, second], meta: { model: "m" }, name: "bot" });

      expect(message.role).toBe("assistant");
      expect(message.text).toBe("Looking.");
      expect(message.toolCalls).toEqual([searchCall, second]);
      expect(message.toolCall).toEqual(searchCall);
      expect(message.toolCallResults).toEqual([]);
      expect(message.meta).toEqual({ model: "m" });
      expect(message.name).toBe("bot");
    });

    it("builds an assistant message without text when text is undefined", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall] });

      expect(message.text).toBeUndefined();
      expect(message.content).toEqual([{ type: "toolCall", toolCall: searchCall }]);
    });

    it("builds an empty assistant message when given nothing", () => {
      const message = ChatMessage.fromAssistant();

      expect(message.role).toBe("assistant");
      expect(message.content).toEqual([]);
      expect(message.text).toBeUndefined();
      expect(message.toolCalls).toEqual([]);
    });

    it("keeps an empty string as a text part", () => {
      expect(ChatMessage.fromAssistant("").text).toBe("");
    });

    it("leaves out the id of a tool call that has none", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [{ toolName: "search", arguments: {} }] });

      expect(message.toolCall).toEqual({ toolName: "search", arguments: {} });
      expect(Object.keys(message.toolCall!)).toEqual(["toolName", "arguments"]);
    });

    it("builds a tool message whose result points at its call", () => {
      const message = ChatMessage.fromTool("3 tickets", searchCall);

      expect(message.role).toBe("tool");
      expect(message.text).toBeUndefined();
      expect(message.toolCalls).toEqual([]);
      expect(message.toolCallResult).toEqual({ result: "3 tickets", origin: searchCall, error: false });
      expect(message.toolCallResults).toEqual([{ result: "3 tickets", origin: searchCall, error: false }]);
    });

    it("marks a tool message as an error when asked", () => {
      const message = ChatMessage.fromTool("Tool 'search' failed: down.", searchCall, { error: true });

      expect(message.toolCallResult?.error).toBe(true);
    });

    it("returns the first text part from text", () => {
      const message = ChatMessage.fromJSON({ role: "assistant", meta: {}, name: null, content: [{ text: "first" }, { text: "second" }] });

      expect(message.text).toBe("first");
    });
  });

  describe("immutability", () => {
    it("freezes the message, its content, its tool calls and its meta", () => {
      const message = ChatMessage.fromAssistant("x", { toolCalls: [searchCall], meta: { usage: { totalTokens: 3 } } });

      expect(Object.isFrozen(message)).toBe(true);
      expect(Object.isFrozen(message.content)).toBe(true);
      expect(Object.isFrozen(message.content[0])).toBe(true);
      expect(Object.isFrozen(message.toolCall)).toBe(true);
      expect(Object.isFrozen(message.meta)).toBe(true);
      expect(Object.isFrozen(message.meta.usage)).toBe(true);
      expect(() => {
        (message as { role: string }).role = "user";
      }).toThrow(TypeError);
    });

    it("deep-freezes tool call arguments", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall] });
      const args = message.toolCall!.arguments as { filter: { tags: string[] } };

      expect(Object.isFrozen(args)).toBe(true);
      expect(Object.isFrozen(args.filter)).toBe(true);
      expect(Object.isFrozen(args.filter.tags)).toBe(true);
      expect(() => args.filter.tags.push("closed")).toThrow(TypeError);
    });

    it("deep-freezes the origin of a tool result", () => {
      const message = ChatMessage.fromTool("ok", searchCall);
      const origin = message.toolCallResult!.origin;

      expect(Object.isFrozen(message.toolCallResult)).toBe(true);
      expect(Object.isFrozen(origin)).toBe(true);
      expect(Object.isFrozen((origin.arguments as { filter: object }).filter)).toBe(true);
    });

    it("does not let the caller's later changes to arguments, meta or the call list leak in", () => {
      const args = { query: "refund", filter: { tags: ["open"] } };
      const meta = { usage: { totalTokens: 3 } };
      const toolCalls: ToolCall[] = [{ id: "call_1", toolName: "search", arguments: args }];
      const message = ChatMessage.fromAssistant(undefined, { toolCalls, meta });

      args.query = "changed";
      args.filter.tags.push("closed");
      meta.usage.totalTokens = 99;
      toolCalls.push({ toolName: "other", arguments: {} });

      expect(message.toolCalls).toEqual([{ id: "call_1", toolName: "search", arguments: { query: "refund", filter: { tags: ["open"] } } }]);
      expect(message.meta).toEqual({ usage: { totalTokens: 3 } });
    });

    it("does not let changes leak in through a tool call that is frozen only at the top level", () => {
      const args = { filter: { tags: ["open"] } };
      const call: ToolCall = Object.freeze({ id: "call_1", toolName: "search", arguments: args });
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [call] });
      const result = ChatMessage.fromTool("ok", call);

      args.filter.tags.push("closed");

      expect(message.toolCall!.arguments).toEqual({ filter: { tags: ["open"] } });
      expect(result.toolCallResult!.origin.arguments).toEqual({ filter: { tags: ["open"] } });
      expect(Object.isFrozen((message.toolCall!.arguments as typeof args).filter)).toBe(true);
    });

    it("does not let changes leak in through meta that is frozen only at the top level", () => {
      const usage = { totalTokens: 3 };
      const message = ChatMessage.fromAssistant("x", { meta: Object.freeze({ usage }) });

      usage.totalTokens = 99;

      expect(message.meta).toEqual({ usage: { totalTokens: 3 } });
    });

    it("never freezes the caller's own objects", () => {
      class ProviderResponse {
        id = "r-1";
      }
      const raw = new ProviderResponse();
      const meta = { usage: { totalTokens: 3 }, raw };
      const args = { filter: { tags: ["open"] } };
      ChatMessage.fromAssistant("x", { meta, toolCalls: [{ toolName: "search", arguments: args }] });

      expect(Object.isFrozen(meta)).toBe(false);
      expect(Object.isFrozen(meta.usage)).toBe(false);
      expect(Object.isFrozen(raw)).toBe(false);
      expect(Object.isFrozen(args.filter.tags)).toBe(false);
    });

    it("shares a tool call that is already deeply frozen instead of copying it", () => {
      const reply = ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall] });
      const result = ChatMessage.fromTool("ok", reply.toolCall!);

      expect(result.toolCallResult!.origin).toBe(reply.toolCall);
    });

    it("returns a new toolCalls array on each read, so changing it changes nothing", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall] });

      message.toolCalls.push({ toolName: "other", arguments: {} });
      message.toolCallResults.push({ result: "x", origin: searchCall, error: false });

      expect(message.toolCalls).toHaveLength(1);
      expect(message.toolCallResults).toHaveLength(0);
    });
  });

  describe("toJSON", () => {
    it("produces Haystack's dict shape for a user message", () => {
      expect(ChatMessage.fromUser("hi").toJSON()).toEqual({ role: "user", meta: {}, name: null, content: [{ text: "hi" }] });
    });

    it("produces Haystack's dict shape for an assistant message with text and tool calls", () => {
      const message = ChatMessage.fromAssistant("Looking.", {
        toolCalls: [searchCall, { toolName: "noop", arguments: {} }],
        meta: { model: "gpt", finish_reason: "tool_calls" },
        name: "bot",
      });

      expect(message.toJSON()).toStrictEqual({
        role: "assistant",
        meta: { model: "gpt", finish_reason: "tool_calls" },
        name: "bot",
        content: [
          { text: "Looking." },
          { tool_call: { tool_name: "search", arguments: { query: "refund", filter: { tags: ["open"] } }, id: "call_1" } },
          { tool_call: { tool_name: "noop", arguments: {}, id: null } },
        ],
      });
    });

    it("produces Haystack's dict shape for a tool message", () => {
      const message = ChatMessage.fromTool("Tool 'search' failed: down.", searchCall, { error: true });

      expect(message.toJSON()).toStrictEqual({
        role: "tool",
        meta: {},
        name: null,
        content: [
          {
            tool_call_result: {
              result: "Tool 'search' failed: down.",
              origin: { tool_name: "search", arguments: { query: "refund", filter: { tags: ["open"] } }, id: "call_1" },
              error: true,
            },
          },
        ],
      });
    });

    it("keeps raw-string arguments as text in extra, with arguments: {} (test/chat/haystackMessageForms.test.ts has the rest)", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c", toolName: "search", arguments: '{"query": "re' }] });

      expect(message.toJSON().content).toEqual([{ tool_call: { tool_name: "search", arguments: {}, id: "c", extra: { toolwright_raw_arguments: '{"query": "re' } } }]);
    });

    it("returns unfrozen copies the caller may change", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall], meta: { usage: { totalTokens: 3 } } });
      const json = message.toJSON();
      const part = json.content[0] as unknown as { tool_call: { arguments: { query: string } } };

      part.tool_call.arguments.query = "changed";
      (json.meta.usage as { totalTokens: number }).totalTokens = 99;

      expect(message.toolCall!.arguments).toEqual(searchCall.arguments);
      expect(message.meta).toEqual({ usage: { totalTokens: 3 } });
    });

    it("is what JSON.stringify uses", () => {
      const message = ChatMessage.fromUser("hi", { name: "alice" });

      expect(JSON.parse(JSON.stringify(message))).toEqual({ role: "user", meta: {}, name: "alice", content: [{ text: "hi" }] });
    });
  });

  describe("fromJSON", () => {
    const messages = [
      ChatMessage.fromSystem("Be brief."),
      ChatMessage.fromUser("hi", { meta: { channel: "web" }, name: "alice" }),
      ChatMessage.fromAssistant("Looking.", { toolCalls: [searchCall, { toolName: "noop", arguments: {} }], meta: { usage: { totalTokens: 7 } } }),
      ChatMessage.fromTool("3 tickets", searchCall, { error: false }),
      ChatMessage.fromTool("Tool 'noop' failed: no.", { toolName: "noop", arguments: {} }, { error: true }),
      ChatMessage.fromAssistant(),
    ];

    it.each(messages.map((message) => [message.role, message]))("round-trips a %s message through toJSON and JSON text", (_role, message) => {
      const copy = ChatMessage.fromJSON(JSON.parse(JSON.stringify(message.toJSON())));

      expect(copy).toBeInstanceOf(ChatMessage);
      expect(copy).toEqual(message);
      expect(copy.toJSON()).toStrictEqual(message.toJSON());
      expect(Object.isFrozen(copy)).toBe(true);
    });

    it("accepts raw-string arguments and keeps them as a string", () => {
      const json: ChatMessageJSON = {
        role: "assistant",
        meta: {},
        name: null,
        content: [{ tool_call: { tool_name: "search", arguments: "{not json", id: "call_9" } }],
      };

      expect(ChatMessage.fromJSON(json).toolCall).toEqual({ id: "call_9", toolName: "search", arguments: "{not json" });
    });

    it("accepts a Haystack dict without meta and name, with a null tool call id", () => {
      const message = ChatMessage.fromJSON({ role: "assistant", content: [{ tool_call: { tool_name: "search", arguments: { query: "x" }, id: null } }] });

      expect(message.meta).toEqual({});
      expect(message.name).toBeUndefined();
      expect(message.toolCall).toEqual({ toolName: "search", arguments: { query: "x" } });
      expect("id" in message.toolCall!).toBe(false);
    });

    it("does not share the input's objects", () => {
      const json = { role: "assistant" as const, meta: { usage: { totalTokens: 1 } }, name: null, content: [{ tool_call: { tool_name: "search", arguments: { query: "x" }, id: "c" } }] };
      const message = ChatMessage.fromJSON(json);

      json.meta.usage.totalTokens = 2;
      json.content[0]!.tool_call.arguments.query = "y";

      expect(message.meta).toEqual({ usage: { totalTokens: 1 } });
      expect(message.toolCall!.arguments).toEqual({ query: "x" });
    });

    it.each([
      [null, "(root): Invalid input: expected object, received null"],
      [42, "(root): Invalid input: expected object, received number"],
      [{ role: "robot", content: [] }, 'role: Invalid option: expected one of "system"|"user"|"assistant"|"tool"'],
      [{ role: "user" }, "content: Invalid input: expected array, received undefined"],
      [{ role: "user", meta: [], content: [] }, "meta: Invalid input: expected an object"],
    ])("throws a TypeError naming the problem for %j", (input, problem) => {
      expect(() => ChatMessage.fromJSON(input)).toThrow(
        new TypeError(
          `ChatMessage.fromJSON received a value that is not a ChatMessage JSON object: ${problem}. Pass what ChatMessage.toJSON() produced ({ role, meta, name, content: [...] }).`,
        ),
      );
    });
  });
});

describe("ChatMessage reasoning", () => {
  const reasoning = { text: "The user wants lamps; search first.", extra: { type: "reasoning", id: "rs_1", encrypted_content: "gAAA…", summary: [{ type: "summary_text", text: "search first" }] } };

  it("stores reasoning before text and tool calls, and reads it back", () => {
    const message = ChatMessage.fromAssistant("Searching.", { reasoning, toolCalls: [{ id: "c1", toolName: "search", arguments: { q: "lamps" } }] });
    expect(message.content.map((part) => part.type)).toEqual(["reasoning", "text", "toolCall"]);
    expect(message.reasoning).toEqual(reasoning);
    expect(message.text).toBe("Searching.");
    expect(Object.isFrozen(message.reasoning!.extra)).toBe(true);
  });

  it("round-trips through Haystack's dict shape, with several parts", () => {
    const second = { text: "", extra: { signature: "sig" } };
    const message = ChatMessage.fromAssistant(undefined, { reasoning: [reasoning, second] });
    const json = message.toJSON();
    expect(json.content).toEqual([{ reasoning: { reasoning_text: reasoning.text, extra: reasoning.extra } }, { reasoning: { reasoning_text: "", extra: { signature: "sig" } } }]);
    expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(json)))).toEqual(message);
    // A Haystack dict without extra reads as an empty one.
    expect(ChatMessage.fromJSON({ role: "assistant", content: [{ reasoning: { reasoning_text: "hm" } }] }).reasoning).toEqual({ text: "hm", extra: {} });
  });

  it("refuses reasoning that is not { text, extra }", () => {
    expect(() => ChatMessage.fromAssistant("x", { reasoning: { text: 1 } as never })).toThrow("ChatMessage received reasoning that is not { text: string, extra: object }, got an object.");
    expect(() => ChatMessage.fromAssistant("x", { reasoning: { text: "t", extra: [] } as never })).toThrow("ChatMessage received reasoning that is not { text: string, extra: object }, got an object.");
  });
});

describe("ChatMessage tool call extra", () => {
  const signed: ToolCall = { id: "fc_1", toolName: "weather", arguments: { location: "Paris" }, extra: { provider: "google.generative-ai", providerMetadata: { google: { thoughtSignature: "EskgCsYg" } } } };

  it("keeps a tool call's extra, deep-frozen, and in the tool result's origin", () => {
    const reply = ChatMessage.fromAssistant(undefined, { toolCalls: [signed] });
    const result = ChatMessage.fromTool("Sunny.", reply.toolCall!);

    expect(reply.toolCall).toEqual(signed);
    expect(Object.isFrozen((reply.toolCall!.extra!.providerMetadata as Record<string, object>).google)).toBe(true);
    expect(result.toolCallResult!.origin.extra).toEqual(signed.extra);
  });

  it("writes extra in the JSON form only when there is one, and reads it back", () => {
    const message = ChatMessage.fromAssistant("Checking.", { toolCalls: [signed, { id: "fc_2", toolName: "time", arguments: {} }] });

    const json = message.toJSON();

    expect(json.content.slice(1)).toEqual([
      { tool_call: { tool_name: "weather", arguments: { location: "Paris" }, id: "fc_1", extra: { provider: "google.generative-ai", providerMetadata: { google: { thoughtSignature: "EskgCsYg" } } } } },
      { tool_call: { tool_name: "time", arguments: {}, id: "fc_2" } },
    ]);
    expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(json)))).toEqual(message);
  });

  it("reads Haystack's extra: null as no extra", () => {
    const message = ChatMessage.fromJSON({ role: "assistant", content: [{ tool_call: { tool_name: "search", arguments: {}, id: "c", extra: null } }] });

    expect(message.toolCall).toEqual({ id: "c", toolName: "search", arguments: {} });
    expect("extra" in message.toolCall!).toBe(false);
  });

  it("refuses an extra that is not an object", () => {
    expect(() => ChatMessage.fromAssistant(undefined, { toolCalls: [{ toolName: "search", arguments: {}, extra: "sig" as unknown as Record<string, unknown> }] })).toThrow(
      new ConfigurationError(
        "ChatMessage",
        "ChatMessage received a tool call that is not { id?: string, toolName: string, arguments: object or JSON text, extra?: object }, got an object.",
      ),
    );
  });
});
