import "./tools.generated";
import { randomBytes } from "node:crypto";
import { Agent, DeferredConfirmationStrategy, type ChatGenerator } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { RefundTools, serviceState } from "./refundTools";
import { RefundDeskModel } from "./ruleModel";
import { createRefundServer } from "./server";

/**
 * The refund desk agent: refunds wait for a person's approval; lookups run freely. Its snapshots
 * are signed (SNAPSHOT_KEY, or a random key per process), so a paused run read back from a shared
 * store that someone edited is refused instead of resumed.
 */
export function refundDeskAgent(chatGenerator: ChatGenerator = new RefundDeskModel(), snapshotKey: string | Uint8Array = process.env.SNAPSHOT_KEY ?? randomBytes(32)) {
  return new Agent({
    chatGenerator,
    tools: [new RefundTools()],
    stateSchema: serviceState,
    systemPrompt: "You handle refunds. Look the order up, then refund what was paid.",
    confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
    maxAgentSteps: 8,
    snapshotKey,
  });
}

if (require.main === module) {
  const { chatGenerator, label } = chooseChatGenerator(() => new RefundDeskModel());
  const port = Number(process.env.PORT ?? 3000);
  createRefundServer(refundDeskAgent(chatGenerator)).listen(port, "127.0.0.1", () => {
    console.log(`refund desk on http://127.0.0.1:${port} (model: ${label})`);
    console.log(`try: curl -N -H 'x-customer-id: c-42' -d '{"message":"Please refund order A-100"}' http://127.0.0.1:${port}/chat`);
    console.log(`then: curl -N -d '{"decisions":{"call_refund":{"action":"confirm"}}}' http://127.0.0.1:${port}/runs/<runId>/decisions`);
  });
}
