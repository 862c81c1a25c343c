import "./tools.generated";
import { Agent, type AgentTracing, ChatMessage, type ChatGenerator } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { traceFromEnvironment } from "../shared/consoleTrace";
import { scriptedSupportModel } from "./scriptedModel";
import { supportState, SupportTools } from "./supportTools";
import { demoStore } from "./ticketStore";

/** Runs the support agent for customer c-42 and returns the result; `tracing` turns the run into a trace. */
export async function runSupportExample(model: ChatGenerator = scriptedSupportModel(), tracing?: AgentTracing) {
  const agent = new Agent({
    name: "support-desk",
    chatGenerator: model,
    tracing,
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
  const trace = traceFromEnvironment();
  runSupportExample(chatGenerator, trace?.tracing).then(
    (result) => {
      const { usage } = result;
      console.log(`answer: ${result.lastMessage.text}`);
      console.log(`exit reason: ${result.exitReason} after ${result.stepCount} model calls`);
      console.log(`usage: ${usage.toolCalls} tool calls (${usage.failedToolCalls} failed), ${usage.inputTokens} input + ${usage.outputTokens} output tokens`);
      console.log(`state: ${JSON.stringify({ customer_id: result.customer_id, tickets: result.tickets, closed: result.closed }, null, 2)}`);
      if (trace) console.log(["spans (TOOLWRIGHT_TRACE=console):", ...trace.lines()].join("\n"));
      else console.log("(TOOLWRIGHT_TRACE=console prints the run's OpenTelemetry spans)");
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
