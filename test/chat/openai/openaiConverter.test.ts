import { ChatMessage, ConfigurationError, type ToolCall, type ToolSpec } from "toolwright";
import { assistantReply, parseToolArguments, toOpenAIMessages, toOpenAITools, toUsage } from "../../../src/chat/openai/openaiConverter";
import { thrownBy } from "./openaiTestKit";

const weatherCall: ToolCall = { id: "call_w", toolName: "get_weather", arguments: { city: "Paris", units: { temp: "C" } } };
const timeCall: ToolCall = { id: "call_t", toolName: "get_time", arguments: { city: "Paris" } };

describe("toOpenAIMessages", () => {
  it("converts system and user messages, with their names", () => {
    expect(toOpenAIMessages([ChatMessage.fromSystem("Be brief."), ChatMessage.fromUser("Hi", { name: "alice" })])).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi", name: "alice" },
    ]);
  });

  it("converts an assistant message with text and several tool calls, arguments as JSON text", () => {
    const message = ChatMessage.fromAssistant("Checking.", { toolCalls: [weatherCall, timeCall] });

    expect(toOpenAIMessages([message])).toEqual([
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","units":{"temp":"C"}}' } },
          { id: "call_t", type: "function", function: { name: "get_time", arguments: '{"city":"Paris"}' } },
        ],
      },
    ]);
  });

  it("sends arguments kept as raw text back exactly as the model wrote them", () => {
    const message = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_1", toolName: "get_weather", arguments: '{"city": "Par' }] });

    expect(toOpenAIMessages([message])).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Par' } }] },
    ]);
  });

  it("converts an assistant message with text only, without a tool_calls key", () => {
    expect(toOpenAIMessages([ChatMessage.fromAssistant("Done.")])).toEqual([{ role: "assistant", content: "Done." }]);
  });

  it("converts each tool result to a tool message with its call's id", () => {
    const messages = [ChatMessage.fromTool("Sunny", weatherCall), ChatMessage.fromTool("Tool 'get_time' failed: down.", timeCall, { error: true })];

    expect(toOpenAIMessages(messages)).toEqual([
      { role: "tool", tool_call_id: "call_w", content: "Sunny" },
      { role: "tool", tool_call_id: "call_t", content: "Tool 'get_time' failed: down." },
    ]);
  });

  it("converts a tool message holding several results to one tool message per result", () => {
    const message = ChatMessage.fromJSON({
      role: "tool",
      meta: {},
      name: null,
      content: [
        { tool_call_result: { result: "Sunny", origin: { tool_name: "get_weather", arguments: {}, id: "call_w" }, error: false } },
        { tool_call_result: { result: "12:00", origin: { tool_name: "get_time", arguments: {}, id: "call_t" }, error: false } },
      ],
    });

    expect(toOpenAIMessages([message])).toEqual([
      { role: "tool", tool_call_id: "call_w", content: "Sunny" },
      { role: "tool", tool_call_id: "call_t", content: "12:00" },
    ]);
  });

  it("throws a ConfigurationError naming the message and call for a tool call without an id", () => {
    const message = ChatMessage.fromAssistant(undefined, { toolCalls: [weatherCall, { toolName: "get_time", arguments: {} }] });

    const error = thrownBy(() => toOpenAIMessages([ChatMessage.fromUser("Hi"), message]));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      "messages[1].toolCalls[1] is a call to 'get_time' without an id; the Chat Completions API pairs tool results with calls by id, so give every ToolCall an id.",
    );
  });

  it("throws a ConfigurationError naming the message for a tool result whose call has no id", () => {
    const message = ChatMessage.fromTool("Sunny", { toolName: "get_weather", arguments: {} });

    const error = thrownBy(() => toOpenAIMessages([ChatMessage.fromUser("Hi"), message]));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      "messages[1] is the result of a call to 'get_weather' without an id; the Chat Completions API pairs tool results with calls by id, so give every ToolCall an id.",
    );
  });
});

