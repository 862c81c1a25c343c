import "./tools.generated";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { scriptedSupportModel } from "./scriptedModel";
import { supportState, SupportTools } from "./supportTools";
import { demoStore } from "./ticketStore";

/** Runs the support agent for customer c-42 and returns the result. */
export async function runSupportExample(model: ChatGenerator = scriptedSupportModel()) {
  const agent = new Agent({
    chatGenerator: model,
    tools: [new SupportTools(demoStore())],
    stateSchema: supportState,
    systemPrompt: "You are a support assistant. Use the tools to look up and close the customer's tickets.",
    maxAgentSteps: 10,
  });
  return agent.run({
    messages: [ChatMessage.fromUser("Which of my tickets are open? Close the printer one, it works again.")],
    customer_id: "c-42",
  });
}

if (require.main === module) {
  const { chatGenerator, label } = chooseChatGenerator(scriptedSupportModel);
  console.log(`model: ${label}`);
  runSupportExample(chatGenerator).then(
    (result) => {
      console.log(`answer: ${result.lastMessage.text}`);
      console.log(`exit reason: ${result.exitReason} after ${result.stepCount} model calls`);
      console.log(`state: ${JSON.stringify({ customer_id: result.customer_id, tickets: result.tickets, closed: result.closed }, null, 2)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
