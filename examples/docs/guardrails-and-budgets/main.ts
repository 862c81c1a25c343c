// The code of docs/guardrails-and-budgets.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerResponse } from "node:http";
import { ChatMessage, ChatGeneratorError, type Guardrail as GuardrailType, type ToolEndEvent } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { readFileSync } from "node:fs";
import { AnthropicReplayServer } from "../../../test/helpers/anthropicReplayServer";
import { errorReply, jsonReply, MockOpenAIServer, type RecordedRequest } from "../../../test/helpers/mockOpenAIServer";
import "./tools.generated";
import { RefundTools } from "../human-in-the-loop/refundTools";
import { ArchiveTools } from "./archiveTools";
// #region imports
import { z } from "zod";
import { Agent, denyPatterns, inputGuardrail, maxInputLength, openAIModeration, outputGuardrail, toolGuardrail, type Guardrail } from "toolwright";
// #endregion
// #region budgetImports
import { budget } from "toolwright";
// #endregion
// #region compactionImports
import { pruneToolResults, readToolResult, slidingWindow, summarize, summaryStateKey } from "toolwright";
// #endregion
// #region retryImports
import { Tool } from "toolwright";
// #endregion
// #region fallbackImports
import { createAnthropic } from "@ai-sdk/anthropic";
import { FallbackChatGenerator, isTransientFailure } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { OpenAIChatGenerator } from "toolwright/openai";
// #endregion

/** An OpenAI server that also answers `POST /v1/moderations`, each time with the next of `moderations`. */
class ModeratedOpenAIServer extends MockOpenAIServer {
  readonly moderations: Array<Record<string, boolean>> = [];

  protected override respond(request: RecordedRequest, res: ServerResponse): void {
    if (request.url !== "/v1/moderations") return super.respond(request, res);
    const categories = this.moderations.shift() ?? {};
    const flagged = Object.values(categories).some(Boolean);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "modr-1", model: "omni-moderation-latest", results: [{ flagged, categories, category_scores: {} }] }));
  }
}

/** Runs `body` with OPENAI_API_KEY and OPENAI_BASE_URL pointing at a local OpenAI server, and restores them. */
async function withOpenAI<T>(server: MockOpenAIServer, body: () => Promise<T>): Promise<T> {
  await server.start();
  const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "sk-local";
  process.env.OPENAI_BASE_URL = server.baseURL;
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.close();
  }
}

const lookup = (orderId: string, id: string) => ({ id, name: "lookup_order", arguments: JSON.stringify({ orderId }) });

