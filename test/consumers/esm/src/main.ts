import "./tools.generated.js";
import { Agent, ChatMessage, chatMessageSchema } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { CartTools, cartState } from "./cartTools.js";
import { answerWithOwnClient } from "./ownClient.js";

/** Adds two items through the scripted model and prints the total the tools computed. */
async function main(): Promise<void> {
  const model = new ScriptedChatGenerator([
    toolCallReply(["add_item", { item: "tea", priceCents: 350 }]),
    toolCallReply(["add_item", { item: "cake", priceCents: 425 }]),
    (request) => ChatMessage.fromAssistant(`Done: ${request.messages.at(-1)?.toolCallResult?.result}`),
  ]);
  const agent = new Agent({ chatGenerator: model, tools: [new CartTools()], stateSchema: cartState, maxAgentSteps: 5 });
  const result = await agent.run({ messages: [ChatMessage.fromUser("Tea and cake, please.")], totalCents: 0 });
  console.log(`answer: ${result.lastMessage.text}`);
  console.log(`totalCents: ${result.totalCents}`);
  // A getter export (zod is loaded when it is first read): it must work as a named import too.
  console.log(`chatMessageSchema accepts a message: ${chatMessageSchema.safeParse(ChatMessage.fromUser("hi")).success}`);
  console.log(`own OpenAI client: ${await answerWithOwnClient()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
