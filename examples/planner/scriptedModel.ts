import { ChatMessage } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/** Stands in for a real model offline: estimates, adds steps in order, and finalizes the plan. */
export function scriptedPlannerModel(): ScriptedChatGenerator {
  const call = (id: string, toolName: string, args: Record<string, unknown>) => ({ id, toolName, arguments: args });
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant("Let me size the work first.", {
      toolCalls: [call("e1", "estimate", { task: "Pick a venue", size: "small" }), call("e2", "estimate", { task: "Invite speakers", size: "medium" })],
    }),
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [call("a1", "add_step", { title: "Pick a venue", hours: 2 }), call("a2", "add_step", { title: "Invite speakers", hours: 6, after: [1] })],
    }),
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [call("f1", "finalize_plan", { summary: "Book the venue first (2 h), then invite speakers (6 h): 8 hours in all, well before the deadline." })],
    }),
  ]);
}