/** Input, output and tool guardrails on an OpenAIChatGenerator, its moderation through the same client. */
async function guardrails(): Promise<void> {
  const server = new ModeratedOpenAIServer();
  server.moderations.push({ harassment: false });
  server.enqueue(
    jsonReply({ toolCalls: [lookup("c-42/O-7", "call_1"), lookup("c-7/O-1", "call_2")] }),
    jsonReply({ text: "Your key is sk-abcdefghijklmnopqrstuvwxyz." }),
    jsonReply({ text: "Order O-7 was delivered." }),
  );
  await withOpenAI(server, async () => {
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", maxRetries: 0 });
    const tools = [new RefundTools()];

    // #region guardrails
    const noOtherCustomers: Guardrail = {
      name: "own-orders",
      check: ({ text }, { state }) => (text.includes(String(state.get("customer_id"))) ? { pass: true } : { block: "Only the customer's own orders may be looked up." }),
    };

    const agent = new Agent({
      chatGenerator,
      tools,
      stateSchema: { customer_id: { type: z.string() } },
      middleware: [
        inputGuardrail(maxInputLength({ chars: 8000 })),
        inputGuardrail(openAIModeration({ client: chatGenerator.client })),          // an OpenAIChatGenerator's client
        outputGuardrail(denyPatterns({ patterns: ["\\bsk-[A-Za-z0-9]{20,}"], verdict: "retry" })),
        toolGuardrail(noOtherCustomers, { tools: ["lookup_order"], when: "before" }),
      ],
    });
    // #endregion

    const result = await agent.run({ messages: [ChatMessage.fromUser("Where are my orders?")], customer_id: "c-42" });
    assert.equal(result.exitReason, "text");
    assert.equal(result.lastMessage?.text, "Order O-7 was delivered.");
    // The moderation request went through the generator's client, once for the one user message.
    assert.deepEqual(server.requests.filter((request) => request.url === "/v1/moderations").map((request) => request.body), [{ model: "omni-moderation-latest", input: "Where are my orders?" }]);
    // The other customer's lookup did not run: the model got the block reason as its error result.
    const results = result.messages.filter((message) => message.toolCallResult).map((message) => message.toolCallResult!);
    assert.deepEqual(results.map((entry) => [entry.origin.id, entry.error, entry.result]), [
      ["call_1", false, "Order c-42/O-7: a printer, 120 EUR, delivered."],
      ["call_2", true, "Only the customer's own orders may be looked up."],
    ]);
    // The answer with a key was rejected: it stays, the reason follows as a user message, the model answers again.
    const rejected = result.messages.at(-2)!;
    assert.equal(rejected.role, "user");
    assert.equal(rejected.text, 'The text matches the deny pattern "\\\\bsk-[A-Za-z0-9]{20,}".'); // the pattern quoted as JSON
    assert.equal(result.messages.at(-3)!.text, "Your key is sk-abcdefghijklmnopqrstuvwxyz.");
  });

  // The guide's error messages for bad options.
  assert.throws(() => maxInputLength({ chars: 1.5 }), { name: "ConfigurationError", message: "maxInputLength needs chars, a whole number of characters of at least 0, got 1.5." });
  assert.throws(() => openAIModeration({ client: undefined as never }), { name: "ConfigurationError", message: "openAIModeration needs client, an OpenAI client (new OpenAI(...) or an OpenAIChatGenerator's client), got undefined." });
  assert.throws(() => denyPatterns({ patterns: ["x", "(a)\\1"] }), {
    name: "ConfigurationError",
    message: 'denyPatterns has patterns[1] "(a)\\\\1", which cannot be matched in linear time (RE2 has no backreferences); rewrite it without lookaround or backreferences.',
  });
}

/** A tripped guardrail stops the run; once a person allows it, the run continues from its snapshot. */
async function review(): Promise<void> {
  const refunds = new RefundTools();
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["issue_refund", { orderId: "O-7", amount: 120 }, "call_1"]), ChatMessage.fromAssistant("Refunded.")]);
  const deny: GuardrailType = { name: "deny", check: () => ({ trip: "Refunds need a person's review." }) };
  const messages = [ChatMessage.fromUser("Refund O-7.")];
  const runId = "run-7";

  // #region review
  const approvedRuns = new Set<string>();
  const reviewed: Guardrail = {
    name: "refund-review",
    check: (input, context) => (approvedRuns.has(context.runId) ? { pass: true } : deny.check(input, context)),
  };
  // #endregion
  const agent = new Agent({ chatGenerator, tools: [refunds], middleware: [toolGuardrail(reviewed, { tools: ["issue_refund"], when: "before" })] });
  let stopped: unknown;
  // #region reviewRun
  const tripped = await agent.run({ messages, runId });
  if (tripped.exitReason === "guardrail_tripped") {
    // … store tripped.snapshot, show tripped.stopped to a person; when they allow it:
    approvedRuns.add(runId);
    await agent.run({ snapshot: tripped.snapshot, runId });
  }
  // #endregion
  if (tripped.exitReason === "guardrail_tripped") stopped = tripped.stopped;
  assert.deepEqual(stopped, {
    exitReason: "guardrail_tripped",
    middleware: "tool-guardrail:refund-review",
    hook: "beforeTool",
    reason: "Refunds need a person's review.",
    details: { guardrail: "refund-review", point: "toolCall" },
  });
  assert.deepEqual(refunds.refunds, [{ orderId: "O-7", amount: 120 }]);
}

