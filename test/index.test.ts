import * as toolwright from "toolwright";
import type {
  AgentOptions,
  AgentResult,
  AgentRunInput,
  AgentRunOptions,
  ArgumentProblem,
  ChatGenerator,
  ChatGeneratorRequest,
  ChatGeneratorResponse,
  ChatMessageContent,
  ChatMessageJSON,
  ChatMessageOptions,
  ChatRole,
  DefinedTool,
  ExitReason,
  FinishChunk,
  GeneratedModuleInfo,
  GeneratedParameter,
  GeneratedToolEntry,
  InputsFromState,
  Integer,
  JsonSchema,
  JsonValue,
  MergeHandler,
  OutputsToState,
  OutputsToString,
  OutputToState,
  StateInitialValues,
  StateJSON,
  StateKey,
  StateKeySchema,
  StateSchema,
  StateValue,
  StateValues,
  StateWriteValue,
  StreamingCallback,
  StreamingChunk,
  StrictCompatibility,
  TextDeltaChunk,
  TokenUsage,
  ToolArguments,
  ToolCall,
  ToolCallDeltaChunk,
  ToolCallJSON,
  ToolCallResult,
  ToolContext,
  ToolDecoratorOptions,
  ToolMethodDecorator,
  ToolOptions,
  ToolParameters,
  ToolProgress,
  ToolProgressChunk,
  ToolResultChunk,
  ToolSource,
  ToolSpec,
  ToolsetOptions,
  ToolLeftOut,
  EncodedToolSchemas,
} from "toolwright";
import * as testing from "toolwright/testing";
import type { ScriptEntry } from "toolwright/testing";

// Removing or renaming one of these exported types breaks `tsc` on this file.
export type PublicTypes = [
  AgentOptions<StateSchema>, AgentResult<StateSchema>, AgentRunInput<StateSchema>, AgentRunOptions, ArgumentProblem, ChatGenerator,
  ChatGeneratorRequest, ChatGeneratorResponse, ChatMessageContent, ChatMessageJSON, ChatMessageOptions, ChatRole, DefinedTool<() => void>, EncodedToolSchemas, ExitReason,
  FinishChunk, GeneratedModuleInfo, GeneratedParameter, GeneratedToolEntry, InputsFromState, Integer, JsonSchema, JsonValue, MergeHandler, OutputsToState, OutputsToString, OutputToState,
  StateInitialValues<StateSchema>, StateJSON, StateKey<StateSchema>, StateKeySchema, StateSchema, StateValue<StateSchema, "messages">,
  StateValues<StateSchema>, StateWriteValue<StateSchema, "messages">, StreamingCallback, StreamingChunk, StrictCompatibility,
  TextDeltaChunk, TokenUsage, ToolArguments<JsonSchema>, ToolCall, ToolCallDeltaChunk, ToolCallJSON, ToolCallResult, ToolContext, ToolDecoratorOptions, ToolMethodDecorator,
  ToolOptions, ToolParameters, ToolProgress, ToolProgressChunk, ToolResultChunk, ToolSource, ToolSpec, ToolsetOptions, ToolLeftOut, ScriptEntry,
];

describe("toolwright", () => {
  it("exports exactly the public runtime names", () => {
    expect(Object.keys(toolwright).sort()).toEqual([
      "AbortError",
      "Agent",
      "AlwaysAskPolicy",
      "AskOncePolicy",
      "BlockingConfirmationStrategy",
      "BreakpointError",
      "CallbackError",
      "ChatGeneratorError",
      "ChatMessage",
      "ConfigurationError",
      "DecisionError",
      "DeferredConfirmationStrategy",
      "DefinitionError",
      "HookError",
      "JsonFormError",
      "MiddlewareError",
      "ModelBehaviorError",
      "NeverAskPolicy",
      "OutputValidationError",
      "PromptTemplateError",
      "ProviderError",
      "RunStoppedError",
      "SnapshotError",
      "StaleSchemaError",
      "State",
      "StateKeyError",
      "StateMergeError",
      "StateTypeError",
      "Tool",
      "ToolArgumentsError",
      "ToolDecoratorError",
      "ToolInvocationError",
      "ToolNotFoundError",
      "ToolResultConversionError",
      "ToolResultNotFoundError",
      "ToolRunner",
      "Toolset",
      "ToolwrightError",
      "UsageError",
      "cachedCounter",
      "chatMessageSchema",
      "clientEvent",
      "countTokens",
      "defineTool",
      "escapeTemplateText",
      "estimateTokenCounter",
      "isPromptTemplate",
      "limits",
      "mergeLists",
      "promptTemplate",
      "pruneToolResults",
      "readToolResult",
      "readToolResultName",
      "registerToolSchemas",
      "replaceValues",
      "slidingWindow",
      "snapshotOf",
      "summarize",
      "summaryStateKey",
      "templateLimits",
      "tool",
      "toolResultReference",
    ]);
  });

  it("exports error classes that all extend ToolwrightError and name themselves", () => {
    const errorNames = Object.keys(toolwright).filter((name) => name.endsWith("Error"));
    for (const name of errorNames) {
      const ErrorClass = toolwright[name as keyof typeof toolwright] as unknown as { prototype: unknown };
      expect(ErrorClass.prototype instanceof toolwright.ToolwrightError || ErrorClass === toolwright.ToolwrightError).toBe(true);
    }
    expect(new toolwright.ConfigurationError("Agent", "x").name).toBe("ConfigurationError");
    expect(new toolwright.AbortError().name).toBe("AbortError");
  });
});

describe("toolwright/testing", () => {
  it("exports exactly the public runtime names", () => {
    expect(Object.keys(testing).sort()).toEqual(["ScriptedChatGenerator", "scriptedChatGeneratorFromDefinition", "toolCallReply"]);
  });
});
