import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { ChatGeneratorError, ChatMessage, ConfigurationError, inputGuardrail, MiddlewareError, openAIModeration, outputGuardrail } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { type RecordedRequest, RecordingHttpServer } from "../helpers/recordingHttpServer";
import { question, refundDesk, rejectionOf, thrownBy } from "../helpers/refundDesk";

/** Answers `POST /v1/moderations` with the queued status and body (see fixtures/README.md for the bodies' origin). */
class ModerationServer extends RecordingHttpServer<{ status: number; body: unknown }> {
  protected respond(request: RecordedRequest, res: ServerResponse): void {
    const answer = request.url === "/v1/moderations" ? this.nextAnswer() : undefined;
    const { status, body } = answer ?? { status: 404, body: { error: { message: `no answer for ${request.url}`, type: "invalid_request_error", code: null } } };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  }
}

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, "fixtures", name), "utf8"));
const clean = fixture("moderationClean.json");
const flagged = fixture("moderationFlagged.json");

const server = new ModerationServer();
beforeAll(() => server.start());
afterAll(() => server.close());
afterEach(() => server.reset());

// The moderation request goes through the generator's own client: its baseURL, key and retries.
const generator = () => new OpenAIChatGenerator({ model: "gpt-4o-mini", apiKey: "sk-test", baseURL: `${server.origin}/v1`, maxRetries: 0 });

describe("openAIModeration", () => {
  it("trips on a text the endpoint flags, naming the categories, over the OpenAI client's connection", async () => {
    server.enqueue({ status: 200, body: flagged });
    const { agent, model } = refundDesk({ script: [ChatMessage.fromAssistant("unused")], middleware: [inputGuardrail(openAIModeration({ client: generator().client }))] });

    const result = await agent.run(question());

    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({
      exitReason: "guardrail_tripped",
      middleware: "input-guardrail:openai-moderation",
      hook: "beforeModel",
      reason: "OpenAI moderation flagged the text for harassment, violence.",
      details: { categories: ["harassment", "violence"], model: "omni-moderation-latest", guardrail: "openai-moderation", point: "input" },
    });
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization, r.body])).toEqual([
      ["POST", "/v1/moderations", "Bearer sk-test", { input: "Refund order A-100, please.", model: "omni-moderation-latest" }],
    ]);
    expect(model.requests).toHaveLength(0);
  });

  it("passes a text the endpoint does not flag, and one flagged only for categories it was not asked about", async () => {
    server.enqueue({ status: 200, body: clean }, { status: 200, body: flagged });
    const guardrail = outputGuardrail(openAIModeration({ client: generator().client, model: "omni-moderation-2024-09-26", categories: ["self-harm", "self-harm/intent"], verdict: "block" }));
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("It can be refunded.")], middleware: [inputGuardrail(openAIModeration({ client: generator().client })), guardrail] });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    expect(server.requests.map((r) => r.body)).toEqual([
      { input: "Refund order A-100, please.", model: "omni-moderation-latest" },
      { input: "It can be refunded.", model: "omni-moderation-2024-09-26" },
    ]);
  });

  it("ends the run with a MiddlewareError whose cause is a ChatGeneratorError when the endpoint fails", async () => {
    server.enqueue({ status: 500, body: { error: { message: "The server had an error.", type: "server_error", code: null } } });
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("unused")], middleware: [inputGuardrail(openAIModeration({ client: generator().client }))] });

    const error = await rejectionOf(agent.run(question()));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.cause).toBeInstanceOf(ChatGeneratorError);
    expect((error.cause as ChatGeneratorError).status).toBe(500);
    expect((error.cause as Error).message).toBe("OpenAI moderation request for model 'omni-moderation-latest' failed with status 500: The server had an error.");
  });

  it("refuses an answer without results", async () => {
    server.enqueue({ status: 200, body: { id: "modr-1", model: "omni-moderation-latest" } });
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("unused")], middleware: [inputGuardrail(openAIModeration({ client: generator().client }))] });

    const error = await rejectionOf(agent.run(question()));

    expect(error.message).toBe(
      "Middleware 'input-guardrail:openai-moderation' threw in beforeModel: OpenAI moderation request for model 'omni-moderation-latest' was answered without a results array (got undefined); check that the client's baseURL points at an OpenAI-compatible moderation endpoint.",
    );
  });

  it("needs a client", () => {
    const error = thrownBy(() => openAIModeration({} as never));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe("openAIModeration needs client, an OpenAI client (new OpenAI(...) or an OpenAIChatGenerator's client), got undefined.");
  });
});
