// A support conversation that outlives its process: `npm run example:sessions` runs turn 1 in one
// process and turn 2 in another; the thread is kept in PGlite (or Postgres with DATABASE_URL).
import "../support/tools.generated";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import type { ConversationStore } from "toolwright/conversations";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { supportState, SupportTools } from "../support/supportTools";
import { demoStore } from "../support/ticketStore";
import { firstTurnModel, secondTurnModel } from "./scriptedModel";
import { openThreadStore } from "./threadStore";

export const threadId = "customer-c-42";
const questions = ["Which of my tickets are open?", "Close the printer one, it works again."];

/** Runs one turn of the customer's thread: its history is loaded, and the turn's messages appended once. */
export async function runTurn(turn: 1 | 2, store: ConversationStore, model: ChatGenerator, print: (line: string) => void = console.log) {
  const agent = new Agent({
    name: "support-desk",
    chatGenerator: model,
    tools: [new SupportTools(demoStore())],
    stateSchema: supportState,
    systemPrompt: "You are a support assistant. Use the tools to look up and close the customer's tickets.",
  });
  const before = await store.load(threadId);
  print(`turn ${turn}: the thread holds ${before.messages.length} messages (version ${before.version})`);
  print(`customer: ${questions[turn - 1]}`);
  const result = await agent.run({
    messages: [ChatMessage.fromUser(questions[turn - 1]!)],
    customer_id: "c-42",
    // A stable id per request: a retried request appends once.
    runId: `${threadId}-turn-${turn}`,
    conversation: { store, threadId },
  });
  print(`assistant: ${result.lastMessage.text}`);
  print(`appended ${result.conversation!.appended} messages; the thread is at version ${result.conversation!.version}`);
  return result;
}

async function main(): Promise<void> {
  const turn = process.argv[2] === "2" ? 2 : 1;
  const { store, label } = await openThreadStore();
  try {
    console.log(`store: ${label}`);
    if (turn === 1) await store.deleteThread(threadId); // each run of the example starts the thread afresh
    const { chatGenerator, label: model } = chooseChatGenerator(turn === 1 ? firstTurnModel : secondTurnModel);
    console.log(`model: ${model} (process ${process.pid})`);
    await runTurn(turn, store, chatGenerator);
    if (turn === 2) {
      const thread = await store.load(threadId);
      console.log(`the whole thread, as the store keeps it:`);
      for (const message of thread.messages) console.log(`  ${message.role}: ${message.text ?? message.toolCalls.map((c) => `${c.toolName}(${JSON.stringify(c.arguments)})`).join(", ") ?? ""}${message.toolCallResult ? message.toolCallResult.result.slice(0, 80) : ""}`);
    }
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
