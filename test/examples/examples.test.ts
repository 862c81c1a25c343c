import { runPlannerExample } from "../../examples/planner/main";
import { runResearchExample } from "../../examples/research/main";
import { consoleTrace, traceFromEnvironment } from "../../examples/shared/consoleTrace";
import { runSupportExample } from "../../examples/support/main";

describe("examples (scripted model)", () => {
  it("support: finds the customer's tickets and closes one; the customer id never reaches the model", async () => {
    const result = await runSupportExample();
    expect(result.exitReason).toBe("text");
    expect(result.lastMessage.text).toBe('You had two open tickets. I closed T-1 ("Printer offline"); the invoice ticket stays open.');
    expect(result.tickets?.map((t) => [t.id, t.status])).toEqual([
      ["T-1", "closed"],
      ["T-2", "open"],
    ]);
    expect(result.closed).toEqual(["T-1"]);
    const toolMessages = result.messages.filter((m) => m.role === "tool");
    expect(toolMessages.every((m) => !m.toolCallResult!.error)).toBe(true);
  });

  it("support with TOOLWRIGHT_TRACE=console: prints the run's span tree, and the usage totals are on the result", async () => {
    const trace = traceFromEnvironment({ TOOLWRIGHT_TRACE: "console" })!;
    const result = await runSupportExample(undefined, trace.tracing);

    expect(trace.lines().map((line) => line.replace(/[0-9a-f]{32}/, "<trace id>").replace(/  \d+\.\d\d ms/, " <t> ms"))).toEqual([
      "trace <trace id>",
      "invoke_agent support-desk <t> ms  exit=text model_calls=3 tool_calls=2 tokens=0",
      "├─ chat scripted <t> ms  finish=tool_calls",
      "├─ execute_tool search_tickets <t> ms  call=call_search",
      "├─ chat scripted <t> ms  finish=tool_calls",
      "├─ execute_tool close_ticket <t> ms  call=call_close",
      "└─ chat scripted <t> ms  finish=stop",
    ]);
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 3, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { close_ticket: 1, search_tickets: 1 } });
    expect(consoleTrace({ captureContent: true }).tracing.captureContent).toBe(true);
    expect(traceFromEnvironment({})).toBeUndefined();
    expect(() => traceFromEnvironment({ TOOLWRIGHT_TRACE: "jaeger" })).toThrow("TOOLWRIGHT_TRACE is 'jaeger'; the examples know 'console' (print the run's spans as a tree), or leave it unset.");
  });

  it("research: de-duplicates sources with its merge handler and records cited notes through State", async () => {
    const result = await runResearchExample();
    expect(result.exitReason).toBe("text");
    expect(result.sources?.map((s) => s.url)).toEqual(["https://example.org/heat-pumps", "https://example.org/cold-climates", "https://example.org/gas-boilers"]);
    expect(result.notes).toHaveLength(2);
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult!.result).slice(2)).toEqual(["noted (1 notes so far)", "noted (2 notes so far)"]);
  });

  it("planner: ends on the finalize_plan exit-condition tool", async () => {
    const result = await runPlannerExample();
    expect(result.exitReason).toBe("finalize_plan");
    expect(result.stepCount).toBe(3);
    expect(result.steps).toEqual([
      { id: 1, title: "Pick a venue", hours: 2, after: [] },
      { id: 2, title: "Invite speakers", hours: 6, after: [1] },
    ]);
    expect(result.summary).toBe("Book the venue first (2 h), then invite speakers (6 h): 8 hours in all, well before the deadline.");
    expect(result.lastMessage.role).toBe("tool");
  });
});