/** A cost budget stops the run once overspent; raised with setLimits, the run continues. */
async function spendBudget(): Promise<void> {
  const server = new MockOpenAIServer();
  server.enqueue(
    jsonReply({ toolCalls: [lookup("O-7", "call_1")], usage: { promptTokens: 2_000_000, completionTokens: 0 }, model: "gpt-4o-mini" }),
    jsonReply({ toolCalls: [lookup("O-8", "call_2")], usage: { promptTokens: 1_342_000, completionTokens: 2_000 }, model: "gpt-4o-mini" }),
    jsonReply({ text: "Both orders were delivered.", usage: { promptTokens: 1_000, completionTokens: 10 }, model: "gpt-4o-mini" }),
  );
  const printed: unknown[][] = [];
  await withOpenAI(server, async () => {
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", maxRetries: 0 });
    const tools = [new RefundTools()];
    const messages = [ChatMessage.fromUser("Where are O-7 and O-8?")];
    const log = console.log;
    console.log = (...args: unknown[]) => void printed.push(args);
    try {
      // #region budget
      const spend = budget({
        maxModelCalls: 20,
        maxTotalTokens: 5_000_000,
        maxCost: { amount: 0.5, model: chatGenerator, prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } },
        maxWallClockMs: 120_000,
      });
      const agent = new Agent({ chatGenerator, tools, middleware: [spend] });

      let result = await agent.run({ messages });
      if (result.exitReason === "budget_exhausted") {
        console.log(result.stopped.reason, result.stopped.details); // cost budget exhausted { budget: "cost", limit: 0.5, used: 0.5025 }
        spend.setLimits({ ...spend.limits, maxCost: { ...spend.limits.maxCost!, amount: 1 } });
        result = await agent.run({ snapshot: result.snapshot });
      }
      // #endregion
      assert.equal(result.exitReason, "text");
      assert.equal(result.lastMessage?.text, "Both orders were delivered.");
    } finally {
      console.log = log;
    }
  });
  assert.deepEqual(printed, [["cost budget exhausted", { budget: "cost", limit: 0.5, used: 0.5025 }]]);
  assert.throws(() => budget({ maxModelCalls: -1 }), { name: "ConfigurationError", message: "Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -1." });
  assert.throws(() => budget({ maxCost: { amount: 1, model: "gpt-5", prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 }, "gpt-4o": { input: 2.5, output: 10 } } } }), {
    name: "ConfigurationError",
    message: "Budget 'budget' has no price for model 'gpt-5'; add it to maxCost.prices (priced: gpt-4o-mini, gpt-4o).",
  });
}

/** A budget whose limits a state key overrides: the run continues with stateUpdates. */
async function limitsInState(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([...Array.from({ length: 10 }, (_, i) => toolCallReply(["lookup_order", { orderId: `O-${i}` }, `call_${i}`])), ChatMessage.fromAssistant("All ten were delivered.")]);
  const tools = [new RefundTools()];
  const messages = [ChatMessage.fromUser("Where are my ten orders?")];

  // #region limitsState
  const spend = budget({ maxModelCalls: 10, limitsStateKey: "budget_limits" });
  const agent = new Agent({ chatGenerator, tools, stateSchema: { budget_limits: { type: z.record(z.string(), z.number()) } }, middleware: [spend] });
  const stopped = await agent.run({ messages });                        // exitReason "budget_exhausted"
  const done = await agent.run({ snapshot: stopped.snapshot!, stateUpdates: { budget_limits: { maxModelCalls: 20 } } });
  // #endregion

  assert.equal(stopped.exitReason, "budget_exhausted");
  assert.equal(done.exitReason, "text");
  assert.equal(done.usage.modelCalls, 11);
  await assert.rejects(agent.run({ messages, stateUpdates: { budget_limits: { maxModelCalls: 20 } } } as never), { name: "ConfigurationError" });
}

