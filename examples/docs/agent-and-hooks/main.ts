// The code of docs/agent-and-hooks.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { z } from "zod";
import { BlockingConfirmationStrategy, type StreamingChunk } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { RefundTools } from "../human-in-the-loop/refundTools";
import { SupportStore, SupportTools, supportToolObjects } from "./supportTools";
// #region imports
import { Agent, ChatMessage, promptTemplate } from "toolwright";
import { openTelemetry } from "toolwright/otel";
// #endregion
// #region runnerImports
import { ToolRunner } from "toolwright";
// #endregion
// #region middlewareImports
import type { Middleware } from "toolwright";
// #endregion

const supportState = { customer_id: { type: z.string() }, customer_name: { type: z.string() } };

/** Every Agent and run option of the first block, on the scripted model. */
async function agentOptions(): Promise<void> {
  const store = new SupportStore();
  const { searchTickets, closeTicket } = supportToolObjects(store);
  const chatGenerator = new ScriptedChatGenerator([
    toolCallReply(["search_tickets", { query: "open" }, "call_1"]),
    ChatMessage.fromAssistant(JSON.stringify({ summary: "One open ticket: the printer jam.", ticketIds: ["T-1"] })),
  ]);
  const Answer = z.object({ answer: z.string() });
  const OtherAnswer = z.object({ summary: z.string(), ticketIds: z.array(z.string()) });
  const chunks: StreamingChunk[] = [];
  const streamingCallback = (chunk: StreamingChunk) => void chunks.push(chunk);
  const confirmationStrategies = { close_ticket: new BlockingConfirmationStrategy({ ask: async () => ({ action: "confirm" }) }) };
  const userId = "u-1";

  // #region agent
  const agent = new Agent({
    chatGenerator,                      // required: OpenAIChatGenerator, ScriptedChatGenerator, or your own
    tools: [searchTickets, closeTicket],// Tool, Toolset, or a mix
    systemPrompt: "You are a support assistant.", // or promptTemplate("… {{ customer_name }}"), or a function of the run's typed state
    userPrompt: promptTemplate("{{ request }}"), // optional: a user message made per run from promptVariables (Agents as data)
    stateSchema: supportState,
    outputSchema: Answer,               // a zod object: the final answer as typed JSON in result.output
    maxOutputRetries: 2,                // default 2: invalid answers sent back before OutputValidationError
    exitConditions: ["text"],           // default ["text"]; also tool names
    maxAgentSteps: 100,                 // default 100; one step = one model call
    toolConcurrency: 4,                 // default 4; parallel tool calls within a step
    toolTimeoutMs: 30_000,              // default none; a slower call fails with a timeout message
    raiseOnToolInvocationFailure: false,// default false: failures go back to the model as error messages
    streamingCallback,                  // receives text, toolCallDelta, toolResult and finish chunks
    confirmationStrategies,             // tool name or "*" → how a person confirms its calls
    name: "support-desk",               // names the agent in traces and hook events
    hooks: { onToolEnd(event) {} },     // lifecycle callbacks for every run (see Tracing and usage)
    tracing: openTelemetry(),           // from toolwright/otel: every run becomes a trace
  });

  const result = await agent.run({
    messages: [ChatMessage.fromUser("Find my open tickets")],
    promptVariables: { request: "Only the printer, please." }, // the userPrompt's variables
    customer_id: "c-42",                // any state key: its initial value
    systemPrompt: "…",                  // per run: replaces the Agent's (a string or a function)
    outputSchema: OtherAnswer,          // per run: replaces the Agent's; result.output is typed from it
    tools: ["search_tickets"],          // per run: a subset by name, or other Tool objects
    generationKwargs: { temperature: 0 },
    streamingCallback,
    signal: AbortSignal.timeout(60_000),
    confirmationContext: { userId },    // handed to confirmation strategies unchanged
    breakpoint: { at: "tool", toolName: "search_tickets", visit: 1 }, // stop before its 2nd call, with a snapshot
    runId: "r-1",                       // names the run in tools' context.idempotencyKey; default random
    onCheckpoint: async (snapshot) => {},// after each model reply and each step's tool calls
    hooks: { onModelEnd(event) {} },    // per run, after the Agent's hooks
    // snapshot, decisions: continue a stopped run (docs/human-in-the-loop.md)
  });
  // #endregion

  assert.equal(result.exitReason, "text");
  assert.deepEqual(result.output, { summary: "One open ticket: the printer jam.", ticketIds: ["T-1"] });
  assert.equal(result.stepCount, 2);
  assert.equal(result.customer_id, "c-42");
  assert.deepEqual(result.usage.modelCalls, 2);
  // The run's system prompt replaced the Agent's; the userPrompt followed the run's messages.
  assert.deepEqual(chatGenerator.requests[0]!.messages.map((message) => `${message.role}: ${message.text}`), [
    "system: …",
    "user: Find my open tickets",
    "user: Only the printer, please.",
  ]);
  assert.deepEqual(chatGenerator.requests[0]!.tools?.map((tool) => tool.name), ["search_tickets"]);
  assert.deepEqual(chatGenerator.requests[0]!.generationKwargs, { temperature: 0 });
  assert.deepEqual(store.idempotencyKeys, ["r-1:1:call_1"]);
  assert.deepEqual([...new Set(chunks.map((chunk) => chunk.type))].sort(), ["finish", "text", "toolCallDelta", "toolResult"]);

  // Construction checks: a ConfigurationError naming the subject, the rule and the fix.
  // An exit condition may name a tool a run brings (agent.run({ tools })); the run checks it when it starts.
  await assert.rejects(new Agent({ chatGenerator, tools: [searchTickets], stateSchema: supportState, exitConditions: ["close_ticket"] }).run({ messages: [ChatMessage.fromUser("Close it")] }), { name: "ConfigurationError" });
  assert.throws(() => new Agent({ chatGenerator, tools: [searchTickets, searchTickets], stateSchema: supportState }), { name: "ConfigurationError" });
  assert.throws(() => new Agent({ chatGenerator, tools: [searchTickets] }), { name: "ConfigurationError" });
  assert.throws(() => new Agent({ chatGenerator, stateSchema: { stepCount: { type: z.number() } } }), { name: "ConfigurationError" });
  assert.throws(() => new Agent({ chatGenerator, maxAgentSteps: 0 }), { name: "ConfigurationError" });
}

