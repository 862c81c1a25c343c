import * as path from "node:path";
import { generateToolSchemas } from "toolwright/codegen";
import "./helpdesk/tools.generated";
import { z } from "zod";
import { Agent, ChatMessage, type StateSchema } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { calls, helpdeskState, HelpdeskTools } from "./helpdesk/helpdeskTools";

describe("a decorated toolset end to end", () => {
  it("has a committed generated module that is up to date", async () => {
    // Run from the package root, as `npm run codegen` does: the module records cwd-relative paths.
    const root = path.join(__dirname, "..", "..");
    const result = await generateToolSchemas({ cwd: root, project: "test/e2e/helpdesk/tsconfig.json", out: "test/e2e/helpdesk/tools.generated.ts", check: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.stale).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("runs through the Agent: injected State and state values, defaults, optional values, Dates", async () => {
    calls.length = 0;
    const model = new ScriptedChatGenerator([
      toolCallReply(
        ["searchTickets", { query: "printer", filter: { tags: ["hardware"], range: { from: "2026-11-01T00:00:00.000Z" } } }],
        ["placeOrder", { items: [{ sku: "toner-9", quantity: 2, note: null }], deliverAt: "2026-11-24T09:00:00.000Z" }],
      ),
      ChatMessage.fromAssistant("Ordered toner; 2 tickets match."),
    ]);
    const agent = new Agent({ chatGenerator: model, tools: [new HelpdeskTools()], stateSchema: helpdeskState });
    const result = await agent.run({ messages: [ChatMessage.fromUser("My printer is out of toner")], customer_id: "c-42" });

    expect(result.exitReason).toBe("text");
    expect(result.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallResult!.error, m.text ?? m.toolCallResult!.result])).toEqual([
      [false, 'c-42: 2 tickets match "printer"'],
      [false, JSON.stringify({ order: { id: "O-1", deliverAt: "2026-11-24T09:00:00.000Z", lines: 1 } })],
    ]);
    // placeOrder takes the State (it may write any key), so it runs before searchTickets, which reads
    // customer_id, as Haystack main schedules them (_schedule_tool_calls); it ran second before #33.
    expect(calls.map((call) => call[0])).toEqual(["placeOrder", "searchTickets"]);
    const [order, search] = calls;
    expect(search).toEqual(["searchTickets", "printer", "c-42", { tags: ["hardware"], range: { from: new Date("2026-11-01T00:00:00.000Z") } }, 10, undefined]);
    expect((search![3] as { range: { from: unknown } }).range.from).toBeInstanceOf(Date);
    // `note?: string | null` accepts null, so the model's null is kept (only a null the schema refuses counts as absent).
    expect(order).toEqual(["placeOrder", [{ sku: "toner-9", quantity: 2, note: null }], new Date("2026-11-24T09:00:00.000Z"), "c-42"]);
    expect(result.orders).toEqual([{ id: "O-1", deliverAt: new Date("2026-11-24T09:00:00.000Z"), lines: 1 }]);
  });

  it("never shows the model the injected parameters", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hello.")]);
    await new Agent({ chatGenerator: model, tools: [new HelpdeskTools()], stateSchema: helpdeskState }).run({ messages: [ChatMessage.fromUser("hi")] });
    const specs = model.requests[0]!.tools;
    expect(specs.map((s) => [s.name, Object.keys(s.parameters.properties ?? {}), s.strict])).toEqual([
      ["searchTickets", ["query", "filter", "limit", "priority"], true],
      ["placeOrder", ["items", "deliverAt"], true],
    ]);
    expect(JSON.stringify(specs)).not.toMatch(/customerId|"state"/);
  });

  it("refuses a model that tries to set an injected parameter", async () => {
    calls.length = 0;
    const model = new ScriptedChatGenerator([
      toolCallReply(["searchTickets", { query: "x", filter: { tags: [] }, customerId: "c-666" }]),
      toolCallReply(["searchTickets", { query: "x", filter: { tags: [] } }]),
      ChatMessage.fromAssistant("done"),
    ]);
    const result = await new Agent({ chatGenerator: model, tools: [new HelpdeskTools()], stateSchema: helpdeskState }).run({ messages: [ChatMessage.fromUser("hi")], customer_id: "c-42" });
    expect(result.messages[2]!.toolCallResult).toMatchObject({
      error: true,
      result: "Tool 'searchTickets' was called with invalid arguments: customerId is not a parameter of this tool (parameters: query, filter, limit, priority). Call the tool again with corrected arguments.",
    });
    expect(calls).toEqual([["searchTickets", "x", "c-42", { tags: [] }, 10, undefined]]);
  });

  it("does not run a decorated tool whose inputsFromState key has no value, naming the key", async () => {
    calls.length = 0;
    const model = new ScriptedChatGenerator([toolCallReply(["searchTickets", { query: "x", filter: { tags: [] } }]), ChatMessage.fromAssistant("Done.")]);
    const agent = new Agent({ chatGenerator: model, tools: [new HelpdeskTools()], stateSchema: helpdeskState });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Search.")] });

    expect(calls).toEqual([]);
    expect(result.messages[2]!.toolCallResult!.result).toBe(
      "Tool 'searchTickets' did not run: its parameter 'customerId' is filled from state key 'customer_id', which has no value; give 'customer_id' a value before the tool is called (a run input, or another tool's outputsToState).",
    );
  });

  it("refuses at new Agent a state key whose type does not match the decorated parameter codegen read", () => {
    const numberIds = { ...helpdeskState, customer_id: { type: z.number() } } satisfies StateSchema;

    expect(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new HelpdeskTools()], stateSchema: numberIds })).toThrow(
      "Tool 'searchTickets' fills parameter 'customerId' (a string) from state key 'customer_id', which holds a number; map a state key of the parameter's type, or change the parameter's type. (HelpdeskTools.searchTickets (test/e2e/helpdesk/helpdeskTools.ts:45:9))",
    );
  });
});
