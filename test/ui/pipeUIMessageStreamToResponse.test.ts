import { request } from "node:http";
import { Agent, ChatMessage, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { createUIMessageStreamResponse, pipeUIMessageStreamToResponse, type UIStreamOutcome } from "toolwright/ui";
import { listen, sendResponse } from "./uiStreamClient";

// A run whose one tool reports progress (a chunk each, ~2 KB) until its signal aborts; resolves `aborted` then.
function endlessRun() {
  let aborted!: () => void;
  const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
  const tool = new Tool({
    name: "watch",
    description: "Reports progress until stopped.",
    parameters: { type: "object", properties: {} },
    function: async (_args, context) => {
      while (!context.signal.aborted) {
        context.reportProgress({ progress: 1, message: "x".repeat(2000) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      aborted();
      return "stopped";
    },
  });
  const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "w1", toolName: "watch", arguments: {} }] })]), tools: [tool] });
  return { stream: agent.stream({ messages: [ChatMessage.fromUser("Watch.")] }), wasAborted };
}

describe("createUIMessageStreamResponse", () => {
  it("answers with the AI SDK's headers and one SSE event per chunk, ending with [DONE]", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi there.")]) });
    const http = await listen((_req, res) => sendResponse(createUIMessageStreamResponse(agent.stream({ messages: [ChatMessage.fromUser("Hi.")] }), { messageId: "m1", headers: { "x-run": "1" } }), res));
    try {
      const response = await fetch(http.url, { method: "POST" });
      expect(response.status).toBe(200);
      expect(["content-type", "cache-control", "x-vercel-ai-ui-message-stream", "x-accel-buffering", "x-run"].map((name) => response.headers.get(name))).toEqual(["text/event-stream", "no-cache", "v1", "no", "1"]);
      expect(await response.text()).toBe(
        [
          { type: "start", messageId: "m1" },
          { type: "start-step" },
          { type: "text-start", id: "text-1" },
          { type: "text-delta", id: "text-1", delta: "Hi " },
          { type: "text-delta", id: "text-1", delta: "there." },
          { type: "text-end", id: "text-1" },
          { type: "finish-step" },
          { type: "finish", finishReason: "stop" },
        ]
          .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
          .join("") + "data: [DONE]\n\n",
      );
    } finally {
      await http.close();
    }
  });

  it("aborts the run when the client disconnects", async () => {
    const run = endlessRun();
    const http = await listen((_req, res) => sendResponse(createUIMessageStreamResponse(run.stream), res));
    try {
      const controller = new AbortController();
      const response = await fetch(http.url, { method: "POST", signal: controller.signal });
      await response.body!.getReader().read();
      controller.abort();
      await run.wasAborted;
    } finally {
      await http.close();
    }
  });
});

describe("pipeUIMessageStreamToResponse", () => {
  it("aborts the run and resolves client_closed when the client disconnects", async () => {
    const run = endlessRun();
    let outcome!: Promise<UIStreamOutcome>;
    const http = await listen((_req, res) => void (outcome = pipeUIMessageStreamToResponse(run.stream, res)));
    try {
      const req = request(http.url, { method: "POST" });
      req.on("error", () => {});
      req.on("response", (res) => res.once("data", () => req.destroy()));
      req.end();
      await run.wasAborted;
      expect(await outcome).toBe("client_closed");
    } finally {
      await http.close();
    }
  });

  it("aborts the run and closes the connection when a client that never reads lets more than maxBufferedBytes wait", async () => {
    const run = endlessRun();
    let outcome!: Promise<UIStreamOutcome>;
    const http = await listen((_req, res) => void (outcome = pipeUIMessageStreamToResponse(run.stream, res, { maxBufferedBytes: 64 * 1024 })));
    try {
      const req = request(http.url, { method: "POST" });
      req.on("error", () => {});
      // Takes the response and never reads it.
      req.on("response", (res) => res.pause());
      req.end();
      await run.wasAborted;
      expect(await outcome).toBe("overflowed");
      req.destroy();
    } finally {
      await http.close();
    }
  });
});
