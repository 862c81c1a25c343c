/**
 * The core: `@tool`, `Agent`, `State`, `ChatMessage`, tools, middleware, guardrails, budgets,
 * snapshots and the error classes.
 * @module toolwright
 */
import { registerFallbackGeneratorType } from "./chat/fallbackGeneratorType";
import { registerOpenAIGeneratorTypes } from "./chat/openai/openaiGeneratorTypes";
import { useAgentDefinitions } from "./definition/useAgentDefinitions";
import { registerScriptedGeneratorType } from "./testing/scriptedGeneratorType";
export { defineTool, tool, ToolDecoratorError } from "../decorators";
export type { DefinedTool, Integer, ToolDecoratorOptions, ToolMethodDecorator } from "../decorators";
export { Agent } from "./agent/agent";
export type { AgentStreamEvent } from "./agent/agentStream";
export { clientEvent } from "./agent/clientEvent";
export type { ClientEvent } from "./agent/clientEvent";
export type { AgentOptions, AgentResult, AgentResultBase, AgentRunInput, AgentRunOptions, ConversationRunInfo, ConversationRunOption, ExitReason, StoppedResult, SystemPromptFunction, SystemPromptRun } from "./agent/agentTypes";
export type { OutputOf, OutputSchema } from "./agent/finalOutput";
export { budget } from "./budgets/budget";
export type { BudgetMiddleware, BudgetOptions, BudgetStopDetails } from "./budgets/budget";
export type { BudgetKind, BudgetLimits, CostLimit, ModelPrice } from "./budgets/budgetLimits";
export type { AgentToolOptions, AgentToolResult } from "./compose/agentTool";
export type {
  AgentDefinition,
  BudgetDefinition,
  ChatGeneratorOptionsDefinition,
  ClassToolsReference,
  CompactionDefinition,
  ConfirmationDefinition,
  GuardrailDefinition,
  GuardrailsDefinition,
  NamedToolReference,
  SecretReference,
  StateKeyDefinition,
  ToolGuardrailDefinition,
  ToolReference,
  ToolSettings,
  ToolsetReference,
} from "./definition/agentDefinition";
export type { AgentRegistry, ChatGeneratorFactory } from "./definition/agentRegistry";
export type { AgentFromJSONOptions } from "./definition/agentFromDefinition";
export type { AgentToJSONOptions } from "./definition/agentToDefinition";
export { BreakpointError } from "./agent/breakpoint";
export type {
  AfterModelAction,
  AfterModelContext,
  AfterRunAction,
  AfterRunContext,
  AfterToolAction,
  AfterToolContext,
  AlongsideVerdict,
  BeforeModelAction,
  BeforeModelContext,
  BeforeToolAction,
  BeforeToolContext,
  HookContext,
  HookPoint,
  MaybePromise,
  Middleware,
  MiddlewareModelRequest,
  RunResultLike,
  RunStop,
  StopAction,
  StopReason,
} from "./run/middleware";
export { MiddlewareError } from "./run/middlewareError";
export * from "./guardrails";
export * from "./media";
export { ToolRunner } from "./agent/toolRunner";
export type { ToolRunnerCall, ToolRunnerCallOptions, ToolRunnerOptions, ToolRunnerResult } from "./agent/toolRunner";
export type { Breakpoint } from "./agent/breakpoint";
export { snapshotOf } from "./agent/snapshot";
export type { AgentSnapshot, NestedSnapshot, SnapshotConversation } from "./agent/snapshot";
export type { SnapshotKey } from "./agent/snapshotSigner";
export { AlwaysAskPolicy, AskOncePolicy, NeverAskPolicy } from "./hitl/confirmationPolicies";
export { BlockingConfirmationStrategy, DeferredConfirmationStrategy } from "./hitl/confirmationStrategies";
export type { BlockingConfirmationStrategyOptions, DeferredConfirmationStrategyOptions } from "./hitl/confirmationStrategies";
export type {
  ConfirmationDecision,
  ConfirmationPolicy,
  ConfirmationRequest,
  ConfirmationStrategies,
  ConfirmationStrategy,
  PendingConfirmation,
} from "./hitl/confirmationTypes";
export type { ChatGenerator, ChatGeneratorDefinition, ChatGeneratorRequest, ChatGeneratorWriteContext, ChatGeneratorResponse, ResponseFormat, TokenUsage, ToolSpec } from "./chat/chatGenerator";
export { ChatMessage } from "./chat/chatMessage";
export { FallbackChatGenerator } from "./chat/fallbackChatGenerator";
export type { FallbackChatGeneratorOptions, FallbackOutcome } from "./chat/fallbackChatGenerator";
export { FallbackChatGeneratorError, FallbackPolicyError } from "./chat/fallbackErrors";
export type { FallbackAttempt } from "./chat/fallbackErrors";
export { isTransientFailure } from "./chat/isTransientFailure";
export type { ChatMessageContent, ChatMessageJSON, ChatMessageOptions, ChatRole, ContentInput, ReasoningContent, ToolCall, ToolCallJSON, ToolCallResult, ToolResultPart, ToolResultPartJSON } from "./chat/chatMessage";
export type { ChunkSource, FinishChunk, ReasoningDeltaChunk, StreamingCallback, StreamingChunk, TextDeltaChunk, ToolCallDeltaChunk, ToolProgressChunk, ToolResultChunk } from "./chat/streaming";
export {
  cachedCounter,
  countTokens,
  estimateTokenCounter,
  gptTokenCounter,
  pruneToolResults,
  readToolResult,
  readToolResultName,
  slidingWindow,
  summarize,
  summaryStateKey,
  toolResultReference,
  ToolResultNotFoundError,
} from "./context";
export type { ConversationSummary, GptEncoding, PruneToolResultsOptions, ReadToolResultOptions, SlidingWindowOptions, SummarizeOptions, TokenCounter } from "./context";
export {
  AbortError,
  CallbackError,
  ChatGeneratorError,
  ConfigurationError,
  DecisionError,
  DefinitionError,
  HookError,
  JsonFormError,
  ModelBehaviorError,
  OutputValidationError,
  PromptTemplateError,
  ProviderError,
  RunStoppedError,
  SnapshotError,
  StaleSchemaError,
  StateKeyError,
  StateMergeError,
  StateTypeError,
  ToolArgumentsError,
  ToolInvocationError,
  ToolNotFoundError,
  ToolResultConversionError,
  ToolwrightError,
  UsageError,
} from "./errors";
export type { ArgumentProblem, ToolwrightErrorOptions } from "./errors";
export { escapeTemplateText, isPromptTemplate, promptTemplate } from "./prompt/promptTemplate";
export { templateLimits } from "./prompt/templateLimits";
export type { PromptTemplate, PromptTemplateOptions } from "./prompt/promptTemplate";
export type { MessageBlockTag } from "./prompt/messageBlocks";
export type { JsonValue } from "./state/jsonCodec";
export type { AgentTracing, CallTrace, RunTrace, TraceContext, TraceEvent } from "./observe/agentTracing";
export type { AgentHooks, EventError, ModelEndEvent, ModelStartEvent, RunEndEvent, RunEventBase, RunStartEvent, ToolEndEvent, ToolStartEvent } from "./observe/runEvents";
export type { ObservedMessageJSON, ObservedResultPartJSON } from "./observe/observedMessage";
export type { CallTokens, RunUsage } from "./observe/runUsage";
export type { ErrorDetails } from "./observe/errorDetails";
export type { InjectedValueErrorEvent, ToolCodeErrorEvent, ToolErrorEvent, ToolErrorEventBase } from "./observe/toolErrorEvent";
export { mergeLists, replaceValues } from "./state/mergeHandlers";
export type { MergeHandler } from "./state/mergeHandlers";
export { State } from "./state/state";
export type { StateJSON } from "./state/state";
export { chatMessageSchema } from "./state/stateSchema";
export type { StateInitialValues, StateKey, StateKeySchema, StateSchema, StateValue, StateValues, StateWriteValue } from "./state/stateSchema";
export type { EncodedToolSchemas } from "./tools/encodedToolSchemas";
export type { GeneratedModuleInfo, GeneratedParameter, GeneratedToolEntry } from "./tools/generatedEntry";
export type { JsonSchema } from "./tools/jsonSchema";
export { registerToolSchemas } from "./tools/schemaRegistry";
export { limits } from "./util/limits";
export type { StrictCompatibility } from "./tools/strictCompatibility";
export { Tool } from "./tools/tool";
export type { ToolArguments, ToolContext, ToolOptions, ToolParameters, ToolProgress } from "./tools/tool";
export type { ToolAnnotations } from "./tools/toolAnnotations";
export { defaultMaxToolResultChars, type ToolRetries } from "./tools/toolLimits";
export type { InputsFromState, MultipleOutputsToString, OutputsToState, OutputsToString, OutputToState, OutputToString } from "./tools/toolOutputs";
export type { ToolSource } from "./tools/resolveTools";
export { Toolset } from "./tools/toolset";
export type { ToolLeftOut, ToolsetOptions } from "./tools/toolset";

// Agents as data, and the generator types the package ships, attach here at the edge: the Agent
// itself loads neither the definition format nor an integration.
useAgentDefinitions();
registerOpenAIGeneratorTypes();
registerFallbackGeneratorType();
registerScriptedGeneratorType();
