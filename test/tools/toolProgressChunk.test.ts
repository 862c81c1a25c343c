import { Agent, ChatMessage, limits, type StreamingCallback, type StreamingChunk, Tool, type ToolContext } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";

describe("ToolContext.reportProgress", () => {
  function slowTool(report: (context: ToolContext) => void, keep: { context?: ToolContext }) {
    return new Tool({
      name: "slow",
      description: "Takes a while.",
      parameters: z.object({}),
      function: async (_args, context) => {
        keep.context = context;
        report(context);
        return "done slowly";
      },
    });
  }

  async function run(tool: Tool, streamingCallback: StreamingCallback) {
    const model = new ScriptedChatGenerator([toolCallReply(["slow", {}, "c1"]), ChatMessage.fromAssistant("done")]);
    return new Agent({ chatGenerator: model, tools: [tool] }).run({ messages: [ChatMessage.fromUser("go")], streamingCallback });
  }

  it("streams a toolProgress chunk per report before the call's toolResult, leaving out what is not a finite number", async () => {
    const chunks: StreamingChunk[] = [];
    const keep: { context?: ToolContext } = {};
    const tool = slowTool((context) => {
      context.reportProgress({ progress: 1, total: 3, message: "reading" });
      context.reportProgress({ progress: Number.NaN });
      context.reportProgress({ progress: 2, total: Number.POSITIVE_INFINITY, message: 7 as unknown as string });
      context.reportProgress(null as never);
    }, keep);

    await run(tool, (chunk) => chunks.push(chunk));
    keep.context!.reportProgress({ progress: 3 });

    const toolCall = expect.objectContaining({ id: "c1", toolName: "slow" });
    expect(chunks.filter((chunk) => chunk.type === "toolProgress" || chunk.type === "toolResult").map((chunk) => (chunk.type === "toolProgress" ? chunk : chunk.type))).toEqual([
      { type: "toolProgress", index: 0, toolCall, progress: 1, total: 3, message: "reading" },
      { type: "toolProgress", index: 0, toolCall, progress: 2 },
      "toolResult",
    ]);
  });

  it("reports from a reportProgress destructured out of the context", async () => {
    const chunks: StreamingChunk[] = [];
    const tool = new Tool({
      name: "slow",
      description: "Takes a while.",
      parameters: z.object({}),
      function: async (_args, { reportProgress }) => {
        reportProgress({ progress: 1, total: 2 });
        return "done slowly";
      },
    });

    const result = await run(tool, (chunk) => chunks.push(chunk));

    expect(chunks.filter((chunk) => chunk.type === "toolProgress")).toEqual([{ type: "toolProgress", index: 0, toolCall: expect.objectContaining({ id: "c1" }), progress: 1, total: 2 }]);
    expect(result.messages.find((message) => message.role === "tool")!.toolCallResult).toMatchObject({ result: "done slowly", error: false });
  });

  it("never fails the call when the streaming callback throws or rejects on a progress chunk", async () => {
    const tool = slowTool((context) => {
      context.reportProgress({ progress: 1 });
      context.reportProgress({ progress: 2 });
    }, {});
    let progressChunks = 0;

    const result = await run(tool, (chunk) => {
      if (chunk.type !== "toolProgress") return undefined;
      progressChunks++;
      if (chunk.progress === 1) throw new Error("the UI is gone");
      return Promise.reject(new Error("the UI is gone"));
    });

    expect(progressChunks).toBe(2);
    expect(result.messages.find((message) => message.role === "tool")!.toolCallResult).toMatchObject({ result: "done slowly", error: false });
  });

  it("cuts a progress message at limits.maxProgressMessageLength", async () => {
    const chunks: StreamingChunk[] = [];
    const tool = slowTool((context) => context.reportProgress({ progress: 1, message: "x".repeat(50_000) }), {});

    await run(tool, (chunk) => chunks.push(chunk));

    const progress = chunks.find((chunk) => chunk.type === "toolProgress");
    expect(progress?.type === "toolProgress" && progress.message).toBe(`${"x".repeat(limits.maxProgressMessageLength)}…`);
    expect(limits.maxProgressMessageLength).toBe(1_000);
  });
});
