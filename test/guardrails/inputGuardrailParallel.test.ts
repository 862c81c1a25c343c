import { Agent, type ChatGenerator, ChatMessage, ConfigurationError, type Guardrail, type GuardrailVerdict, inputGuardrail, type Middleware, MiddlewareError } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { hangingReply, jsonReply, MockOpenAIServer } from "../helpers/mockOpenAIServer";
import { rejectionOf, thrownBy } from "../helpers/refundDesk";

const server = new MockOpenAIServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());

const question = "Refund order A-100, please.";

function agentWith(middleware: Middleware[]) {
  const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
  return new Agent({ chatGenerator, tools: [], middleware });
}

/**
 * A guardrail that answers only once the model call has reached the server (so it can only answer
 * when it runs beside the call), then gives `verdict`; it notes the signal it was checked with.
 */
function besideTheCall(verdict: GuardrailVerdict, requests = 1): Guardrail & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: "topic",
    signals,
    async check(_input, context) {
      signals.push(context.signal);
      const reached = await Promise.race([server.received(requests).then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 5000, false).unref())]);
      return reached ? verdict : { trip: "The check ran before the model call, not beside it." };
    },
  };
}

describe("inputGuardrail with runInParallel", () => {
  it("lets a passing check run beside the model call and uses the call's answer", async () => {
    server.enqueue(jsonReply({ text: "A person reviews refunds today.", usage: { promptTokens: 12, completionTokens: 6 } }));
    const guardrail = besideTheCall({ pass: true });

    const result = await agentWith([inputGuardrail(guardrail, { runInParallel: true })]).run({ messages: [ChatMessage.fromUser(question)] });

    expect(result.exitReason).toBe("text");
    expect(result.lastMessage.text).toBe("A person reviews refunds today.");
    expect(server.requests).toHaveLength(1);
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 6, modelCalls: 1 });
  });

  it("cancels the model call when the check trips, and ends the run as guardrail_tripped with a snapshot", async () => {
    server.enqueue(hangingReply());
    const guardrail = besideTheCall({ trip: "Refund requests go to a person first." });

    const result = await agentWith([inputGuardrail(guardrail, { runInParallel: true })]).run({ messages: [ChatMessage.fromUser(question)] });

    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({
      exitReason: "guardrail_tripped",
      middleware: "input-guardrail:topic",
      hook: "beforeModel",
      reason: "Refund requests go to a person first.",
      details: { guardrail: "topic", point: "input" },
    });
    // The server never answered: the run ended because the call was cancelled, and the check's own signal ended with it.
    expect(guardrail.signals[0]!.aborted).toBe(true);
    expect(result.usage.modelCalls).toBe(0);
    expect(result.messages.map((m) => m.text)).toEqual([question]);
    expect(result.snapshot).toMatchObject({ stepCount: 0, next: "chat_generator" });
  });

  it("drops the answer of a call that finished before the check tripped, and counts its tokens", async () => {
    server.enqueue(jsonReply({ text: "Refunded!", usage: { promptTokens: 12, completionTokens: 3 } }));
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const slow: Guardrail = { name: "slow", check: async () => (await answered, { trip: "Refunds need a person." }) };
    const openai = new OpenAIChatGenerator({ model: "gpt-4o-mini", baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
    // The check answers only after the model has: the answer is in hand when the trip comes.
    const chatGenerator: ChatGenerator = { run: async (request) => openai.run(request).finally(release) };
    const agent = new Agent({ chatGenerator, tools: [], middleware: [inputGuardrail(slow, { runInParallel: true })] });

    const result = await agent.run({ messages: [ChatMessage.fromUser(question)] });

    expect(result.exitReason).toBe("guardrail_tripped");
    expect(result.messages.map((m) => m.text)).toEqual([question]);
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, modelCalls: 1 });
    expect(result.stepCount).toBe(0);
  });

  it("cancels the call on a block and calls the model again with the reason in place of the message", async () => {
    server.enqueue(hangingReply(), jsonReply({ text: "I can only help with your own orders." }));
    const guardrail = besideTheCall({ block: "Your message was withheld: it asks about another customer." });

    const result = await agentWith([inputGuardrail(guardrail, { runInParallel: true })]).run({ messages: [ChatMessage.fromUser(question)] });

    expect(result.exitReason).toBe("text");
    expect(result.lastMessage.text).toBe("I can only help with your own orders.");
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.body.messages[0].content)).toEqual([question, "Your message was withheld: it asks about another customer."]);
    // Checked once: the second call sends the remembered verdict without checking again.
    expect(guardrail.signals).toHaveLength(1);
    expect(result.messages[0]!.text).toBe(question);
  });

  it("cancels the model call and ends the run with a MiddlewareError when the check throws", async () => {
    server.enqueue(hangingReply());
    const broken: Guardrail = {
      name: "broken",
      async check() {
        await server.received(1);
        throw new Error("moderation service unreachable");
      },
    };

    const error = await rejectionOf(agentWith([inputGuardrail(broken, { runInParallel: true })]).run({ messages: [ChatMessage.fromUser(question)] }));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("Middleware 'input-guardrail:broken' threw in beforeModel: moderation service unreachable.");
  });

  it("refuses runInParallel that is not a boolean", () => {
    const error = thrownBy(() => inputGuardrail({ name: "x", check: () => ({ pass: true }) }, { runInParallel: "yes" as unknown as boolean }));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe('inputGuardrail needs runInParallel as a boolean, got string "yes"; give true (check beside the model call) or false (before it, the default).');
  });
});

describe("BeforeModelAction.alongside", () => {
  it("ends the run with a MiddlewareError when a check asks for the call again on every call", async () => {
    for (let i = 0; i < 9; i++) server.enqueue(jsonReply({ text: "Hello." }));
    const restless: Middleware = { name: "restless", beforeModel: () => ({ alongside: async () => ({ callAgain: true }) }) };

    const error = await rejectionOf(agentWith([restless]).run({ messages: [ChatMessage.fromUser(question)] }));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("Middleware 'restless' asked to call the model again 9 times in step 1; ask again only after changing what the next call sends (block a message, then pass it).");
  });

  it("ends the run with a MiddlewareError when a check resolves something that is not a verdict", async () => {
    server.enqueue(jsonReply({ text: "Hello." }));
    const sloppy = { name: "sloppy", beforeModel: () => ({ alongside: async () => ({ allow: true }) }) } as unknown as Middleware;

    const error = await rejectionOf(agentWith([sloppy]).run({ messages: [ChatMessage.fromUser(question)] }));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("Middleware 'sloppy' resolved its check beside the model call with an object with 'allow'; resolve nothing, { stop: { reason } } or { callAgain: true }.");
  });

  it("ends a run aborted by its caller while a check and the call are both pending", async () => {
    server.enqueue(hangingReply());
    const controller = new AbortController();
    const waiting: Middleware = { name: "waiting", beforeModel: () => ({ alongside: (signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())) }) };
    void server.received(1).then(() => controller.abort(new Error("the user left")));

    const error = await rejectionOf(agentWith([waiting]).run({ messages: [ChatMessage.fromUser(question)], signal: controller.signal }));

    expect(error.name).toBe("AbortError");
  });
});
