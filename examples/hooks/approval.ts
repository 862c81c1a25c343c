import { Agent, type AgentSnapshot, type ConfirmationDecision, type Middleware, type PendingConfirmation } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { customerAsks, deskState, deskTools, reply } from "./refundDesk";

/**
 * An approval: every call to one of `toolNames` pauses the run for a person. The run ends with
 * `confirmation_required`, the pending calls and a snapshot (plain JSON: store it anywhere);
 * `agent.run({ snapshot, decisions })` continues it with the person's decision.
 */
export function approvalFor(toolNames: readonly string[]): Middleware {
  return {
    name: "approval",
    beforeTool: ({ toolCall }) => (toolNames.includes(toolCall.toolName) ? { action: "pause" } : undefined),
  };
}

function scriptedModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    reply(undefined, 300, [
      { id: "l1", toolName: "lookup_order", arguments: { orderId: "B-200" } },
      { id: "r1", toolName: "issue_refund", arguments: { orderId: "B-200", amount: 250 } },
    ]),
    reply("A colleague approved a refund of 200 for the chair (B-200); it is on its way.", 200),
  ]);
}

// The person at the desk: approves the refund, lowered to 200 (the chair came back scratched).
function personDecides(pending: readonly PendingConfirmation[]): Record<string, ConfirmationDecision> {
  return Object.fromEntries(pending.map((p) => [p.toolCallId, { action: "modify", arguments: { ...p.arguments, amount: 200 }, feedback: "approved at 200: returned scratched" } as const]));
}

/** Runs the approval example: the refund waits for a person; the run resumes from its stored snapshot with the decision. */
export async function runApprovalExample(print: (line: string) => void = console.log) {
  const agent = new Agent({ name: "refund-desk", chatGenerator: scriptedModel(), tools: deskTools(), stateSchema: deskState, middleware: [approvalFor(["issue_refund"])] });
  print("== approval: beforeTool pauses refunds for a person ==");
  const paused = await agent.run(customerAsks("The chair (B-200) came back; please refund it."));
  if (paused.exitReason !== "confirmation_required") throw new Error(`expected the refund to wait for a person, got ${paused.exitReason}`);
  for (const p of paused.pendingConfirmations) print(`waiting for a person: ${p.toolName}(${JSON.stringify(p.arguments)}) [${p.toolCallId}]`);
  print(`refunds so far: ${JSON.stringify(paused.refunds ?? [])}`);
  // What a service would store in a database until the person answers.
  const stored = JSON.stringify(paused.snapshot);
  const decisions = personDecides(paused.pendingConfirmations);
  print(`the person decides: ${JSON.stringify(decisions)}`);
  const resumed = await agent.run({ snapshot: JSON.parse(stored) as AgentSnapshot, decisions });
  print(`resumed: ${resumed.exitReason}; refunds: ${JSON.stringify(resumed.refunds)}`);
  print(`answer: ${resumed.lastMessage.text}`);
  return { paused, resumed };
}
