import { ChatMessage, type ToolCall } from "toolwright";
import { checkToolPairing } from "./checkToolPairing";

const call = (id: string): ToolCall => ({ id, toolName: "search", arguments: { q: id } });
const asks = (...ids: string[]) => ChatMessage.fromAssistant(undefined, { toolCalls: ids.map(call) });
const answer = (id: string) => ChatMessage.fromTool(`result ${id}`, call(id));

describe("checkToolPairing", () => {
  it("accepts calls each answered before the next turn", () => {
    expect(
      checkToolPairing([ChatMessage.fromSystem("s"), ChatMessage.fromUser("q"), asks("a", "b"), answer("a"), answer("b"), ChatMessage.fromAssistant("done"), ChatMessage.fromUser("more")]),
    ).toEqual([]);
  });

  it("rejects a conversation that starts with a tool message", () => {
    expect(checkToolPairing([ChatMessage.fromSystem("s"), answer("a"), ChatMessage.fromUser("q")])).toEqual([
      "message 1: the conversation starts with a tool message",
      "message 1: tool result for a follows no assistant call with that id",
    ]);
  });

  it("rejects a call left unanswered before the next user message or the end", () => {
    expect(checkToolPairing([ChatMessage.fromUser("q"), asks("a", "b"), answer("a"), ChatMessage.fromUser("next"), asks("c")])).toEqual([
      "message 1: tool call b not answered before message 3",
      "message 4: tool call c not answered before message 5",
    ]);
  });

  it("rejects a result separated from its call, answered twice, or without an id", () => {
    const noId = ChatMessage.fromTool("x", { toolName: "search", arguments: {} });
    expect(checkToolPairing([ChatMessage.fromUser("q"), asks("a"), answer("a"), answer("a"), ChatMessage.fromAssistant("ok"), answer("a"), noId])).toEqual([
      "message 3: tool call a answered twice",
      "message 5: tool result for a follows no assistant call with that id",
      "message 6: a tool result without a call id",
    ]);
  });

  it("rejects calls without an id and ids used twice in one message", () => {
    const noId = ChatMessage.fromAssistant(undefined, { toolCalls: [{ toolName: "search", arguments: {} }] });
    expect(checkToolPairing([ChatMessage.fromUser("q"), noId, ChatMessage.fromUser("r"), asks("a", "a"), answer("a")])).toEqual([
      "message 1: tool call search has no id",
      "message 3: tool call id a used twice",
    ]);
  });
});