/** ToolRunner runs single calls with the agent's steps, for callers that are not a model. */
async function toolRunner(): Promise<void> {
  const store = new SupportStore();
  const session = { customerId: "c-42", id: "session-7" };
  const body: Record<string, unknown> = { query: "printer" };
  const signal = new AbortController().signal;

  // #region runner
  const runner = new ToolRunner({ tools: [new SupportTools(store)], stateSchema: supportState });
  const state = runner.newState({ customer_id: session.customerId }); // one State per caller or session
  const { text, error } = await runner.call(state, { name: "search_tickets", arguments: body }, { signal, runId: session.id });
  // #endregion

  assert.equal(text, "T-1 printer jam (open)");
  assert.equal(error, false);
  const unknown = await runner.call(state, { name: "close_ticket", arguments: {} });
  assert.equal(unknown.text, "Tool 'close_ticket' not found. Available tools: search_tickets.");
  assert.equal(unknown.error, true);
  // An injected parameter is an unknown property for a caller too.
  const injected = await runner.call(state, { name: "search_tickets", arguments: { query: "x", customerId: "c-1" } });
  assert.equal(injected.text, "Tool 'search_tickets' was called with invalid arguments: customerId is not a parameter of this tool (parameters: query). Call the tool again with corrected arguments.");
}

/** A beforeTool middleware rejects a refund over 500 with feedback the model reads. */
async function rejectingMiddleware(): Promise<void> {
  const refunds = new RefundTools();
  const chatGenerator = new ScriptedChatGenerator([
    toolCallReply(["issue_refund", { orderId: "O-7", amount: 900 }, "call_1"]),
    ChatMessage.fromAssistant("A manager has to approve refunds over 500."),
  ]);
  const messages = [ChatMessage.fromUser("Refund 900 EUR on O-7.")];

  // #region middleware
  const noBigRefunds: Middleware = {
    name: "no-big-refunds",
    beforeTool({ toolCall, arguments: args }) {
      if (toolCall.toolName === "issue_refund" && Number(args.amount) > 500) {
        return { action: "reject", feedback: "Refunds over 500 need a manager; tell the customer so." };
      }
    },
  };

  const agent = new Agent({ chatGenerator, tools: [refunds], middleware: [noBigRefunds] });
  const result = await agent.run({ messages, middleware: [/* this run's own, after the Agent's */] });
  // #endregion

  assert.deepEqual(refunds.refunds, []);
  const toolMessage = result.messages.find((message) => message.toolCallResult)!.toolCallResult!;
  assert.equal(toolMessage.error, true);
  assert.equal(toolMessage.result, "Refunds over 500 need a manager; tell the customer so.");
  assert.equal(result.lastMessage?.text, "A manager has to approve refunds over 500.");
}

