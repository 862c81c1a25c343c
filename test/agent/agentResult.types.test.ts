import { expectTypeOf } from "expect-type";
import { Agent, type AgentSnapshot, ChatMessage, type PendingConfirmation, type RunStop, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const chatGenerator = new ScriptedChatGenerator([]);

describe("AgentResult types", () => {
  it("closes exitReason over the literal exit-condition tool names", async () => {
    const finalizePlan = new Tool({ name: "finalize_plan", description: "Finish.", parameters: { type: "object", properties: {} }, function: () => "done" });
    const agent = new Agent({ chatGenerator, tools: [finalizePlan], exitConditions: ["text", "finalize_plan"] });
    const run = () => agent.run({ messages: [ChatMessage.fromUser("Plan it.")] });

    expectTypeOf<Awaited<ReturnType<typeof run>>["exitReason"]>().toEqualTypeOf<"text" | "max_agent_steps" | "confirmation_required" | "stopped" | "budget_exhausted" | "guardrail_tripped" | "finalize_plan">();
  });

  it("has no tool names in exitReason without exitConditions, and any string for a non-literal list", () => {
    const plain = new Agent({ chatGenerator });
    const conditions: string[] = ["text"];
    const dynamic = new Agent({ chatGenerator, exitConditions: conditions });

    expectTypeOf<Awaited<ReturnType<typeof plain.run>>["exitReason"]>().toEqualTypeOf<"text" | "max_agent_steps" | "confirmation_required" | "stopped" | "budget_exhausted" | "guardrail_tripped">();
    expectTypeOf<Awaited<ReturnType<typeof dynamic.run>>["exitReason"]>().toEqualTypeOf<string>();
  });

  it("narrows to pendingConfirmations and snapshot after checking confirmation_required, and to stopped and snapshot after stopped", () => {
    const agent = new Agent({ chatGenerator });
    type Result = Awaited<ReturnType<typeof agent.run>>;
    const use = (result: Result) => {
      if (result.exitReason === "confirmation_required") {
        expectTypeOf(result.snapshot).toEqualTypeOf<AgentSnapshot>();
        expectTypeOf(result.pendingConfirmations).toEqualTypeOf<PendingConfirmation[]>();
      } else if (result.exitReason === "stopped" || result.exitReason === "budget_exhausted" || result.exitReason === "guardrail_tripped") {
        expectTypeOf(result.snapshot).toEqualTypeOf<AgentSnapshot>();
        expectTypeOf(result.stopped).toEqualTypeOf<RunStop>();
      } else {
        expectTypeOf(result.snapshot).toEqualTypeOf<undefined>();
      }
    };
    expectTypeOf(use).toBeFunction();
  });
});
