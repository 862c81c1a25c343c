import OpenAI from "openai";
import { AbortError, ChatGeneratorError, type StreamingChunk } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { rawReply, sseEvents, sseReply } from "../../helpers/mockOpenAIServer";
import { chunk, delay, generatorOn, rejectionOf, request, useMockServer } from "./openaiTestKit";

const server = useMockServer();

const streaming = (extra = {}) => request({ streamingCallback: () => undefined, ...extra });

// The SDK logs unparsable events to its logger; this client keeps the test output quiet.
function quietGenerator(): OpenAIChatGenerator {
  return new OpenAIChatGenerator({ model: "test-model", client: new OpenAI({ apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0, logLevel: "off" }) });
}

function toolCallDelta(part: object): string {
  return chunk({ tool_calls: [{ index: 0, ...part }] });
}

describe("OpenAIChatGenerator", () => {
  describe("stream faults", () => {
    it("rejects with ChatGeneratorError when a data: event is not valid JSON", async () => {
      server.enqueue(sseEvents([chunk({ content: "It is" }), "{not json", "[DONE]"]));

      const error = await rejectionOf(quietGenerator().run(streaming()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: a stream event is not valid JSON (Expected property name or '}' in JSON at position 1).");
      expect((error.cause as Error).name).toBe("SyntaxError");
    });

    it("rejects with ChatGeneratorError when the connection resets mid-stream", async () => {
      server.enqueue(sseEvents([chunk({ content: "It is" })], "reset"));

      const error = await rejectionOf(generatorOn(server).run(streaming()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the connection closed before the response was complete (terminated: other side closed).");
      expect((error.cause as Error).message).toBe("terminated");
    });

    it("rejects with ChatGeneratorError, and sends no finish chunk, when the stream ends without finish_reason", async () => {
      server.enqueue(sseEvents([chunk({ role: "assistant", content: "" }), chunk({ content: "It is sunny in" })]));
      const chunks: StreamingChunk[] = [];

      const error = await rejectionOf(generatorOn(server).run(streaming({ streamingCallback: (c: StreamingChunk) => void chunks.push(c) })));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the stream ended before the model finished (no finish_reason for choice 0); the reply is incomplete.");
      expect(chunks).toEqual([{ type: "text", delta: "It is sunny in" }]);
    });

    it("rejects with ChatGeneratorError when the stream sends [DONE] without finish_reason", async () => {
      server.enqueue(sseEvents([chunk({ content: "It is sunny in" }), "[DONE]"]));

      const error = await rejectionOf(generatorOn(server).run(streaming()));

      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the stream ended before the model finished (no finish_reason for choice 0); the reply is incomplete.");
    });

    it("rejects with ChatGeneratorError when the stream carries no choice", async () => {
      const usageOnly = JSON.stringify({ object: "chat.completion.chunk", model: "mock-model-1", choices: [], usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 } });
      server.enqueue(sseEvents([usageOnly, "[DONE]"]));

      const error = await rejectionOf(generatorOn(server).run(streaming()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the model answered with no choices, so there is no reply to use.");
    });

    it("rejects with ChatGeneratorError when a stream request is answered 204 No Content", async () => {
      server.enqueue(rawReply("", { status: 204 }));

      const error = await rejectionOf(generatorOn(server).run(streaming()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: reading the response went wrong (Attempted to iterate over a response with no body).");
    });

    it("rejects with ChatGeneratorError naming the chunk and path when a delta field has the wrong type", async () => {
      server.enqueue(sseEvents([chunk({ content: "It is" }), chunk({ content: 42 }, "stop"), "[DONE]"]));

      const error = await rejectionOf(generatorOn(server).run(streaming()));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        "OpenAI request for model 'test-model' failed: stream chunk 2 does not have the Chat Completions shape (choices[0].delta.content: expected string, got number).",
      );
    });

    it("ignores a model, usage or index of the wrong type in a chunk", async () => {
      const odd = JSON.stringify({ model: 7, usage: "lots", choices: [{ index: "first", delta: { content: "Sunny." }, finish_reason: "stop" }] });
      server.enqueue(sseEvents([odd, "[DONE]"]));

      const response = await generatorOn(server).run(streaming());

      expect(response.replies.map((reply) => reply.text)).toEqual(["Sunny."]);
      expect(response.meta).toEqual({ finishReason: "stop" });
    });

    it("passes an error thrown by the streaming callback through unchanged", async () => {
      server.enqueue(sseReply({ text: "It is sunny in Paris." }));
      const stop = new RangeError("The consumer stopped reading.");

      const error = await rejectionOf(
        generatorOn(server).run(
          streaming({
            streamingCallback: () => {
              throw stop;
            },
          }),
        ),
      );

      expect(error).toBe(stop);
    });

    it("rejects with an AbortError within 50 ms when the signal aborts while the streaming callback is pending", async () => {
      server.enqueue(sseReply({ text: "It is sunny in Paris." }, { hang: true }));
      const controller = new AbortController();
      let calls = 0;
      let abortedAt = 0;
      const streamingCallback = () => {
        calls++;
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 20);
        return new Promise<void>(() => undefined);
      };

      const error = await rejectionOf(generatorOn(server).run(streaming({ signal: controller.signal, streamingCallback })));

      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(error).toBeInstanceOf(AbortError);
      expect(error.message).toBe("The model request was aborted.");
      expect(calls).toBe(1);
    });

    it("calls the streaming callback no more once the signal aborted", async () => {
      server.enqueue(sseReply({ text: "It is sunny in Paris." }));
      const controller = new AbortController();
      const chunks: StreamingChunk[] = [];
      const streamingCallback = async (c: StreamingChunk) => {
        chunks.push(c);
        controller.abort();
        await delay(0);
      };

      const error = await rejectionOf(generatorOn(server).run(streaming({ signal: controller.signal, streamingCallback })));

      expect(error.name).toBe("AbortError");
      expect(chunks).toEqual([{ type: "text", delta: "It is s" }]);
    });
  });

  describe("streamed tool names", () => {
    it.each([
      ["sent once", ["get_weather"]],
      ["repeated whole on every delta", ["get_weather", "get_weather", "get_weather"]],
      ["growing on every delta", ["get_", "get_wea", "get_weather"]],
      ["in pieces", ["get", "_wea", "ther"]],
    ])("assembles a tool name %s", async (_how, pieces) => {
      const [first, ...rest] = pieces;
      server.enqueue(
        sseEvents([
          toolCallDelta({ id: "call_1", type: "function", function: { name: first, arguments: "" } }),
          ...rest.map((name) => toolCallDelta({ function: { name, arguments: "" } })),
          toolCallDelta({ function: { arguments: '{"city":"Paris"}' } }),
          chunk({}, "tool_calls"),
          "[DONE]",
        ]),
      );

      const response = await generatorOn(server).run(streaming());

      expect(response.replies[0]!.toolCalls).toEqual([{ id: "call_1", toolName: "get_weather", arguments: { city: "Paris" } }]);
    });
  });
});
