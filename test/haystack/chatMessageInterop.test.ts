// Haystack's serialized message forms against toolwright's ChatMessage.fromJSON, with what Haystack
// itself did recorded in test/haystack/fixtures (issue #33, "JSON interop").
import { ChatMessage } from "toolwright";
import { haystackFixture, haystackVersions, withoutNullToolCallExtra } from "./haystackFixtures";

describe("ChatMessage.fromJSON", () => {
  describe("on the forms both Haystack versions read", () => {
    it.each(haystackVersions)("Haystack %s reads the pre-2.9 string content and the 2.9–2.12 _role/_content form, writing the current form", (version) => {
      const contentString = haystackFixture(version, "chat-message-pre-2.9-content-string");
      const underscore = haystackFixture(version, "chat-message-2.9-to-2.12-underscore-form");

      expect(contentString.to_dict).toStrictEqual({ role: "user", meta: { lang: "en" }, name: null, content: [{ text: "Hello there" }] });
      expect(underscore.to_dict).toStrictEqual({
        role: "assistant",
        meta: { model: "m" },
        name: null,
        content: [{ text: "Let me check." }, { tool_call: { tool_name: "search", arguments: { query: "x" }, id: "c1", extra: null } }],
      });
    });

    // Issue #33, JSON interop: "refuses Haystack's older message forms (pre-2.9 `content` strings)".
    it("reads the pre-2.9 form whose content is a string and writes what Haystack main writes", () => {
      const fixture = haystackFixture("main", "chat-message-pre-2.9-content-string");

      expect(ChatMessage.fromJSON(fixture.input).toJSON()).toStrictEqual(fixture.to_dict);
    });

    // Issue #33, JSON interop: "refuses … the 2.9–2.12 `_role`/`_content` form".
    it("reads the 2.9–2.12 _role/_content form and writes what Haystack main writes", () => {
      const fixture = haystackFixture("main", "chat-message-2.9-to-2.12-underscore-form");

      expect(ChatMessage.fromJSON(fixture.input).toJSON()).toStrictEqual(withoutNullToolCallExtra(fixture.to_dict));
    });
  });

  describe("on the flat part form (Pydantic's model_dump), which Haystack main reads and v2.31 refuses", () => {
    it("is refused by Haystack v2.31 and read by main", () => {
      const old = haystackFixture("v2.31.0", "chat-message-flat-parts");
      const main = haystackFixture("main", "chat-message-flat-parts");

      expect(old.error?.class).toBe("ValueError");
      expect(old.error?.message).toMatch(/^Unsupported content part in the serialized ChatMessage: \{'tool_name': 'search', 'arguments': \{'query': 'x'\}, 'id': 'c1'\}\. /);
      expect(main.to_dict).toStrictEqual({
        role: "assistant",
        meta: {},
        name: null,
        content: [{ text: "Calling." }, { tool_call: { tool_name: "search", arguments: { query: "x" }, id: "c1", extra: null } }, { reasoning: { reasoning_text: "think", extra: {} } }],
      });
    });

    // Issue #33, JSON interop: "refuses … the flat part form".
    it("reads flat tool call and reasoning parts and writes what Haystack main writes", () => {
      const fixture = haystackFixture("main", "chat-message-flat-parts");

      expect(ChatMessage.fromJSON(fixture.input).toJSON()).toStrictEqual(withoutNullToolCallExtra(fixture.to_dict));
    });

    // Issue #33, JSON interop: "refuses … the flat part form".
    it("reads a flat tool result part and writes what Haystack main writes", () => {
      const fixture = haystackFixture("main", "chat-message-flat-tool-result");

      expect(ChatMessage.fromJSON(fixture.input).toJSON()).toStrictEqual(withoutNullToolCallExtra(fixture.to_dict));
    });
  });

  describe("on a tool call's extra", () => {
    it.each(haystackVersions)("keeps extra and writes the message back unchanged, as Haystack %s does", (version) => {
      const fixture = haystackFixture(version, "tool-call-extra-round-trip");

      expect(fixture.round_trip_equal).toBe(true);
      expect(ChatMessage.fromJSON(fixture.input).toJSON()).toStrictEqual(fixture.to_dict);
      expect(ChatMessage.fromJSON(fixture.input).toolCall?.extra).toStrictEqual({ thought_signature: "c2ln" });
    });
  });

  describe("on a tool call whose arguments are raw text", () => {
    it.each(haystackVersions)("Haystack %s keeps string arguments as a str and double-encodes them for OpenAI", (version) => {
      const fixture = haystackFixture(version, "tool-call-raw-string-arguments");
      const raw = '{"query": "x"';

      expect(fixture.arguments_type).toBe("str");
      expect(fixture.openai_dict?.tool_calls?.[0]?.function.arguments).toBe(JSON.stringify(raw));
    });

    it("reads Haystack's dict of a raw-text call back as the same raw text", () => {
      const fixture = haystackFixture("main", "tool-call-raw-string-arguments");

      expect(ChatMessage.fromJSON(fixture.to_dict).toolCall?.arguments).toBe('{"query": "x"');
    });

    // Issue #33, JSON interop: "A toolwright tool call whose arguments were kept as raw text … must
    // not be double-encoded when Haystack reads our JSON": Haystack double-encodes a string (above).
    it("writes a raw-text call's arguments as an object, the form Haystack does not double-encode", () => {
      const message = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: '{"query": "x"' }] });

      const written = message.toJSON().content[0] as { tool_call: { arguments: unknown } };

      expect(typeof written.tool_call.arguments).toBe("object");
    });
  });
});
