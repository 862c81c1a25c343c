import "../../examples/service/tools.generated";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ChatGeneratorRequest } from "toolwright";
import { refundDeskAgent } from "../../examples/service/main";
import { RefundDeskModel } from "../../examples/service/ruleModel";
import { createRefundServer, MemorySnapshotStore } from "../../examples/service/server";

interface SseEvent {
  event: string;
  data: any;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))!.slice("event: ".length);
      const data = lines.find((line) => line.startsWith("data: "))!.slice("data: ".length);
      return { event, data: JSON.parse(data) };
    });
}

/** A RefundDeskModel that keeps every request it got. */
class RecordingModel extends RefundDeskModel {
  readonly requests: ChatGeneratorRequest[] = [];
  override async run(request: ChatGeneratorRequest) {
    this.requests.push({ ...request, messages: [...request.messages] });
    return super.run(request);
  }
}

describe("createRefundServer", () => {
  let server: Server;
  let base: string;
  let model: RecordingModel;

  beforeAll(async () => {
    model = new RecordingModel();
    server = createRefundServer(refundDeskAgent(model));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string | null; text: string }> {
    const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  }

  async function chat(message: string, customerId = "c-42"): Promise<SseEvent[]> {
    const response = await post("/chat", { message }, { "x-customer-id": customerId });
    expect(response.status).toBe(200);
    expect(response.contentType).toBe("text/event-stream");
    return parseSse(response.text);
  }

  async function decide(runId: string, decisions: unknown): Promise<SseEvent[]> {
    const response = await post(`/runs/${runId}/decisions`, { decisions });
    expect(response.status).toBe(200);
    return parseSse(response.text);
  }

  const textOf = (events: SseEvent[]) => events.filter((e) => e.event === "text").map((e) => e.data.delta as string).join("");

  it("streams the lookup, its result, the text and the refund call in order, then asks for approval with the pending call", async () => {
    const events = await chat("Please refund order A-100");

    expect(events.map((e) => e.event)).toEqual([
      "toolCallDelta",
      "finish",
      "toolResult",
      "finish",
      "text",
      "text",
      "text",
      "text",
      "text",
      "text",
      "toolCallDelta",
      "finish",
      "confirmation_required",
    ]);
    expect(events[0]!.data).toEqual({ type: "toolCallDelta", index: 0, id: "call_lookup", toolName: "lookup_order", argumentsDelta: '{"orderId":"A-100"}' });
    expect(events[2]!.data).toMatchObject({
      type: "toolResult",
      toolCall: { id: "call_lookup", toolName: "lookup_order" },
      result: { result: '{"orderId":"A-100","item":"Desk lamp","paid":49}', error: false },
    });
    expect(textOf(events)).toBe("Let me refund that for you.");
    expect(events[10]!.data).toEqual({ type: "toolCallDelta", index: 0, id: "call_refund", toolName: "issue_refund", argumentsDelta: '{"orderId":"A-100","amount":49}' });
    const pause = events.at(-1)!.data;
    expect(pause.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(pause.pending).toEqual([{ toolCallId: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
  });

  it("resumes the run on approval: the refund runs, the model reports it, and the result event carries the refund", async () => {
    const { runId } = (await chat("Please refund order A-100")).at(-1)!.data;

    const events = await decide(runId, { call_refund: { action: "confirm" } });

    expect(events.map((e) => e.event)).toEqual(["toolResult", "finish", ...Array(11).fill("text"), "finish", "result"]);
    expect(events[0]!.data).toMatchObject({
      type: "toolResult",
      toolCall: { id: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } },
      result: { result: '{"orderId":"A-100","amount":49}', error: false },
    });
    expect(textOf(events)).toBe("Done: your refund of 49 for A-100 is on its way.");
    expect(events.at(-1)!.data).toEqual({ answer: "Done: your refund of 49 for A-100 is on its way.", exitReason: "text", refunds: [{ orderId: "A-100", amount: 49 }] });
  });

  it("runs the refund with the amount a person changed it to", async () => {
    const { runId } = (await chat("Please refund order A-101")).at(-1)!.data;

    const events = await decide(runId, { call_refund: { action: "modify", arguments: { orderId: "A-101", amount: 50 } } });

    expect(events.at(-1)!.data).toEqual({ answer: "Done: your refund of 50 for A-101 is on its way.", exitReason: "text", refunds: [{ orderId: "A-101", amount: 50 }] });
  });

  it("does not run a rejected refund, and the model's final text gives the rejection", async () => {
    const { runId } = (await chat("Please refund order A-100")).at(-1)!.data;

    const events = await decide(runId, { call_refund: { action: "reject", feedback: "Refunds need a receipt." } });

    expect(events[0]!.event).toBe("toolResult");
    expect(events[0]!.data.result).toEqual({ result: "Refunds need a receipt.", origin: { id: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }, error: true });
    expect(events.at(-1)!.data).toEqual({ answer: "I could not refund A-100: Refunds need a receipt.", exitReason: "text", refunds: [] });
  });

  it("answers 404 for a run that was already resumed", async () => {
    const { runId } = (await chat("Please refund order A-100")).at(-1)!.data;
    await decide(runId, { call_refund: { action: "confirm" } });

    const again = await post(`/runs/${runId}/decisions`, { decisions: { call_refund: { action: "confirm" } } });

    expect(again.status).toBe(404);
    expect(JSON.parse(again.text)).toEqual({ error: `no paused run ${runId}` });
  });

  it("answers 404 for an unknown runId and for an unknown route", async () => {
    const unknownRun = await post("/runs/no-such-run/decisions", { decisions: { call_refund: { action: "confirm" } } });
    const unknownRoute = await post("/refunds", {});

    expect(unknownRun.status).toBe(404);
    expect(JSON.parse(unknownRun.text)).toEqual({ error: "no paused run no-such-run" });
    expect(unknownRoute.status).toBe(404);
    expect(JSON.parse(unknownRoute.text)).toEqual({ error: "POST /chat or POST /runs/:runId/decisions" });
  });

  it("answers 400 for a chat without a message, with a body that is not JSON, or without a customer", async () => {
    const responses = [await post("/chat", {}, { "x-customer-id": "c-42" }), await post("/chat", "{not json", { "x-customer-id": "c-42" }), await post("/chat", { message: "hi" })];

    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(JSON.parse(response.text)).toEqual({ error: "send { message } with an x-customer-id header" });
    }
  });

  it("answers 400 for decisions that are not valid, and keeps the run for a valid retry", async () => {
    const { runId } = (await chat("Please refund order A-100")).at(-1)!.data;

    const invalid = await post(`/runs/${runId}/decisions`, { decisions: { call_refund: { action: "approve" } } });
    const missing = await post(`/runs/${runId}/decisions`, "{not json");
    const events = await decide(runId, { call_refund: { action: "confirm" } });

    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text)).toEqual({
      error: 'Agent.run has a decision for \'call_refund\' that is not valid: a decision is { action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }.',
    });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toEqual({
      error: 'Agent.run resumes a run waiting for confirmation of call_refund (issue_refund); pass decisions: { "call_refund": { action: "confirm" } } (or "reject", or "modify" with arguments).',
    });
    expect(events.at(-1)!.event).toBe("result");
  });

  it("takes the customer from the session, never from the model, and keeps it out of everything the model sees", async () => {
    model.requests.length = 0;

    const events = await chat("Please refund order A-100", "c-7");

    expect(events.at(-1)).toEqual({ event: "result", data: { answer: "I could not refund A-100: Tool 'lookup_order' failed: no order A-100 for this customer.", exitReason: "text", refunds: [] } });
    const seen = JSON.stringify(model.requests.map((request) => ({ messages: request.messages.map((m) => m.toJSON()), tools: request.tools })));
    expect(seen).not.toContain("c-7");
    expect(seen).not.toContain("customerId");
  });

  it("refuses a paused run whose stored snapshot was edited, since the agent signs its snapshots", async () => {
    const store = new MemorySnapshotStore();
    const tampering = createRefundServer(refundDeskAgent(new RefundDeskModel()), {
      save: (runId, snapshot) => store.save(runId, { ...snapshot, stepCount: snapshot.stepCount + 1 }),
      take: (runId) => store.take(runId),
    });
    await new Promise<void>((resolve) => tampering.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(tampering.address() as AddressInfo).port}`;
    try {
      const paused = await fetch(`${url}/chat`, { method: "POST", headers: { "x-customer-id": "c-42" }, body: JSON.stringify({ message: "Please refund order A-100" }) });
      const { runId } = parseSse(await paused.text()).at(-1)!.data;

      const response = await fetch(`${url}/runs/${runId}/decisions`, { method: "POST", body: JSON.stringify({ decisions: { call_refund: { action: "confirm" } } }) });

      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error:
          "Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.",
      });
    } finally {
      tampering.closeAllConnections();
      await new Promise((resolve) => tampering.close(resolve));
    }
  });
});
