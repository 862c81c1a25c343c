import "./tools.generated";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import { scriptedSupportModel } from "./scriptedModel";
import { supportState, SupportTools } from "./supportTools";
import { demoStore } from "./ticketStore";

/** The example's chat model: scripted offline. */
export function chatGenerator(): ChatGenerator {
  return scriptedSupportModel();
}

/** Runs the support agent for customer c-42 and returns the result. */
export async function runSupportExample(model: ChatGenerator = chatGenerator()) {
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
  runSupportExample().then(
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
