import type { UIMessageChunk as AiUIMessageChunk } from "ai";
import type { UIMessageChunk } from "toolwright/ui";

// toolwright/ui's chunks go where the AI SDK takes its own: readUIMessageStream, createUIMessageStreamResponse.
type Assignable<A, B> = [A] extends [B] ? true : false;

describe("UIMessageChunk", () => {
  it("is assignable to the AI SDK's UIMessageChunk", () => {
    const assignable: Assignable<UIMessageChunk, AiUIMessageChunk> = true;
    expect(assignable).toBe(true);
  });
});
