import "./tools.generated";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { demoLibrary } from "./library";
import { ResearchTools, researchState } from "./researchTools";
import { scriptedResearchModel } from "./scriptedModel";

/** Runs the research assistant on one question and returns the result. */
export async function runResearchExample(model: ChatGenerator = scriptedResearchModel()) {
  const agent = new Agent({
    chatGenerator: model,
    tools: [new ResearchTools(demoLibrary())],
    stateSchema: researchState,
    systemPrompt: "You are a research assistant. Search, note each finding with its sources, then answer briefly with citations.",
    maxAgentSteps: 8,
  });
  return agent.run({ messages: [ChatMessage.fromUser("How efficient are heat pumps compared with gas boilers, also in winter?")] });
}

if (require.main === module) {
  const { chatGenerator, label } = chooseChatGenerator(scriptedResearchModel);
  console.log(`model: ${label}`);
  runResearchExample(chatGenerator).then(
    (result) => {
      console.log(`answer: ${result.lastMessage.text}`);
      console.log(`exit reason: ${result.exitReason} after ${result.stepCount} model calls`);
      console.log(`state: ${JSON.stringify({ sources: result.sources, notes: result.notes }, null, 2)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