/** A budget middleware stops the run after three model calls; raised, the run continues from its snapshot. */
async function budgetMiddleware(): Promise<void> {
  const tools = [new RefundTools()];
  const lookup = (id: string) => toolCallReply(["lookup_order", { orderId: "O-7" }, id]);
  const chatGenerator = new ScriptedChatGenerator([lookup("c1"), lookup("c2"), lookup("c3"), ChatMessage.fromAssistant("O-7 was delivered.")]);
  const messages = [ChatMessage.fromUser("Where is O-7?")];
  const printed: unknown[][] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void printed.push(args);
  try {
    await (async () => {
      // #region budget
      function modelCallBudget(limit: { calls: number }): Middleware {
        return {
          name: "model-call-budget",
          beforeModel({ usage }) {
            if (usage.modelCalls >= limit.calls) return { stop: { reason: "model call budget spent", details: { limit: limit.calls, used: usage.modelCalls } } };
          },
        };
      }

      const budget = { calls: 3 };
      const agent = new Agent({ chatGenerator, tools, middleware: [modelCallBudget(budget)] });
      let result = await agent.run({ messages });
      if (result.exitReason === "stopped") {
        console.log(result.stopped.reason, result.stopped.details); // model call budget spent { limit: 3, used: 3 }
        budget.calls += 3;
        result = await agent.run({ snapshot: result.snapshot });
      }
      // #endregion
      assert.equal(result.exitReason, "text");
      assert.equal(result.lastMessage?.text, "O-7 was delivered.");
      assert.equal(result.usage.modelCalls, 4);
    })();
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed, [["model call budget spent", { limit: 3, used: 3 }]]);
}

/** A beforeTool middleware pauses a refund for a person; the decision resumes the run. */
async function approvalMiddleware(): Promise<void> {
  const refunds = new RefundTools();
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["issue_refund", { orderId: "O-7", amount: 120 }, "call_1"]), ChatMessage.fromAssistant("Refunded.")]);
  const agent = new Agent({ chatGenerator, tools: [refunds] });
  const messages = [ChatMessage.fromUser("Refund O-7.")];

  // #region approval
  const approveRefunds: Middleware = {
    name: "approve-refunds",
    beforeTool: ({ toolCall }) => (toolCall.toolName === "issue_refund" ? { action: "pause" } : undefined),
  };

  const paused = await agent.run({ messages, middleware: [approveRefunds] });
  if (paused.exitReason === "confirmation_required") {
    const [call] = paused.pendingConfirmations; // { toolCallId, toolName: "issue_refund", arguments }
    // … store paused.snapshot, ask a person, then (in any process):
    await agent.run({ snapshot: paused.snapshot, decisions: { [call!.toolCallId]: { action: "confirm" } }, middleware: [approveRefunds] });
  }
  // #endregion

  assert.equal(paused.exitReason, "confirmation_required");
  if (paused.exitReason === "confirmation_required") {
    assert.deepEqual(paused.pendingConfirmations, [{ toolCallId: "call_1", toolName: "issue_refund", arguments: { orderId: "O-7", amount: 120 } }]);
  }
  // The confirmed refund ran, and the model answered after it.
  assert.equal(chatGenerator.remaining, 0);
  assert.deepEqual(refunds.refunds, [{ orderId: "O-7", amount: 120 }]);
}

/** Runs the guide's five blocks. */
export async function run(): Promise<void> {
  await agentOptions();
  await toolRunner();
  await rejectingMiddleware();
  await budgetMiddleware();
  await approvalMiddleware();
}
