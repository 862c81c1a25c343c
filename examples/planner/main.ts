import "./tools.generated";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { PlannerTools, plannerState } from "./plannerTools";
import { scriptedPlannerModel } from "./scriptedModel";

/** Runs the planner; the run ends when `finalize_plan` succeeds (an exit condition). */
export async function runPlannerExample(model: ChatGenerator = scriptedPlannerModel()) {
  const agent = new Agent({
    chatGenerator: model,
    tools: [new PlannerTools()],
    stateSchema: plannerState,
    exitConditions: ["finalize_plan"],
    systemPrompt: "You plan small projects: estimate tasks, add them as steps in order, then call finalize_plan.",
    maxAgentSteps: 10,
  });
  return agent.run({ messages: [ChatMessage.fromUser("Plan a meetup: a venue and two speakers.")], deadline: new Date("2026-12-04T00:00:00Z") });
}

if (require.main === module) {
  const { chatGenerator, label } = chooseChatGenerator(scriptedPlannerModel);
  console.log(`model: ${label}`);
  runPlannerExample(chatGenerator).then(
    (result) => {
      console.log(`answer: ${result.summary ?? result.lastMessage.text}`);
      console.log(`exit reason: ${result.exitReason} after ${result.stepCount} model calls`);
      console.log(`state: ${JSON.stringify({ steps: result.steps, summary: result.summary, deadline: result.deadline }, null, 2)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
