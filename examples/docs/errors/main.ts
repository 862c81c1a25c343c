// The code of docs/errors.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { errorReply, jsonReply, MockOpenAIServer } from "../../../test/helpers/mockOpenAIServer";
import { OpenAIChatGenerator } from "toolwright/openai";
import * as toolwright from "toolwright";
import { Agent, ChatGeneratorError, ChatMessage } from "toolwright";
import { McpServerError, McpToolError } from "toolwright/mcp";
import { RunNotFoundError, RunStateError, RunWaitError } from "toolwright/bullmq";
// #region imports
import { ProviderError } from "toolwright";
// #endregion

// The guide's table of groups: each error extends its group, and each group extends ToolwrightError.
const { UsageError, ModelBehaviorError, CallbackError, RunStoppedError, ToolwrightError } = toolwright;
const groups = new Map<abstract new (...args: never[]) => Error, Array<abstract new (...args: never[]) => Error>>([
  [UsageError, [toolwright.ConfigurationError, toolwright.StaleSchemaError, toolwright.DefinitionError, toolwright.ToolDecoratorError, toolwright.PromptTemplateError, toolwright.StateKeyError, toolwright.StateTypeError, toolwright.JsonFormError, toolwright.SnapshotError, toolwright.DecisionError, RunNotFoundError, RunStateError]],
  [ModelBehaviorError, [toolwright.ToolNotFoundError, toolwright.ToolArgumentsError, toolwright.OutputValidationError]],
  [ProviderError, [ChatGeneratorError, McpServerError, McpToolError, RunWaitError]],
  [CallbackError, [toolwright.ToolInvocationError, toolwright.StateMergeError, toolwright.ToolResultConversionError, toolwright.HookError, toolwright.MiddlewareError]],
  [RunStoppedError, [toolwright.AbortError, toolwright.BreakpointError]],
]);

/** A model call that fails with a provider error is retried from the error's snapshot. */
export async function run(): Promise<void> {
  for (const [group, members] of groups) {
    assert.ok(group.prototype instanceof ToolwrightError, group.name);
    for (const member of members) assert.ok(member.prototype instanceof group, `${member.name} is a ${group.name}`);
  }
  assert.ok(toolwright.StaleSchemaError.prototype instanceof toolwright.ConfigurationError);
  assert.ok(toolwright.DefinitionError.prototype instanceof toolwright.ConfigurationError);
  assert.equal(new toolwright.StaleSchemaError("Tool 'x'", "Tool 'x' is stale.").name, "StaleSchemaError");

  const server = new MockOpenAIServer();
  await server.start();
  try {
    // The provider is down for the first call (no retries of its own), up for the second.
    server.enqueue(errorReply(503, "The server is overloaded."), jsonReply({ text: "Your ticket t-1 is open." }));
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", apiKey: "sk-local", baseURL: server.baseURL, maxRetries: 0 });
    const agent = new Agent({ chatGenerator });
    const messages = [ChatMessage.fromUser("Is my ticket open?")];

    // #region retry
    try {
      await agent.run({ messages });
    } catch (error) {
      if (error instanceof ProviderError && error.snapshot) await agent.run({ snapshot: error.snapshot }); // later, or elsewhere
      else throw error;
    }
    // #endregion

    // The first call failed; the retry from its snapshot sent the same conversation again and was answered.
    assert.equal(server.requests.length, 2);
    assert.deepEqual(server.requests[1]!.body.messages, server.requests[0]!.body.messages);
    assert.equal(server.pending, 0);

    // What the catch saw: a ChatGeneratorError (a ProviderError) with the status and a snapshot.
    server.enqueue(errorReply(503, "The server is overloaded."));
    const error = await agent.run({ messages }).then(() => assert.fail("the run did not fail"), (thrown: unknown) => thrown);
    assert.ok(error instanceof ChatGeneratorError && error instanceof ProviderError);
    assert.equal(error.status, 503);
    assert.equal(error.providerMessage, "The server is overloaded.");
    assert.equal(error.snapshot?.stepCount, 0);
    assert.equal(error.message, "OpenAI request for model 'gpt-4o-mini' failed with status 503: The server is overloaded.");
  } finally {
    await server.close();
  }
}
