import { ChatMessage, countTokens, estimateTokenCounter, pruneToolResults, readToolResult, slidingWindow, summarize, summaryStateKey } from "toolwright";
import { ScriptedChatGenerator, toolCallReply, type ScriptEntry } from "toolwright/testing";
import { checkToolPairing } from "../helpers/checkToolPairing";
import { longToolRun, pageText } from "./longToolRun";

const steps = 500;
const maxTokens = 12_000;

// Every request the model got keeps the pairing rules and the limit; state keeps every message.
function expectValidRequests(model: ScriptedChatGenerator, result: { messages: ChatMessage[] }, expectedMessages: number) {
  const problems: string[] = [];
  let largest = 0;
  for (const [i, request] of model.requests.entries()) {
    for (const problem of checkToolPairing(request.messages)) problems.push(`request ${i + 1}: ${problem}`);
    largest = Math.max(largest, countTokens(request.messages, estimateTokenCounter));
  }
  expect(problems).toEqual([]);
  expect(largest).toBeLessThanOrEqual(maxTokens);
  expect(result.messages).toHaveLength(expectedMessages);
  expect(checkToolPairing(result.messages)).toEqual([]);
  expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result).slice(0, steps)).toEqual(Array.from({ length: steps }, (_, i) => pageText(i + 1)));
}

describe("compaction over a 500-step run", () => {
  it("slidingWindow keeps every request paired and under the limit", async () => {
    const { agent, model } = longToolRun({ steps, middleware: [slidingWindow({ maxTokens })] });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Read the archive.")] });

    expect(result.exitReason).toBe("text");
    expectValidRequests(model, result, 2 + steps * 2 + 1);
    const last = model.requests.at(-1)!.messages;
    expect(last[0]!.text).toBe("You read the archive page by page.");
    expect(last.at(-1)!.toolCallResult!.result).toBe(pageText(steps));
  });

  it("pruneToolResults with a window keeps every request valid, and read_tool_result reads an offloaded result in full", async () => {
    const then: ScriptEntry[] = [toolCallReply(["read_tool_result", { id: "call_3" }, "read_1"]), ChatMessage.fromAssistant("Page 3 read again.")];
    const { agent, model } = longToolRun({ steps, middleware: [pruneToolResults({ keepLast: 2, maxChars: 500 }), slidingWindow({ maxTokens })], tools: [readToolResult()], then });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Read the archive.")] });

    expect(result.exitReason).toBe("text");
    expectValidRequests(model, result, 2 + steps * 2 + 3);
    const sent = model.requests.at(-2)!.messages;
    expect(sent.at(-5)!.toolCallResult!.result).toBe("[result of fetch_page #call_498: 4000 chars; call read_tool_result to read it]");
    expect(sent.at(-3)!.toolCallResult!.result).toBe(pageText(steps - 1));
    expect(sent.at(-1)!.toolCallResult!.result).toBe(pageText(steps));
    // The window holds far more steps than without pruning: references are short.
    expect(sent.length).toBeGreaterThan(100);
    expect(result.messages.at(-2)!.toolCallResult!.result).toBe(pageText(3));
    expect(model.requests.at(-1)!.messages.at(-1)!.toolCallResult!.result).toBe(pageText(3));
  });

  it("summarize keeps every request valid and under the limit, and reuses its summary across steps", async () => {
    const summaries: string[] = [];
    const summarizer = new ScriptedChatGenerator(
      Array.from({ length: steps }, () => (request) => {
        const ids = [...request.messages[1]!.text!.matchAll(/#(call_\d+) \(fetch_page\)/g)].map((m) => m[1]);
        summaries.push(`${ids[0]}–${ids.at(-1)}`);
        return ChatMessage.fromAssistant(`Pages fetched: ${ids[0]} to ${ids.at(-1)}.`);
      }),
    );
    const { agent, model } = longToolRun({
      steps,
      middleware: [summarize({ chatGenerator: summarizer, maxTokens, keepLast: 4 })],
      stateSchema: { conversation_summary: summaryStateKey() },
    });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Read the archive.")] });

    expect(result.exitReason).toBe("text");
    expectValidRequests(model, result, 2 + steps * 2 + 1);
    // Each summary is made once and reused until the conversation outgrows it: far fewer than the steps.
    expect(summarizer.requests.length).toBeLessThan(steps / 2);
    // The first: once 10 pages no longer fit, all but the newest 2 calls (keepLast 4 messages).
    expect(summaries[0]).toBe("call_1–call_8");
    // Then the summary and the pages since are summarized again, each time the window fills.
    expect(summaries[1]).toBe("call_9–call_16");
    expect(summarizer.requests[1]!.messages[1]!.text).toMatch(/^Summary so far:\nPages fetched: call_1 to call_8\.\n\nThe conversation since:\nassistant called fetch_page\(\{"page":9\}\) #call_9\n\ntool result #call_9 \(fetch_page\): page 9: /);
    expect(summaries.length).toBe(62); // one per 8 pages: the k-th once 8k + 2 pages are in
    const last = model.requests.at(-1)!.messages;
    expect(last[1]!.text).toMatch(/^\[Summary of the earlier conversation\]\nPages fetched: call_\d+ to call_\d+\.$/);
    const stored = result.conversation_summary as { covered: number; text: string };
    expect(last[1]!.text).toBe(`[Summary of the earlier conversation]\n${stored.text}`);
    expect(last.slice(2)).toEqual(result.messages.slice(1 + stored.covered, -1));
  });
});