/** Pruning with a window, or a summary: what each model call sends, while state keeps every message. */
async function compaction(): Promise<void> {
  const page = "x".repeat(3_000);
  const db = new Map([["printers", page], ["scanners", page], ["toner", page]]);
  const search = (query: string, id: string) => toolCallReply(["search_archive", { query }, id]);
  // The first Agent's four model calls, then the summarizing Agent's one.
  const chatGenerator = new ScriptedChatGenerator([search("printers", "c1"), search("scanners", "c2"), search("toner", "c3"), ChatMessage.fromAssistant("Three pages found."), ChatMessage.fromAssistant("Toner is in aisle 3.")]);
  const miniModel = new ScriptedChatGenerator([ChatMessage.fromAssistant("The customer asked about printers twice.")]);

  // #region compaction
  const agent = new Agent({
    chatGenerator,
    tools: [new ArchiveTools(db), readToolResult()],           // the model reads offloaded results back
    middleware: [
      pruneToolResults({ keepLast: 2, maxChars: 2_000 }),      // old long results → a short reference
      slidingWindow({ maxTokens: 100_000 }),                   // then the newest messages that fit
    ],
  });

  // or: summarize the older messages with a (cheap) model, keeping the summary in state
  const summarizing = new Agent({
    chatGenerator,
    stateSchema: { conversation_summary: summaryStateKey() },
    middleware: [summarize({ chatGenerator: miniModel, maxTokens: 100_000, keepLast: 6 })],
  });
  // #endregion

  const result = await agent.run({ messages: [ChatMessage.fromUser("Find printers, scanners and toner.")] });
  // The fourth call sent the oldest long result as a reference; state kept it whole.
  const sent = chatGenerator.requests[3]!.messages.filter((message) => message.toolCallResult).map((message) => message.toolCallResult!.result);
  assert.deepEqual(sent, ["[result of search_archive #c1: 3000 chars; call read_tool_result to read it]", page, page]);
  assert.deepEqual(result.messages.filter((message) => message.toolCallResult).map((message) => message.toolCallResult!.result), [page, page, page]);

  // A long history (12 messages of 40,000 characters, about 150,000 estimated tokens) is summarized before the call.
  const history = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? ChatMessage.fromUser(`Printers? ${"p".repeat(40_000)}`) : ChatMessage.fromAssistant(`Printers. ${"a".repeat(40_000)}`)));
  const summarized = await summarizing.run({ messages: [...history, ChatMessage.fromUser("And toner?")] });
  assert.equal(summarized.lastMessage?.text, "Toner is in aisle 3.");
  assert.equal(miniModel.requests.length, 1);
  const request = chatGenerator.requests[4]!.messages;
  assert.equal(request[0]!.text, "[Summary of the earlier conversation]\nThe customer asked about printers twice.");
  assert.equal(request.at(-1)!.text, "And toner?");
  assert.equal(summarized.conversation_summary?.text, "The customer asked about printers twice.");
  assert.equal(summarized.messages.length, 14);
}

