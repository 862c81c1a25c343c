import "./tools.generated";
import { Agent, ChatMessage } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { ClockTools } from "./clockTools";

/** Calls the tool through a scripted model and prints what it returned. */
async function main(): Promise<void> {
  const model = new ScriptedChatGenerator([
    toolCallReply(["add_minutes", { time: "23:50", minutes: 25 }]),
    (request) => ChatMessage.fromAssistant(`It will be ${request.messages.at(-1)?.toolCallResult?.result}`),
  ]);
  const agent = new Agent({ chatGenerator: model, tools: [new ClockTools()], maxAgentSteps: 3 });
  const result = await agent.run({ messages: [ChatMessage.fromUser("What time is it 25 minutes after 23:50?")] });
  console.log(`answer: ${result.lastMessage.text}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
