import { ChatGeneratorError } from "toolwright";
import { rawReply } from "../../helpers/mockOpenAIServer";
import { generatorOn, rejectionOf, request, useMockServer } from "./openaiTestKit";

const server = useMockServer();

const hint = "check that baseURL points at an OpenAI-compatible /v1 endpoint.";

function completion(choices: unknown, extra: object = {}): string {
  return JSON.stringify({ id: "chatcmpl-mock", object: "chat.completion", model: "mock-model-1", choices, ...extra });
}

async function failureOf(...responses: Parameters<typeof server.enqueue>): Promise<Error> {
  server.enqueue(...responses);
  return rejectionOf(generatorOn(server).run(request()));
}

describe("OpenAIChatGenerator", () => {
  describe("malformed responses", () => {
    it("rejects with ChatGeneratorError when a 200 body is not valid JSON", async () => {
      const error = await failureOf(rawReply('{"id": "chatcmpl-1", "choices": [{"index": 0, "mess'));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(`OpenAI request for model 'test-model' failed: the response body is not valid JSON (Unterminated string in JSON at position 51); ${hint}`);
      expect((error.cause as Error).name).toBe("SyntaxError");
    });

    it("rejects with ChatGeneratorError quoting the start of a 200 body that is not JSON", async () => {
      const error = await failureOf(rawReply("<!DOCTYPE html><html><body>Welcome to nginx!</body></html>", { headers: { "content-type": "text/html" } }));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(`OpenAI request for model 'test-model' failed: the response is not JSON (it starts with "<!DOCTYPE html><html><body>Welcome to ng"...); ${hint}`);
    });

    it("rejects with ChatGeneratorError when the response is 204 No Content", async () => {
      const error = await failureOf(rawReply("", { status: 204 }));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(`OpenAI request for model 'test-model' failed: the response body is empty; ${hint}`);
    });

    it("rejects with ChatGeneratorError when the connection resets in the middle of the body", async () => {
      const error = await failureOf(rawReply('{"id": "chatcmpl-1", "choi', { ending: "reset" }));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the connection closed before the response was complete (terminated: other side closed).");
    });

    it.each([
      ["an empty choices list", completion([])],
      ["no choices field", JSON.stringify({ id: "chatcmpl-mock", model: "mock-model-1" })],
    ])("rejects with ChatGeneratorError when a completion has %s", async (_what, body) => {
      const error = await failureOf(rawReply(body));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the model answered with no choices, so there is no reply to use.");
    });

    it.each([
      ["a null message", { index: 0, message: null, finish_reason: "stop" }],
      ["no message", { index: 0, finish_reason: "stop" }],
    ])("rejects with ChatGeneratorError when a choice has %s", async (_what, choice) => {
      const error = await failureOf(rawReply(completion([choice])));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe("OpenAI request for model 'test-model' failed: choice 0 has no message, so there is no reply to use.");
    });

    it("rejects with ChatGeneratorError naming the path when a reply field has the wrong type", async () => {
      const error = await failureOf(rawReply(completion([{ index: 0, message: { role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Paris" } } }] }, finish_reason: "tool_calls" }])));

      expect(error).toBeInstanceOf(ChatGeneratorError);
      expect(error.message).toBe(
        "OpenAI request for model 'test-model' failed: the response does not have the Chat Completions shape (choices[0].message.tool_calls[0].function.arguments: expected string, got object).",
      );
    });

    it("rejects with ChatGeneratorError when the body is a JSON value other than an object", async () => {
      const error = await failureOf(rawReply("[1, 2, 3]"));

      expect(error.message).toBe("OpenAI request for model 'test-model' failed: the response does not have the Chat Completions shape ((root): expected object, got array).");
    });

    it("ignores a model, usage or index of the wrong type", async () => {
      server.enqueue(rawReply(completion([{ index: -1, message: { role: "assistant", content: "Sunny." }, finish_reason: "stop" }], { model: 7, usage: { prompt_tokens: "many", completion_tokens: 2 } })));

      const response = await generatorOn(server).run(request());

      expect(response.replies[0]!.text).toBe("Sunny.");
      expect(response.replies[0]!.meta).toEqual({ index: 0, finishReason: "stop", usage: { completionTokens: 2 } });
      expect(response.meta).toEqual({ usage: { completionTokens: 2 }, finishReason: "stop" });
    });
  });
});
