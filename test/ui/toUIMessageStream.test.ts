import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { pipeUIMessageStreamToResponse, toUIMessageStream, type ToUIMessageStreamOptions, type UIStreamSource } from "toolwright/ui";
import { calls, lookupCall, question, refundCall, refundDesk } from "../helpers/refundDesk";
import { listen, readWithAi6, readWithAi7, type ReadMessage } from "./uiStreamClient";

// Serves one run per request through pipeUIMessageStreamToResponse and reads it with ai 6 and ai 7.
async function readBoth(makeSource: () => UIStreamSource, options: ToUIMessageStreamOptions = {}): Promise<{ ai6: ReadMessage; ai7: ReadMessage }> {
  const http = await listen((_req, res) => void pipeUIMessageStreamToResponse(makeSource(), res, options));
  try {
    return { ai6: await readWithAi6(http.url), ai7: await readWithAi7(http.url) };
  } finally {
    await http.close();
  }
}

async function chunksOf(source: UIStreamSource, options?: ToUIMessageStreamOptions): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = toUIMessageStream(source, options).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

describe("toUIMessageStream", () => {
  it("DEBUG", async () => {
    const { agent } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("Order A-100 was paid 49.")] });
    console.log(JSON.stringify(await chunksOf(agent.stream(question()), { state: ["refunds", "customer_id"] })));
    const both = await readBoth(() => refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("Order A-100 was paid 49.")] }).agent.stream(question()), { state: ["refunds", "customer_id"] });
    console.log(JSON.stringify(both, null, 1));
  });
});
