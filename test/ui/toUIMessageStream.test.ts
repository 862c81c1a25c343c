import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { pipeUIMessageStreamToResponse, type ToUIMessageStreamOptions, type UIStreamSource } from "toolwright/ui";
import { calls, lookupCall, question, refundCall, refundDesk } from "../helpers/refundDesk";
import { listen, readWithAi6, readWithAi7, type ReadMessage } from "./uiStreamClient";

// Serves a fresh run per request through pipeUIMessageStreamToResponse and reads it with ai 6 and ai 7.
async function readBoth(makeSource: () => UIStreamSource, options: ToUIMessageStreamOptions = {}): Promise<{ ai6: ReadMessage; ai7: ReadMessage }> {
  const http = await listen((_req, res) => void pipeUIMessageStreamToResponse(makeSource(), res, options));
  try {
    return { ai6: await readWithAi6(http.url), ai7: await readWithAi7(http.url) };
  } finally {
    await http.close();
  }
}

// Both readers must show the same message: what useChat would show.
function same(both: { ai6: ReadMessage; ai7: ReadMessage }): ReadMessage {
  expect(both.ai7).toEqual(both.ai6);
  return both.ai6;
}

const lookupPart = { type: "tool-lookup_order", toolCallId: "l1", state: "output-available", input: { orderId: "A-100" }, output: '{"orderId":"A-100","paid":49}' };

