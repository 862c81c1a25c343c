import { z } from "zod";
import { Agent, budget, ChatMessage, MiddlewareError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const answer = () => ChatMessage.fromAssistant("done", { meta: { usage: { promptTokens: 100, completionTokens: 10 } } });

describe("budget limitsStateKey", () => {
  it("takes raised limits from state over its own, one by one, so a resumed run goes on", async () => {
    const spend = budget({ maxModelCalls: 0, maxTotalTokens: 1000, limitsStateKey: "limits" });
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([answer()]), stateSchema: { limits: { type: z.record(z.string(), z.number()) } }, middleware: [spend] });
    const stopped = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    if (stopped.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${stopped.exitReason}`);
    expect(stopped.stopped.details).toEqual({ budget: "modelCalls", limit: 0, used: 0 });

    const resumed = await agent.run({ snapshot: stopped.snapshot, stateUpdates: { limits: { maxModelCalls: 1 } } });

    expect(resumed.exitReason).toBe("text");
    expect(spend.limits).toEqual({ maxModelCalls: 0, maxTotalTokens: 1000 });
  });

  it("names an undeclared key and a value that is not limits", async () => {
    const undeclared = new Agent({ chatGenerator: new ScriptedChatGenerator([answer()]), middleware: [budget({ maxModelCalls: 1, limitsStateKey: "limits" })] });
    await expect(undeclared.run({ messages: [ChatMessage.fromUser("go")] })).rejects.toThrow(
      "Middleware 'budget' threw in beforeModel: Budget 'budget' option limitsStateKey names 'limits', which the Agent's stateSchema does not declare; declare it as an object of limits (limits: { type: z.record(z.string(), z.unknown()) }).",
    );
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([answer()]), stateSchema: { limits: { type: z.record(z.string(), z.unknown()) } }, middleware: [budget({ maxModelCalls: 1, limitsStateKey: "limits" })] });
    const error = await agent.run({ messages: [ChatMessage.fromUser("go")], limits: { maxModelCalls: -1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe("Middleware 'budget' threw in beforeModel: Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -1.");
  });
});
