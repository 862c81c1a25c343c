import "../../../examples/service/tools.generated";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { refundDeskAgent } from "../../../examples/service/main";
import { RefundDeskModel } from "../../../examples/service/ruleModel";
import type { ChatRecord } from "../../../examples/web/chatRecord";
import { createWebServer } from "../../../examples/web/server";

// The chat routes over real HTTP, read with ai's own stream reader (they need toolwright/ui).
describe("createChatRoutes", () => {
  let server: Server;
  let base: string;
  const chats = new Map<string, ChatRecord>();

  beforeAll(async () => {
    server = createWebServer({ agent: refundDeskAgent(new RefundDeskModel()), customerId: "c-42", pageDir: __dirname, chats, maxBodyBytes: 64 * 1024 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const userMessage = (text: string): UIMessage => ({ id: `u-${text.length}`, role: "user", parts: [{ type: "text", text }] });
  const post = (body: unknown) => fetch(`${base}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

  async function reply(response: Response, message?: UIMessage): Promise<UIMessage> {
    const chunks = response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .pipeThrough(
        new TransformStream<{ data: string }, UIMessageChunk>({
          transform: (event, controller) => {
            if (event.data !== "[DONE]") controller.enqueue(JSON.parse(event.data) as UIMessageChunk);
          },
        }),
      );
    let last = message;
    for await (const next of readUIMessageStream({ message: message && structuredClone(message), stream: chunks })) last = next;
    return last!;
  }

  async function pausedChat(id: string): Promise<UIMessage[]> {
    const question = userMessage("Please refund order A-100");
    const response = await post({ id, messages: [question], trigger: "submit-message" });
    expect(response.status).toBe(200);
    const answer = await reply(response);
    while (chats.get(id)?.run) await chats.get(id)!.run!.finished;
    const refund = answer.parts.find((part) => part.type === "tool-issue_refund" || (part.type === "dynamic-tool" && part.toolName === "issue_refund")) as { state: string; approval?: { id: string } };
    expect(refund.state).toBe("approval-requested");
    return [question, { ...answer, parts: answer.parts.map((part) => (part === (refund as object) ? { ...refund, state: "approval-responded", approval: { id: refund.approval!.id, approved: true } } : part)) } as UIMessage];
  }

  it("refuses a body larger than maxBodyBytes with 413", async () => {
    const response = await post({ id: "big", messages: [userMessage("x".repeat(70 * 1024))] });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The request body is larger than 65536 bytes; send a shorter conversation." });
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request body is not JSON; send what useChat posts." });
  });

  it("refuses a request without a usable chat id with 400", async () => {
    const response = await post({ id: "../etc", messages: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The chat request needs an id (letters, digits, '-' or '_', at most 64) and a messages array, as useChat sends them." });
  });

  it("answers 204 to a reconnection when no reply is streaming", async () => {
    const response = await fetch(`${base}/api/chat/nothing-here/stream`);
    expect(response.status).toBe(204);
  });

  it("resumes a paused run once when the same approval arrives twice at the same time", async () => {
    const messages = await pausedChat("twice");
    const [first, second] = await Promise.all([post({ id: "twice", messages, trigger: "submit-message" }), post({ id: "twice", messages, trigger: "submit-message" })]);
    const [won, lost] = first.status === 200 ? [first, second] : [second, first];
    expect([won.status, lost.status]).toEqual([200, 409]);
    // Which refusal depends on whether the winner's run had started when the loser arrived.
    expect([
      "Chat 'twice' is still streaming a reply; follow it at GET /api/chat/twice/stream or wait for it to end.",
      "Chat 'twice' has no run waiting for an approval; send a new message instead.",
    ]).toContain(((await lost.json()) as { error: string }).error);
    const answer = await reply(won, messages[1]);
    expect(answer.parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["Let me refund that for you.", "Done: your refund of 49 for A-100 is on its way."]);
    while (chats.get("twice")?.run) await chats.get("twice")!.run!.finished;
    expect(chats.get("twice")!.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
  });

  it("answers an approval for a chat with no paused run with 409", async () => {
    const messages = await pausedChat("spent");
    const answer = await reply(await post({ id: "spent", messages, trigger: "submit-message" }), messages[1]);
    while (chats.get("spent")?.run) await chats.get("spent")!.run!.finished;
    const again = await post({ id: "spent", messages: [messages[0], { ...answer, parts: messages[1]!.parts }], trigger: "submit-message" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Chat 'spent' has no run waiting for an approval; send a new message instead." });
    expect(chats.get("spent")!.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
  });

  it("keeps the finished reply in the chat's history for a reloaded page", async () => {
    const messages = await pausedChat("history");
    await reply(await post({ id: "history", messages, trigger: "submit-message" }), messages[1]);
    while (chats.get("history")?.run) await chats.get("history")!.run!.finished;
    const history = (await (await fetch(`${base}/api/chats/history`)).json()) as { messages: UIMessage[] };
    expect(history.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(history.messages[1]!.parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["Let me refund that for you.", "Done: your refund of 49 for A-100 is on its way."]);
  });
});
