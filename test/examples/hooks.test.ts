import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runApprovalExample } from "../../examples/hooks/approval";
import { runHooksExamples } from "../../examples/hooks/main";
import { runGuardExample } from "../../examples/hooks/refundGuard";
import { runBudgetExample } from "../../examples/hooks/tokenBudget";

const run = promisify(execFile);
// The built example, as `npm run example:hooks` runs it.
const script = "dist/examples/hooks/main.js";

const printed = [
  "== guard: beforeTool rejects refunds above 100 ==",
  'issue_refund({"orderId":"A-100","amount":40}) -> ran: Refunded 40 on A-100.',
  'issue_refund({"orderId":"B-200","amount":250}) -> blocked: Refunds above 100 need a manager; tell the customer the refund was passed on to one.',
  'refunds in state: [{"orderId":"A-100","amount":40}]',
  "answer: I refunded 40 for the lamp. The chair's refund of 250 needs a manager, so I passed it on to one.",
  "",
  "== budget: beforeModel stops the run when its tokens are spent ==",
  'stopped by \'budget\' at beforeModel: the run\'s budget is spent {"maxTotalTokens":700,"maxModelCalls":10,"totalTokens":770,"modelCalls":2}',
  "after 2 model calls and 770 tokens; the snapshot resumes at the next model call",
  "budget raised to 2000 tokens; resumed: text after 3 model calls and 1070 tokens in all",
  "answer: You paid 40 for the lamp (A-100) and 250 for the chair (B-200).",
  "",
  "== approval: beforeTool pauses refunds for a person ==",
  'waiting for a person: issue_refund({"orderId":"B-200","amount":250}) [r1]',
  "refunds so far: []",
  'the person decides: {"r1":{"action":"modify","arguments":{"orderId":"B-200","amount":200},"feedback":"approved at 200: returned scratched"}}',
  'resumed: text; refunds: [{"orderId":"B-200","amount":200}]',
  "answer: A colleague approved a refund of 200 for the chair (B-200); it is on its way.",
];

const quiet = () => undefined;

describe("examples/hooks", () => {
  it("guard: the refund over the limit never runs, and the model tells the customer why", async () => {
    const result = await runGuardExample(quiet);

    expect(result.exitReason).toBe("text");
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 40 }]);
    expect(result.usage).toMatchObject({ modelCalls: 2, toolCalls: 2, failedToolCalls: 1 });
  });

  it("budget: the run stops before the model call that would overspend, and the snapshot resumes it once the budget is raised", async () => {
    const { first, resumed } = await runBudgetExample(quiet);

    expect(first.exitReason).toBe("stopped");
    expect(first.stopped).toEqual({ exitReason: "stopped", middleware: "budget", hook: "beforeModel", reason: "the run's budget is spent", details: { maxTotalTokens: 700, maxModelCalls: 10, totalTokens: 770, modelCalls: 2 } });
    expect(resumed.exitReason).toBe("text");
    expect(resumed.usage).toMatchObject({ modelCalls: 3, totalTokens: 1070, toolCalls: 2 });
  });

  it("approval: the refund waits for a person, and the run resumes from the stored snapshot with the decision", async () => {
    const { paused, resumed } = await runApprovalExample(quiet);

    expect(paused.exitReason).toBe("confirmation_required");
    expect(paused.messages.filter((m) => m.role === "tool")).toEqual([]);
    expect(resumed.refunds).toEqual([{ orderId: "B-200", amount: 200 }]);
    expect(resumed.messages.find((m) => m.toolCallResult?.origin.toolName === "issue_refund")?.meta).toEqual({
      confirmation: { action: "modify", feedback: "approved at 200: returned scratched", modelArguments: { orderId: "B-200", amount: 250 } },
    });
  });

  it("prints what each example does", async () => {
    const lines: string[] = [];

    await runHooksExamples((line) => lines.push(line));

    expect(lines).toEqual(printed);
  });

  it("runs as `npm run example:hooks` does: the built main prints the same and exits 0", async () => {
    const { stdout, stderr } = await run(process.execPath, [script], { env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });

    expect(stdout.split("\n")).toEqual([...printed, ""]);
    expect(stderr).toBe("");
  });
});