/** A flaky page: the first request's connection is dropped, the second gets 30,000 characters. */
async function flakyPage(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((_req, res) => {
    if (++count === 1) res.socket?.destroy();
    else res.writeHead(200, { "content-type": "text/plain" }).end("p".repeat(30_000));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An idempotent tool is retried after a dropped connection; its long result reaches the model cut, with a notice. */
async function retriedTool(): Promise<void> {
  const page = await flakyPage();
  try {
    // #region retry
    const fetchPage = new Tool({
      name: "fetch_page",
      description: "Fetch a web page and return its text.",
      parameters: z.object({ url: z.string() }),
      idempotent: true, timeoutMs: 5_000, retries: { attempts: 3, backoffMs: 250 }, maxResultChars: 20_000,
      function: async ({ url }, context) => (await fetch(url, { signal: context.signal })).text(),
    });
    // #endregion
    const ends: ToolEndEvent[] = [];
    const chatGenerator = new ScriptedChatGenerator([toolCallReply(["fetch_page", { url: page.url }, "call_1"]), ChatMessage.fromAssistant("Read it.")]);
    const result = await new Agent({ chatGenerator, tools: [fetchPage], hooks: { onToolEnd: (event) => void ends.push(event) } }).run({ messages: [ChatMessage.fromUser("Read the page.")] });
    assert.equal(page.requests(), 2);
    assert.equal(ends[0]!.attempts, 2);
    const text = result.messages.find((message) => message.toolCallResult)!.toolCallResult!.result;
    assert.equal(text, `${"p".repeat(20_000)}\n[Tool 'fetch_page' returned 30,000 characters; the first 20,000 are shown]`);
  } finally {
    await page.close();
  }
}

/** OpenAI answers 503 (after its own retries); the fallback asks Anthropic through the AI SDK. */
async function fallback(): Promise<void> {
  const openai = new MockOpenAIServer();
  const claude = new AnthropicReplayServer();
  openai.enqueue(errorReply(503, "The server is overloaded."), errorReply(503, "The server is overloaded."), errorReply(503, "The server is overloaded."));
  // A response recorded from the Anthropic API (test/fixtures/vendors/anthropic), read from the repository root, where the example runs from source or dist.
  claude.enqueue({ kind: "json", body: readFileSync("test/fixtures/vendors/anthropic/anthropic-text.json", "utf8") });
  await claude.start();
  const saved = { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL };
  process.env.ANTHROPIC_API_KEY = "sk-ant-local";
  process.env.ANTHROPIC_BASE_URL = claude.baseURL;
  try {
    await withOpenAI(openai, async () => {
      // #region fallback
      const anthropic = createAnthropic(); // reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL now (the exported `anthropic` read them at import)
      const chatGenerator = new FallbackChatGenerator({
        generators: [new OpenAIChatGenerator({ model: "gpt-4o" }), new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") })],
        // Optional. Also fall back on an OpenAI refusal (meta.refusal on the reply):
        shouldFallBack: (o) => (o.response ? o.response.replies.some((r) => r.meta.refusal !== undefined) : isTransientFailure(o.error)),
      });
      // #endregion
      const response = await chatGenerator.run({ messages: [ChatMessage.fromUser("Hello, how are you?")], tools: [] });
      assert.equal(response.replies[0]!.text, "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?");
      const attempts = response.meta?.fallbackAttempts as Array<{ index: number; outcome: string; status?: number }>;
      assert.deepEqual(attempts.map(({ index, outcome, status }) => ({ index, outcome, status })), [
        { index: 0, outcome: "failed", status: 503 },
        { index: 1, outcome: "answered", status: undefined },
      ]);
      assert.equal(openai.requests.length, 3); // the OpenAI SDK's own two retries ran first
      assert.equal(claude.requests.length, 1);
    });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await claude.close();
  }
}

/** Budgets, maxToolResultChars and fallbacks have a data form: a definition reads them, toJSON writes them. */
function definitions(): void {
  const fromDefinition = Agent.fromJSON({ version: 1, chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } }, budget: { maxModelCalls: 3 }, maxToolResultChars: 20_000 });
  assert.deepEqual(fromDefinition.toJSON().budget, { maxModelCalls: 3 });
  assert.equal(fromDefinition.toJSON().maxToolResultChars, 20_000);
  const fallbackAgent = new Agent({ chatGenerator: new FallbackChatGenerator({ generators: [new ScriptedChatGenerator([]), new ScriptedChatGenerator([])] }) });
  assert.deepEqual(fallbackAgent.toJSON().chatGenerator, {
    type: "FallbackChatGenerator",
    options: { generators: [{ type: "ScriptedChatGenerator", options: { script: [] } }, { type: "ScriptedChatGenerator", options: { script: [] } }] },
  });
}

/** Runs the guide's seven blocks, and checks what it says about definitions. */
export async function run(): Promise<void> {
  definitions();
  await fallback();
  await retriedTool();
  await guardrails();
  await review();
  await spendBudget();
  await limitsInState();
  await compaction();
}