describe("toOpenAITools", () => {
  const strictSpec: ToolSpec = {
    name: "search",
    description: "Search documents.",
    parameters: { type: "object", properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer" } }, required: ["query"], additionalProperties: false },
    strict: true,
  };
  const looseSpec: ToolSpec = {
    name: "tag",
    description: "Tag a ticket.",
    parameters: { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } }, required: ["tags"] },
    strict: false,
  };

  it("sends strict-compatible tools in strict form with strict: true and the others as they are", () => {
    expect(toOpenAITools([strictSpec, looseSpec], true)).toEqual([
      {
        type: "function",
        function: {
          name: "search",
          description: "Search documents.",
          parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: ["integer", "null"] } }, required: ["query", "limit"], additionalProperties: false },
          strict: true,
        },
      },
      { type: "function", function: { name: "tag", description: "Tag a ticket.", parameters: looseSpec.parameters } },
    ]);
  });

  it("sends every tool as it is when strict is off", () => {
    expect(toOpenAITools([strictSpec, looseSpec], false)).toEqual([
      { type: "function", function: { name: "search", description: "Search documents.", parameters: strictSpec.parameters } },
      { type: "function", function: { name: "tag", description: "Tag a ticket.", parameters: looseSpec.parameters } },
    ]);
  });
});

describe("parseToolArguments", () => {
  it("parses a JSON object", () => {
    expect(parseToolArguments('{"city":"Paris","days":[1,2]}')).toEqual({ city: "Paris", days: [1, 2] });
  });

  it("keeps text that is not valid JSON as the raw string", () => {
    expect(parseToolArguments('{"city": "Par')).toBe('{"city": "Par');
  });

  it("reads empty or blank text as no arguments", () => {
    expect(parseToolArguments("")).toEqual({});
    expect(parseToolArguments("  ")).toEqual({});
  });

  it("keeps JSON that is not an object as the raw string", () => {
    expect(parseToolArguments('["Paris"]')).toBe('["Paris"]');
    expect(parseToolArguments("null")).toBe("null");
    expect(parseToolArguments("42")).toBe("42");
  });
});

describe("assistantReply", () => {
  const meta = { model: "m", index: 0, finishReason: "stop" };

  it("builds a text reply with its meta, leaving out meta fields without a value", () => {
    const reply = assistantReply({ content: "Hello.", refusal: null, toolCalls: [] }, { ...meta, usage: undefined });

    expect(reply).toEqual(ChatMessage.fromAssistant("Hello.", { meta: { model: "m", index: 0, finishReason: "stop" } }));
  });

  it("builds tool calls with parsed arguments and no text for empty content", () => {
    const reply = assistantReply(
      { content: "", refusal: null, toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }, { id: "call_2", name: "get_time", arguments: "{bad" }] },
      { ...meta, finishReason: "tool_calls" },
    );

    expect(reply).toEqual(
      ChatMessage.fromAssistant(undefined, {
        toolCalls: [
          { id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } },
          { id: "call_2", toolName: "get_time", arguments: "{bad" },
        ],
        meta: { model: "m", index: 0, finishReason: "tool_calls" },
      }),
    );
  });

  it("makes a refusal the text and records it in meta.refusal", () => {
    const reply = assistantReply({ content: null, refusal: "I can't help with that.", toolCalls: [] }, meta);

    expect(reply.text).toBe("I can't help with that.");
    expect(reply.meta).toEqual({ ...meta, refusal: "I can't help with that." });
  });

  it("makes a refusal the text when the content is empty", () => {
    expect(assistantReply({ content: "", refusal: "No.", toolCalls: [] }, meta).text).toBe("No.");
  });

  it("gives no text part for empty content, as a stream that sent no text does", () => {
    expect(assistantReply({ content: "", refusal: null, toolCalls: [] }, meta)).toEqual(assistantReply({ content: null, refusal: null, toolCalls: [] }, meta));
  });
});

describe("toUsage", () => {
  it("converts the SDK's usage to token counts", () => {
    expect(toUsage({ prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 })).toEqual({ promptTokens: 12, completionTokens: 7, totalTokens: 19 });
  });

  it("gives undefined for a missing usage", () => {
    expect(toUsage(undefined)).toBeUndefined();
    expect(toUsage(null)).toBeUndefined();
  });
});

describe("hostile provider tool calls", () => {
  it("keeps arguments nested deeper than the limit as their raw text", () => {
    const deep = `{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;

    expect(parseToolArguments(deep)).toBe(deep);
    expect(parseToolArguments(`{"a":${"[".repeat(63)}${"]".repeat(63)}}`)).toEqual({ a: expect.any(Array) });
  });

  it("gives a tool call without an id one, so the next request can pair its result", () => {
    const reply = assistantReply({ content: null, refusal: null, toolCalls: [{ name: "search", arguments: "{}" }] }, { index: 0 });

    expect(reply.toolCall!.id).toMatch(/^call_[0-9a-f-]{36}$/);
  });
});
