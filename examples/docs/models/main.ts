// The code of docs/models.md; test/docs/guideExamples.test.ts runs it, each generator against a
// local server answering in its vendor's wire format (Anthropic: a response recorded from its API).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import { AnthropicReplayServer } from "../../../test/helpers/anthropicReplayServer";
import { jsonReply, MockOpenAIServer } from "../../../test/helpers/mockOpenAIServer";
import { responsesJson } from "../../../test/helpers/mockResponses";
import { Agent, ChatMessage, Tool } from "toolwright";
// #region openai-imports
import { OpenAIChatGenerator } from "toolwright/openai";
// #endregion
// #region responses-imports
import { OpenAIResponsesChatGenerator } from "toolwright/openai";
// #endregion
// #region aisdk-imports
import { createAnthropic } from "@ai-sdk/anthropic";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
// #endregion

const lookup = new Tool({ name: "lookup", description: "Look up an order.", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, function: () => "shipped" });
const hello = [ChatMessage.fromUser("Hello, how are you?")];

/** The three ways to reach a model: Chat Completions, the Responses API, any AI SDK provider. */
export async function run(): Promise<void> {
  const server = new MockOpenAIServer();
  await server.start();
  try {
    await chatCompletions(server);
    await responses(server);
  } finally {
    await server.close();
  }
  await aiSdk();
}

async function chatCompletions(server: MockOpenAIServer): Promise<void> {
  const apiKey = "sk-local";
  const baseURL = server.baseURL;
  const organization = "org-docs";
  const client = new OpenAI({ apiKey, baseURL, organization });
  server.enqueue(jsonReply({ text: "Fine, thanks." }));
  // #region openai
  const chatGenerator = new OpenAIChatGenerator({
    model: "gpt-4o-mini",
    apiKey,                          // default OPENAI_API_KEY
    baseURL,                         // default OPENAI_BASE_URL: Ollama, vLLM, LM Studio, Azure, …
    organization,
    generationKwargs: { temperature: 0, max_tokens: 800, parallel_tool_calls: true },
    timeout: 60_000,                 // per attempt: the wait for the response headers (the SDK's option)
    maxRetries: 2,                   // connection errors, 408, 409, 429, 5xx (toolwright runs the retries)
    maxRetryDelayMs: 60_000,         // retry-after is honoured up to this
    deadlineMs: 600_000,             // the whole call: every attempt, retry wait, body or stream, callback
    streamIdleTimeoutMs: 300_000,    // a stream that sends nothing this long is aborted
    toolsStrict: true,               // strict-compatible schemas go in strict mode
    // client: new OpenAI(...),     // your own client instead: its apiKey, baseURL, organization and timeout are used, the ones above ignored
  });
  // #endregion
  const result = await new Agent({ chatGenerator, tools: [lookup] }).run({ messages: hello });
  const withClient = new OpenAIChatGenerator({ model: "gpt-4o-mini", apiKey: "sk-ignored", baseURL: "http://127.0.0.1:9/v1", client });
  assert.equal(withClient.client.baseURL, client.baseURL);
  assert.equal(result.lastMessage.text, "Fine, thanks.");
  const body = server.requests.at(-1)?.body as Record<string, unknown> & { tools: Array<{ function: { strict?: boolean } }> };
  assert.deepEqual([body.model, body.temperature, body.max_tokens, body.parallel_tool_calls, body.tools[0]?.function.strict], ["gpt-4o-mini", 0, 800, true, true]);
  assert.equal(server.requests.at(-1)?.headers["openai-organization"], "org-docs");
}

async function responses(server: MockOpenAIServer): Promise<void> {
  server.enqueue(responsesJson({ text: "Fine, thanks." }));
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "sk-local";
  process.env.OPENAI_BASE_URL = server.baseURL;
  try {
    // #region responses
    new OpenAIResponsesChatGenerator({
      model: "gpt-5-mini",
      generationKwargs: { reasoning: { effort: "low", summary: "auto" }, max_output_tokens: 4000, text: { verbosity: "low" } },
      store: false,                      // default: OpenAI keeps nothing; every call sends the whole conversation
      includeEncryptedReasoning: true,   // default: reasoning comes back encrypted and goes out again next call
      // apiKey, baseURL, organization, timeout, maxRetries, maxRetryDelayMs, deadlineMs,
      // streamIdleTimeoutMs, toolsStrict, client: as OpenAIChatGenerator
    });
    // #endregion
    const generator = new OpenAIResponsesChatGenerator({ model: "gpt-5-mini", generationKwargs: { reasoning: { effort: "low", summary: "auto" }, max_output_tokens: 4000, text: { verbosity: "low" } } });
    const response = await generator.run({ messages: hello, tools: [] });
    assert.equal(response.replies[0]?.text, "Fine, thanks.");
    const body = server.requests.at(-1)?.body as Record<string, unknown>;
    assert.equal(server.requests.at(-1)?.url, "/v1/responses");
    assert.deepEqual([body.store, body.include, body.max_output_tokens, body.reasoning], [false, ["reasoning.encrypted_content"], 4000, { effort: "low", summary: "auto" }]);
  } finally {
    restore("OPENAI_API_KEY", saved.key);
    restore("OPENAI_BASE_URL", saved.url);
  }
}

async function aiSdk(): Promise<void> {
  const claude = new AnthropicReplayServer();
  // A response recorded from the Anthropic API, read from the repository root (the example runs from source or dist).
  claude.enqueue({ kind: "json", body: readFileSync("test/fixtures/vendors/anthropic/anthropic-text.json", "utf8") });
  await claude.start();
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
  process.env.ANTHROPIC_API_KEY = "sk-ant-local";
  process.env.ANTHROPIC_BASE_URL = claude.baseURL;
  try {
    const tools = [lookup];
    const stateSchema = {};
    // #region aisdk
    const anthropic = createAnthropic();         // ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL; or the package's `anthropic`
    const chatGenerator = new AISdkChatGenerator({
      model: anthropic("claude-sonnet-4-5"),     // a LanguageModel object, not a "provider/model" string
      generationKwargs: {                        // the specification's call settings, checked when built
        maxOutputTokens: 2048,
        providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      },
      maxRetries: 2,                             // failures the provider marks retryable: connection, 408, 409, 429, 5xx
      maxRetryDelayMs: 60_000,                   // retry-after(-ms) is honoured up to this
      deadlineMs: 600_000,                       // the whole call: every attempt, retry wait, stream, callback
      streamIdleTimeoutMs: 300_000,              // a stream that sends nothing this long is aborted
      toolsStrict: true,                         // strict-compatible schemas go in strict form, with strict: true
    });
    const agent = new Agent({ chatGenerator, tools, stateSchema });
    // #endregion
    const result = await agent.run({ messages: hello });
    assert.equal(result.lastMessage.text, "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?");
    const body = claude.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual([body.model, body.max_tokens, body.thinking], ["claude-sonnet-4-5", 2048 + 1024, { type: "enabled", budget_tokens: 1024 }]);
  } finally {
    restore("ANTHROPIC_API_KEY", saved.key);
    restore("ANTHROPIC_BASE_URL", saved.url);
    await claude.close();
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
