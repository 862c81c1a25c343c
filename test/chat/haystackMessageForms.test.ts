// The older serialized forms Haystack's ChatMessage.from_dict still reads (its tests
// test_from_dict_with_pre29_format, test_from_dict_with_pre212_format and TestFromDictPydanticDump
// at c7cb46c0f2; the dicts below are theirs), and toolwright's raw-text tool-call arguments, which
// Haystack must not encode twice.
import { ChatMessage, ConfigurationError, type ToolCall } from "toolwright";

const call: ToolCall = { id: "123", toolName: "mytool", arguments: { a: 1 }, extra: { call_id: "123" } };

describe("ChatMessage.fromJSON on Haystack's older forms", () => {
  it("reads the pre-2.9 form, whose content is a string", () => {
    const message = ChatMessage.fromJSON({ role: "user", content: "This is a message", name: "some_name", meta: { some: "info" } });
    expect(message.toJSON()).toEqual({ role: "user", content: [{ text: "This is a message" }], name: "some_name", meta: { some: "info" } });
  });

  it("reads the pre-2.9 form with only role and content, and meta: null as no meta", () => {
    expect(ChatMessage.fromJSON({ role: "user", content: "This is a message" }).toJSON()).toEqual({ role: "user", content: [{ text: "This is a message" }], name: null, meta: {} });
    expect(ChatMessage.fromJSON({ role: "user", content: "Hi", meta: null }).meta).toEqual({});
  });

  it("reads the 2.9–2.12 form of _role, _content, _name and _meta", () => {
    const message = ChatMessage.fromJSON({ _role: "user", _content: [{ text: "This is a message" }], _name: "some_name", _meta: { some: "info" } });
    expect(message.toJSON()).toEqual({ role: "user", content: [{ text: "This is a message" }], name: "some_name", meta: { some: "info" } });
    expect(ChatMessage.fromJSON({ _role: "user", _content: [{ text: "This is a message" }] }).toJSON()).toEqual({ role: "user", content: [{ text: "This is a message" }], name: null, meta: {} });
  });

  it("reads pydantic's dump of a message: the raw fields, with each part unwrapped, keeping a call's extra", () => {
    const dumped = {
      _role: "assistant",
      _content: [{ reasoning_text: "Let me think about it...", extra: {} }, { text: "Let me check." }, { tool_name: "mytool", arguments: { a: 1 }, id: "123", extra: { call_id: "123" } }],
      _name: null,
      _meta: { some: "info" },
    };
    const message = ChatMessage.fromJSON(dumped);
    expect(message.toolCalls).toEqual([call]);
    expect(message.toJSON()).toEqual({
      role: "assistant",
      meta: { some: "info" },
      name: null,
      content: [{ reasoning: { reasoning_text: "Let me think about it...", extra: {} } }, { text: "Let me check." }, { tool_call: { tool_name: "mytool", arguments: { a: 1 }, id: "123", extra: { call_id: "123" } } }],
    });
  });

  it("reads pydantic's dump of a tool result, of an image and of a file", () => {
    const result = ChatMessage.fromJSON({ _role: "tool", _content: [{ result: "42", origin: { tool_name: "mytool", arguments: { a: 1 }, id: "123", extra: null }, error: false }], _name: null, _meta: {} });
    expect(result.toolCallResult).toEqual({ result: "42", origin: { id: "123", toolName: "mytool", arguments: { a: 1 } }, error: false });
    const media = ChatMessage.fromJSON({
      _role: "user",
      _content: [
        { text: "Summarize this file." },
        { base64_data: "aGVsbG8=", mime_type: "text/plain", filename: "hello.txt", extra: {}, validation: true },
      ],
    });
    expect(media.files.map((file) => file.describe())).toEqual([expect.objectContaining({ type: "file", mimeType: "text/plain", bytes: 5, filename: "hello.txt" })]);
  });

  it("still refuses a part it cannot read, naming where", () => {
    expect(() => ChatMessage.fromJSON({ role: "assistant", content: [{ text: "Hello" }, { invalid: "invalid" }] })).toThrow(ConfigurationError);
    expect(() => ChatMessage.fromJSON({ _role: "user" })).toThrow(
      "ChatMessage.fromJSON received a value that is not a ChatMessage JSON object: content: Invalid input: expected array, received undefined. Pass what ChatMessage.toJSON() produced ({ role, meta, name, content: [...] }).",
    );
  });
});

describe("ChatMessage.toJSON of a tool call whose arguments are raw text", () => {
  const raw = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: '{"query": "print' }] });

  it("writes arguments: {} with the text in extra.toolwright_raw_arguments, so that Haystack does not encode it twice", () => {
    expect(raw.toJSON().content).toEqual([{ tool_call: { tool_name: "search", arguments: {}, id: "c1", extra: { toolwright_raw_arguments: '{"query": "print' } } }]);
  });

  it("reads it back as the same raw text, with the call's own extra kept beside it", () => {
    expect(ChatMessage.fromJSON(raw.toJSON()).toolCalls).toEqual([{ id: "c1", toolName: "search", arguments: '{"query": "print' }]);
    const withExtra = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c2", toolName: "search", arguments: "not json", extra: { thought_signature: "sig" } }] });
    expect(withExtra.toJSON().content).toEqual([{ tool_call: { tool_name: "search", arguments: {}, id: "c2", extra: { thought_signature: "sig", toolwright_raw_arguments: "not json" } } }]);
    expect(ChatMessage.fromJSON(withExtra.toJSON()).toolCalls).toEqual([{ id: "c2", toolName: "search", arguments: "not json", extra: { thought_signature: "sig" } }]);
  });

  it("still reads a string arguments field, the form earlier versions wrote", () => {
    const earlier = { role: "assistant", meta: {}, name: null, content: [{ tool_call: { tool_name: "search", arguments: "not json", id: "c3" } }] };
    expect(ChatMessage.fromJSON(earlier).toolCalls).toEqual([{ id: "c3", toolName: "search", arguments: "not json" }]);
  });
});
