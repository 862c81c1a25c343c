import OpenAI from "openai";
import { ChatGeneratorError } from "toolwright";
import { toChatGeneratorError } from "../../../src/chat/openai/toChatGeneratorError";

const call = { model: "test-model", timeoutMs: 100 };

describe("toChatGeneratorError", () => {
  it("names the timeout option when the SDK's per-attempt timeout fired", () => {
    const cause = new OpenAI.APIConnectionTimeoutError();

    const error = toChatGeneratorError(cause, call, "body");

    expect(error.message).toBe(
      "OpenAI request for model 'test-model' failed: the server sent no response headers within timeout (100 ms); raise timeout if the model takes longer to start answering.",
    );
    expect(error.cause).toBe(cause);
  });

  it("takes an error body that is a plain string as the provider's message", () => {
    const cause = OpenAI.APIError.generate(502, { error: "upstream unavailable" }, undefined, new Headers());

    const error = toChatGeneratorError(cause, call, "body");

    expect(error.message).toBe("OpenAI request for model 'test-model' failed with status 502: upstream unavailable");
    expect(error.providerMessage).toBe("upstream unavailable");
  });

  it("describes a value thrown that is not an Error", () => {
    expect(toChatGeneratorError("socket hang up", call, "stream").message).toBe("OpenAI request for model 'test-model' failed: reading the response went wrong (socket hang up).");
  });

  it("returns a ChatGeneratorError as it is", () => {
    const given = new ChatGeneratorError("OpenAI request for model 'test-model' failed: the model answered with no choices, so there is no reply to use.");

    expect(toChatGeneratorError(given, call, "stream")).toBe(given);
  });
});
