import { getEventListeners } from "node:events";
import { AbortError, ChatGeneratorError, type StreamingChunk } from "toolwright";
import { errorReply, hangingReply, jsonReply, rawReply, sseEvents, sseReply } from "../../helpers/mockOpenAIServer";
import { chunk, delay, generatorOn, rejectionOf, request, timedRejectionOf, useMockServer } from "./openaiTestKit";

const server = useMockServer();

const deadlineMessage = (ms: number) =>
  `OpenAI request for model 'test-model' failed: the call did not finish within deadlineMs (${ms} ms), so it was aborted; raise deadlineMs to allow longer calls.`;
const idleMessage = (ms: number) =>
  `OpenAI request for model 'test-model' failed: the stream sent nothing for streamIdleTimeoutMs (${ms} ms), so it was aborted; raise streamIdleTimeoutMs if the model pauses longer, as reasoning models do before their first token.`;

describe("OpenAIChatGenerator", () => {
  describe("deadlineMs and streamIdleTimeoutMs", () => {
    it("rejects with ChatGeneratorError when a JSON body stalls after the headers past deadlineMs", async () => {
      server.enqueue(rawReply('{"id": "chatcmpl-1", "choices": [', { ending: "stall" }));

      const { error, ms } = await timedRejectionOf(generatorOn(server, { deadlineMs: 200 }).run(request()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(deadlineMessage(200));
      expect(ms).toBeGreaterThanOrEqual(190);
      expect(ms).toBeLessThan(1200);
    });

    it("rejects with ChatGeneratorError when the server sends no headers before deadlineMs, across retries", async () => {
      server.enqueue(...Array.from({ length: 6 }, () => hangingReply()));

      const error = await rejectionOf(generatorOn(server, { deadlineMs: 300, timeout: 100, maxRetries: 5, maxRetryDelayMs: 0 }).run(request()));

      expect(error.message).toBe(deadlineMessage(300));
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
    });

    it("rejects with ChatGeneratorError when a stream goes silent for streamIdleTimeoutMs", async () => {
      server.enqueue(sseEvents([chunk({ content: "It is" })], "stall"));
      const chunks: StreamingChunk[] = [];

      const error = await rejectionOf(generatorOn(server, { streamIdleTimeoutMs: 100 }).run(request({ streamingCallback: (c) => void chunks.push(c) })));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(idleMessage(100));
      expect(chunks).toEqual([{ type: "text", delta: "It is" }]);
    });

    it("counts the wait for the first chunk toward streamIdleTimeoutMs", async () => {
      server.enqueue(rawReply("", { headers: { "content-type": "text/event-stream" }, ending: "stall" }));

      const error = await rejectionOf(generatorOn(server, { streamIdleTimeoutMs: 100 }).run(request({ streamingCallback: () => undefined })));

      expect(error.message).toBe(idleMessage(100));
    });

    it("does not count time spent in the streaming callback toward streamIdleTimeoutMs", async () => {
      server.enqueue(sseReply({ text: "It is sunny." }, { pieces: 2 }));

      const response = await generatorOn(server, { streamIdleTimeoutMs: 100 }).run(request({ streamingCallback: () => delay(150) }));

      expect(response.replies[0]!.text).toBe("It is sunny.");
    });

    it("counts the streaming callback toward deadlineMs", async () => {
      server.enqueue(sseReply({ text: "It is sunny." }));

      const error = await rejectionOf(generatorOn(server, { deadlineMs: 150 }).run(request({ streamingCallback: () => new Promise<void>(() => undefined) })));

      expect(error.message).toBe(deadlineMessage(150));
    });

    it("rejects with an AbortError, not a ChatGeneratorError, when the signal aborts before the deadline", async () => {
      server.enqueue(rawReply("", { headers: { "content-type": "text/event-stream" }, ending: "stall" }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);

      const error = await rejectionOf(generatorOn(server, { deadlineMs: 5000 }).run(request({ signal: controller.signal, streamingCallback: () => undefined })));

      expect(error).toBeInstanceOf(AbortError);
      expect(error.message).toBe("The model request was aborted.");
    });

    it("removes its listener from the request's signal when each call settles", async () => {
      const controller = new AbortController();
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on("warning", onWarning);
      try {
        for (let i = 0; i < 15; i++) {
          server.enqueue(jsonReply({ text: "ok" }), errorReply(400, "Bad request."), sseReply({ text: "ok" }));
          await generatorOn(server).run(request({ signal: controller.signal }));
          await rejectionOf(generatorOn(server).run(request({ signal: controller.signal })));
          await generatorOn(server).run(request({ signal: controller.signal, streamingCallback: () => undefined }));
        }
        await delay(10);
      } finally {
        process.off("warning", onWarning);
      }

      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    });
  });
});