describe("toUIMessageStream", () => {
  it("streams tool parts, text and the chosen state keys as ai 6 and ai 7 read them", async () => {
    const read = same(await readBoth(() => refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("Order A-100 was paid 49.")] }).agent.stream(question()), { state: ["customer_id"] }));
    expect(read.errors).toEqual([]);
    expect(read.message?.parts).toEqual([
      { type: "step-start" },
      lookupPart,
      { type: "step-start" },
      { type: "text", text: "Order A-100 was paid 49.", state: "done" },
      { type: "data-state", id: "state", data: { customer_id: "c-7" } },
    ]);
  });

  it("sends no state by default", async () => {
    const read = same(await readBoth(() => refundDesk({ script: [ChatMessage.fromAssistant("Hello.")] }).agent.stream(question())));
    expect(read.message?.parts).toEqual([{ type: "step-start" }, { type: "text", text: "Hello.", state: "done" }]);
  });

  it("shows a call waiting for confirmation as an approval request whose id is the call's decision key", async () => {
    const read = same(
      await readBoth(() => refundDesk({ script: [calls(lookupCall, refundCall)], confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } }).agent.stream(question()), { state: ["refunds"] }),
    );
    expect(read.errors).toEqual([]);
    expect(read.message?.parts).toEqual([
      { type: "step-start" },
      // The step waits as a whole: the lookup runs once the refund is decided.
      { type: "tool-lookup_order", toolCallId: "l1", state: "input-available", input: { orderId: "A-100" } },
      { type: "tool-issue_refund", toolCallId: "r1", state: "approval-requested", input: { orderId: "A-100", amount: 49 }, approval: { id: "r1" } },
      { type: "data-state", id: "state", data: {} },
    ]);
  });

  it("streams a nested agent inside its calling tool's part and asks for its paused call in a part labelled by agent", async () => {
    const make = () => {
      const inner = refundDesk({ script: [calls(refundCall)], confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } });
      const desk = inner.agent.asTool({ name: "desk", description: "Handles refunds.", inputsFromState: { customer_id: "customer_id" } });
      const outer = new Agent({
        chatGenerator: new ScriptedChatGenerator([calls({ id: "d1", toolName: "desk", arguments: { input: "Refund A-100." } })]),
        tools: [desk],
        stateSchema: { customer_id: { type: (require("zod") as typeof import("zod")).z.string() } },
      });
      return outer.stream({ messages: [ChatMessage.fromUser("Refund A-100.")], customer_id: "c-7" });
    };
    const read = same(await readBoth(make));
    expect(read.errors).toEqual([]);
    expect(read.message?.parts).toEqual([
      { type: "step-start" },
      {
        type: "tool-desk",
        toolCallId: "d1",
        state: "output-available",
        input: { input: "Refund A-100." },
        preliminary: true,
        output: { type: "agent", agent: "desk", parts: [{ type: "tool", agent: "desk", toolCallId: "r1", toolName: "issue_refund", state: "input-available", input: { orderId: "A-100", amount: 49 } }] },
      },
      { type: "tool-issue_refund", toolCallId: "d1/r1", state: "approval-requested", input: { orderId: "A-100", amount: 49 }, toolMetadata: { agent: "desk" }, approval: { id: "d1/r1" } },
    ]);
  });

  it("streams a nested agent's text and tool results as preliminary output, then the call's final output", async () => {
    const make = () => {
      const inner = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("Paid 49.")] });
      const desk = inner.agent.asTool({ name: "desk", description: "Handles refunds.", inputsFromState: { customer_id: "customer_id" } });
      const outer = new Agent({
        chatGenerator: new ScriptedChatGenerator([calls({ id: "d1", toolName: "desk", arguments: { input: "Look up A-100." } }), ChatMessage.fromAssistant("Done.")]),
        tools: [desk],
        stateSchema: { customer_id: { type: (require("zod") as typeof import("zod")).z.string() } },
      });
      return outer.stream({ messages: [ChatMessage.fromUser("Look up A-100.")], customer_id: "c-7" });
    };
    const seen: unknown[] = [];
    const http = await listen((_req, res) => void pipeUIMessageStreamToResponse(make(), res));
    try {
      const { DefaultChatTransport } = await import("ai");
      const stream = await new DefaultChatTransport({ api: http.url }).sendMessages({ trigger: "submit-message", chatId: "c", messageId: undefined, messages: [], abortSignal: undefined });
      const reader = stream.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) if (next.value.type === "tool-output-available" && next.value.preliminary) seen.push(next.value.output);
    } finally {
      await http.close();
    }
    expect(seen.at(-1)).toEqual({
      type: "agent",
      agent: "desk",
      parts: [
        { type: "tool", agent: "desk", toolCallId: "l1", toolName: "lookup_order", state: "output-available", input: { orderId: "A-100" }, output: '{"orderId":"A-100","paid":49}' },
        { type: "text", agent: "desk", text: "Paid 49." },
      ],
    });
    const read = same(await readBoth(make));
    expect(read.message?.parts).toEqual([
      { type: "step-start" },
      { type: "tool-desk", toolCallId: "d1", state: "output-available", input: { input: "Look up A-100." }, output: "Paid 49." },
      { type: "step-start" },
      { type: "text", text: "Done.", state: "done" },
    ]);
  });

  it("shows a failed tool call as output-error with the message the model gets", async () => {
    const failing = new Tool({ name: "explode", description: "Fails.", parameters: { type: "object", properties: {} }, function: () => { throw new Error("boom"); } });
    const make = () => new Agent({ chatGenerator: new ScriptedChatGenerator([calls({ id: "x1", toolName: "explode", arguments: {} }), ChatMessage.fromAssistant("Sorry.")]), tools: [failing] }).stream({ messages: [ChatMessage.fromUser("Go.")] });
    const read = same(await readBoth(make));
    const part = read.message?.parts[1] as { type: string; state: string; errorText: string };
    expect([part.type, part.state]).toEqual(["tool-explode", "output-error"]);
    expect(part.errorText).toContain("boom");
  });

  it("ends a failed run with an error whose text hides the error's message unless onError says otherwise", async () => {
    const make = () => new Agent({ chatGenerator: new ScriptedChatGenerator([() => { throw new Error("secret provider detail"); }]) }).stream({ messages: [ChatMessage.fromUser("Go.")] });
    expect(same(await readBoth(make)).errors).toEqual(["The run failed."]);
    expect(same(await readBoth(make, { onError: (error) => `Failed: ${error.name}.` })).errors).toEqual(["Failed: Error."]);
  });

  it("ends an aborted run with abort and keeps the text streamed so far", async () => {
    const make = () => {
      const controller = new AbortController();
      const model = new ScriptedChatGenerator([
        async (request) => {
          await request.streamingCallback?.({ type: "text", delta: "Working " });
          controller.abort();
          return new Promise<ChatMessage>(() => {});
        },
      ]);
      return new Agent({ chatGenerator: model }).stream({ messages: [ChatMessage.fromUser("Go.")], signal: controller.signal });
    };
    const read = same(await readBoth(make));
    expect(read.errors).toEqual([]);
    expect(read.message?.parts).toEqual([{ type: "step-start" }, { type: "text", text: "Working ", state: "done" }]);
  });
});
